//! `open`'s last two plies: each side places its last piece on any empty
//! square. A reply on a square that the mover's placement does not touch
//! (not on one of its rays, not a king or knight step away) keeps the gain
//! it has before that placement, so after each placement only the touched
//! squares are scanned again; the best untouched reply comes from the few best
//! kept up front.

use super::moves::{MAX_MOVES, decode, encode};
use super::scan::Best;
use super::worker::{Running, Worker};
use super::{SCALE, Value};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::{Position, SquareDelta};
use crate::types::{Piece, Placement, Square};
use crate::variant::Moves;

/// The exact value of an `open` position with two plies left, the mover's
/// placements being `moves`.
pub fn two(w: &mut Worker, moves: Moves, alpha: Value, beta: Value, ply: usize) -> Value {
    let us = w.pos.side_to_move();
    let them = us.flip();
    let Some(reply) = Piece::ALL.into_iter().find(|&p| w.pos.in_hand(them, p) > 0) else {
        return w.pos.diff() * SCALE;
    };
    let mut deltas = [None; 64];
    let mut replies = Replies::default();
    let mut list = [(0, 0u16); MAX_MOVES];
    let mut n = 0;
    for sq in w.pos.empty() {
        let sd = w.pos.square_delta(sq);
        deltas[sq.index()] = Some(sd);
        replies.offer(sd.gain(reply, them.index()), sq);
        for (piece, b) in moves.groups() {
            if b.has(sq) {
                list[n] = (
                    sd.gain(piece, us.index()),
                    encode(Placement::new(piece, sq)),
                );
                n += 1;
            }
        }
    }
    let list = &mut list[..n];
    // The best placement alone first: most of these nodes cut on it, and
    // the others pay for the sort.
    if let Some(top) = (0..n).max_by_key(|&i| (list[i].0, std::cmp::Reverse(i))) {
        list.swap(0, top);
    }
    let mut run = Running::new(alpha, beta);
    for i in 0..n {
        if i == 1 {
            list[1..].sort_unstable_by_key(|x| -x.0);
        }
        let Some(m) = decode(list[i].1) else { continue };
        let Some(sd) = deltas[m.square.index()] else {
            continue;
        };
        let touched = touched_by(&w.pos, m.square);
        let u = w.pos.play_with(m, &sd);
        w.count(1);
        let untouched = replies.best_untouched(touched, &deltas, reply, them.index());
        let v = -best_reply(w, reply, untouched, touched, -run.alpha, ply + 1);
        w.pos.undo(m, u);
        if run.take(w, ply, m, v) {
            break;
        }
    }
    run.value(w)
}

/// How many of the opponent's best replies are kept in order.
const KEPT: usize = 8;

/// The opponent's best replies (gain, square) before the mover's
/// placement, best first.
struct Replies {
    top: [(i32, Square); KEPT],
    len: usize,
}

impl Default for Replies {
    fn default() -> Replies {
        Replies {
            top: [(0, Square::from_index(0)); KEPT],
            len: 0,
        }
    }
}

impl Replies {
    fn offer(&mut self, g: i32, sq: Square) {
        let mut i = self.len.min(KEPT - 1);
        if self.len == KEPT && self.top[i].0 >= g {
            return;
        }
        while i > 0 && self.top[i - 1].0 < g {
            self.top[i] = self.top[i - 1];
            i -= 1;
        }
        self.top[i] = (g, sq);
        self.len = (self.len + 1).min(KEPT);
    }

    /// The best reply of `piece` on a square outside `touched`: from the
    /// kept ones, or from every square's delta when all of those are touched.
    fn best_untouched(
        &self,
        touched: Bitboard,
        deltas: &[Option<SquareDelta>; 64],
        piece: Piece,
        side: usize,
    ) -> Option<(i32, Square)> {
        if let Some(&r) = self.top[..self.len].iter().find(|r| !touched.has(r.1)) {
            return Some(r);
        }
        (0..64)
            .filter_map(|i| Some((deltas[i]?.gain(piece, side), Square::from_index(i))))
            .filter(|r| !touched.has(r.1))
            .max_by_key(|r| r.0)
    }
}

/// The squares whose gain a placement on the empty square `t` can change:
/// `t`, its rays up to the first piece, its king and knight steps.
fn touched_by(pos: &Position, t: Square) -> Bitboard {
    attacks::attacks(Piece::Queen, t, pos.occupied())
        | attacks::king(t)
        | attacks::knight(t)
        | Bitboard::from_square(t)
}

/// The side to move's best final placement of `piece` (its last), stopping
/// once it reaches `beta`: `untouched` (the best square the opponent's last
/// placement did not touch, with its gain from before it), then every
/// touched empty square scanned anew. Counts the placements valued as nodes.
fn best_reply(
    w: &mut Worker,
    piece: Piece,
    untouched: Option<(i32, Square)>,
    touched: Bitboard,
    beta: Value,
    ply: usize,
) -> Value {
    let base = w.pos.diff();
    let me = w.pos.side_to_move().index();
    let mut best = Best::NONE;
    if let Some((g, sq)) = untouched {
        best.offer(Placement::new(piece, sq), (base + g) * SCALE);
    }
    let mut moves = Moves::NONE;
    moves.push(piece, touched & w.pos.empty());
    best.scan(
        w,
        &moves,
        touched & w.pos.empty(),
        None,
        beta,
        |p, _, sd| (base + sd.gain(p, me)) * SCALE,
    );
    best.finish(w, ply).0
}
