//! CECP (XBoard) transcripts: the binary driven over pipes after `xboard`.
//! `ping N` / `pong N` marks the end of each command's answer.

mod common;
mod protocol_support;

use cheversi::{Color, Placement, Position, Variant};
use common::Rng;
use protocol_support::Engine;

/// A CECP session: `xboard`, `protover 2` and its features.
fn start() -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("feature done=1");
    (e, features)
}

/// A new game of `variant` in force mode: the engine only records moves.
fn recording(variant: &str) -> Engine {
    let (mut e, _) = start();
    ask(&mut e, "new");
    ask(&mut e, &format!("variant {variant}"));
    ask(&mut e, "force");
    e
}

/// Sends `line`; returns its answer (the lines before the pong).
fn ask(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.send("ping 99");
    let mut got = e.until("pong 99");
    got.pop();
    got
}

/// The legal squares of a piece in hand, as the engine marks them when
/// XBoard's user lifts it (`j1`..`j5`: White's N B R Q K; `_8`..`_4`: Black's).
fn lift(e: &mut Engine, spot: &str) -> String {
    let got = ask(e, &format!("lift {spot}"));
    assert_eq!(got.len(), 1, "{got:?}");
    got[0].clone()
}

fn placements(moves: &str) -> Vec<Placement> {
    moves
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect()
}

#[test]
fn protover_lists_the_features_and_the_three_variants() {
    let (e, features) = start();
    let all = features.join("\n");
    for f in [
        "myname=\"Cheversi ",
        "variants=\"cheversi,cheversi-open,cheversi-original\"",
        "usermove=1",
        "setboard=1",
        "ping=1",
        "highlight=1",
        "memory=1",
        "smp=1",
        "sigint=0",
        "sigterm=0",
    ] {
        assert!(all.contains(f), "{f} missing from {all}");
    }
    assert_eq!(features.last().map(String::as_str), Some("feature done=1"));
    assert!(
        features.iter().all(|l| l.starts_with("feature ")),
        "{features:?}"
    );
    let (status, _) = e.quit();
    assert!(status.success());
}

#[test]
fn variant_is_answered_with_the_setup_of_an_engine_defined_variant() {
    let (mut e, _) = start();
    assert_eq!(ask(&mut e, "new"), Vec::<String>::new());
    let setup = ask(&mut e, "variant cheversi-original");
    assert_eq!(
        setup,
        [
            "setup (.NBRQ.....K..nbrq.....k.) 8x8+5_crazyhouse 8/8/8/8/8/8/8/8[NNBBRRQKnnbbrrqk] w - - 0 1"
        ]
    );
    let unknown = ask(&mut e, "variant crazyhouse");
    assert_eq!(unknown, ["Error (unknown variant): variant crazyhouse"]);
    e.quit();
}

#[test]
fn bad_input_gets_one_error_line_and_leaves_the_game_as_it_was() {
    let (mut e, _) = start();
    assert_eq!(ask(&mut e, "new"), Vec::<String>::new());
    // Before `variant` the game is chess, which this engine does not play.
    let early = ask(&mut e, "usermove K@d4");
    assert_eq!(early.len(), 1);
    assert!(
        early[0].starts_with("Illegal move (no Cheversi variant chosen"),
        "{early:?}"
    );
    assert!(early[0].ends_with("): K@d4"), "{early:?}");
    assert_eq!(
        ask(&mut e, "go"),
        ["Error (no Cheversi variant chosen: send 'variant cheversi' first): go"]
    );
    ask(&mut e, "variant cheversi");
    ask(&mut e, "force");
    assert_eq!(ask(&mut e, "usermove K@d4"), Vec::<String>::new());
    // Black's Queen must touch d4 (standard, rule 2).
    let queen = lift(&mut e, "_5");
    assert_eq!(queen, "highlight 8/8/8/2YYY3/2Y1Y3/2YYY3/8/8");
    for (line, want) in [
        (
            "usermove K@e4",
            "Illegal move (K@e4 is illegal: Black's King must be Black's last piece (rule 3)): K@e4",
        ),
        (
            "usermove Q@d4",
            "Illegal move (Q@d4: square d4 is occupied): Q@d4",
        ),
        ("usermove Q@h8", "Illegal move (Q@h8 is illegal: "),
        (
            "usermove Z@d4",
            "Illegal move ('Z' is not a piece (K, Q, R, B or N)): Z@d4",
        ),
        (
            "K@z9",
            "Illegal move ('z9' is not a square on the board (a1..h8)): K@z9",
        ),
        ("xyzzy", "Error (unknown command): xyzzy"),
        (
            "setboard 8/8/8 w -",
            "Error (bad position: bad position string: the board needs 8 ranks separated by '/', found 3): setboard 8/8/8 w -",
        ),
        (
            "setboard 8/8/8/8/8/8/8/8",
            "Error (bad position: expected a board and a side to move, found 1 field(s)): setboard",
        ),
        (
            "setboard 8/8/8/8/8/8/8/8 w - - 0 1 x",
            "Error (bad position: ",
        ),
        (
            "setboard 8/8/8/8/8/8/8/K7[NNBBRRQKnnbbrrqk] b - - 0 1",
            "Error (bad position: the holdings [NNBBRRQKnnbbrrqk] do not match the board, which leaves [NNBBRRQnnbbrrqk] in hand): setboard",
        ),
        (
            "setboard 8/8/8/8/8/8/8/QQ6 b - - 0 1",
            "Error (bad position: ",
        ),
        (
            "level 40 x 0",
            "Error (level needs 'MOVES MINUTES[:SECONDS] INCREMENT', not '40 x 0'): level 40 x 0",
        ),
        ("sd 0", "Error (sd must be at least 1): sd 0"),
        ("memory 0", "Error (memory 0 is out of range"),
        ("undo undo", "Error (undo takes no arguments): undo undo"),
    ] {
        let got = ask(&mut e, line);
        assert_eq!(got.len(), 1, "{line:?} gave {got:?}");
        assert!(
            got[0].starts_with(want),
            "{line:?} gave {got:?}, wanted {want:?}"
        );
        assert_eq!(lift(&mut e, "_5"), queen, "{line:?} changed the game");
    }
    // Taking back more than was played is refused too, and changes nothing.
    assert_eq!(
        ask(&mut e, "remove"),
        ["Error (not that many placements to take back): remove"]
    );
    assert_eq!(lift(&mut e, "_5"), queen);
    assert_eq!(ask(&mut e, "undo"), Vec::<String>::new());
    assert_eq!(
        lift(&mut e, "j5"),
        "highlight YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY"
    );
    e.quit();
}

/// Plays a whole game in which the engine answers each of the user's
/// placements; returns the engine's lines and the final position.
fn game_against_the_engine(variant: Variant, engine: Color) -> (Vec<String>, Position) {
    let name = match variant {
        Variant::Standard => "cheversi",
        Variant::Open => "cheversi-open",
        Variant::Original => "cheversi-original",
    };
    let (mut e, _) = start();
    ask(&mut e, "new");
    ask(&mut e, &format!("variant {name}"));
    ask(&mut e, "sd 3");
    ask(&mut e, "post");
    let mut pos = Position::new(variant);
    let mut said = Vec::new();
    if engine == Color::White {
        e.send("go");
    }
    while !pos.is_over() {
        if pos.side_to_move() == engine {
            let lines = e.until("move ");
            let mv: Placement = lines.last().unwrap()["move ".len()..].parse().unwrap();
            for l in &lines[..lines.len() - 1] {
                // Thinking: ply score centiseconds nodes pv, or a book note.
                let w: Vec<&str> = l.split(' ').collect();
                assert!(
                    l.starts_with("# ")
                        || w.len() >= 4 && w[..4].iter().all(|x| x.parse::<i64>().is_ok()),
                    "{l}"
                );
            }
            pos.play_checked(mv)
                .unwrap_or_else(|err| panic!("{mv}: {err}"));
            said.extend(lines);
        } else {
            let mv = pos.legal_moves().iter().next().unwrap();
            pos.play(mv);
            e.send(&format!("usermove {mv}"));
        }
    }
    said.push(e.next());
    assert_eq!(ask(&mut e, "result 1-0 {whatever}"), Vec::<String>::new());
    e.quit();
    (said, pos)
}

#[test]
fn the_engine_plays_either_side_and_claims_the_end_with_both_sides_points() {
    for (variant, engine) in [
        (Variant::Open, Color::Black),
        (Variant::Original, Color::White),
        (Variant::Standard, Color::Black),
    ] {
        let (said, pos) = game_against_the_engine(variant, engine);
        let (w, b) = (pos.points(Color::White), pos.points(Color::Black));
        let result = if w > b {
            "1-0"
        } else if w < b {
            "0-1"
        } else {
            "1/2-1/2"
        };
        assert_eq!(
            said.last().unwrap(),
            &format!("{result} {{White {w} : {b} Black}}"),
            "{variant:?}"
        );
    }
}

#[test]
fn undo_remove_and_setboard_change_the_game() {
    let mut e = recording("cheversi-open");
    for m in placements("K@d4 Q@e5 N@a1") {
        assert_eq!(ask(&mut e, &format!("usermove {m}")), Vec::<String>::new());
    }
    assert_eq!(ask(&mut e, "remove"), Vec::<String>::new());
    // Black to move again after K@d4: Black's Queen may go anywhere empty.
    assert_eq!(
        lift(&mut e, "_5"),
        "highlight YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYY1YYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY"
    );
    assert_eq!(
        lift(&mut e, "j4"),
        "highlight 8/8/8/8/8/8/8/8",
        "not White's turn"
    );
    // XBoard's FEN with holdings; the e.p. field names the last placement.
    assert_eq!(
        ask(
            &mut e,
            "setboard 8/8/8/8/8/8/8/K7[NNBBRRQnnbbrrqk] b - a1 0 1"
        ),
        Vec::<String>::new()
    );
    let black_queen = lift(&mut e, "_5");
    assert!(
        black_queen.ends_with("/1YYYYYYY"),
        "a1 is taken: {black_queen}"
    );
    assert_eq!(
        ask(&mut e, "setboard 8/8/8/4q3/3K4/8/8/8 w e5"),
        Vec::<String>::new()
    );
    ask(&mut e, "sd 2");
    let lines = ask(&mut e, "go");
    assert!(
        lines.is_empty() || lines.iter().all(|l| !l.starts_with("Error")),
        "{lines:?}"
    );
    let mv = e.until("move ");
    let mv: Placement = mv.last().unwrap()["move ".len()..].parse().unwrap();
    let mut pos = Position::from_fen("8/8/8/4q3/3K4/8/8/8 w e5", Variant::Open).unwrap();
    pos.play_checked(mv).unwrap();
    e.quit();
}

#[test]
fn analyze_thinks_until_exit_and_answers_dot() {
    let mut e = recording("cheversi-open");
    ask(&mut e, "usermove K@d4");
    ask(&mut e, "usermove Q@e5");
    e.send("analyze");
    let first = e.next();
    assert!(
        first.split(' ').take(4).all(|x| x.parse::<i64>().is_ok()),
        "{first}"
    );
    let got = ask(&mut e, ".");
    let stat = got
        .iter()
        .find(|l| l.starts_with("stat01: "))
        .expect("a stat01 line");
    assert_eq!(stat.split(' ').count(), 6, "{stat}");
    let mut pos = Position::new(Variant::Open);
    pos.play_checked("K@d4".parse().unwrap()).unwrap();
    pos.play_checked("Q@e5".parse().unwrap()).unwrap();
    let legal = pos.legal_moves().count().to_string();
    assert_eq!(stat.split(' ').next_back(), Some(legal.as_str()), "{stat}");
    ask(&mut e, "exit");
    // No more thinking after exit, and no move: analysis never plays.
    let after = ask(&mut e, "ping 1");
    assert_eq!(after, ["pong 1"]);
    e.quit();
}

#[test]
fn uci_is_still_the_default() {
    let mut e = Engine::start();
    let got = e.ask("uci");
    assert!(got.iter().any(|l| l == "uciok"), "{got:?}");
    e.quit();
}

/// A drawn game of `standard`, random placements from a fixed seed, and
/// each side's points at its end.
fn drawn_game() -> (Vec<Placement>, i32) {
    let mut rng = Rng::new(0x5EED_D4A3);
    for _ in 0..100_000 {
        let mut pos = Position::new(Variant::Standard);
        let mut moves = Vec::new();
        while !pos.is_over() {
            let legal: Vec<Placement> = pos.legal_moves().iter().collect();
            let m = legal[rng.below(legal.len())];
            pos.play(m);
            moves.push(m);
        }
        if pos.points(Color::White) == pos.points(Color::Black) {
            return (moves, pos.points(Color::White));
        }
    }
    panic!("no drawn game found");
}

/// A drawn end is claimed `1/2-1/2` against a person, but offered as a
/// draw against another engine (`computer`): XBoard forfeits an engine's
/// draw claim that it cannot check itself, and two offers end the game
/// as a draw.
#[test]
fn a_drawn_end_is_offered_to_an_engine_and_claimed_against_a_person() {
    let (moves, points) = drawn_game();
    for computer in [false, true] {
        let mut e = recording("cheversi");
        if computer {
            ask(&mut e, "computer");
        }
        for m in &moves[..15] {
            assert_eq!(ask(&mut e, &format!("usermove {m}")), Vec::<String>::new());
        }
        // The engine plays White, not on move; the user places the King.
        assert_eq!(ask(&mut e, "playother"), Vec::<String>::new());
        let end = ask(&mut e, &format!("usermove {}", moves[15]));
        let want = if computer {
            "offer draw".to_string()
        } else {
            format!("1/2-1/2 {{White {points} : {points} Black}}")
        };
        assert_eq!(end, vec![want]);
        // `new` forgets the opponent.
        ask(&mut e, "new");
        e.quit();
    }
}
