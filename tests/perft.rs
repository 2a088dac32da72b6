//! Perft, the contract of move generation: counts from the start and from
//! mid-game positions, kept in `tests/data/perft.txt`.
//!
//! The mid-game counts were produced by the naive model of
//! `tests/common/naive.rs` (run `cargo test --release --test perft -- --ignored
//! --nocapture` to print them afresh); this test checks that the library
//! reproduces every line, and that the naive model still agrees at depth 2.

mod common;

use cheversi::perft::{divide, perft};
use cheversi::{Position, Variant};
use common::Rng;
use common::naive::Naive;

struct Line {
    variant: Variant,
    fen: String,
    depth: u32,
    count: u64,
}

fn table() -> Vec<Line> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split(';').map(str::trim).collect();
            Line {
                variant: f[0].parse().unwrap(),
                fen: f[1].to_string(),
                depth: f[2].parse().unwrap(),
                count: f[3].parse().unwrap(),
            }
        })
        .collect()
}

#[test]
fn the_table_is_reproduced() {
    let lines = table();
    for v in Variant::ALL {
        let mid = lines
            .iter()
            .filter(|l| l.variant == v && l.fen != "8/8/8/8/8/8/8/8 w -")
            .count();
        assert!(mid >= 10, "{v} has only {mid} mid-game lines");
    }
    for l in &lines {
        let mut pos = Position::from_fen(&l.fen, l.variant).unwrap();
        assert_eq!(
            perft(&mut pos, l.depth),
            l.count,
            "{} {} depth {}",
            l.variant,
            l.fen,
            l.depth
        );
    }
}

#[test]
fn start_counts_from_rules_md() {
    let count = |v, d| perft(&mut Position::new(v), d);
    assert_eq!(
        (1..=4)
            .map(|d| count(Variant::Standard, d))
            .collect::<Vec<_>>(),
        [64, 1680, 50232, 1805208]
    );
    assert_eq!(count(Variant::Open, 2), 4032);
    assert_eq!(count(Variant::Original, 2), 18340);
}

/// The naive model replays from the string as well; depth 2 keeps it quick.
fn naive_from(pos: &Position) -> Naive {
    let mut n = Naive::new(pos.variant().name());
    for sq in cheversi::Square::all() {
        if let Some((c, p)) = pos.piece_at(sq) {
            n.board[sq.rank() as usize][sq.file() as usize] = Some((c.index(), p.letter()));
        }
    }
    n.ply = pos.ply() as usize;
    n.last = pos.last().map(|s| (s.file() as i32, s.rank() as i32));
    n
}

#[test]
fn naive_agrees_on_every_table_position_at_depth_two() {
    for l in table() {
        let mut pos = Position::from_fen(&l.fen, l.variant).unwrap();
        assert_eq!(
            naive_from(&pos).perft(2),
            perft(&mut pos, 2),
            "{} {}",
            l.variant,
            l.fen
        );
    }
}

#[test]
fn divide_adds_up() {
    for l in table().iter().filter(|l| l.depth >= 2) {
        let mut pos = Position::from_fen(&l.fen, l.variant).unwrap();
        let split = divide(&mut pos, l.depth);
        assert_eq!(split.iter().map(|x| x.1).sum::<u64>(), l.count);
    }
}

/// Prints a fresh table from the naive model (slow; run by hand).
#[test]
#[ignore]
fn print_table_from_the_naive_model() {
    for v in Variant::ALL {
        let start = Naive::new(v.name());
        let depths = if v == Variant::Standard { 4 } else { 3 };
        for d in 1..=depths {
            println!("{v}; 8/8/8/8/8/8/8/8 w -; {d}; {}", start.perft(d));
        }
        for seed in 0..12u64 {
            let mut rng = Rng::new(1000 + seed);
            let mut pos = Position::new(v);
            let plies = 3 + seed as usize;
            for _ in 0..plies.min(15) {
                let m = pos.legal_moves().to_vec();
                pos.play(m[rng.below(m.len())]);
            }
            let depth = if pos.plies_left() <= 3 || seed % 3 == 0 {
                3
            } else {
                2
            };
            println!(
                "{v}; {}; {depth}; {}",
                pos.fen(),
                naive_from(&pos).perft(depth)
            );
        }
    }
}
