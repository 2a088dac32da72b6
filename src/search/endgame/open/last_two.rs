//! `open`'s last two plies: each side places its last piece on any empty
//! square. A reply on a square that the mover's placement does not touch
//! (not on one of its rays, not a king or knight step away) keeps the gain
//! it has before that placement, so after each placement only the touched
//! squares are valued again; the best untouched reply comes from the few best
//! found up front.
//!
//! Nothing is played: the scan of the rays from the mover's square, made
//! once per node for its gain, also tells how the placement changes the gain
//! of every reply on those rays (see [`Node::best_reply`]).
//!
//! Gains are kept as [`Keys`], one small integer per square ordering by gain
//! then by lower square: the best of them is a maximum over 64 lanes, which
//! the compiler makes a few vector instructions, where picking the best
//! squares from a bitboard took a bucket sort.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::gains::keys::{Keys, NONE, best_below, best_on_highest, gain_of, pack, square_of};
use crate::gains::offers::{Frame, Sides, slide_dirs};
use crate::position::Position;
use crate::search::endgame::node::{Running, Thread};
use crate::search::endgame::open::best_replies::{KEPT, Replies};
use crate::types::{Piece, Placement, Square};
use crate::value::{INFINITE, SCALE, Value};
use crate::variant::Moves;

/// What `open`'s last two plies need beyond [`Thread`]: the room of a
/// node with two plies left, lent by the frames of the node above it
/// (`three_left::Three::lend`), which the thread keeps.
pub trait OpenThread: Thread {
    /// The node of the current position (two plies left, its mover placing
    /// `piece` on `squares`, the reply `reply`), with its mover's gains.
    fn lend_node(&mut self, piece: Piece, reply: Piece, squares: Bitboard) -> Box<Node>;
    /// Takes back the node [`OpenThread::lend_node`] lent.
    fn give_back(&mut self, node: Box<Node>);
}

/// The exact value of an `open` position with two plies left, the mover's
/// placements being `moves`: in `open` the mover holds one piece here, free
/// to go on any empty square, so `moves` is one group.
pub fn two(w: &mut impl OpenThread, moves: Moves, alpha: Value, beta: Value, ply: usize) -> Value {
    let them = w.pos().side_to_move().flip();
    let reply = Piece::ALL
        .into_iter()
        .find(|&p| w.pos().in_hand(them, p) > 0);
    let mut groups = moves.groups();
    let (Some(reply), Some((piece, squares))) = (reply, groups.next()) else {
        return w.pos().diff() * SCALE;
    };
    debug_assert!(groups.next().is_none(), "{}", w.pos().fen());
    // The node above left what its squares are worth: patched where its
    // placement touched, they need no valuing.
    let mut node = w.lend_node(piece, reply, squares);
    let mut run = Running::new(alpha, beta);
    // The best placement alone first: most of these nodes cut on it.
    let first = best_below(&node.gains, i16::MAX);
    if first != NONE {
        let t = square_of(first);
        let m = Placement::new(piece, t);
        if !node.try_one(w, &mut run, m, gain_of(first), ply) {
            let rest = squares & !Bitboard::from_square(t);
            node.try_squares(w, &mut run, rest, piece, ply);
        }
    }
    // Counted once per node: a few dozen nodes, where the poll wants 1024.
    w.count(std::mem::take(&mut node.seen));
    w.give_back(node);
    run.value(w)
}

/// The gain of the kept reply that a square beyond the kept ones leaves
/// untouched: low enough that no such square is refuted in bulk.
const UNKEPT: i16 = -1024;

/// Over the keys `live` (their kept replies' gains `ug`): the highest not
/// refuted in bulk (gain minus `ug` above `bound`), how many are, and the
/// highest gain minus `ug` among those. Plain lanes, for vector code.
#[inline(always)]
fn bulk_scan(live: &Keys, ug: &Keys, bound: i16) -> (i16, u64, i16) {
    let (mut next, mut n, mut top) = ([NONE; 8], [0i16; 8], [NONE; 8]);
    for (ks, us) in live.chunks_exact(8).zip(ug.chunks_exact(8)) {
        for j in 0..8 {
            let (k, d) = (ks[j], (ks[j] >> 6) - us[j]);
            let refuted = k != NONE && d <= bound;
            next[j] = next[j].max(if refuted { NONE } else { k });
            n[j] += refuted as i16;
            top[j] = top[j].max(if refuted { d } else { NONE });
        }
    }
    let n = n.iter().map(|&c| c as u64).sum();
    (max8(next), n, max8(top))
}

/// Removes the keys above `next` from `live`: how many, and the highest
/// gain minus `ug` among them.
#[inline(always)]
fn clear_above(live: &mut Keys, ug: &Keys, next: i16) -> (u64, i16) {
    let (mut n, mut top) = ([0i16; 8], [NONE; 8]);
    for (ks, us) in live.chunks_exact_mut(8).zip(ug.chunks_exact(8)) {
        for j in 0..8 {
            let (k, d) = (ks[j], (ks[j] >> 6) - us[j]);
            let above = k > next;
            n[j] += above as i16;
            top[j] = top[j].max(if above { d } else { NONE });
            ks[j] = if above { NONE } else { k };
        }
    }
    (n.iter().map(|&c| c as u64).sum(), max8(top))
}

/// The highest of eight lanes.
#[inline(always)]
fn max8(lanes: [i16; 8]) -> i16 {
    lanes.into_iter().fold(NONE, i16::max)
}

/// What a two-left node knows of its empty squares before the mover's
/// placement.
#[derive(Clone)]
pub struct Node {
    reply: Piece,
    /// The mover's points minus the opponent's.
    base: i32,
    /// The pieces, from the mover's view.
    sides: Sides,
    /// The opponent's gains for `reply`.
    pub keys: Keys,
    /// The mover's gains for its piece.
    pub gains: Keys,
    replies: Replies,
    /// The squares each kept reply touches (itself included), once needed.
    reach: [Bitboard; KEPT],
    reached: u8,
    /// Nodes visited, for the worker's count.
    seen: u64,
}

impl Default for Node {
    fn default() -> Node {
        Node {
            reply: Piece::King,
            base: 0,
            sides: Frame::default().sides,
            keys: [NONE; 64],
            gains: [NONE; 64],
            replies: Replies::default(),
            reach: [Bitboard::EMPTY; KEPT],
            reached: 0,
            seen: 0,
        }
    }
}

impl Node {
    /// Makes this the node of a position with `sides`, `base` its
    /// difference, the opponent's last piece being `reply`, its keys and
    /// gains filled by the caller.
    pub fn set(&mut self, sides: Sides, base: i32, reply: Piece) {
        self.sides = sides;
        self.base = base;
        self.reply = reply;
        self.replies = Replies::default();
        self.reached = 0;
        self.seen = 0;
    }

    /// Makes this the node of `pos`, every square valued, with the mover's
    /// gains for `piece` on `squares`.
    pub(super) fn scratch(
        &mut self,
        pos: &Position,
        reply: Piece,
        piece: Piece,
        squares: Bitboard,
    ) {
        let f = Frame::new(pos);
        self.keys = [NONE; 64];
        self.gains = [NONE; 64];
        for sq in pos.empty() {
            let si = sq.index();
            self.keys[si] = pack(f.own(reply, sq) - f.loss[si] as i32, si);
            if squares.has(sq) {
                self.gains[si] = pack(f.gain(piece, sq), si);
            }
        }
        self.set(f.sides, pos.diff(), reply);
    }

    /// Do both nodes know the same (for tests)?
    #[cfg(test)]
    pub fn same(&self, other: &Node) -> bool {
        let (mut a, mut b) = (self.clone(), other.clone());
        (0..KEPT).all(|i| a.reply(i) == b.reply(i))
            && self.reply == other.reply
            && self.base == other.base
            && self.sides == other.sides
            && self.keys == other.keys
            && self.gains == other.gains
    }

    /// Tries the placement `m`, gaining `g`; true if it reaches beta.
    #[inline]
    fn try_one(
        &mut self,
        w: &mut impl Thread,
        run: &mut Running,
        m: Placement,
        g: i32,
        ply: usize,
    ) -> bool {
        self.seen += 1;
        let v = -self.best_reply(w, m, g, -run.alpha, ply + 1);
        run.take(w, ply, m, v)
    }

    /// The `i`-th best reply before the mover's placement.
    #[inline]
    fn reply(&mut self, i: usize) -> Option<(i32, Square)> {
        self.replies.get(&self.keys, i)
    }

    /// Tries `piece` on each of `rest` (its gains `self.gains`) in the order of
    /// their keys, as [`Node::try_one`] on each in turn would, with the
    /// same values, nodes and lines; true once one reaches beta.
    ///
    /// Most placements here are refuted by their best untouched reply
    /// (nearly all, where no placement reaches alpha): those are valued
    /// and counted in bulk, by the kept reply that each one leaves
    /// untouched, and only the first one in order that such a reply does
    /// not refute is tried in full, until none is left.
    fn try_squares(
        &mut self,
        w: &mut impl Thread,
        run: &mut Running,
        rest: Bitboard,
        piece: Piece,
        ply: usize,
    ) -> bool {
        // By square: the keys of `rest`, and the gain of the kept reply
        // each leaves untouched ([`UNKEPT`] beyond them: `best_untouched`'s
        // scan), so that the bulk is a few vector passes over 64 lanes.
        let mut live = self.gains;
        for s in !rest {
            live[s.index()] = NONE;
        }
        let mut ug = [UNKEPT; 64];
        let mut left = rest;
        for i in 0..KEPT {
            if left.is_empty() {
                break;
            }
            let Some(((g, _), reach)) = self.kept(i) else {
                break;
            };
            for s in left & !reach {
                ug[s.index()] = g as i16;
            }
            left &= reach;
        }
        loop {
            // A key is refuted in bulk if `(base + gain - ug) * SCALE <= alpha`.
            let bound = (run.alpha.div_euclid(SCALE) - self.base).clamp(-600, 500) as i16;
            let (next, n, top) = bulk_scan(&live, &ug, bound);
            if next == NONE {
                // Each a placement and one reply valued.
                self.seen += 2 * n;
                if n > 0 {
                    run.best = run.best.max((self.base + top as i32) * SCALE);
                }
                return false;
            }
            // Those before it: all refuted in bulk.
            let (n, top) = clear_above(&mut live, &ug, next);
            self.seen += 2 * n;
            if n > 0 {
                run.best = run.best.max((self.base + top as i32) * SCALE);
            }
            let t = square_of(next);
            live[t.index()] = NONE;
            if self.try_one(w, run, Placement::new(piece, t), gain_of(next), ply) {
                return true;
            }
        }
    }

    /// The `i`-th kept reply and the squares it touches (itself included).
    #[inline]
    fn kept(&mut self, i: usize) -> Option<((i32, Square), Bitboard)> {
        let r = self.reply(i)?;
        if self.reached & 1 << i == 0 {
            let (u, occ) = (r.1, self.sides.occupied);
            self.reached |= 1 << i;
            self.reach[i] = attacks::rook(u, occ)
                | attacks::bishop(u, occ)
                | attacks::knight(u)
                | Bitboard::from_square(u);
        }
        Some((r, self.reach[i]))
    }

    /// The best reply (gain, square) that a placement reaching `reach`
    /// (the squares it touches, its own included) does not touch: from the kept ones (a reply touches `t` if and only if `t`
    /// touches it), or from every square when all of those are touched.
    fn best_untouched(&mut self, reach: Bitboard) -> Option<(i32, Square)> {
        let occ = self.sides.occupied;
        for i in 0..KEPT {
            let (g, u) = self.reply(i)?;
            if !reach.has(u) {
                return Some((g, u));
            }
        }
        best_on_highest(&self.keys, !occ & !reach)
    }

    /// The value, for the opponent, of its best reply to `m` (which gains
    /// `g` for the mover), as the scan of
    /// [`crate::search::endgame::square_scan::Best`] would find it:
    /// the best untouched reply first, then the touched squares in order until
    /// one reaches `beta`. Counts the replies that scan would value.
    ///
    /// A reply on `s`, `k` steps from `t = m.square` in direction `e`, differs
    /// from its value before `m` only along that line: the reply's ray
    /// towards `t` loses `t` and the squares beyond it; the sliders beyond `t`
    /// and beyond `s` see less of the line; `m`'s piece loses `s` and beyond
    /// if it slides along it, and a King or Knight loses `s` if a step away.
    fn best_reply(
        &mut self,
        w: &mut impl Thread,
        m: Placement,
        g: i32,
        beta: Value,
        ply: usize,
    ) -> Value {
        let (t, occ) = (m.square, self.sides.occupied);
        let reach = attacks::rook(t, occ)
            | attacks::bishop(t, occ)
            | attacks::knight(t)
            | Bitboard::from_square(t);
        let untouched = self.best_untouched(reach);
        // The opponent's points minus the mover's after `m`.
        let base = -(self.base + g);
        let mut seen = 0;
        if let Some((ug, _)) = untouched {
            seen = 1;
            if (base + ug) * SCALE >= beta {
                return self.finish(w, seen, untouched, base, ply);
            }
        }
        // The lowest key whose gain reaches beta: `base + gain >= beta / SCALE`.
        let low = -(base * SCALE - beta).div_euclid(SCALE) * 64;
        // The touched squares, those reaching beta, their keys after `m`.
        let touched = (reach & !occ & !Bitboard::from_square(t)).0;
        let (mut cuts, mut top) = (0u64, i32::MIN);
        let mut after = [0i16; 64];
        self.touched(m, |k, s| {
            cuts |= ((k >= low) as u64) << s;
            top = top.max(k);
            after[s] = k as i16;
        });
        // The scan stops at the lowest square reaching beta; else the best
        // is the highest key, the untouched reply winning ties of gain.
        let best = if cuts != 0 {
            let c = cuts.trailing_zeros();
            seen += (touched & (u64::MAX >> (63 - c))).count_ones() as u64;
            let k = after[c as usize];
            Some((gain_of(k), square_of(k)))
        } else {
            seen += touched.count_ones() as u64;
            match untouched {
                Some((ug, _)) if touched == 0 || ug >= top >> 6 => untouched,
                _ if touched != 0 => Some((top >> 6, square_of(top as i16))),
                _ => None,
            }
        };
        self.finish(w, seen, best, base, ply)
    }

    /// Calls `f(key, square)` with the key of the opponent's gain after `m`
    /// (as an i32) on every empty square that `m` touches.
    #[inline]
    fn touched(&self, m: Placement, mut f: impl FnMut(i32, usize)) {
        let ti = m.square.index();
        let (reply, piece) = (self.reply, m.piece);
        let (run, sign) = self.sides.rays(m.square);
        let king_step = (piece == Piece::King) as i32 - (reply == Piece::King) as i32;
        let (reply_dirs, piece_dirs) = (slide_dirs(reply), slide_dirs(piece));
        for e in 0..8 {
            let len = run[e];
            if len == 0 {
                continue;
            }
            let o = e ^ 4;
            let along = |dirs: u32| (dirs >> e & 1) as i32;
            // The reply loses `t` and what lies beyond it; the slider beyond
            // `s` loses as much.
            let far = 1 + run[o];
            let fixed = (sign[e] - along(reply_dirs)) * far;
            // The slider beyond `t` no longer sees `s` and beyond; `m`'s piece does.
            let per = sign[o] + along(piece_dirs);
            let step = attacks::step(e);
            // The first square, a King's step away, then the rest.
            let mut s = ti as isize + step;
            let change = fixed + per * len + king_step;
            f(self.keys[s as usize] as i32 + change * 64, s as usize);
            for x in (1..len).rev() {
                s += step;
                f(
                    self.keys[s as usize] as i32 + (fixed + per * x) * 64,
                    s as usize,
                );
            }
        }
        let knight_step = (piece == Piece::Knight) as i32 - (reply == Piece::Knight) as i32;
        for s in attacks::knight(m.square) & !self.sides.occupied {
            f(self.keys[s.index()] as i32 + knight_step * 64, s.index());
        }
    }

    /// Counts `seen` replies, records the best one's line and returns its
    /// value (`base` if there is none).
    fn finish(
        &mut self,
        w: &mut impl Thread,
        seen: u64,
        best: Option<(i32, Square)>,
        base: i32,
        ply: usize,
    ) -> Value {
        self.seen += seen;
        match best {
            Some((g, s)) => {
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
    use crate::search::endgame::open::three_left::Three;
    use crate::search::history::Tables;
    use crate::search::test_worker::with_worker;
    use crate::variant::Variant;

    /// What trying a child's placements left: cut, best, alpha, nodes, line.
    type Tried = (bool, Value, Value, u64, Vec<Placement>);

    /// Tries the best placement of the child `pos` of the node prepared in
    /// `three`, then the others, in bulk or one by one in key order.
    fn try_child(three: &mut Three, pos: &Position, window: (Value, Value), bulk: bool) -> Tried {
        let us = pos.side_to_move();
        let held = |c| Piece::ALL.into_iter().find(|&p| pos.in_hand(c, p) > 0);
        let (piece, reply) = (held(us).unwrap(), held(us.flip()).unwrap());
        let mut node = Node::default();
        assert!(three.child(pos, piece, reply, &mut node));
        let mut keys: Vec<i16> = pos.empty().map(|s| node.gains[s.index()]).collect();
        keys.sort_unstable_by(|a, b| b.cmp(a));
        let place = |k: i16| Placement::new(piece, square_of(k));
        with_worker(pos, &mut Tables::default(), |w| {
            let mut run = Running::new(window.0, window.1);
            let mut cut = node.try_one(w, &mut run, place(keys[0]), gain_of(keys[0]), 0);
            if !cut && bulk {
                let rest = pos.empty() & !Bitboard::from_square(square_of(keys[0]));
                cut = node.try_squares(w, &mut run, rest, piece, 0);
            } else if !cut {
                for &k in &keys[1..] {
                    if node.try_one(w, &mut run, place(k), gain_of(k), 0) {
                        cut = true;
                        break;
                    }
                }
            }
            (cut, run.best, run.alpha, node.seen, w.pv(0))
        })
    }

    /// Trying the placements in bulk gives the values, nodes and lines of
    /// trying each in turn, in random `open` positions and windows.
    #[test]
    fn bulk_tries_match_single_tries() {
        let mut rng = crate::testing::Rng(0x5DEE_CE66_D1CE_4E5B);
        let mut cuts = [0; 2];
        for _ in 0..60 {
            let pos = rng.position(Variant::Open, 3);
            let mut three = Three::default();
            three.set(&pos);
            for m in pos.legal_moves().iter().step_by(7) {
                let mut child = pos.clone();
                child.play(m);
                let mid = child.diff() * SCALE + rng.below(1200) as Value - 600;
                let window = (mid - 1 - rng.below(2) as Value * 300, mid);
                let want = try_child(&mut three, &child, window, false);
                assert_eq!(try_child(&mut three, &child, window, true), want, "{m}");
                cuts[want.0 as usize] += 1;
            }
        }
        assert!(cuts[0] > 100 && cuts[1] > 100, "{cuts:?}");
    }

    /// The reply to `m` as the scan would find it, from played positions:
    /// its value, the replies valued and the reply.
    fn scanned_reply(
        pos: &Position,
        m: Placement,
        reply: Piece,
        beta: Value,
    ) -> (Value, u64, Option<Square>) {
        let them = pos.side_to_move().flip().index();
        let mut after = pos.clone();
        after.play(m);
        let gain = |p: &Position, s: Square| p.square_delta(s).gain(reply, them);
        let base = after.diff();
        let reach = attacks::attacks(Piece::Queen, m.square, pos.occupied())
            | attacks::knight(m.square)
            | Bitboard::from_square(m.square);
        // The node's replies in order, before `m`; the first untouched of the
        // kept ones, else the best untouched (the last of equal gains).
        let mut order: Vec<Square> = pos.empty().collect();
        order.sort_by_key(|&s| (-gain(pos, s), s.index()));
        let untouched = match order.iter().take(KEPT).find(|&&s| !reach.has(s)) {
            Some(&s) => Some(s),
            None => (pos.empty() & !reach).max_by_key(|&s| (gain(pos, s), s.index())),
        };
        let (mut seen, mut best) = (0, None);
        if let Some(u) = untouched {
            seen = 1;
            best = Some((gain(pos, u), u));
            if (base + gain(pos, u)) * SCALE >= beta {
                return ((base + gain(pos, u)) * SCALE, seen, Some(u));
            }
        }
        for s in reach & after.empty() {
            seen += 1;
            let g = gain(&after, s);
            if best.is_none_or(|(b, _)| g > b) {
                best = Some((g, s));
            }
            if (base + g) * SCALE >= beta {
                return ((base + g) * SCALE, seen, Some(s));
            }
        }
        match best {
            Some((g, s)) => ((base + g) * SCALE, seen, Some(s)),
            None => (base * SCALE, seen, None),
        }
    }

    /// The node's best reply to each placement equals the scan's on the
    /// played position, whatever beta.
    #[test]
    fn best_replies_match_a_scan_of_played_replies() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        let mut cuts = [0; 2];
        for _ in 0..40 {
            let pos = rng.position(Variant::Open, 2);
            let us = pos.side_to_move();
            let held = |c| Piece::ALL.into_iter().find(|&p| pos.in_hand(c, p) > 0);
            let (piece, reply) = (held(us).unwrap(), held(us.flip()).unwrap());
            for t in pos.empty() {
                let m = Placement::new(piece, t);
                let g = pos.square_delta(t).gain(piece, us.index());
                let beta = -(pos.diff() + g) * SCALE + rng.below(4000) as Value - 1000;
                let (want, want_seen, want_reply) = scanned_reply(&pos, m, reply, beta);
                let mut node = Node::default();
                node.scratch(&pos, reply, piece, pos.empty());
                let (got, pv) = with_worker(&pos, &mut Tables::default(), |w| {
                    let v = node.best_reply(w, m, g, beta, 0);
                    (v, w.pv(0))
                });
                assert_eq!(
                    (got, node.seen),
                    (want, want_seen),
                    "{} {m} {beta}",
                    pos.fen()
                );
                let want_pv: Vec<_> = want_reply
                    .map(|s| Placement::new(reply, s))
                    .into_iter()
                    .collect();
                assert_eq!(pv, want_pv, "{} {m}", pos.fen());
                cuts[(got >= beta) as usize] += 1;
            }
        }
        assert!(cuts[0] > 200 && cuts[1] > 200, "{cuts:?}");
    }

    /// The node's scan agrees with `square_delta`, and the gains after each
    /// placement, from its rays, equal a scan of the position after playing
    /// it, in random `open` positions.
    #[test]
    fn touched_gains_match_playing() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let pos = rng.position(Variant::Open, 2);
            let us = pos.side_to_move();
            let them = us.flip().index();
            for reply in Piece::ALL {
                let mut node = Node::default();
                node.scratch(&pos, reply, reply, pos.empty());
                for sq in pos.empty() {
                    let sd = pos.square_delta(sq);
                    assert_eq!(gain_of(node.keys[sq.index()]), sd.gain(reply, them));
                }
                for piece in Piece::ALL {
                    for t in pos.empty() {
                        let m = Placement::new(piece, t);
                        let mut after = pos.clone();
                        after.play(m);
                        let mut n = 0;
                        node.touched(m, |k, s| {
                            let (g, sd) = (k >> 6, after.square_delta(Square::from_index(s)));
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
