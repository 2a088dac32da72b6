//! The evaluation: an estimate of the final point difference, side to move's
//! view, in centipoints, for positions the search cannot see to the end of.
//!
//! A linear model over a few features, with weights per variant and per plies
//! left, fitted to solved and searched positions by `examples/fit_eval.rs`.
//! Every feature of a child follows from its parent and the placement's
//! square delta in constant time ([`Horizon`]), so the nodes just above the
//! horizon score their children without playing them.
//!
//! May use: types, attacks, position, variant, value, gains. Never the
//! search: the search calls it.

use crate::attacks::{self, RAYS};
use crate::bitboard::Bitboard;
use crate::gains::points;
use crate::position::{Position, SquareDelta};
use crate::types::{Color, Piece, Square};
use crate::value::{SCALE, Value};
use crate::variant::Variant;
use weights::WEIGHTS;

mod weights;

/// How many features the model reads.
pub const FEATURES: usize = 9;
const _: () = assert!(
    WEIGHTS[0][0].len() == FEATURES,
    "refit: examples/fit_eval.rs"
);

/// The features of `pos` from the side to move's view, all as differences
/// "us minus them" except the constant and the last: point difference,
/// constant, pieces in hand per kind, slider points (the ones a later
/// placement can cut), and the empty squares the piece placed last attacks
/// ([`options`]).
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
        options(pos),
    ]
}

/// The empty squares that the piece placed last attacks: in `original`
/// the squares the side to move may take (RULES.md, rule 2).
fn options(pos: &Position) -> i32 {
    pos.last_placement().map_or(0, |m| {
        (attacks::attacks(m.piece, m.square, pos.occupied()) & pos.empty()).count() as i32
    })
}

/// Points earned by `color`'s sliders: its points but its leapers' (a few
/// table reads, where the sliders' would scan their rays).
fn slider_points(pos: &Position, color: Color) -> i32 {
    let empty = pos.empty();
    let mut leapers = 0;
    for sq in pos.pieces_of(color, Piece::King) {
        leapers += (attacks::king(sq) & empty).count() as i32;
    }
    for sq in pos.pieces_of(color, Piece::Knight) {
        leapers += (attacks::knight(sq) & empty).count() as i32;
    }
    pos.points(color) - leapers
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
    kings: Bitboard,
    knights: Bitboard,
    white: Bitboard,
    /// A child's value is `fixed + piece[p] + own[p] * (the points p earns)`
    /// plus the square's terms: `loss` times the blockers' loss difference
    /// (theirs minus ours) and `leapers` times the leapers' (ours minus theirs).
    fixed: i32,
    piece: [i32; 5],
    own: [i32; 5],
    loss: i32,
    leapers: i32,
    occupied: Bitboard,
    theirs: Bitboard,
    /// Sliders of both sides along ranks and files, along diagonals.
    lines: [Bitboard; 2],
}

/// What [`Horizon::at_square`] found on one square: its children's values follow
/// with a multiplication each.
pub struct AtSquare {
    own: [i32; 5],
    value: i32,
}

impl AtSquare {
    /// The value of placing `piece` here, equal to [`Horizon::child`]'s.
    #[inline(always)]
    pub fn child(&self, h: &Horizon, piece: Piece) -> Value {
        let p = piece.index();
        self.value + h.piece[p] + h.own[p] * self.own[p]
    }
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
        let sliders = [
            slider_points(pos, Color::White),
            slider_points(pos, Color::Black),
        ];
        let diff = pos.diff();
        let slides = |p: Piece| (p != Piece::King && p != Piece::Knight) as i32;
        // `child` regrouped: terms of the node, of the piece, of the square.
        let (fixed, piece, own, loss, leapers) = if tuned {
            let ours_minus_theirs = sliders[us.index()] - sliders[them.index()];
            (
                -base + w[0] * diff + w[7] * ours_minus_theirs,
                Piece::ALL.map(|p| -w[2 + p.index()]),
                Piece::ALL.map(|p| w[0] + w[7] * slides(p) - w[8]),
                w[0] + w[7],
                w[7],
            )
        } else {
            (diff * SCALE, [0; 5], [SCALE; 5], SCALE, 0)
        };
        Horizon {
            tuned,
            us: us.index(),
            diff,
            w,
            base,
            sliders,
            kings: pos.of_kind(Piece::King),
            knights: pos.of_kind(Piece::Knight),
            white: pos.pieces(Color::White),
            fixed,
            piece,
            own,
            loss,
            leapers,
            occupied: pos.occupied(),
            theirs: pos.pieces(them),
            lines: pos.line_sliders(),
        }
    }

    /// The terms of the children on the empty square `sq`, one pass per
    /// square whatever pieces may land there, without its square delta:
    /// the slider points from the segment tables, and a run measured only
    /// behind a slider that a blocker on `sq` would cut (most rays end on
    /// no such slider).
    #[inline(always)]
    pub fn at_square(&self, sq: Square) -> AtSquare {
        let occ = self.occupied;
        let (o, si) = (occ.0, sq.index());
        let rook = points::rook_points(occ, sq);
        let bishop = points::bishop_points(occ, sq);
        let own = [
            (attacks::king(sq) & !occ).count() as i32,
            rook + bishop,
            rook,
            bishop,
            (attacks::knight(sq) & !occ).count() as i32,
        ];
        // The sliders' loss, theirs minus ours.
        let mut sliders = 0;
        for d in 0..4 {
            let (up, down) = (RAYS[d][si] & o, RAYS[d + 4][si] & o);
            let line = self.lines[d / 2].0;
            let sign = |b: u64| if self.theirs.0 & b != 0 { 1 } else { -1 };
            let up_first = up & up.wrapping_neg();
            let down_first = if down == 0 {
                0
            } else {
                1u64 << (63 - down.leading_zeros())
            };
            if line & up_first != 0 {
                let run_down = (RAYS[d + 4][si] & !(down_first | down_first.saturating_sub(1)))
                    .count_ones() as i32;
                sliders += sign(up_first) * (1 + run_down);
            }
            if line & down_first != 0 {
                let run_up = (RAYS[d][si] & up_first.wrapping_sub(1)).count_ones() as i32;
                sliders += sign(down_first) * (1 + run_up);
            }
        }
        let leapers = (attacks::king(sq) & self.kings) | (attacks::knight(sq) & self.knights);
        let white = (leapers & self.white).count() as i32;
        let black = leapers.count() as i32 - white;
        let ours_minus_theirs = if self.us == 0 {
            white - black
        } else {
            black - white
        };
        // The whole loss difference, theirs minus ours, counts the leapers too.
        AtSquare {
            own,
            value: self.fixed
                + self.loss * (sliders - ours_minus_theirs)
                + self.leapers * ours_minus_theirs,
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
            + w[7] * (slider[them] - slider[us])
            + w[8] * sd.own[piece.index()];
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

    /// In `original` the last feature counts the squares the side to move
    /// may take (when there are any: else every empty square is legal).
    #[test]
    fn options_are_the_squares_original_allows() {
        let mut rng = crate::testing::Rng(0x0F7_10E5);
        let mut counted = 0;
        for _ in 0..100 {
            let mut pos = Position::new(Variant::Original);
            rng.play(&mut pos);
            while !pos.is_over() {
                let squares = pos
                    .legal_moves()
                    .iter()
                    .fold(Bitboard::EMPTY, |b, m| b | Bitboard::from_square(m.square));
                let n = options(&pos);
                if n > 0 {
                    assert_eq!(n, squares.count() as i32, "{}", pos.fen());
                    counted += 1;
                } else {
                    assert_eq!(squares, pos.empty(), "{}", pos.fen());
                }
                rng.play(&mut pos);
            }
        }
        assert!(counted > 1000, "{counted}");
    }

    /// Slider points from the points but the leapers' equal a scan of
    /// the sliders' rays, in random positions.
    #[test]
    fn slider_points_equal_a_scan_of_the_rays() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for v in Variant::ALL {
            for _ in 0..100 {
                let mut pos = Position::new(v);
                while !pos.is_over() {
                    for color in [Color::White, Color::Black] {
                        let occ = pos.occupied();
                        let mut want = 0;
                        for p in [Piece::Queen, Piece::Rook, Piece::Bishop] {
                            for sq in pos.pieces_of(color, p) {
                                want += (attacks::attacks(p, sq, occ) & !occ).count() as i32;
                            }
                        }
                        assert_eq!(slider_points(&pos, color), want, "{}", pos.fen());
                    }
                    rng.play(&mut pos);
                }
            }
        }
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
                            let want = -evaluate(&child, tuned);
                            assert_eq!(h.child(m.piece, m.square, &sd), want);
                            assert_eq!(h.at_square(m.square).child(&h, m.piece), want);
                        }
                    }
                    rng.play(&mut pos);
                }
            }
        }
    }
}
