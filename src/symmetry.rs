//! The board's eight symmetries. Every rule of every variant and every
//! score is invariant under them, so in a position that a symmetry maps
//! onto itself, two placements it maps onto each other have the same value:
//! the search tries one of them. Positions that symmetric only arise in the
//! first few plies (the empty board, a lone King on a diagonal or a middle line).

use crate::position::Position;
use crate::types::{Placement, Square};

/// A set of symmetries as a bit mask over their indices 0..8 (0: identity).
pub type Symmetries = u8;

/// The image of `sq` under symmetry `g`: bit 2 swaps files and ranks, then
/// bit 0 mirrors the files and bit 1 the ranks.
#[inline]
pub fn transform(g: usize, sq: Square) -> Square {
    let (mut f, mut r) = (sq.file(), sq.rank());
    if g & 4 != 0 {
        (f, r) = (r, f);
    }
    if g & 1 != 0 {
        f = 7 - f;
    }
    if g & 2 != 0 {
        r = 7 - r;
    }
    Square::from_index((r * 8 + f) as usize)
}

/// The symmetries other than the identity that map `pos` onto itself
/// (pieces, colours and the last placement's square).
pub fn of(pos: &Position) -> Symmetries {
    let mut set = 0;
    for g in 1..8 {
        let last_fixed = pos.last().is_none_or(|s| transform(g, s) == s);
        if last_fixed
            && pos
                .occupied()
                .into_iter()
                .all(|s| pos.piece_at(transform(g, s)) == pos.piece_at(s))
        {
            set |= 1 << g;
        }
    }
    set
}

/// Plies from the start within which the search looks for symmetries:
/// later positions are never symmetric in practice, and the check is not free.
pub const NEAR_START: u8 = 4;

/// [`of`] within [`NEAR_START`] plies of the start, else none.
#[inline]
pub fn near_start(pos: &Position) -> Symmetries {
    if pos.ply() < NEAR_START { of(pos) } else { 0 }
}

/// Does one of `set`'s symmetries map `m` onto a placement that comes first
/// (by square index)? Then that one stands for both.
#[inline]
pub fn redundant(set: Symmetries, m: Placement) -> bool {
    (1..8).any(|g| set & (1 << g) != 0 && transform(g, m.square).index() < m.square.index())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn transforms_are_the_eight_symmetries() {
        for g in 0..8 {
            let image: std::collections::HashSet<_> =
                Square::all().map(|s| transform(g, s)).collect();
            assert_eq!(image.len(), 64);
            for s in Square::all() {
                let t = transform(g, s);
                // Neighbours stay neighbours: adjacency is preserved.
                for n in Square::all() {
                    let adj = |a: Square, b: Square| {
                        a != b
                            && a.file().abs_diff(b.file()) <= 1
                            && a.rank().abs_diff(b.rank()) <= 1
                    };
                    assert_eq!(adj(s, n), adj(t, transform(g, n)));
                }
            }
        }
        assert_eq!(transform(5, "b1".parse().unwrap()), "h2".parse().unwrap());
    }

    #[test]
    fn the_empty_board_keeps_ten_first_squares() {
        let pos = Position::new(Variant::Standard);
        let set = of(&pos);
        assert_eq!(set, 0xFE);
        let kept = pos
            .legal_moves()
            .iter()
            .filter(|&m| !redundant(set, m))
            .count();
        assert_eq!(kept, 10);
    }

    #[test]
    fn symmetric_moves_have_equal_perft() {
        for v in Variant::ALL {
            let mut pos = Position::new(v);
            pos.play(
                pos.legal_moves()
                    .iter()
                    .find(|m| m.square.to_string() == "d4")
                    .unwrap(),
            );
            let set = of(&pos);
            assert_ne!(set, 0, "{v}: a piece on d4 lies on the a1-h8 diagonal");
            for m in pos.legal_moves().iter() {
                for g in 1..8 {
                    if set & (1 << g) != 0 {
                        let image = Placement::new(m.piece, transform(g, m.square));
                        assert!(pos.legal_moves().contains(image), "{v} {m}");
                        let count = |pl: Placement| {
                            let mut p = pos.clone();
                            p.play(pl);
                            crate::perft::perft(&mut p, 2)
                        };
                        assert_eq!(count(m), count(image), "{v} {m}");
                    }
                }
            }
        }
    }

    #[test]
    fn an_asymmetric_position_has_none() {
        let pos = Position::from_fen("8/8/8/3q4/3K4/8/8/8 w d5", Variant::Standard).unwrap();
        // Mirroring the ranks swaps d4 and d5, but the pieces differ.
        assert_eq!(of(&pos), 0);
        // K d4 and q e5 both lie on the a1-h8 diagonal.
        let diagonal = Position::from_fen("8/8/8/4q3/3K4/8/8/8 w e5", Variant::Standard).unwrap();
        assert_eq!(of(&diagonal), 1 << 4);
    }
}
