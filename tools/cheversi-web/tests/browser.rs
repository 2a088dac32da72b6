//! The page in a real browser against the real engine: a whole game played
//! by clicks, checked against what the engine's `d` and `moves` say.

mod support;

use cheversi::{Placement, Position, Square, Variant};
use fantoccini::Locator;
use support::*;

/// Plies (White to move) at which highlighted squares and points are checked.
const CHECKS: [usize; 3] = [0, 6, 14];

fn position_after(moves: &[String]) -> Position {
    let mut pos = Position::new(Variant::Standard);
    for m in moves {
        pos.play(m.parse().unwrap());
    }
    pos
}

/// An empty square the rules forbid to `piece`, and the library's reason.
fn illegal_try(moves: &[String], piece: char) -> (String, String) {
    let pos = position_after(moves);
    for sq in Square::all() {
        let pl: Placement = format!("{piece}@{sq}").parse().unwrap();
        if pos.piece_at(sq).is_none()
            && let Err(e) = pos.check(pl)
        {
            return (sq.to_string(), e.to_string());
        }
    }
    panic!("every square is legal");
}

#[tokio::test]
async fn a_whole_game_against_the_engine_by_clicks() {
    let _one = ONE_BROWSER.lock().await;
    let Some((chromium, driver)) = browser_tools() else {
        return skip(
            "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)",
        );
    };
    let Some(engine) = built("cheversi") else {
        return skip("the cheversi engine is not built here; run `cargo test --workspace`");
    };
    let srv = server(&engine, &[], &[]);
    let b = browser(&chromium, &driver).await;
    let c = &b.client;
    c.goto(&srv.url).await.expect("the page loads");
    wait_ready(c, 20).await;
    set_limit(c, "depth", 2).await;
    let mut reference = Reference::start(&engine);
    let mut checked = Vec::new();
    let (mut tried_illegal, mut took_back) = (false, false);
    let mut turn = 0;
    loop {
        let shown = moves(c).await;
        let n = shown.len();
        if n == 16 {
            break;
        }
        assert_eq!(n % 2, 0, "White (the human) is to move: {shown:?}");
        let facts = reference.facts(&shown);
        let points = [
            text(c, "#points-white").await,
            text(c, "#points-black").await,
        ];
        assert_eq!(
            points,
            facts.points.map(|p| p.to_string()),
            "points at ply {n}"
        );
        let pl = &facts.legal[(turn * 7 + 3) % facts.legal.len()];
        turn += 1;
        let piece = pl.chars().next().unwrap();
        click(c, &format!("#hand-white-{piece}")).await;
        if CHECKS.contains(&n) && !checked.contains(&n) {
            let mut want: Vec<String> = facts
                .legal
                .iter()
                .filter(|m| m.starts_with(piece))
                .map(|m| m[2..].to_string())
                .collect();
            want.sort();
            assert_eq!(
                highlighted(c).await,
                want,
                "legal squares of {piece} at ply {n}"
            );
            checked.push(n);
        }
        if n == 2 && !tried_illegal {
            let (square, reason) = illegal_try(&shown, piece);
            click(c, &format!("#sq-{square}")).await;
            wait_for(10, "the reason of the illegal try", || async {
                (text(c, "#notice").await == reason).then_some(())
            })
            .await;
            assert!(reason.contains("touch"), "{reason}");
            assert_eq!(moves(c).await, shown, "an illegal try changes nothing");
            tried_illegal = true;
        }
        click(c, &format!("#sq-{}", &pl[2..])).await;
        wait_moves(c, n + 2, 30).await;
        if n + 2 == 6 && !took_back {
            click(c, "#takeback").await;
            wait_moves(c, 4, 10).await;
            assert_eq!(moves(c).await, shown[..4]);
            took_back = true;
        }
    }
    assert_eq!(checked, CHECKS, "every check was made");
    assert!(tried_illegal && took_back);
    let end = c.find(Locator::Id("end")).await.unwrap();
    wait_for(10, "the end screen", || async {
        end.is_displayed().await.unwrap_or(false).then_some(())
    })
    .await;
    let last = reference.facts(&moves(c).await);
    let [w, bl] = last.points;
    assert_eq!(
        text(c, "#end-score").await,
        format!("White {w} : {bl} Black")
    );
    let result = text(c, "#end-result").await;
    let want = match w.cmp(&bl) {
        std::cmp::Ordering::Greater => "White wins",
        std::cmp::Ordering::Less => "Black wins",
        std::cmp::Ordering::Equal => "Draw",
    };
    assert!(result.starts_with(want), "{result} (points {w}:{bl})");
    eprintln!("game over: White {w} : {bl} Black, {result}");

    // Analysis of an earlier position: exact once the search reaches the end.
    let at10 = moves(c).await[..10].to_vec();
    click(c, "#moves li[data-ply='10']").await;
    click(c, "#analyse").await;
    let score = wait_for(30, "an exact analysis line", || async {
        let v = js(c, "const r = document.querySelector('#an-lines tr.exact'); return r ? r.children[0].textContent : ''").await;
        v.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    })
    .await;
    let exact = reference.solve(&at10) / 100; // White to move: White's view
    let want = match exact {
        0 => "±0".to_string(),
        e if e > 0 => format!("+{e}"),
        e => format!("−{}", -e),
    };
    assert_eq!(score, want, "the exact score at ply 10");
    let stats = text(c, "#an-stats").await;
    assert!(
        stats.contains("nodes/s") && stats.contains("of 6 left"),
        "{stats}"
    );
    let pv = text(c, "#an-lines tr.exact td.pv").await;
    assert!(pv.starts_with("6. ") && pv.contains('@'), "{pv}");
    eprintln!("analysis at ply 10: {score} exact, {pv}; {stats}");

    // Export the game as PGN, start anew, paste it back and replay it.
    let game = moves(c).await;
    click(c, "#export-pgn").await;
    let io = c.find(Locator::Id("io")).await.unwrap();
    let pgn = wait_for(10, "the PGN in the box", || async {
        let v = io.prop("value").await.ok().flatten().unwrap_or_default();
        v.contains("[Result").then_some(v)
    })
    .await;
    assert!(pgn.contains(&format!("[WhitePoints \"{w}\"]")), "{pgn}");
    click(c, "#analyse").await;
    click(c, "#new").await;
    wait_moves(c, 0, 10).await;
    click(c, "#load-pgn").await;
    wait_moves(c, 16, 10).await;
    assert_eq!(moves(c).await, game);
    // And position strings, one with moves (White, the human, to move after each).
    let facts = reference.facts(&["K@d4".into(), "Q@e5".into()]);
    for (text_in, n) in [
        ("8/8/8/4q3/3K4/8/8/8 w e5", 0),
        ("8/8/8/8/8/8/8/8 w - moves K@d4 Q@e5", 2),
    ] {
        io.clear().await.unwrap();
        io.send_keys(text_in).await.unwrap();
        click(c, "#load-position").await;
        wait_moves(c, n, 10).await;
        assert_eq!(text(c, "#points-white").await, facts.points[0].to_string());
        assert_eq!(text(c, "#points-black").await, facts.points[1].to_string());
    }

    // Engine against engine, no pause between moves, to the end screen.
    js(c, "const d = document.getElementById('delay'); d.value = 0; d.dispatchEvent(new Event('change'))").await;
    for side in ["white-player", "black-player"] {
        c.find(Locator::Id(side))
            .await
            .unwrap()
            .select_by_value("engine")
            .await
            .unwrap();
    }
    click(c, "#new").await;
    wait_moves(c, 16, 60).await;
    // Until the page shows the new game's end: the move list and the end
    // screen of the game before may still stand for the first polls.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let shown = moves(c).await;
        if end.is_displayed().await.unwrap_or(false) && shown.len() == 16 {
            let [w, bl] = reference.facts(&shown).points;
            let score = text(c, "#end-score").await;
            if score == format!("White {w} : {bl} Black") {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the end screen says {score}, the moves shown White {w} : {bl} Black"
            );
        } else {
            assert!(
                std::time::Instant::now() < deadline,
                "timed out waiting for the end screen of the engines' game"
            );
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    b.client.close().await.ok();
}

/// Not a test: saves the README's picture (`cargo test --release -p
/// cheversi-web --test browser -- --ignored screenshot`).
#[tokio::test]
#[ignore]
async fn screenshot() {
    let Some((chromium, driver)) = browser_tools() else {
        return skip("chromium or chromedriver is not installed");
    };
    let Some(engine) = built("cheversi") else {
        return skip("the cheversi engine is not built");
    };
    let srv = server(&engine, &[], &[]);
    let b = browser(&chromium, &driver).await;
    let c = &b.client;
    c.goto(&srv.url).await.unwrap();
    wait_ready(c, 20).await;
    set_limit(c, "depth", 4).await;
    for n in 0..5 {
        let mut squares = Vec::new();
        for piece in ["K", "R", "B", "N", "Q"] {
            click(c, &format!("#hand-white-{piece}")).await;
            squares = highlighted(c).await;
            if !squares.is_empty() {
                break;
            }
        }
        let square = if n == 0 {
            "d4".to_string()
        } else {
            squares[squares.len() / 2].clone()
        };
        click(c, &format!("#sq-{square}")).await;
        wait_moves(c, 2 * (n + 1), 30).await;
    }
    click(c, "#show-attacks").await;
    click(c, "#analyse").await;
    for piece in ["R", "B", "N", "Q"] {
        click(c, &format!("#hand-white-{piece}")).await;
        if !highlighted(c).await.is_empty() {
            break;
        }
    }
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    js(c, "window.scrollTo(0, 0)").await;
    let png = c.screenshot().await.unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshot.png");
    std::fs::write(&path, png).unwrap();
    eprintln!("wrote {}", path.display());
}

/// An engine of a few lines of shell whose every search starts with the
/// line of an opening book of solved positions.
#[cfg(unix)]
const BOOK_ENGINE: &str = r#"#!/bin/sh
while read -r line; do
  case "$line" in
    uci) echo "id name book-engine"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo "info string book solved: draw (exact 0)"
         echo "info depth 16 seldepth 16 score cp 0 nodes 1 nps 1 time 0 pv K@d4 Q@e5" ;;
    stop) echo "bestmove K@d4" ;;
    quit) exit 0 ;;
  esac
done
"#;

#[cfg(unix)]
#[tokio::test]
async fn a_book_line_of_the_engine_is_shown_as_solved() {
    use std::os::unix::fs::PermissionsExt;
    let _one = ONE_BROWSER.lock().await;
    let Some((chromium, driver)) = browser_tools() else {
        return skip(
            "chromium or chromedriver is not installed (apt-get install chromium chromium-driver)",
        );
    };
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join("book-engine");
    std::fs::write(&engine, BOOK_ENGINE).unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let srv = server(&engine, &[], &[]);
    let b = browser(&chromium, &driver).await;
    let c = &b.client;
    c.goto(&srv.url).await.unwrap();
    wait_ready(c, 20).await;
    click(c, "#analyse").await;
    let solved = wait_for(10, "the solved line", || async {
        let v = js(
            c,
            "const s = document.getElementById('solved'); return s.hidden ? '' : s.textContent",
        )
        .await;
        v.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    })
    .await;
    assert_eq!(solved, "solved: a draw (White 0, exact)");
    let score = wait_for(10, "the exact line", || async {
        let v = js(c, "const r = document.querySelector('#an-lines tr.exact'); return r ? r.children[0].textContent : ''").await;
        v.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    })
    .await;
    assert_eq!(score, "±0");
    b.client.close().await.ok();
}
