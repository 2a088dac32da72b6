//! Depth-limited searches against a plain negamax written here: the score of
//! `go depth D` is the negamax value at depth D over the library's evaluation
//! (exact wherever two or fewer plies are left or the depth reaches the end).
//! This covers what the exact tests cannot: the horizon's children scored
//! without being played, the table at limited depths, aspiration and PVS
//! re-searches, and the symmetric placements left out near the start.
//! The depths tested (3 at most) stay full-width: late moves are reduced
//! only below the root, in nodes 3 or more plies deep.

use cheversi::eval::evaluate;
use cheversi::search::{Control, Event, Limits, Options, SCALE, Searcher};
use cheversi::{Position, Variant};

/// Negamax with alpha-beta, no table, no ordering, every placement played.
fn negamax(pos: &mut Position, depth: u8, mut alpha: i32, beta: i32) -> i32 {
    let left = pos.plies_left();
    if left == 0 {
        return pos.diff() * SCALE;
    }
    if depth == 0 && left > 2 {
        return evaluate(pos, true);
    }
    let mut best = i32::MIN;
    for m in pos.legal_moves().to_vec() {
        let u = pos.play(m);
        let v = -negamax(pos, depth.saturating_sub(1), -beta, -alpha);
        pos.undo(m, u);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn searched(pos: &Position, depth: u8) -> i32 {
    searched_info(pos, depth).1
}

/// The depth and score of the last iteration of `go depth D`.
fn searched_info(pos: &Position, depth: u8) -> (u32, i32) {
    let mut s = Searcher::new(Options::default());
    let limits = Limits {
        depth: Some(depth as u32),
        ..Limits::default()
    };
    let mut last = None;
    s.go(pos, &limits, &Control::default(), &mut |e| {
        if let Event::Info(i) = e {
            last = Some((i.depth, i.score));
        }
    });
    last.expect("a completed iteration")
}

/// A position after `plies` placements of a random game (xorshift from `seed`).
fn random_game(v: Variant, plies: u8, seed: u64) -> Position {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut pos = Position::new(v);
    while pos.ply() < plies {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let moves = pos.legal_moves().to_vec();
        pos.play(moves[(x % moves.len() as u64) as usize]);
    }
    pos
}

fn check(v: Variant, plies: u8, depths: &[u8], positions: u64) {
    for seed in 1..=positions {
        let pos = random_game(v, plies, seed);
        for &d in depths {
            let want = negamax(
                &mut pos.clone(),
                d.min(pos.plies_left()),
                -1_000_000,
                1_000_000,
            );
            assert_eq!(searched(&pos, d), want, "{v} {} depth {d}", pos.fen());
        }
    }
}

#[test]
fn standard_depth_limited_scores_are_negamax_values() {
    check(Variant::Standard, 10, &[1, 2, 3], 12);
    check(Variant::Standard, 12, &[1, 2, 3], 12);
}

#[test]
fn open_and_original_depth_limited_scores_are_negamax_values() {
    check(Variant::Open, 11, &[1, 2], 6);
    check(Variant::Original, 11, &[1, 2], 6);
}

#[test]
fn symmetric_positions_lose_nothing() {
    // Each maps onto itself under a board symmetry: the search leaves out
    // symmetric twins, the negamax here does not.
    for (v, fen, depths) in [
        (Variant::Standard, "8/8/8/8/8/8/8/8 w -", &[1u8, 2, 3][..]),
        (Variant::Standard, "8/8/8/8/3K4/8/8/8 b d4", &[1, 2, 3]),
        (Variant::Standard, "8/8/8/4q3/3K4/8/8/8 w e5", &[1, 2]),
        (Variant::Open, "8/8/8/8/8/8/8/K7 b a1", &[1, 2]),
        (Variant::Original, "8/8/8/8/3N4/8/8/8 b d4", &[1, 2]),
    ] {
        let pos = Position::from_fen(fen, v).unwrap();
        assert_ne!(cheversi::symmetry::of(&pos), 0, "{fen}");
        for &d in depths {
            let want = negamax(&mut pos.clone(), d, -1_000_000, 1_000_000);
            assert_eq!(searched(&pos, d), want, "{v} {fen} depth {d}");
        }
    }
}

#[test]
fn a_search_within_two_plies_of_the_end_reports_the_end() {
    // The last two plies are always solved, so depth left - 2 is already
    // the exact value: it is reported as the depth of the end.
    for v in [Variant::Standard, Variant::Open, Variant::Original] {
        for seed in 1..=4 {
            let pos = random_game(v, 11, seed);
            let left = pos.plies_left();
            let exact = negamax(&mut pos.clone(), left, -1_000_000, 1_000_000);
            for d in [left - 2, left - 1, left] {
                let got = searched_info(&pos, d);
                assert_eq!(got, (left as u32, exact), "{v} {} depth {d}", pos.fen());
            }
            let (depth, _) = searched_info(&pos, left - 3);
            assert_eq!(depth, (left - 3) as u32, "{v} {}", pos.fen());
        }
    }
}
