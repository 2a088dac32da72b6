//! A ceiling on a `standard` node with three plies left (Black places its
//! 7th piece, White its last, Black its King) that spares searching its
//! children one by one. In a win/draw/loss search most such nodes fail
//! low, each child cut by the same White answer, the 2-left killer on `t`
//! (solve 10 2 wdl: 97% of these nodes fail low, 23 children each). With
//! White's piece on `t` for every Black placement, the final value is that
//! of the board with White's piece on `t`, plus the gain of Black's piece
//! on `s` there, plus its King's on `k`: the two gains meet only where
//! Black's own sliders would lose to both blockers, which
//! [`Replies::black_block`] bounds. So the best `s` and the best `k`,
//! each found alone, bound every pair.

use super::endgame::towards;
use super::kept_losses::Placed;
use super::replies::Replies;
use super::segments::own_points;
use super::worker::Worker;
use super::{SCALE, Value};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, Piece};
use crate::variant::white_reply;

/// A ceiling on the value of Black's `piece` on any of `rest`, in the
/// current position (three plies left, Black to move), and the squares of
/// `rest` it leaves out: those where White's answer is not legal (its own
/// square, and its one empty neighbour, which the King needs). `None` if
/// neither killer is a legal answer.
pub fn ceiling(w: &mut Worker, piece: Piece, rest: Bitboard) -> Option<(Value, Bitboard)> {
    let (white, answers) = white_reply(&w.pos)?;
    let mut killers = w.tables.killers.into_iter().flatten();
    let t = killers.find(|&t| answers.has(t))?;
    let free = attacks::king(t) & w.pos.empty();
    let apart = Bitboard::from_square(t)
        | if free.count() == 1 {
            free
        } else {
            Bitboard::EMPTY
        };
    let covered = rest & !apart;
    if covered.is_empty() || free.is_empty() {
        return None;
    }
    let map = *w.losses.update(&w.pos);
    let r = Replies::new(&w.pos, white, &map);
    let placed = Placed::on(&w.pos, t, Color::White, white);
    let (occ, reach) = (w.pos.occupied() | Bitboard::from_square(t), placed.reach());
    let mut piece_best = i32::MIN;
    for s in covered {
        let i = s.index();
        // Black's blocker takes from White what White's would take from Black.
        let mut loss = map[i] as i32;
        if reach >> i & 1 != 0 {
            loss += placed.delta(i);
        }
        piece_best = piece_best.max(own_points(occ, piece, s) - loss);
    }
    let mut king_best = i32::MIN;
    for k in free {
        let e = towards(t, k);
        king_best = king_best.max(r.king(t, k, e) + r.black_block(k, e));
    }
    let v = w.pos.diff() - r.gain(t) + piece_best + king_best;
    Some((v * SCALE, rest & apart))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::history::Tables;
    use crate::search::time::Budget;
    use crate::search::tt::Tt;
    use crate::search::worker::Shared;
    use crate::search::{Control, Limits, Options};
    use crate::types::{Placement, Square};
    use crate::variant::Variant;

    /// The best final value, for Black, of Black's `piece` on `s`, White's
    /// `white` on `t` and the best King reply, all played; `None` if White's
    /// placement is not legal.
    fn played(pos: &Position, piece: Piece, s: Square, white: Piece, t: Square) -> Option<i32> {
        let mut p = pos.clone();
        p.play(Placement::new(piece, s));
        let answer = Placement::new(white, t);
        if !p.legal_moves().contains(answer) {
            return None;
        }
        p.play(answer);
        let replies = p.legal_moves().to_vec();
        replies
            .into_iter()
            .map(|k| {
                let mut end = p.clone();
                end.play(k);
                end.points(Color::Black) - end.points(Color::White)
            })
            .max()
    }

    #[test]
    fn ceilings_hold_every_covered_placement_and_answer() {
        let (tt, control) = (Tt::new(1), Control::default());
        let mut tables = Tables::default();
        let start = Position::new(Variant::Standard);
        let now = std::time::Instant::now();
        let budget = Budget::new(&start, &Limits::default(), &Options::default(), now);
        let shared = Shared::new(&tt, &control, budget, 1, false);
        let mut w = Worker::new(start, &shared, &mut tables, 0);
        let mut rng = crate::testing::Rng(0xC3E1_1196_0000_5EED);
        let (mut checked, mut tight, mut nodes, mut slack) = (0, 0, 0, 0);
        for _ in 0..1500 {
            let mut pos = Position::new(Variant::Standard);
            while pos.plies_left() > 3 {
                rng.play(&mut pos);
            }
            let Some((piece, targets)) = pos.legal_moves().groups().next() else {
                continue;
            };
            let empty: Vec<Square> = pos.empty().collect();
            let pick = |rng: &mut crate::testing::Rng| Some(empty[rng.below(empty.len())]);
            w.tables.killers = [pick(&mut rng), pick(&mut rng)];
            w.pos = pos.clone();
            let Some((ceiling, apart)) = ceiling(&mut w, piece, targets) else {
                continue;
            };
            let (white, answers) = white_reply(&pos).unwrap();
            let t = w
                .tables
                .killers
                .into_iter()
                .flatten()
                .find(|&t| answers.has(t))
                .unwrap();
            let mut best = i32::MIN;
            for s in targets & !apart {
                let v = played(&pos, piece, s, white, t);
                let v = v.unwrap_or_else(|| panic!("{} {s} {t}: not legal", pos.fen()));
                assert!(v * SCALE <= ceiling, "{} {s} {t}: {v} {ceiling}", pos.fen());
                best = best.max(v);
                checked += 1;
            }
            tight += usize::from(best * SCALE == ceiling);
            (nodes, slack) = (nodes + 1, slack + ceiling / SCALE - best);
        }
        // Bounds that hold but are rarely reached would prove little: this
        // one is reached at a third of the nodes, and 1.7 points above the
        // best on average.
        assert!(checked > 10_000 && tight > 250, "{checked} {tight}");
        assert!(slack < 2 * nodes, "{slack} {nodes}");
    }
}
