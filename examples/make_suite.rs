//! Makes lines of the solving benchmark suite (`tests/data/suite.txt`):
//! positions from varied games, each with its exact value found by two
//! different searches (the engine's `go depth <left>` and `cheversi
//! solve`'s driver, which must agree) and every optimal move (each legal
//! move's child tested with a null window at the value).
//!
//! `cargo run --release --example make_suite -- <variant> <left> <kind> <seed> [id]`
//!
//! kind: `random` (random placements from the empty board), `engine`
//! (three random placements, then the engine at depth 3 for both sides),
//! `offbook` (`standard` only: the solution's principal variation for 2-5
//! plies, one random placement off it, then the engine at depth 3).
//! The table is 1 GiB, 4 GiB from 13 plies left. Prints the suite line on stdout, the searches' figures on stderr.

mod common;
use cheversi::search::{Control, Event, Limits, Options, SCALE, Searcher};
use cheversi::solve::{Config, Mode, Solver, Store};
use cheversi::{Placement, Position, Variant};
use common::Rng;
use std::time::Instant;

/// The exact solve's principal variation of `standard` (SOLUTION.md).
const STANDARD_PV: &str = "K@b2 R@a1 Q@c2 Q@d3 B@e3 R@f2 R@a3 B@c3";

fn random_move(pos: &Position, rng: &mut Rng) -> Placement {
    let moves = pos.legal_moves().to_vec();
    moves[rng.below(moves.len() as u64) as usize]
}

fn engine_move(s: &mut Searcher, pos: &Position) -> Placement {
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    s.go(pos, &limits, &Control::default(), &mut |_| {})
        .best
        .expect("a legal move")
}

fn position(variant: Variant, left: u8, kind: &str, seed: u64) -> Position {
    let mut rng = Rng::seeded(seed);
    let mut pos = Position::new(variant);
    let mut s = Searcher::new(Options::default());
    let mut random_plies = match kind {
        "random" => 16,
        "engine" => 3,
        "offbook" => {
            let k = 2 + rng.below(4) as usize;
            for m in STANDARD_PV.split_whitespace().take(k) {
                pos.play(m.parse().expect("a placement"));
            }
            1
        }
        _ => panic!("kind: random, engine or offbook"),
    };
    while pos.plies_left() > left {
        let m = if random_plies > 0 {
            random_plies -= 1;
            random_move(&pos, &mut rng)
        } else {
            engine_move(&mut s, &pos)
        };
        pos.play(m);
    }
    pos
}

fn go_value(s: &mut Searcher, pos: &Position) -> i32 {
    let limits = Limits {
        depth: Some(u32::from(pos.plies_left())),
        ..Limits::default()
    };
    let mut last = None;
    s.go(pos, &limits, &Control::default(), &mut |e| {
        if let Event::Info(i) = e {
            last = Some(i);
        }
    });
    let i = last.expect("an info line");
    assert!(i.exact && i.score % SCALE == 0, "go did not reach the end");
    i.score / SCALE
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args[0].parse().expect("variant");
    let left: u8 = args[1].parse().expect("plies left");
    let kind = args[2].as_str();
    let seed: u64 = args[3].parse().expect("seed");
    let id = args
        .get(4)
        .cloned()
        .unwrap_or_else(|| format!("{variant}{left}-{seed}"));
    let pos = position(variant, left, kind, seed);
    if pos.plies_left() != left {
        // An `offbook` game can leave the solution's line below `left`
        // plies: its position then belongs to another row of the suite.
        eprintln!(
            "{id}: the game is already at {} plies left, not {left}; no line written",
            pos.plies_left()
        );
        std::process::exit(1);
    }
    // The table grows with the plies left.
    let hash = if left >= 13 { 4096 } else { 1024 };
    let options = Options {
        hash_mb: hash,
        own_book: false,
        ..Options::default()
    };
    let mut s = Searcher::new(options.clone());
    // Its pages written once before the clock starts, as `bench suite`
    // does: on a virtual machine that backs memory lazily the first touch
    // of 4 GiB took 56 s, which the search's time would otherwise count
    // (the solve below makes its own table: its time includes that cost).
    s.clear();
    let t = Instant::now();
    let a = go_value(&mut s, &pos);
    eprintln!(
        "{id} {}: go depth {left}: {a:+} in {:.1} s",
        pos.fen(),
        t.elapsed().as_secs_f64()
    );
    let t = Instant::now();
    let config = Config {
        frontier: Config::default_frontier(variant, left),
        threads: 1,
        hash_mb: hash,
    };
    let store = Store::memory(variant, Mode::Exact).expect("a store");
    let mut quiet = |_: &cheversi::solve::Event| {};
    let b = Solver::new(Mode::Exact, config, store, &mut quiet)
        .solve(&pos)
        .expect("a solve")
        .value;
    eprintln!("{id}: solve: {b:+} in {:.1} s", t.elapsed().as_secs_f64());
    if a != b {
        eprintln!("{id}: THE TWO SEARCHES DISAGREE ({a} against {b}); no line written");
        std::process::exit(1);
    }
    let t = Instant::now();
    s.clear();
    let mut best = Vec::new();
    let mut child = pos.clone();
    for m in pos.legal_moves().iter() {
        let u = child.play(m);
        let bound = -a * SCALE;
        if s.solve_within(&child, bound, bound + 1).value <= bound {
            best.push(m.to_string());
        }
        child.undo(m, u);
    }
    eprintln!(
        "{id}: {} optimal of {} moves in {:.1} s",
        best.len(),
        pos.legal_moves().to_vec().len(),
        t.elapsed().as_secs_f64()
    );
    assert!(!best.is_empty(), "the value is reached by some move");
    println!("{id} {variant} {} {a} {}", pos.fen(), best.join(" "));
}
