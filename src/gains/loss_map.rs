//! What a blocker on each empty square would cost each side, for the whole
//! board in one pass over the pieces: a few steps per piece, where valuing
//! each square alone scans its eight rays.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Piece};

/// By empty square: the points a piece placed there would take from `us`'s
/// opponent minus those it would take from `us` (the points of the pieces
/// it blocks, each square of a cut-off ray counting one).
pub fn loss_map(pos: &Position, us: Color) -> [i32; 64] {
    let mut loss = [0; 64];
    let empty = pos.empty();
    let occupied = pos.occupied();
    let lines = pos.line_sliders();
    for (color, sign) in [(us.flip(), 1), (us, -1)] {
        for l in pos.pieces_of(color, Piece::King) {
            for s in attacks::king(l) & empty {
                loss[s.index()] += sign;
            }
        }
        for l in pos.pieces_of(color, Piece::Knight) {
            for s in attacks::knight(l) & empty {
                loss[s.index()] += sign;
            }
        }
        // Each direction its own loop: its tables and its sliders fixed at
        // compile time.
        let [straight, diagonal] = lines.map(|l| l & pos.pieces(color));
        let (o, e) = (occupied, empty);
        add_runs::<0>(&mut loss, straight, o, e, sign);
        add_runs::<1>(&mut loss, straight, o, e, sign);
        add_runs::<2>(&mut loss, diagonal, o, e, sign);
        add_runs::<3>(&mut loss, diagonal, o, e, sign);
        add_runs::<4>(&mut loss, straight, o, e, sign);
        add_runs::<5>(&mut loss, straight, o, e, sign);
        add_runs::<6>(&mut loss, diagonal, o, e, sign);
        add_runs::<7>(&mut loss, diagonal, o, e, sign);
    }
    loss
}

/// [`add_run`] for each of `sliders` (all moving along direction `D`),
/// `occupied` and `empty` the board's squares.
#[inline(always)]
fn add_runs<const D: usize>(
    loss: &mut [i32; 64],
    sliders: Bitboard,
    occupied: Bitboard,
    empty: Bitboard,
    sign: i32,
) {
    for l in sliders {
        add_run(loss, attacks::ray(D, l, occupied) & empty, D < 4, sign);
    }
}

/// Adds to `loss` `sign` times what a blocker on each square of `run`, the
/// empty squares of a slider's ray, takes: on the j-th of `len` from the
/// slider the rest of the ray, itself included, len + 1 - j. The squares
/// come lowest first, so nearest first where the ray goes `up`: no step
/// along the ray, nor a bounds check on each square.
#[inline(always)]
fn add_run(loss: &mut [i32; 64], run: Bitboard, up: bool, sign: i32) {
    let len = run.count() as i32;
    let (mut taken, step) = if up {
        (sign * len, -sign)
    } else {
        (sign, sign)
    };
    for s in run {
        loss[s.index()] += taken;
        taken += step;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn losses_match_square_deltas() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for v in [Variant::Standard, Variant::Open, Variant::Original] {
            for _ in 0..100 {
                let mut pos = Position::new(v);
                let plies = rng.below(15) as u8;
                while pos.ply() < plies {
                    rng.play(&mut pos);
                }
                for us in [Color::White, Color::Black] {
                    let loss = loss_map(&pos, us);
                    for s in pos.empty() {
                        let sd = pos.square_delta(s);
                        let want = sd.loss[us.flip().index()] - sd.loss[us.index()];
                        assert_eq!(loss[s.index()], want, "{} {s}", pos.fen());
                    }
                }
            }
        }
    }
}
