//! The evaluation: an estimate of the final point difference, side to move's
//! view, in centipoints, for positions the search cannot see to the end of.
//!
//! A linear model over a few features, with weights per variant and per plies
//! left, fitted to solved and searched positions by `examples/fit_eval.rs`.
//! Every feature of a child follows from its parent and the placement's
//! square delta in constant time ([`Horizon`]), so the nodes just above the
//! horizon score their children without playing them.

use super::weights::WEIGHTS;
use super::{SCALE, Value};
use crate::attacks;
use crate::position::{Position, SquareDelta};
use crate::types::{Color, Piece, Square};
use crate::variant::Variant;

/// How many features the model reads.
pub const FEATURES: usize = 8;

/// The features of `pos` from the side to move's view, all as differences
/// "us minus them" except the constant: point difference, constant, pieces
/// in hand per kind, and slider points (the ones a later placement can cut).
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let us = pos.side_to_move();
    let them = us.flip();
    let hand = |p: Piece| pos.in_hand(us, p) as i32 - pos.in_hand(them, p) as i32;
    [
        pos.diff(),
        1,
        hand(Piece::King),
        hand(Piece::Queen),
        hand(Piece::Rook),
        hand(Piece::Bishop),
        hand(Piece::Knight),
        slider_points(pos, us) - slider_points(pos, them),
    ]
}

/// Points earned by `color`'s sliders.
fn slider_points(pos: &Position, color: Color) -> i32 {
    let occ = pos.occupied();
    let mut n = 0;
    for p in [Piece::Queen, Piece::Rook, Piece::Bishop] {
        for sq in pos.pieces_of(color, p) {
            n += (attacks::attacks(p, sq, occ) & !occ).count() as i32;
        }
    }
    n
}

/// The index of a variant in the weight table.
pub const fn variant_index(v: Variant) -> usize {
    match v {
        Variant::Standard => 0,
        Variant::Open => 1,
        Variant::Original => 2,
    }
}

/// The weights for `pos`.
fn weights(pos: &Position, left: u8) -> &'static [i32; FEATURES] {
    &WEIGHTS[variant_index(pos.variant())][left as usize]
}

/// The estimate of `pos` (not finished) in centipoints; untuned: the
/// current difference alone.
#[inline]
pub fn evaluate(pos: &Position, tuned: bool) -> Value {
    if !tuned {
        return pos.diff() * SCALE;
    }
    let w = weights(pos, pos.plies_left());
    let f = features(pos);
    (0..FEATURES).map(|i| w[i] * f[i]).sum()
}

/// Evaluates the children of one position without playing them: what each
/// placement changes follows from its square delta.
pub struct Horizon {
    tuned: bool,
    us: usize,
    diff: i32,
    /// The children's weights.
    w: [i32; FEATURES],
    /// The child's terms that do not depend on the placement.
    base: i32,
    /// Slider points now, by colour index.
    sliders: [i32; 2],
    kings: crate::Bitboard,
    knights: crate::Bitboard,
    white: crate::Bitboard,
}

impl Horizon {
    /// Prepares the evaluation of `pos`'s children (`pos` has at least two
    /// plies left).
    pub fn new(pos: &Position, tuned: bool) -> Horizon {
        let us = pos.side_to_move();
        let them = us.flip();
        let w = *weights(pos, pos.plies_left() - 1);
        // The child's view: `them` to move; hands before the placement.
        let mut base = w[1];
        for p in Piece::ALL {
            base += w[2 + p.index()] * (pos.in_hand(them, p) as i32 - pos.in_hand(us, p) as i32);
        }
        let both = |p: Piece| pos.pieces_of(Color::White, p) | pos.pieces_of(Color::Black, p);
        Horizon {
            tuned,
            us: us.index(),
            diff: pos.diff(),
            w,
            base,
            sliders: [
                slider_points(pos, Color::White),
                slider_points(pos, Color::Black),
            ],
            kings: both(Piece::King),
            knights: both(Piece::Knight),
            white: pos.pieces(Color::White),
        }
    }

    /// The child's evaluation after the side to move places `piece` on `sq`,
    /// `sd` being the square's delta, from the parent's view (the negated
    /// child value): equal to `-evaluate(child)`.
    #[inline]
    pub fn child(&self, piece: Piece, sq: Square, sd: &SquareDelta) -> Value {
        let gain = sd.gain(piece, self.us);
        if !self.tuned {
            return (self.diff + gain) * SCALE;
        }
        let leapers = (attacks::king(sq) & self.kings) | (attacks::knight(sq) & self.knights);
        let white_leapers = (leapers & self.white).count() as i32;
        let leaper_loss = [white_leapers, leapers.count() as i32 - white_leapers];
        let (us, them) = (self.us, 1 - self.us);
        let mut slider = [
            self.sliders[0] - (sd.loss[0] - leaper_loss[0]),
            self.sliders[1] - (sd.loss[1] - leaper_loss[1]),
        ];
        if piece != Piece::King && piece != Piece::Knight {
            slider[us] += sd.own[piece.index()];
        }
        let w = &self.w;
        let child = self.base
            + w[2 + piece.index()]
            + w[0] * -(self.diff + gain)
            + w[7] * (slider[them] - slider[us]);
        -child
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_flip_with_the_side_to_move() {
        let mut pos = Position::new(Variant::Open);
        for m in ["K@d4", "Q@e5", "R@a1", "B@h8"] {
            pos.play(m.parse().unwrap());
        }
        let f = features(&pos);
        assert_eq!(f[0], pos.diff());
        assert_eq!(f[1], 1);
        // Two placements each: equal hands.
        assert_eq!(f[2..7].iter().sum::<i32>(), 0);
        let mut again = pos.clone();
        again.play("N@c3".parse().unwrap());
        assert_eq!(features(&again)[0], again.diff());
    }

    #[test]
    fn horizon_children_equal_played_evaluations() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        for v in Variant::ALL {
            for _ in 0..60 {
                let mut pos = Position::new(v);
                while pos.plies_left() > 1 {
                    for tuned in [true, false] {
                        let h = Horizon::new(&pos, tuned);
                        for m in pos.legal_moves().iter() {
                            let sd = pos.square_delta(m.square);
                            let mut child = pos.clone();
                            child.play(m);
                            assert_eq!(h.child(m.piece, m.square, &sd), -evaluate(&child, tuned));
                        }
                    }
                    let moves = pos.legal_moves().to_vec();
                    pos.play(moves[rng.below(moves.len())]);
                }
            }
        }
    }
}
