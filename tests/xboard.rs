//! A real XBoard (GNU XBoard 4.9, under Xvfb) plays `cheversi` against
//! `cheversi` in each rule set, as an engine-defined variant, and saves the
//! games; each saved game must hold 16 placements that are legal when
//! replayed through `cheversi`, and the result and points XBoard recorded
//! must be the engine's own. And a person's side: `tools/xboard_human.py`
//! plays White through XBoard's board by clicks (xdotool) against the
//! engine as Black, to the end of the game, with the same checks.
//!
//! Needs `xboard` and `Xvfb` (Debian `xboard`, `xvfb`; the clicks also
//! `xdotool`, `imagemagick`, `python3`). Without them the
//! test says so and passes, unless `CHEVERSI_REQUIRE_XBOARD=1` (CI sets it:
//! `.ci/run`), when it fails.

mod protocol_support;

use protocol_support::Engine;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_cheversi");
/// One game: 20 s a side, 8 placements each, on a busy shared machine.
const GAME_TIME: Duration = Duration::from_secs(120);

/// A child process killed when dropped (a failing test leaves nothing).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn find(names: &[&str]) -> Option<PathBuf> {
    names.iter().find_map(|n| {
        let p = Path::new(n);
        if p.is_absolute() {
            return p.exists().then(|| p.to_path_buf());
        }
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(n))
                .find(|c| c.exists())
        })
    })
}

/// XBoard and Xvfb, or why the test cannot run.
fn tools() -> Result<(PathBuf, PathBuf), String> {
    let xboard = find(&["xboard", "/usr/games/xboard"]).ok_or("no xboard (Debian: xboard)")?;
    let xvfb = find(&["Xvfb"]).ok_or("no Xvfb (Debian: xvfb)")?;
    Ok((xboard, xvfb))
}

/// Starts Xvfb on a free display; returns it and the display name.
fn start_xvfb(xvfb: &Path) -> (Killed, String) {
    let mut child = Command::new(xvfb)
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1024x768x24",
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    let out = child.stdout.take().expect("piped");
    let guard = Killed(child);
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .expect("Xvfb names its display");
    let n: u32 = line.trim().parse().expect("a display number");
    (guard, format!(":{n}"))
}

/// XBoard playing `variant` engine against engine into `dir/game.pgn`.
fn start_match(xboard: &Path, display: &str, dir: &Path, variant: &str) -> Killed {
    let child = Command::new(xboard)
        .args(["-fcp", BIN, "-scp", BIN, "-variant", variant])
        .args(["-mode", "TwoMachines", "-tc", "0:20", "-inc", "0"])
        .args(["-saveGameFile", &dir.join("game.pgn").to_string_lossy()])
        .args([
            "-debug",
            "-nameOfDebugFile",
            &dir.join("xboard.debug").to_string_lossy(),
        ])
        .args(["-saveSettingsOnExit", "false", "-popupExitMessage", "false"])
        .env("DISPLAY", display)
        .env("HOME", dir)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("xboard starts");
    Killed(child)
}

/// A saved game: its Result tag, its placements, its last comment.
#[derive(Debug)]
struct Saved {
    result: String,
    moves: Vec<String>,
    comment: String,
}

/// Reads XBoard's PGN: tags, then the movetext with `{...}` comments.
fn read_pgn(text: &str) -> Option<Saved> {
    let result = text
        .lines()
        .find_map(|l| l.strip_prefix("[Result \"")?.strip_suffix("\"]"))?
        .to_string();
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    let (mut moves, mut comment, mut rest) = (Vec::new(), String::new(), body.as_str());
    while let Some(open) = rest.find('{') {
        moves.extend(placements(&rest[..open]));
        let close = rest[open..].find('}')? + open;
        comment = rest[open + 1..close].trim().to_string();
        rest = &rest[close + 1..];
    }
    let tail: Vec<&str> = rest.split_whitespace().collect();
    moves.extend(placements(rest));
    (tail.last() == Some(&result.as_str())).then_some(Saved {
        result,
        moves,
        comment,
    })
}

fn placements(text: &str) -> Vec<String> {
    text.split_whitespace()
        .filter(|w| w.contains('@'))
        .map(str::to_string)
        .collect()
}

/// Waits until XBoard has saved a finished game.
fn wait_for_game(pgn: &Path) -> Result<Saved, String> {
    let end = Instant::now() + GAME_TIME;
    while Instant::now() < end {
        if let Some(g) = std::fs::read_to_string(pgn)
            .ok()
            .as_deref()
            .and_then(read_pgn)
            && g.result != "*"
        {
            return Ok(g);
        }
        thread::sleep(Duration::from_millis(200));
    }
    Err(format!(
        "no finished game in {} within {GAME_TIME:?}",
        pgn.display()
    ))
}

/// Replays the game through `cheversi` (UCI): every placement legal, the
/// game over; returns its result and both sides' points.
fn replay(variant: &str, moves: &[String]) -> (String, String) {
    let mut e = Engine::start();
    assert!(
        e.ask(&format!("setoption name UCI_Variant value {variant}"))
            .is_empty()
    );
    let position = format!("position startpos moves {}", moves.join(" "));
    let errors = e.ask(&position);
    assert!(errors.is_empty(), "{variant}: {errors:?}");
    assert_eq!(e.ask("query gameover"), ["response true"]);
    let result = match e.ask("query result")[0].as_str() {
        "response p1win" => "1-0",
        "response p2win" => "0-1",
        "response draw" => "1/2-1/2",
        other => panic!("{other}"),
    };
    let d = e.ask("d");
    let points = d
        .iter()
        .find_map(|l| l.strip_prefix("Points: "))
        .expect("d shows the points");
    // "White 47 Black 48" -> "White 47 : 48 Black", XBoard's comment.
    let w: Vec<&str> = points.split_whitespace().collect();
    e.quit();
    (
        result.to_string(),
        format!("White {} : {} Black", w[1], w[3]),
    )
}

#[test]
fn xboard_plays_the_engine_against_itself_in_each_rule_set() {
    let required = std::env::var("CHEVERSI_REQUIRE_XBOARD").is_ok_and(|v| v == "1");
    let (xboard, xvfb) = match tools() {
        Ok(t) => t,
        Err(why) if required => panic!("CHEVERSI_REQUIRE_XBOARD=1 but {why}"),
        Err(why) => {
            println!("skipped: {why} (set CHEVERSI_REQUIRE_XBOARD=1 to require it)");
            return;
        }
    };
    let start = Instant::now();
    let (_xvfb, display) = start_xvfb(&xvfb);
    let root = std::env::temp_dir().join(format!("cheversi-xboard-{}", std::process::id()));
    let games = [
        ("cheversi", "standard"),
        ("cheversi-open", "open"),
        ("cheversi-original", "original"),
    ];
    // The three games run side by side, one XBoard each.
    let running: Vec<_> = games
        .iter()
        .map(|&(name, variant)| {
            let dir = root.join(variant);
            std::fs::create_dir_all(&dir).expect("a temporary folder");
            (
                name,
                variant,
                start_match(&xboard, &display, &dir, name),
                dir,
            )
        })
        .collect();
    for (name, variant, xb, dir) in running {
        let saved = wait_for_game(&dir.join("game.pgn"));
        drop(xb);
        let saved = saved.unwrap_or_else(|e| {
            let log = std::fs::read_to_string(dir.join("xboard.debug")).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(30).collect();
            panic!("{name}: {e}\nxboard.debug ends:\n{}", tail.join("\n"))
        });
        println!(
            "{name}: {} placements, {} {{{}}}",
            saved.moves.len(),
            saved.result,
            saved.comment
        );
        println!("  {}", saved.moves.join(" "));
        assert_eq!(saved.moves.len(), 16, "{name}: {saved:?}");
        let (result, points) = replay(variant, &saved.moves);
        assert_eq!(
            saved.result, result,
            "{name}: XBoard's result is the engine's"
        );
        // A drawn end is offered by both engines (XBoard checks draw
        // claims between engines): XBoard then writes "Draw agreed", and
        // the points stand in the moves replayed above.
        let comment = if result == "1/2-1/2" {
            "Draw agreed".to_string()
        } else {
            points
        };
        assert_eq!(
            saved.comment, comment,
            "{name}: XBoard's points are the engine's"
        );
        if let Ok(keep) = std::env::var("CHEVERSI_XBOARD_GAMES") {
            let to = Path::new(&keep).join(format!("{name}.pgn"));
            std::fs::copy(dir.join("game.pgn"), to).expect("the game is kept");
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    println!(
        "three XBoard games in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn saved_games_are_read_as_xboard_writes_them() {
    let pgn = "[Event \"Computer Chess Game\"]\n[Result \"0-1\"]\n[Variant \"cheversi\"]\n\n\
               {--------------\n. . .\nwhite to play\n--------------}\n\
               1. K@b2 {-1.00/16} R@a1 {+1.00/15 0.1} 2. Q@c2 {-1.00/14}\n\
               Q@d3 {+1.00/13}\n{White 47 : 48 Black} 0-1\n";
    let g = read_pgn(pgn).expect("a finished game");
    assert_eq!(g.result, "0-1");
    assert_eq!(g.moves, ["K@b2", "R@a1", "Q@c2", "Q@d3"]);
    assert_eq!(g.comment, "White 47 : 48 Black");
    assert!(
        read_pgn("[Result \"*\"]\n\n1. K@b2\n").is_none(),
        "unfinished"
    );
}

#[test]
fn a_person_plays_white_by_clicks_against_the_engine() {
    let required = std::env::var("CHEVERSI_REQUIRE_XBOARD").is_ok_and(|v| v == "1");
    let missing = tools().err().or_else(|| {
        ["xdotool", "import", "python3"]
            .into_iter()
            .find(|t| find(&[t]).is_none())
            .map(|t| format!("no {t} (Debian: xdotool, imagemagick, python3)"))
    });
    match missing {
        Some(why) if required => panic!("CHEVERSI_REQUIRE_XBOARD=1 but {why}"),
        Some(why) => {
            println!("skipped: {why} (set CHEVERSI_REQUIRE_XBOARD=1 to require it)");
            return;
        }
        None => {}
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/xboard_human.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(BIN)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "tools/xboard_human.py failed");
    assert!(
        text.contains("16 placements, legal; XBoard recorded "),
        "{text}"
    );
}
