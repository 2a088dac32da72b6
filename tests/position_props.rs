//! Property tests: over random games of every variant, the incremental points
//! and hash equal a recomputation after every placement, `delta` predicts the
//! change, and `undo` restores the position exactly.

use cheversi::{Color, Position, Variant};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Standard),
        Just(Variant::Open),
        Just(Variant::Original)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn incremental_state_equals_recomputation(v in variant(), picks in prop::collection::vec(any::<u32>(), 16)) {
        let mut pos = Position::new(v);
        let mut history = Vec::new();
        for pick in picks {
            let moves = pos.legal_moves().to_vec();
            if moves.is_empty() {
                break;
            }
            let m = moves[pick as usize % moves.len()];
            let before = pos.clone();
            let d = pos.delta(m);
            let undo = pos.play(m);
            prop_assert_eq!(pos.points_from_scratch(), [pos.points(Color::White), pos.points(Color::Black)]);
            prop_assert_eq!(pos.piece_hash(), pos.hash_from_scratch());
            prop_assert_eq!(
                [before.points(Color::White) + d[0], before.points(Color::Black) + d[1]],
                [pos.points(Color::White), pos.points(Color::Black)]
            );
            history.push((m, undo, before));
        }
        prop_assert!(pos.is_over());
        while let Some((m, undo, before)) = history.pop() {
            pos.undo(m, undo);
            prop_assert_eq!(&pos, &before);
        }
        prop_assert_eq!(pos, Position::new(v));
    }

    /// Every position a game reaches reads back from its own position
    /// string, so validation (issue 23, E1) never refuses a reachable one.
    #[test]
    fn every_reachable_position_validates(v in variant(), picks in prop::collection::vec(any::<u32>(), 16)) {
        let mut pos = Position::new(v);
        for pick in picks {
            let back = Position::from_fen(&pos.fen(), v);
            prop_assert!(back.is_ok(), "{} refused in {v}: {:?}", pos.fen(), back);
            let moves = pos.legal_moves().to_vec();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[pick as usize % moves.len()]);
        }
        prop_assert!(Position::from_fen(&pos.fen(), v).is_ok(), "{}", pos.fen());
    }

    /// The same board reached in another order has the same hash and key.
    #[test]
    fn transpositions_share_the_key(picks in prop::collection::vec(any::<u32>(), 5)) {
        let mut a = Position::new(Variant::Open);
        let mut played = Vec::new();
        for p in picks {
            let moves = a.legal_moves().to_vec();
            let m = moves[p as usize % moves.len()];
            a.play(m);
            played.push(m);
        }
        // Swap White's 2nd and 3rd placements: any order is legal in `open`.
        let mut b = Position::new(Variant::Open);
        for i in [0, 1, 4, 3, 2] {
            b.play_checked(played[i]).unwrap();
        }
        prop_assert_eq!(a.piece_hash(), b.piece_hash());
        prop_assert_eq!(a.key(), b.key());
        prop_assert_eq!(a.points(Color::White), b.points(Color::White));
        prop_assert_ne!(a.piece_hash(), Position::new(Variant::Open).piece_hash());
    }
}
