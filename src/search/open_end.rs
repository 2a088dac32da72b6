//! `open`'s last two plies: each side places its last piece on any empty
//! square. A reply on a square that the mover's placement does not touch
//! (not on one of its rays, not a king or knight step away) keeps the gain
//! it has before that placement, so after each placement only the touched
//! squares are valued again; the best untouched reply comes from the few best
//! kept up front.
//!
//! Nothing is played: the scan of the rays from the mover's square, made
//! once per node for its gain, also tells how the placement changes the gain
//! of every reply on those rays (see [`Node::best_reply`]).

use super::moves::{MAX_MOVES, decode, encode};
use super::worker::{Running, Worker};
use super::{INFINITE, SCALE, Value};
use crate::attacks::{self, DIRECTIONS, slides_along};
use crate::bitboard::Bitboard;
use crate::position::{Position, Rays};
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
    let mut node = Node::new(&w.pos, reply);
    let mut list = [(0, 0u16); MAX_MOVES];
    let mut n = 0;
    for sq in w.pos.empty() {
        let (sd, rays) = w.pos.square_rays(sq);
        node.add(sq, sd.gain(reply, them.index()), &rays, them.index());
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
        w.count(1);
        let v = -node.best_reply(w, m, list[i].0, -run.alpha, ply + 1);
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
}

/// What a two-left node knows of its empty squares before the mover's
/// placement.
struct Node {
    reply: Piece,
    /// The mover's points minus the opponent's.
    base: i32,
    occupied: Bitboard,
    /// The opponent's gain for `reply` on each empty square.
    gain: [i32; 64],
    /// Empty squares along each ray from each empty square.
    run: [[i8; 8]; 64],
    /// Whose loss the first piece along each ray from each empty square
    /// would be, if it slides along that line: +1 the opponent's (a gain
    /// for the opponent when it shrinks), -1 the mover's, 0 no such piece.
    sign: [[i8; 8]; 64],
    replies: Replies,
}

impl Node {
    fn new(pos: &Position, reply: Piece) -> Node {
        Node {
            reply,
            base: pos.diff(),
            occupied: pos.occupied(),
            gain: [0; 64],
            run: [[0; 8]; 64],
            sign: [[0; 8]; 64],
            replies: Replies::default(),
        }
    }

    /// Records the empty square `sq`: the opponent's gain `gain` there and
    /// what the scan of its rays saw (`them`: the opponent's colour index).
    #[inline]
    fn add(&mut self, sq: Square, gain: i32, rays: &Rays, them: usize) {
        let i = sq.index();
        self.gain[i] = gain;
        self.replies.offer(gain, sq);
        // Slider codes are 1 + colour index.
        let sign = if them == 0 { [0, 1, -1] } else { [0, -1, 1] };
        for d in 0..8 {
            self.run[i][d] = rays.run[d] as i8;
            self.sign[i][d] = sign[rays.slider[d] as usize];
        }
    }

    /// The best untouched reply (gain, square): from the kept ones, or from
    /// every square when all of those are touched.
    fn best_untouched(&self, touched: Bitboard) -> Option<(i32, Square)> {
        let r = &self.replies;
        if let Some(&b) = r.top[..r.len].iter().find(|b| !touched.has(b.1)) {
            return Some(b);
        }
        (!self.occupied & !touched)
            .map(|s| (self.gain[s.index()], s))
            .fold(None, |b, x| match b {
                Some(b) if b.0 > x.0 => Some(b),
                _ => Some(x),
            })
    }

    /// The value, for the opponent, of its best reply to `m` (which gains
    /// `g` for the mover), as the scan of [`super::scan::Best`] would find it:
    /// the best untouched reply first, then the touched squares in order until
    /// one reaches `beta`. Counts the replies that scan would value.
    ///
    /// A reply on `s`, `k` steps from `t = m.square` in direction `e`, differs
    /// from its value before `m` only along that line: the reply's ray
    /// towards `t` loses `t` and the squares beyond it; the sliders beyond `t`
    /// and beyond `s` see less of the line; `m`'s piece loses `s` and beyond
    /// if it slides along it, and a King or Knight loses `s` if a step away.
    fn best_reply(&self, w: &mut Worker, m: Placement, g: i32, beta: Value, ply: usize) -> Value {
        let t = m.square;
        let occ = self.occupied | Bitboard::from_square(t);
        let knights = attacks::knight(t) & !occ;
        let queen = attacks::rook(t, self.occupied) | attacks::bishop(t, self.occupied);
        let touched_empty = (queen | knights) & !occ;
        let untouched = self.best_untouched(queen | knights | Bitboard::from_square(t));
        // The opponent's points minus the mover's after `m`.
        let base = -(self.base + g);
        let mut seen = 0u64;
        // (gain, tie-break) of the best so far: the untouched reply wins ties,
        // then the lowest square, as the scan offers them.
        let mut best: Option<(i32, i32, Square)> = None;
        if let Some((ug, us)) = untouched {
            seen = 1;
            best = Some((ug, 64, us));
            if (base + ug) * SCALE >= beta {
                return self.finish(w, seen, best, base, ply);
            }
        }
        // The lowest touched square whose reply reaches beta, and its gain.
        let mut cut = (64usize, 0);
        let mut offer = |gain: i32, s: usize| {
            let key = (gain, 63 - s as i32, Square::from_index(s));
            if best.is_none_or(|b| (key.0, key.1) > (b.0, b.1)) {
                best = Some(key);
            }
            if (base + gain) * SCALE >= beta && s < cut.0 {
                cut = (s, gain);
            }
        };
        self.touched(m, &mut offer);
        if cut.0 < 64 {
            seen += (touched_empty.0 & (u64::MAX >> (63 - cut.0))).count_ones() as u64;
            best = Some((cut.1, 0, Square::from_index(cut.0)));
        } else {
            seen += touched_empty.count() as u64;
        }
        self.finish(w, seen, best, base, ply)
    }

    /// Calls `f(gain, square)` with the opponent's gain after `m` on every
    /// empty square that `m` touches.
    #[inline]
    fn touched(&self, m: Placement, mut f: impl FnMut(i32, usize)) {
        let ti = m.square.index();
        let (reply, piece) = (self.reply, m.piece);
        let run = &self.run[ti];
        let sign = &self.sign[ti];
        let king_step = (piece == Piece::King) as i32 - (reply == Piece::King) as i32;
        for e in 0..8 {
            let o = e ^ 4;
            // The reply loses `t` and what lies beyond it; the slider beyond
            // `s` loses as much.
            let far = 1 + run[o] as i32;
            let fixed = if slides_along(reply, e) { -far } else { 0 } + sign[e] as i32 * far;
            // The slider beyond `t` no longer sees `s` and beyond; `m`'s piece does.
            let per = sign[o] as i32 + slides_along(piece, e) as i32;
            let (df, dr) = DIRECTIONS[e];
            let step = df as isize + 8 * dr as isize;
            let len = run[e] as i32;
            let mut s = ti as isize;
            for k in 1..=len {
                s += step;
                let x = 1 + len - k;
                let change = fixed + per * x + if k == 1 { king_step } else { 0 };
                f(self.gain[s as usize] + change, s as usize);
            }
        }
        let knight_step = (piece == Piece::Knight) as i32 - (reply == Piece::Knight) as i32;
        for s in attacks::knight(m.square) & !self.occupied {
            f(self.gain[s.index()] + knight_step, s.index());
        }
    }

    /// Counts `seen` replies, records the best one's line and returns its
    /// value (`base` if there is none).
    fn finish(
        &self,
        w: &mut Worker,
        seen: u64,
        best: Option<(i32, i32, Square)>,
        base: i32,
        ply: usize,
    ) -> Value {
        w.count(seen);
        match best {
            Some((g, _, s)) => {
                w.leaf_line(ply, Placement::new(self.reply, s));
                ((base + g) * SCALE).clamp(-INFINITE + 1, INFINITE - 1)
            }
            None => base * SCALE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    /// The gains after each placement, from the node's rays, equal a scan of
    /// the position after playing it, in random `open` positions.
    #[test]
    fn touched_gains_match_playing() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200 {
            let mut pos = Position::new(Variant::Open);
            while pos.plies_left() > 2 {
                let moves = pos.legal_moves().to_vec();
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos.play(moves[(x % moves.len() as u64) as usize]);
            }
            let us = pos.side_to_move();
            let them = us.flip().index();
            for reply in Piece::ALL {
                let mut node = Node::new(&pos, reply);
                for sq in pos.empty() {
                    let (sd, rays) = pos.square_rays(sq);
                    node.add(sq, sd.gain(reply, them), &rays, them);
                }
                for piece in Piece::ALL {
                    for t in pos.empty() {
                        let m = Placement::new(piece, t);
                        let mut after = pos.clone();
                        after.play(m);
                        let mut n = 0;
                        node.touched(m, |g, s| {
                            let sd = after.square_delta(Square::from_index(s));
                            assert_eq!(g, sd.gain(reply, them), "{m} {reply:?} on {s}");
                            n += 1;
                        });
                        let queen = attacks::attacks(Piece::Queen, t, pos.occupied());
                        let touched = (queen | attacks::knight(t)) & after.empty();
                        assert_eq!(n, touched.count());
                    }
                }
            }
        }
    }
}
