//! The library's rules against the naive model of `tests/common/naive.rs`,
//! position by position over thousands of random games of every variant.

mod common;

use cheversi::{Color, Placement, Position, Variant};
use common::Rng;
use common::naive::{Naive, name};

const GAMES_PER_VARIANT: u64 = 2000;

fn sorted_fast(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn sorted_naive(n: &Naive) -> Vec<String> {
    let mut v: Vec<String> = n.legal().into_iter().map(name).collect();
    v.sort();
    v
}

fn check_game(variant: Variant, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut pos = Position::new(variant);
    let mut naive = Naive::new(variant.name());
    loop {
        let fast = sorted_fast(&pos);
        assert_eq!(
            fast,
            sorted_naive(&naive),
            "{variant} seed {seed} at {}",
            pos.fen()
        );
        assert_eq!(
            [pos.points(Color::White), pos.points(Color::Black)],
            naive.points(),
            "{variant} seed {seed} at {}",
            pos.fen()
        );
        assert_eq!(pos.is_over(), fast.is_empty());
        if fast.is_empty() {
            assert_eq!(pos.ply(), 16);
            break;
        }
        let m: Placement = fast[rng.below(fast.len())].parse().unwrap();
        let nm = naive
            .legal()
            .into_iter()
            .find(|&x| name(x) == m.to_string())
            .unwrap();
        pos.play_checked(m).unwrap();
        naive.play(nm);
    }
}

#[test]
fn standard_matches_the_naive_model() {
    (0..GAMES_PER_VARIANT).for_each(|s| check_game(Variant::Standard, s));
}

#[test]
fn open_matches_the_naive_model() {
    (0..GAMES_PER_VARIANT).for_each(|s| check_game(Variant::Open, s));
}

#[test]
fn original_matches_the_naive_model() {
    (0..GAMES_PER_VARIANT).for_each(|s| check_game(Variant::Original, s));
}

/// Every position reached by legal play is accepted back from its string.
#[test]
fn reached_positions_round_trip_through_their_string() {
    for variant in Variant::ALL {
        for seed in 0..300 {
            let mut rng = Rng::new(seed);
            let mut pos = Position::new(variant);
            while !pos.is_over() {
                let back = Position::from_fen(&pos.fen(), variant)
                    .unwrap_or_else(|e| panic!("{variant} {}: {e}", pos.fen()));
                assert_eq!(back.fen(), pos.fen());
                assert_eq!(back.legal_moves(), pos.legal_moves());
                assert_eq!(back.key(), pos.key());
                let moves = pos.legal_moves().to_vec();
                pos.play(moves[rng.below(moves.len())]);
            }
            assert!(
                Position::from_fen(&pos.fen(), variant).is_ok(),
                "{}",
                pos.fen()
            );
        }
    }
}
