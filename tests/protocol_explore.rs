//! `explore`: every legal move's proven value, driven over the protocol
//! and checked against `go depth <left>` after each move.

mod protocol_support;

use cheversi::{Position, Variant};
use protocol_support::Engine;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Each move's last reported interval, and the closing line.
struct Explored {
    moves: HashMap<String, (Option<i32>, Option<i32>)>,
    order: Vec<String>,
    last: String,
}

fn bound(w: &str) -> Option<i32> {
    (w != "none").then(|| w.parse().expect("a bound is a number or none"))
}

/// Sends `explore ...` and reads up to its closing line, checking each
/// line's fields and that an interval only narrows.
fn explore(e: &mut Engine, command: &str) -> Explored {
    e.send(command);
    let mut x = Explored {
        moves: HashMap::new(),
        order: Vec::new(),
        last: String::new(),
    };
    loop {
        let line = e.next();
        let t: Vec<&str> = line.split(' ').collect();
        if t[0] == "explored" {
            assert!(t[1] == "complete" || t[1] == "incomplete", "{line}");
            assert_eq!(
                (t[2], t[4], t[6], t[8]),
                ("exact", "of", "nodes", "time"),
                "{line}"
            );
            x.last = line;
            return x;
        }
        assert_eq!(t[..3], ["info", "explore", "move"], "{line}");
        assert_eq!(t.len(), 18, "{line}");
        assert_eq!(
            (t[4], t[6], t[8], t[10], t[12], t[14], t[16]),
            ("lo", "hi", "by", "exact", "of", "nodes", "time"),
            "{line}"
        );
        let (lo, hi) = (bound(t[5]), bound(t[7]));
        if let (Some(l), Some(h)) = (lo, hi) {
            assert!(l <= h, "{line}");
        }
        let m = t[3].to_string();
        if let Some(&(old_lo, old_hi)) = x.moves.get(&m) {
            assert!(lo >= old_lo, "the lower end fell: {line}");
            assert!(
                hi.unwrap_or(i32::MAX) <= old_hi.unwrap_or(i32::MAX),
                "{line}"
            );
        } else {
            x.order.push(m.clone());
        }
        x.moves.insert(m, (lo, hi));
    }
}

#[test]
fn the_empty_board_and_k_at_b2_come_from_the_book() {
    let mut e = Engine::start();
    let x = explore(&mut e, "explore movetime 100");
    assert_eq!(x.moves.len(), 64);
    // As many exact as the book settles (all 64 since the solution table
    // holds every first move's exact value), and the last line says so:
    // complete when every move is exact, incomplete otherwise.
    let exact = x
        .moves
        .values()
        .filter(|(lo, hi)| lo.is_some() && lo == hi)
        .count();
    assert!(exact >= 12, "{exact}");
    let state = if exact == 64 {
        "complete"
    } else {
        "incomplete"
    };
    assert!(
        x.last
            .starts_with(&format!("explored {state} exact {exact} of 64 ")),
        "{}",
        x.last
    );
    // Every first move loses; K@b2 and K@c2 and their twins by exactly one.
    for (m, &(_, hi)) in &x.moves {
        assert!(hi.is_some_and(|h| h <= -1), "{m}: {hi:?}");
    }
    for m in ["K@b2", "K@c2", "K@g7", "K@b3"] {
        assert_eq!(x.moves[m], (Some(-1), Some(-1)), "{m}");
    }
    assert!(x.last.contains(" best K@b2 K@c2 "), "{}", x.last);
    e.send("position startpos moves K@b2");
    let x = explore(&mut e, "explore movetime 100");
    assert_eq!(x.moves["R@a1"], (Some(1), Some(1)));
    assert!(x.moves.values().all(|&(_, hi)| hi.is_some_and(|h| h <= 1)));
    assert!(x.last.ends_with(" best R@a1"), "{}", x.last);
    e.quit();
}

/// A game played by a fixed rule (the k-th legal move at ply k, cycling)
/// until `left` plies are left.
fn game(variant: Variant, left: u8) -> Vec<String> {
    let mut pos = Position::new(variant);
    let mut moves = Vec::new();
    while pos.plies_left() > left {
        let legal = pos.legal_moves().to_vec();
        let m = legal[(moves.len() * 7 + 3) % legal.len()];
        pos.play(m);
        moves.push(m.to_string());
    }
    moves
}

#[test]
fn every_move_is_exact_and_agrees_with_go_to_the_end() {
    for (variant, left) in [("standard", 7), ("open", 6), ("original", 6)] {
        let mut e = Engine::start();
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        let moves = game(variant.parse().unwrap(), left).join(" ");
        e.send(&format!("position startpos moves {moves}"));
        let x = explore(&mut e, "explore");
        assert!(
            x.last.starts_with("explored complete "),
            "{variant}: {}",
            x.last
        );
        for m in &x.order {
            let (lo, hi) = x.moves[m];
            assert_eq!(lo, hi, "{variant} {m}");
            e.send(&format!("position startpos moves {moves} {m}"));
            e.send(&format!("go depth {}", left - 1));
            let lines = e.until("bestmove");
            let last = &lines[lines.len() - 2];
            let cp: i32 = last
                .split(' ')
                .skip_while(|&w| w != "cp")
                .nth(1)
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(Some(-cp / 100), lo, "{variant} {m}: {last}");
        }
        // Best first: the reported best moves are those of the top value.
        let top = x.moves.values().filter_map(|v| v.0).max().unwrap();
        let best: Vec<&String> = x
            .order
            .iter()
            .filter(|m| x.moves[*m].0 == Some(top))
            .collect();
        let named: Vec<&str> = x.last.split(" best ").nth(1).unwrap().split(' ').collect();
        assert_eq!(named.len(), best.len(), "{}", x.last);
        assert!(
            best.iter().all(|m| named.contains(&m.as_str())),
            "{}",
            x.last
        );
        e.quit();
    }
}

#[test]
fn stop_ends_an_exploration_and_a_go_meanwhile_is_refused() {
    let mut e = Engine::start();
    let moves = game(Variant::Standard, 13).join(" ");
    e.send(&format!("position startpos moves {moves}"));
    e.send("explore");
    assert!(e.next().starts_with("info explore move "));
    e.expect_error("go depth 2", "a search is running");
    let t = Instant::now();
    e.send("stop");
    let lines = e.until("explored");
    assert!(
        lines.last().unwrap().starts_with("explored incomplete "),
        "{lines:?}"
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    e.send("isready");
    assert_eq!(e.next(), "readyok");
    e.expect_error("explore movetime soon", "milliseconds after 'movetime'");
    // A time budget ends it too.
    let t = Instant::now();
    let x = explore(&mut e, "explore movetime 300");
    assert!(x.last.starts_with("explored incomplete "), "{}", x.last);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    e.send("stop");
    assert_eq!(
        e.ask("isready"),
        Vec::<String>::new(),
        "stop when idle says nothing"
    );
    e.quit();
}

#[test]
fn a_finished_game_is_explored_at_once() {
    let mut e = Engine::start();
    e.send("position startpos moves K@b2 R@a1 R@c1 Q@c3 Q@d3 B@d1 R@b4 N@e4 B@a2 B@e3 B@e5 R@f6 N@c5 N@c4 N@f5 K@g4");
    let x = explore(&mut e, "explore");
    assert!(x.moves.is_empty());
    assert!(
        x.last
            .starts_with("explored complete exact 0 of 0 nodes 0 "),
        "{}",
        x.last
    );
    e.quit();
}
