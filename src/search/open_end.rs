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

use super::frame::{Frame, Sides};
use super::moves::{MAX_MOVES, decode, encode};
use super::worker::{Running, Worker};
use super::{INFINITE, SCALE, Value};
use crate::attacks::{self, slides_along};
use crate::bitboard::Bitboard;
use crate::position::Position;
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
    let mut groups = [(reply, Bitboard::EMPTY); 5];
    let mut kinds = 0;
    for g in moves.groups() {
        groups[kinds] = g;
        kinds += 1;
    }
    let groups = &groups[..kinds];
    // The mover holds one piece here: a list of 64 is cleared faster.
    let (mut one, mut all);
    let list: &mut [u32] = if kinds == 1 {
        one = [0; 64];
        &mut one
    } else {
        all = [0; MAX_MOVES];
        &mut all
    };
    let mut run = Running::new(alpha, beta);
    // The node above left what its squares are worth: patched where its
    // placement touched, they need no valuing.
    let prepared = match groups {
        [(piece, b)] if *b == w.pos.empty() => w.three.child(&w.pos, *piece, reply),
        _ => None,
    };
    let mut node = match prepared {
        Some((mut node, gains)) => {
            let Some(first) = gains.first() else {
                return run.value(w);
            };
            if !node.try_keys(w, &mut run, &[first], ply) {
                let (_, code) = unkey(first);
                let rest = gains.squares()
                    & !Bitboard::from_square(Square::from_index(code as usize % 64));
                node.try_squares(w, &mut run, gains.gains(), rest, gains.piece(), ply);
            }
            node
        }
        None => {
            let (mut node, n) = Node::scratch(&w.pos, reply, groups, list);
            let list = &mut list[..n];
            // The best placement alone first: most of these nodes cut on
            // it, and the others pay for the sort.
            if let Some(top) = (0..n).min_by_key(|&i| list[i]) {
                list.swap(0, top);
                if !node.try_keys(w, &mut run, &list[..1], ply) {
                    list[1..].sort_unstable();
                    node.try_keys(w, &mut run, &list[1..], ply);
                }
            }
            node
        }
    };
    // Counted once per node: a few dozen nodes, where the poll wants 1024.
    w.count(std::mem::take(&mut node.seen));
    run.value(w)
}

/// Keeps the gains of `key` apart from any move code.
const OFFSET: i32 = 1 << 12;

/// A placement and its gain as one integer ordering by decreasing gain,
/// then increasing code: plain integers sort faster, in a fixed order.
#[inline]
pub fn key(gain: i32, m: Placement) -> u32 {
    !(((gain + OFFSET) as u32) << 9 | (511 - encode(m) as u32))
}

/// The gain and the move code of a [`key`].
#[inline]
fn unkey(k: u32) -> (i32, u16) {
    let k = !k;
    ((k >> 9) as i32 - OFFSET, 511 - (k & 511) as u16)
}

/// How many of the opponent's best replies are kept in order.
const KEPT: usize = 6;

/// The opponent's best replies (gain, square) before the mover's
/// placement, best first: by gain, then by square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replies {
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
    /// The best replies on `squares`, `gain` giving each one's gain.
    pub fn best_of(gain: &[i32; 64], squares: Bitboard) -> Replies {
        let mut replies = Replies::default();
        in_order(gain, squares, |s| {
            replies.top[replies.len] = (gain[s.index()], s);
            replies.len += 1;
            replies.len < KEPT
        });
        replies
    }
}

/// Calls `f` with `squares` by decreasing `gain`, then increasing index,
/// until it returns false: a bucket per gain, cheaper than a sort or than
/// offering each square to a sorted list (whose compares mispredict).
pub fn in_order(gain: &[i32; 64], squares: Bitboard, mut f: impl FnMut(Square) -> bool) {
    // Gains stay within (-64, 64): a piece attacks at most 27 squares, and
    // a blocker cuts at most 7 squares per line from sliders, plus one per
    // King or Knight next to it.
    const OFFSET: i32 = 63;
    let mut buckets = [0u64; 128];
    let (mut lo, mut hi) = (127, 0);
    for s in squares {
        let b = (OFFSET - gain[s.index()]) as usize;
        buckets[b] |= 1 << s.index();
        lo = lo.min(b);
        hi = hi.max(b);
    }
    for &b in buckets.iter().take(hi + 1).skip(lo) {
        for s in Bitboard(b) {
            if !f(s) {
                return;
            }
        }
    }
}

/// What a two-left node knows of its empty squares before the mover's
/// placement.
pub struct Node {
    reply: Piece,
    /// The mover's points minus the opponent's.
    base: i32,
    /// The pieces, from the mover's view.
    sides: Sides,
    /// The opponent's gain for `reply` on each empty square.
    gain: [i32; 64],
    replies: Replies,
    /// The squares each kept reply touches (itself included), once needed.
    reach: [Bitboard; KEPT],
    reached: u8,
    /// Nodes visited, for the worker's count.
    seen: u64,
}

impl Node {
    /// The node of a position with `sides`, `base` its difference, the
    /// opponent's last piece being `reply`, its gains and best replies known.
    pub fn new(sides: Sides, base: i32, reply: Piece, gain: [i32; 64], replies: Replies) -> Node {
        Node {
            reply,
            base,
            sides,
            gain,
            replies,
            reach: [Bitboard::EMPTY; KEPT],
            reached: 0,
            seen: 0,
        }
    }

    /// The node of `pos`, every square valued, and the keys of the mover's
    /// placements (`groups`) in `list`, in no order; returns how many.
    pub(super) fn scratch(
        pos: &Position,
        reply: Piece,
        groups: &[(Piece, Bitboard)],
        list: &mut [u32],
    ) -> (Node, usize) {
        let f = Frame::new(pos);
        let mut gain = [0; 64];
        let mut n = 0;
        for sq in pos.empty() {
            let si = sq.index();
            gain[si] = f.own(reply, sq) - f.loss[si];
            for &(piece, b) in groups {
                if b.has(sq) {
                    list[n] = key(f.gain(piece, sq), Placement::new(piece, sq));
                    n += 1;
                }
            }
        }
        let replies = Replies::best_of(&gain, pos.empty());
        (Node::new(f.sides, pos.diff(), reply, gain, replies), n)
    }

    /// Do both nodes know the same (for tests)?
    #[cfg(test)]
    pub fn same(&self, other: &Node) -> bool {
        let empty = !self.sides.occupied;
        self.reply == other.reply
            && self.base == other.base
            && self.sides == other.sides
            && self.replies == other.replies
            && { empty }.all(|s| self.gain[s.index()] == other.gain[s.index()])
    }

    /// Tries the placements of `keys` in turn; true once one reaches beta.
    fn try_keys(&mut self, w: &mut Worker, run: &mut Running, keys: &[u32], ply: usize) -> bool {
        for &k in keys {
            let (gain, code) = unkey(k);
            let Some(m) = decode(code) else { continue };
            self.seen += 1;
            let v = -self.best_reply(w, m, gain, -run.alpha, ply + 1);
            if run.take(w, ply, m, v) {
                return true;
            }
        }
        false
    }

    /// Tries `piece` on each of `rest` (the mover gaining `gain[s]` on
    /// `s`) in the order of their keys, as [`Node::try_keys`] would, with
    /// the same values, nodes and lines; true once one reaches beta.
    ///
    /// Most placements here are refuted by their best untouched reply
    /// (nearly all, where no placement reaches alpha): those are valued
    /// and counted in bulk, by the kept reply that each one leaves
    /// untouched, and only the first one in order that such a reply does
    /// not refute is tried in full, until none is left.
    fn try_squares(
        &mut self,
        w: &mut Worker,
        run: &mut Running,
        gain: &[i32; 64],
        mut rest: Bitboard,
        piece: Piece,
        ply: usize,
    ) -> bool {
        // By kept reply: the squares whose best untouched reply it is.
        let mut classes = [Bitboard::EMPTY; KEPT];
        let mut left = rest;
        for (i, class) in classes.iter_mut().enumerate().take(self.replies.len) {
            let reach = self.reach(i);
            *class = left & !reach;
            left &= reach;
        }
        // Beyond the kept replies: found by `best_untouched`'s scan.
        let unkept = left;
        loop {
            // The highest key (gain, then lowest square) not refuted in bulk.
            let mut next = i32::MIN;
            for (i, class) in classes.iter().enumerate().take(self.replies.len) {
                let ug = self.replies.top[i].0;
                for s in *class & rest {
                    let g = gain[s.index()];
                    if (self.base + g - ug) * SCALE > run.alpha {
                        next = next.max(g * 64 + 63 - s.index() as i32);
                    }
                }
            }
            for s in unkept & rest {
                next = next.max(gain[s.index()] * 64 + 63 - s.index() as i32);
            }
            // Those before it: each a placement and one reply valued.
            let mut refuted = Bitboard::EMPTY;
            for (i, class) in classes.iter().enumerate().take(self.replies.len) {
                let ug = self.replies.top[i].0;
                for s in *class & rest {
                    let g = gain[s.index()];
                    if g * 64 + 63 - s.index() as i32 > next {
                        refuted.0 |= 1 << s.index();
                        run.best = run.best.max((self.base + g - ug) * SCALE);
                    }
                }
            }
            self.seen += 2 * refuted.count() as u64;
            rest &= !refuted;
            if next == i32::MIN {
                return false;
            }
            let (g, s) = (next.div_euclid(64), 63 - next.rem_euclid(64) as usize);
            rest.0 &= !(1 << s);
            let m = Placement::new(piece, Square::from_index(s));
            self.seen += 1;
            let v = -self.best_reply(w, m, g, -run.alpha, ply + 1);
            if run.take(w, ply, m, v) {
                return true;
            }
        }
    }

    /// The squares the `i`-th kept reply touches, itself included.
    fn reach(&mut self, i: usize) -> Bitboard {
        if self.reached & 1 << i == 0 {
            let u = self.replies.top[i].1;
            self.reached |= 1 << i;
            self.reach[i] = attacks::rook(u, self.sides.occupied)
                | attacks::bishop(u, self.sides.occupied)
                | attacks::knight(u)
                | Bitboard::from_square(u);
        }
        self.reach[i]
    }

    /// The best reply (gain, square) that a placement on `t` does not
    /// touch: from the kept ones (a reply touches `t` if and only if `t`
    /// touches it), or from every square when all of those are touched.
    fn best_untouched(&mut self, t: Square) -> Option<(i32, Square)> {
        for i in 0..self.replies.len {
            if !self.reach(i).has(t) {
                return Some(self.replies.top[i]);
            }
        }
        let touched = attacks::rook(t, self.sides.occupied)
            | attacks::bishop(t, self.sides.occupied)
            | attacks::knight(t)
            | Bitboard::from_square(t);
        (!self.sides.occupied & !touched)
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
    fn best_reply(
        &mut self,
        w: &mut Worker,
        m: Placement,
        g: i32,
        beta: Value,
        ply: usize,
    ) -> Value {
        let untouched = self.best_untouched(m.square);
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
        let mut touched_empty = 0u64;
        let mut offer = |gain: i32, s: usize| {
            touched_empty |= 1 << s;
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
            seen += (touched_empty & (u64::MAX >> (63 - cut.0))).count_ones() as u64;
            best = Some((cut.1, 0, Square::from_index(cut.0)));
        } else {
            seen += touched_empty.count_ones() as u64;
        }
        self.finish(w, seen, best, base, ply)
    }

    /// Calls `f(gain, square)` with the opponent's gain after `m` on every
    /// empty square that `m` touches.
    #[inline]
    fn touched(&self, m: Placement, mut f: impl FnMut(i32, usize)) {
        let ti = m.square.index();
        let (reply, piece) = (self.reply, m.piece);
        let (run, sign) = self.sides.rays(m.square);
        let king_step = (piece == Piece::King) as i32 - (reply == Piece::King) as i32;
        for e in 0..8 {
            let o = e ^ 4;
            // The reply loses `t` and what lies beyond it; the slider beyond
            // `s` loses as much.
            let far = 1 + run[o];
            let fixed = if slides_along(reply, e) { -far } else { 0 } + sign[e] * far;
            // The slider beyond `t` no longer sees `s` and beyond; `m`'s piece does.
            let per = sign[o] + slides_along(piece, e) as i32;
            let step = attacks::step(e);
            let len = run[e];
            let mut s = ti as isize;
            for k in 1..=len {
                s += step;
                let x = 1 + len - k;
                let change = fixed + per * x + if k == 1 { king_step } else { 0 };
                f(self.gain[s as usize] + change, s as usize);
            }
        }
        let knight_step = (piece == Piece::Knight) as i32 - (reply == Piece::Knight) as i32;
        for s in attacks::knight(m.square) & !self.sides.occupied {
            f(self.gain[s.index()] + knight_step, s.index());
        }
    }

    /// Counts `seen` replies, records the best one's line and returns its
    /// value (`base` if there is none).
    fn finish(
        &mut self,
        w: &mut Worker,
        seen: u64,
        best: Option<(i32, i32, Square)>,
        base: i32,
        ply: usize,
    ) -> Value {
        self.seen += seen;
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
    use crate::search::history::Tables;
    use crate::search::open_three::Three;
    use crate::search::shared::Shared;
    use crate::search::time::Budget;
    use crate::search::tt::Tt;
    use crate::search::{Control, Limits, Options};
    use crate::variant::Variant;

    /// Runs `f` with a worker on `pos`.
    fn with_worker<T>(pos: &Position, f: impl FnOnce(&mut Worker) -> T) -> T {
        let tt = Tt::new(1);
        let control = Control::default();
        let options = Options::default();
        let now = std::time::Instant::now();
        let budget = Budget::new(pos, &Limits::default(), &options, now);
        let shared = Shared::new(&tt, &control, budget, 1, false);
        let mut tables = Tables::default();
        let mut w = Worker::new(pos.clone(), &shared, &mut tables, 0);
        f(&mut w)
    }

    /// What trying a child's placements left: cut, best, alpha, nodes, line.
    type Tried = (bool, Value, Value, u64, Vec<Placement>);

    /// Tries the best placement of the child `pos` of the node prepared in
    /// `three`, then the others, in bulk or one by one in key order.
    fn try_child(three: &mut Three, pos: &Position, window: (Value, Value), bulk: bool) -> Tried {
        let us = pos.side_to_move();
        let held = |c| Piece::ALL.into_iter().find(|&p| pos.in_hand(c, p) > 0);
        let (piece, reply) = (held(us).unwrap(), held(us.flip()).unwrap());
        let (mut node, gains) = three.child(pos, piece, reply).unwrap();
        let gain = gains.gains();
        let mut keys: Vec<u32> = gains
            .squares()
            .map(|s| key(gain[s.index()], Placement::new(piece, s)))
            .collect();
        keys.sort_unstable();
        with_worker(pos, |w| {
            let mut run = Running::new(window.0, window.1);
            let mut cut = node.try_keys(w, &mut run, &keys[..1], 0);
            if !cut && bulk {
                let (_, code) = unkey(keys[0]);
                let first = Bitboard::from_square(Square::from_index(code as usize % 64));
                cut = node.try_squares(w, &mut run, gain, gains.squares() & !first, piece, 0);
            } else if !cut {
                cut = node.try_keys(w, &mut run, &keys[1..], 0);
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
            let mut pos = Position::new(Variant::Open);
            while pos.plies_left() > 3 {
                rng.play(&mut pos);
            }
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

    #[test]
    fn in_order_goes_by_gain_then_square() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..500 {
            let squares = Bitboard(rng.next() | rng.next());
            let mut gain = [0; 64];
            for g in gain.iter_mut() {
                *g = rng.below(127) as i32 - 63;
            }
            let mut got = Vec::new();
            in_order(&gain, squares, |s| {
                got.push(s.index());
                true
            });
            let mut want: Vec<_> = squares.map(|s| (-gain[s.index()], s.index())).collect();
            want.sort();
            assert_eq!(got, want.iter().map(|w| w.1).collect::<Vec<_>>());
        }
    }

    #[test]
    fn best_replies_are_the_best_gains_then_the_lowest_squares() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..500 {
            let squares = Bitboard(rng.next() & rng.next());
            let mut gain = [0; 64];
            for g in gain.iter_mut() {
                *g = rng.below(127) as i32 - 63;
            }
            let r = Replies::best_of(&gain, squares);
            let mut want: Vec<_> = squares.map(|s| (-gain[s.index()], s.index())).collect();
            want.sort();
            want.truncate(KEPT);
            let got: Vec<_> = r.top[..r.len]
                .iter()
                .map(|&(g, s)| (-g, s.index()))
                .collect();
            assert_eq!(got, want);
        }
    }

    /// The node's scan agrees with `square_delta`, and the gains after each
    /// placement, from its rays, equal a scan of the position after playing
    /// it, in random `open` positions.
    #[test]
    fn touched_gains_match_playing() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..200 {
            let mut pos = Position::new(Variant::Open);
            while pos.plies_left() > 2 {
                rng.play(&mut pos);
            }
            let us = pos.side_to_move();
            let them = us.flip().index();
            for reply in Piece::ALL {
                let mut list = [0; MAX_MOVES];
                let (node, _) = Node::scratch(&pos, reply, &[], &mut list);
                for sq in pos.empty() {
                    let sd = pos.square_delta(sq);
                    assert_eq!(node.gain[sq.index()], sd.gain(reply, them));
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
