//! `cheversi solve`'s driver against the search's own exact `go`: random
//! positions of every variant, the driver doing its alpha-beta over the top
//! plies and the search below them; then a killed solve resumed from its store.

use cheversi::search::{Control, Event, Limits, Options, SCALE, Searcher};
use cheversi::solve::{Config, Mode, Solution, Solver, Store};
use cheversi::{Position, Variant};

/// xorshift64 from a seed.
fn random_position(v: Variant, left: u8, seed: u64) -> Position {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = Position::new(v);
    while pos.plies_left() > left {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let moves = pos.legal_moves().to_vec();
        pos.play(moves[(x % moves.len() as u64) as usize]);
    }
    pos
}

/// The exact value in points from `go depth <left>`.
fn go_exact(s: &mut Searcher, pos: &Position) -> i32 {
    let limits = Limits {
        depth: Some(pos.plies_left() as u32),
        ..Limits::default()
    };
    let mut score = None;
    s.go(pos, &limits, &Control::default(), &mut |e| {
        if let Event::Info(i) = e {
            score = Some((i.score, i.exact));
        }
    });
    let (score, exact) = score.expect("an info line");
    assert!(exact, "go depth <left> ends with an exact score");
    assert_eq!(score % SCALE, 0);
    score / SCALE
}

fn config(frontier: u8) -> Config {
    Config {
        frontier,
        threads: 1,
        hash_mb: 16,
    }
}

fn solve(pos: &Position, mode: Mode, frontier: u8, store: Store) -> (i32, i32, i32) {
    let s = solve_line(pos, mode, frontier, store);
    (s.value, s.lo, s.hi)
}

fn solve_line(pos: &Position, mode: Mode, frontier: u8, store: Store) -> Solution {
    let mut quiet = |_: &cheversi::solve::Event| {};
    let mut solver = Solver::new(mode, config(frontier), store, &mut quiet);
    solver.solve(pos).unwrap()
}

/// The exact solve's principal variation is a whole game from `pos` that
/// ends with the value's point difference (the root side's view).
fn check_line(pos: &Position, s: &Solution) {
    let mut p = pos.clone();
    for &m in &s.pv {
        assert!(p.legal_moves().contains(m), "{m} in {}", p.fen());
        p.play(m);
    }
    assert!(p.is_over(), "pv {:?} of {} stops short", s.pv, pos.fen());
    let sign = if s.pv.len().is_multiple_of(2) { 1 } else { -1 };
    assert_eq!(p.diff() * sign, s.value, "pv of {}", pos.fen());
}

/// 50 positions of `variant`, 8 plies left: the exact value agrees with
/// `go depth <left>` and its principal variation plays it out to the end,
/// the win/draw/loss value has its sign. The driver searches the root
/// itself and hands its children to the search.
fn agrees_with_go(v: Variant) {
    let left = 8;
    let mut go = Searcher::new(Options::default());
    for seed in 1..=50 {
        let pos = random_position(v, left, seed);
        go.clear();
        let want = go_exact(&mut go, &pos);
        let store = Store::memory(v, Mode::Exact).unwrap();
        let s = solve_line(&pos, Mode::Exact, left - 1, store);
        assert_eq!(
            (s.value, s.lo, s.hi),
            (want, want, want),
            "{v} {}",
            pos.fen()
        );
        check_line(&pos, &s);
        let store = Store::memory(v, Mode::Wdl).unwrap();
        let (value, _, _) = solve(&pos, Mode::Wdl, left - 1, store);
        assert_eq!(value.signum(), want.signum(), "{v} wdl {}", pos.fen());
    }
}

#[test]
fn solve_agrees_with_go_on_random_standard_positions() {
    agrees_with_go(Variant::Standard);
}

#[test]
fn solve_agrees_with_go_on_random_original_positions() {
    agrees_with_go(Variant::Original);
}

/// `open`'s 8-left solves take 2-5 s each (its branching: every empty
/// square is legal), the longest of these tests.
#[test]
fn solve_agrees_with_go_on_random_open_positions() {
    agrees_with_go(Variant::Open);
}

/// The driver three plies deep over the search (windows, bounds and the
/// store's narrowing at every level): 5 `standard` positions.
#[test]
fn a_deeper_driver_agrees_too() {
    let mut go = Searcher::new(Options::default());
    for seed in 51..=55 {
        let pos = random_position(Variant::Standard, 8, seed);
        go.clear();
        let want = go_exact(&mut go, &pos);
        for mode in [Mode::Exact, Mode::Wdl] {
            let store = Store::memory(Variant::Standard, mode).unwrap();
            let (value, _, _) = solve(&pos, mode, 5, store);
            let got = if mode == Mode::Exact {
                value
            } else {
                value.signum()
            };
            let want = if mode == Mode::Exact {
                want
            } else {
                want.signum()
            };
            assert_eq!(got, want, "{} {}", mode.name(), pos.fen());
        }
    }
}

/// A solve whose store lost its last entries (as a kill would leave it)
/// resumes from what was committed and gives the same value.
#[test]
fn a_resumed_solve_gives_the_same_value() {
    let pos = random_position(Variant::Standard, 10, 3);
    let path = std::env::temp_dir().join(format!("cheversi-resume-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let store = Store::memory(Variant::Standard, Mode::Exact).unwrap();
    let (whole, _, _) = solve(&pos, Mode::Exact, 6, store);
    // A first run stopped after a few frontier searches: its events let
    // the test stop it by failing the store (the store is dropped
    // unflushed, as a kill drops it).
    let stopped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut store = Store::open(&path, Variant::Standard, Mode::Exact).unwrap();
        store.set_batch(std::time::Duration::ZERO);
        let mut n = 0;
        let mut stop = |e: &cheversi::solve::Event| {
            if let cheversi::solve::Event::Frontier { .. } = e {
                n += 1;
                assert!(n < 40, "stopped on purpose");
            }
        };
        let mut solver = Solver::new(Mode::Exact, config(6), store, &mut stop);
        solver.solve(&pos).unwrap();
    }));
    assert!(stopped.is_err(), "the first run was stopped");
    let store = Store::open(&path, Variant::Standard, Mode::Exact).unwrap();
    assert!(
        !store.is_empty(),
        "the stopped run committed what it proved"
    );
    let (value, lo, hi) = solve(&pos, Mode::Exact, 6, store);
    assert_eq!((value, lo, hi), (whole, whole, whole));
    let _ = std::fs::remove_file(&path);
}
