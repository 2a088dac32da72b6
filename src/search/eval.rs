//! The evaluation: an estimate of the final point difference, side to move's
//! view, in centipoints, for positions the search cannot see to the end of.
//!
//! A linear model over a few features, with weights per variant and per plies
//! left, fitted to solved and searched positions by `examples/fit_eval.rs`.

use super::Value;
use super::weights::WEIGHTS;
use crate::attacks;
use crate::position::Position;
use crate::types::{Color, Piece};
use crate::variant::Variant;

/// How many features the model reads.
pub const FEATURES: usize = 9;

/// The features of `pos` from the side to move's view, all as differences
/// "us minus them" except the constant.
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
        best_gain(pos),
    ]
}

/// The largest immediate gain the side to move can make (its tempo).
fn best_gain(pos: &Position) -> i32 {
    let moves = pos.legal_moves();
    let us = pos.side_to_move().index();
    let mut best = 0;
    let mut any = false;
    for sq in moves.targets() {
        let sd = pos.square_delta(sq);
        for (piece, b) in moves.groups() {
            if b.has(sq) {
                let g = sd.gain(piece, us);
                best = if any { best.max(g) } else { g };
                any = true;
            }
        }
    }
    best
}

/// Points earned by `color`'s sliders: the ones a later placement can cut.
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

/// The estimate of `pos` (not finished) in centipoints; untuned: the
/// current difference alone.
#[inline]
pub fn evaluate(pos: &Position, tuned: bool) -> Value {
    if !tuned {
        return pos.diff() * super::SCALE;
    }
    let w = &WEIGHTS[variant_index(pos.variant())][pos.plies_left() as usize];
    let f = features(pos);
    let mut v = 0;
    for i in 0..FEATURES {
        v += w[i] * f[i];
    }
    v
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
        let best = pos.legal_moves().iter().map(|m| pos.gain(m)).max().unwrap();
        assert_eq!(f[8], best);
        assert_eq!(f[1], 1);
        // Black to move has placed one piece fewer: one more in hand.
        assert_eq!(f[2..7].iter().sum::<i32>(), 0);
        let mut again = pos.clone();
        again.play("N@c3".parse().unwrap());
        assert_eq!(features(&again)[0], again.diff());
    }
}
