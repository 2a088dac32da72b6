//! No input makes the notation or the rules panic: random strings, strings
//! built from the position alphabet, and random placements in random positions.

use cheversi::{Placement, Position, Variant};
use proptest::prelude::*;

fn fen_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "k", "q", "r", "b", "n", "K", "Q", "R", "B", "N", "1", "2", "3", "7", "8", "9", "0",
            "/", " ", "w", "b", "-", "a1", "e5", "h8", "i9", "\u{e9}", "\t",
        ]),
        0..60,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_string_is_parsed_or_refused(s in any::<String>()) {
        for v in Variant::ALL {
            let _ = Position::from_fen(&s, v);
        }
        let _ = s.parse::<Placement>();
        let _ = s.parse::<Variant>();
    }

    #[test]
    fn position_soup_is_parsed_or_refused_and_accepted_ones_round_trip(s in fen_soup()) {
        for v in Variant::ALL {
            if let Ok(pos) = Position::from_fen(&s, v) {
                let again = Position::from_fen(&pos.fen(), v).unwrap();
                prop_assert_eq!(again.fen(), pos.fen());
            }
        }
    }

    #[test]
    fn any_placement_is_played_or_refused(picks in prop::collection::vec((0usize..5, 0usize..64), 0..40)) {
        for v in Variant::ALL {
            let mut pos = Position::new(v);
            for &(p, s) in &picks {
                let pl = Placement::new(cheversi::Piece::ALL[p], cheversi::Square::from_index(s));
                let before = pos.clone();
                if pos.play_checked(pl).is_err() {
                    prop_assert_eq!(&pos, &before);
                }
            }
        }
    }
}
