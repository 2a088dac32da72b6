//! Transcript tests: the binary driven over pipes, one command class at a time.

mod protocol_support;

use cheversi::{Color, Placement, Position, Variant};
use protocol_support::Engine;
use std::time::Duration;

/// A whole game: the first legal move at every ply.
fn full_game(variant: Variant) -> (Vec<Placement>, Position) {
    let mut pos = Position::new(variant);
    let mut moves = Vec::new();
    while let Some(m) = pos.legal_moves().iter().next() {
        pos.play(m);
        moves.push(m);
    }
    (moves, pos)
}

fn joined(moves: &[Placement]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks an `info` line's fields and their order; returns its pv.
fn check_info(line: &str) -> Vec<String> {
    let t: Vec<&str> = line.split(' ').collect();
    assert_eq!(t[..2], ["info", "depth"], "{line}");
    assert_eq!(t[3], "seldepth", "{line}");
    let mut i = 5;
    if t[i] == "multipv" {
        i += 2;
    }
    assert_eq!(t[i..i + 2], ["score", "cp"], "{line}");
    t[i + 2].parse::<i32>().expect("cp is a number");
    i += 3;
    if t.get(i)
        .is_some_and(|w| *w == "lowerbound" || *w == "upperbound")
    {
        i += 1;
    }
    for key in ["nodes", "nps", "hashfull", "time"] {
        assert_eq!(t[i], key, "{line}");
        t[i + 1].parse::<u64>().expect("a count");
        i += 2;
    }
    match t.get(i) {
        None => vec![],
        Some(&"pv") => t[i + 1..].iter().map(|s| s.to_string()).collect(),
        Some(w) => panic!("unexpected {w} in {line}"),
    }
}

/// The info lines and the move of a finished search; checks the shape.
fn search(e: &mut Engine, go: &str) -> (Vec<String>, String) {
    e.send(go);
    let mut lines = e.until("bestmove");
    let best = lines.pop().unwrap();
    assert!(!lines.is_empty(), "no info before {best}");
    // A position the solution data settles says so first (OwnBook).
    for l in lines
        .iter()
        .filter(|l| !l.starts_with("info string book solved: "))
    {
        check_info(l);
    }
    let words: Vec<&str> = best.split(' ').collect();
    assert_eq!(words.len(), 2, "bestmove is two words: {best}");
    (lines, words[1].to_string())
}

#[test]
fn uci_handshake_lists_ids_and_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let got = e.until("uciok");
    assert!(got[0].starts_with("id name Cheversi"));
    assert!(got[1].starts_with("id author "));
    let options: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("option name "))
        .collect();
    for name in [
        "Hash",
        "Clear Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "TunedEval",
        "OwnBook",
        "UCI_Variant",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            options.iter().any(|l| l.starts_with(&prefix)),
            "no {name}: {got:?}"
        );
    }
    assert!(got.contains(
        &"option name UCI_Variant type combo default standard var standard var open var original"
            .to_string()
    ));
    assert_eq!(got.len(), 2 + options.len() + 1, "{got:?}");
    let (status, rest) = e.quit();
    assert!(status.success() && rest.is_empty(), "{rest:?}");
}

#[test]
fn ugi_handshake_and_new_games_are_quiet() {
    let mut e = Engine::start();
    e.send("ugi");
    let got = e.until("ugiok");
    assert!(got[0].starts_with("id name"));
    assert_eq!(e.ask("uginewgame"), Vec::<String>::new());
    assert_eq!(e.ask("ucinewgame"), Vec::<String>::new());
    assert_eq!(e.ask(""), Vec::<String>::new());
}

#[test]
fn setoption_accepts_every_option_and_refuses_bad_values() {
    let mut e = Engine::start();
    for ok in [
        "setoption name Hash value 32",
        "setoption name hash value 1",
        "setoption name Threads value 2",
        "setoption name MultiPV value 3",
        "setoption name Move Overhead value 0",
        "setoption name TunedEval value false",
        "setoption name OwnBook value false",
        "setoption name Clear Hash",
        "setoption name UCI_Variant value original",
    ] {
        assert_eq!(e.ask(ok), Vec::<String>::new(), "{ok}");
    }
    e.expect_error("setoption name Hash value 0", "from 1 to");
    e.expect_error("setoption name Threads value many", "whole number");
    e.expect_error("setoption name Hash", "needs a value");
    e.expect_error("setoption name TunedEval value 1", "true or false");
    e.expect_error(
        "setoption name Ponder value true",
        "no option named 'Ponder'",
    );
    e.expect_error(
        "setoption name UCI_Variant value chess",
        "needs standard, open or original",
    );
    // MultiPV 3 shows the multipv field.
    e.send("position startpos");
    let (lines, _) = search(&mut e, "go depth 1");
    assert!(lines[0].contains(" multipv 1 "), "{lines:?}");
    // The closing line (no multipv field) is the best line: its pv starts
    // with the bestmove, not with the last of the MultiPV lines.
    e.send("position startpos moves K@d4 Q@e5");
    let (lines, best) = search(&mut e, "go depth 4");
    let closing = lines.last().unwrap();
    assert!(!closing.contains(" multipv "), "{lines:?}");
    assert_eq!(check_info(closing).first(), Some(&best), "{lines:?}");
    let first = lines
        .iter()
        .rev()
        .find(|l| l.contains(" multipv 1 "))
        .unwrap();
    assert_eq!(check_info(first), check_info(closing), "{lines:?}");
}

#[test]
fn uci_variant_switches_rules_and_resets_the_position() {
    let mut e = Engine::start();
    e.send("position startpos moves K@d4");
    assert_eq!(e.fen(), "8/8/8/8/3K4/8/8/8 b d4");
    e.send("setoption name UCI_Variant value open");
    assert_eq!(e.fen(), "8/8/8/8/8/8/8/8 w -");
    // Open: Black's first piece is the Queen, anywhere.
    assert_eq!(
        e.ask("position startpos moves K@d4 Q@a1"),
        Vec::<String>::new()
    );
    assert_eq!(e.fen(), "8/8/8/8/3K4/8/8/q7 w a1");
    assert!(e.ask("d").iter().any(|l| l.contains("Variant: open")));
    e.send("setoption name UCI_Variant value standard");
    e.expect_error("position startpos moves K@d4 Q@a1", "move 2 (Q@a1)");
}

#[test]
fn position_forms_and_a_bad_position_keeps_the_old_one() {
    let mut e = Engine::start();
    e.send("position startpos moves K@d4 q@e5");
    assert_eq!(e.fen(), "8/8/8/4q3/3K4/8/8/8 w e5");
    e.send("position fen 8/8/8/4q3/3K4/8/8/8 w e5 moves Q@d5");
    let before = e.fen();
    assert_eq!(before, "8/8/8/3Qq3/3K4/8/8/8 b d5");
    for (bad, why) in [
        ("position startpos moves K@d4 K@e4", "move 2 (K@e4)"),
        ("position startpos moves K@d4 Q@h8", "move 2 (Q@h8)"),
        ("position startpos moves Q@d4", "move 1 (Q@d4)"),
        ("position fen 8/8/8/8/8/8/8/8 w e4", "position:"),
        ("position fen 9/8/8/8/8/8/8/8 w -", "bad position string"),
        ("position fen 8/8/8/8/8/8/8/8 x -", "side to move"),
        ("position fen 8/8/8/8 w - moves K@a1", "position:"),
        (
            "position fen 8/8 w",
            "expected 3 fields (board, side, last square), found 2",
        ),
        ("position startpos moves K@d9", "not a square"),
        ("position startpos moves X@d4", "not a piece"),
        ("position startpos moves", ""),
        ("position startfen", "'startpos' or 'fen'"),
        ("position", "but the line ends"),
    ] {
        if why.is_empty() {
            // Empty move list: legal, and it does change the position.
            assert_eq!(e.ask(bad), Vec::<String>::new());
            e.send(&format!("position fen {before}"));
            continue;
        }
        e.expect_error(bad, why);
        assert_eq!(e.fen(), before, "after {bad}");
    }
}

#[test]
fn go_reports_info_lines_then_exactly_one_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos moves K@d4 Q@e5");
    let (lines, best) = search(&mut e, "go depth 3");
    let last_pv = check_info(lines.last().unwrap());
    assert_eq!(
        last_pv.first(),
        Some(&best),
        "the last info's pv starts with bestmove"
    );
    let pos = Position::from_fen("8/8/8/4q3/3K4/8/8/8 w e5", Variant::Standard).unwrap();
    pos.check(best.parse().unwrap()).expect("bestmove is legal");
    for go in [
        "go nodes 200",
        "go movetime 30",
        "go wtime 300 btime 300 winc 10 binc 10 movestogo 5",
        "go p1time 300 p2time 300 p1inc 0 p2inc 0",
        "go depth 2 searchmoves Q@c3 Q@d3",
    ] {
        let (_, best) = search(&mut e, go);
        // Honouring searchmoves is the search's job (issue 5); here: legal.
        assert!(pos.check(best.parse().unwrap()).is_ok(), "{go}: {best}");
    }
    assert!(
        e.drain(Duration::from_millis(100)).is_empty(),
        "one bestmove per go"
    );
    e.expect_error("go searchmoves R@c3", "searchmoves: R@c3 is illegal");
}

#[test]
fn infinite_search_answers_isready_and_stops_on_stop() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("isready");
    let mut got = e.until("readyok");
    got.pop();
    assert!(got.iter().all(|l| l.starts_with("info ")), "{got:?}");
    e.expect_error("go depth 1", "a search is running");
    e.expect_error("ucinewgame", "a search is running");
    e.expect_error("setoption name Hash value 8", "a search is running");
    // The position may change during a search; the search keeps its copy.
    assert_eq!(e.ask("position startpos moves K@a1"), Vec::<String>::new());
    assert!(
        e.drain(Duration::from_millis(100))
            .iter()
            .all(|l| !l.starts_with("bestmove")),
        "no bestmove before stop"
    );
    e.send("stop");
    let got = e.until("bestmove");
    check_info(&got[got.len() - 2]);
    assert_eq!(
        e.ask("stop"),
        Vec::<String>::new(),
        "stop when idle prints nothing"
    );
    // Searching again works, from the new position.
    let (_, best) = search(&mut e, "go depth 1");
    assert!(best != "K@a1" && !best.starts_with("K@"), "{best}");
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("position startpos moves K@d4");
    e.send("go ponder depth 1");
    assert!(
        e.drain(Duration::from_millis(150))
            .iter()
            .all(|l| !l.starts_with("bestmove")),
        "no bestmove while pondering"
    );
    e.send("ponderhit");
    assert!(e.until("bestmove").last().unwrap().starts_with("bestmove "));
}

#[test]
fn finished_game_gives_bestmove_none_and_queries_agree() {
    let mut e = Engine::start();
    let (moves, end) = full_game(Variant::Standard);
    assert_eq!(moves.len(), 16);
    e.send(&format!("position startpos moves {}", joined(&moves)));
    e.send("go depth 3");
    let got = e.until("bestmove");
    assert_eq!(got.last().unwrap(), "bestmove (none)");
    let info = &got[got.len() - 2];
    let cp = 100 * (end.points(Color::White) - end.points(Color::Black));
    assert!(info.contains(&format!(" score cp {cp} ")), "{info} vs {cp}");
    assert_eq!(e.ask("query gameover"), ["response true"]);
    assert_eq!(e.ask("query p1turn"), ["response true"]);
    let result = match end.points(Color::White).cmp(&end.points(Color::Black)) {
        std::cmp::Ordering::Greater => "response p1win",
        std::cmp::Ordering::Less => "response p2win",
        std::cmp::Ordering::Equal => "response draw",
    };
    assert_eq!(e.ask("query result"), [result]);
}

#[test]
fn queries_during_the_game() {
    let mut e = Engine::start();
    assert_eq!(e.ask("query p1turn"), ["response true"]);
    assert_eq!(e.ask("query gameover"), ["response false"]);
    assert_eq!(e.ask("query result"), ["response none"]);
    e.send("position startpos moves K@d4");
    assert_eq!(e.ask("query p1turn"), ["response false"]);
    assert_eq!(e.ask("query result"), ["response none"]);
    e.expect_error("query", "'p1turn', 'gameover' or 'result'");
    e.expect_error("query p2turn", "found 'p2turn'");
}

#[test]
fn perft_counts_the_tree() {
    let mut e = Engine::start();
    e.send("go perft 2");
    let got = e.until("Nodes searched");
    assert_eq!(
        got.len(),
        67,
        "64 first moves, a blank line, the time, the total"
    );
    assert!(got[65].starts_with("Total time (ms): "), "{got:?}");
    assert_eq!(got[66], "Nodes searched: 1680");
    assert!(e.next().starts_with("Nodes/second: "));
    e.send("go perft 16");
    e.send("stop");
    let got = e.until("Nodes searched");
    assert!(got.iter().any(|l| l.contains("perft stopped")), "{got:?}");
}

#[test]
fn debug_commands_for_people() {
    let mut e = Engine::start();
    e.send("position startpos moves K@d4 Q@e5");
    let d = e.ask("d");
    assert!(
        d.iter().any(|l| l == "Position: 8/8/8/4q3/3K4/8/8/8 w e5"),
        "{d:?}"
    );
    assert!(d.iter().any(|l| l == "Points: White 7 Black 23"), "{d:?}");
    assert!(
        d.iter()
            .any(|l| l == "Legal moves: 12 (queen call: White must place its Queen, rule 6)"),
        "{d:?}"
    );
    assert!(
        d.iter()
            .any(|l| l == "In hand: White QRRBBNN  Black KRRBBNN"),
        "{d:?}"
    );
    assert!(d.iter().any(|l| l.starts_with("Digits: ")), "{d:?}");
    assert!(d.iter().any(|l| l.contains("White attacks")), "{d:?}");
    assert!(
        d.iter().any(|l| l.starts_with("4  . . . K . . . . 4")),
        "{d:?}"
    );
    let eval = e.ask("eval");
    assert_eq!(eval[0], "White K@d4 7: c3 d3 e3 c4 e4 c5 d5");
    assert!(eval[1].starts_with("Black Q@e5 23: e1 e2 "), "{eval:?}");
    assert!(eval[2].starts_with("Total: White 7 Black 23"), "{eval:?}");
    let moves = e.ask("moves");
    assert_eq!(moves.len(), 1);
    assert!(moves[0].starts_with("moves 12: Q@"), "{moves:?}");
    let help = e.ask("help");
    for cmd in ["uci", "position", "go", "query", "bench", "perft"] {
        assert!(help.iter().any(|l| l.contains(cmd)), "help lacks {cmd}");
    }
    let bench = e.ask("bench 1");
    assert!(bench[0].starts_with("Total time (ms): "), "{bench:?}");
    assert!(bench[1].starts_with("Nodes searched: "), "{bench:?}");
    assert!(bench[2].starts_with("Nodes/second: "), "{bench:?}");
    e.expect_error("bench 99", "depth must be");
}

#[test]
fn quit_and_end_of_input_exit_cleanly() {
    let e = Engine::start();
    let (status, rest) = e.quit();
    assert_eq!(status.code(), Some(0));
    assert!(rest.is_empty());
    let e = Engine::start();
    let (status, _) = e.close();
    assert_eq!(status.code(), Some(0));
    // End of input during a search: the search stops and reports once.
    let mut e = Engine::start();
    e.send("go infinite");
    let (status, rest) = e.close();
    assert_eq!(status.code(), Some(0));
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
}

/// The loop of kz04px's cutegames (src/match/play.cpp): it re-sends the
/// position before every query, asks both engines, reads a two-word
/// bestmove, and voids the game if the engines' final answers differ.
#[test]
fn cutegames_style_game_between_two_engines() {
    let mut engines = [Engine::start(), Engine::start()];
    for e in &mut engines {
        e.send("ugi");
        e.until("ugiok");
        e.send("isready");
        e.until("readyok");
        e.send("uginewgame");
    }
    let mut moves: Vec<String> = Vec::new();
    let position = |moves: &[String]| match moves.is_empty() {
        true => "position startpos".to_string(),
        false => format!("position startpos moves {}", moves.join(" ")),
    };
    loop {
        engines[0].send(&position(&moves));
        let p1 = engines[0].ask("query p1turn") == ["response true"];
        assert_eq!(p1, moves.len().is_multiple_of(2));
        let us = &mut engines[usize::from(!p1)];
        us.send(&position(&moves));
        if us.ask("query gameover") == ["response true"] {
            break;
        }
        let (_, best) = search(us, "go p1time 400 p2time 400 p1inc 0 p2inc 0");
        moves.push(best);
    }
    assert_eq!(moves.len(), 16);
    let answers: Vec<Vec<String>> = engines
        .iter_mut()
        .map(|e| {
            e.send(&position(&moves));
            [e.ask("query gameover"), e.ask("query result")].concat()
        })
        .collect();
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0][0], "response true");
    assert!(
        ["response p1win", "response p2win", "response draw"].contains(&answers[0][1].as_str())
    );
}

#[test]
fn debug_log_file_appends_both_directions() {
    let path = std::env::temp_dir().join(format!("cheversi-debug-{}.log", std::process::id()));
    std::fs::write(&path, "a line we wrote before\n").unwrap();
    let mut e = Engine::start();
    let p = path.display();
    assert_eq!(
        e.ask(&format!("setoption name Debug Log File value {p}")),
        Vec::<String>::new()
    );
    assert_eq!(e.ask("query p1turn"), ["response true"]);
    assert_eq!(
        e.ask("setoption name Debug Log File value <empty>"),
        Vec::<String>::new()
    );
    let log = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        log,
        "a line we wrote before\n<< isready\n>> readyok\n<< query p1turn\n>> response true\n\
         << isready\n>> readyok\n<< setoption name Debug Log File value <empty>\n"
    );
    e.expect_error(
        "setoption name Debug Log File value /nonexistent/dir/x.log",
        "cannot open the debug log file '/nonexistent/dir/x.log'",
    );
}

/// The figures of a live line `info depth D nodes N nps N hashfull H time
/// T` (no score, no pv), or `None` for any other line.
fn live_figures(line: &str) -> Option<[u64; 5]> {
    let t: Vec<&str> = line.split(' ').collect();
    let keys = ["depth", "nodes", "nps", "hashfull", "time"];
    if t.len() != 11 || t[0] != "info" || (0..5).any(|k| t[1 + 2 * k] != keys[k]) {
        return None;
    }
    let mut v = [0; 5];
    for (k, slot) in v.iter_mut().enumerate() {
        *slot = t[2 + 2 * k].parse().ok()?;
    }
    Some(v)
}

#[test]
fn a_long_search_reports_live_figures_between_depths_and_a_short_one_none() {
    let mut e = Engine::start();
    // The empty board is in the book: searched only without it.
    assert!(e.ask("setoption name OwnBook value false").is_empty());
    e.send("go infinite");
    let mut live = Vec::new();
    while live.len() < 2 {
        let l = e.next();
        if let Some(v) = live_figures(&l) {
            live.push(v);
        } else {
            check_info(&l);
        }
    }
    e.send("stop");
    let got = e.until("bestmove");
    check_info(&got[got.len() - 2]);
    let [d0, n0, _, h0, t0] = live[0];
    let [d1, n1, _, h1, t1] = live[1];
    assert!(d0 >= 1 && d1 >= d0 && d1 <= 16, "{live:?}");
    assert!(n1 > n0 && n0 > 0, "nodes rise: {live:?}");
    assert!(h0 <= 1000 && h1 <= 1000, "{live:?}");
    // About once a second: the first after ~1 s, never two within ~500 ms.
    assert!(t0 >= 900 && t1 >= t0 + 500, "{live:?}");
    // A short search says nothing between its depths.
    e.send("position startpos moves K@d4 Q@e5");
    let (lines, _) = search(&mut e, "go depth 1");
    assert!(lines.iter().all(|l| live_figures(l).is_none()), "{lines:?}");
}
