//! The last two plies, solved without the general machinery: the final
//! placement's value is the running difference plus its gain, so the last
//! ply needs no play/undo at all, and stops at the first move reaching beta.
//!
//! Both plies go square by square: one `square_delta` serves every piece
//! that may land on the square (and, on the second to last ply, the `play`).
//! In `standard` the second to last ply needs no scan at all: White's one
//! piece and Black's King are valued from a loss map kept from the last
//! such node ([`Replies`]).

use super::moves::{MAX_MOVES, decode, encode};
use super::replies::Replies;
use super::scan::Best;
use super::worker::{Running, Worker};
use super::{INFINITE, SCALE, Value};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::SquareDelta;
use crate::types::{Piece, Placement, Square};
use crate::variant::{Moves, Variant};

/// `TOWARDS[k + 9 - t]`: the direction (of [`attacks::DIRECTIONS`]) from a
/// square `k` to its neighbour `t`, by the step `k - t` in -9..=9.
const TOWARDS: [u8; 19] = {
    let mut t = [0u8; 19];
    let mut d = 0;
    while d < 8 {
        t[(9 - attacks::step(d)) as usize] = d as u8;
        d += 1;
    }
    t
};

const NO_DELTA: SquareDelta = SquareDelta {
    own: [0; 5],
    loss: [0; 2],
};

/// The exact value of a position with at most two plies left.
#[inline]
pub fn solve(w: &mut Worker, alpha: Value, beta: Value, ply: usize) -> Value {
    match w.pos.plies_left() {
        0 => w.pos.diff() * SCALE,
        1 => last(w, beta, ply).0,
        _ => {
            let mut node = TwoNode::new(w, alpha, beta, ply);
            match node.killer(w) {
                Some(v) => v,
                None => node.finish(w),
            }
        }
    }
}

/// The best final placement's value and the placement, stopping early once
/// the value reaches `beta` ([`Best::scan`]).
fn last(w: &mut Worker, beta: Value, ply: usize) -> (Value, Option<Placement>) {
    let base = w.pos.diff();
    let us = w.pos.side_to_move().index();
    let moves = w.pos.legal_moves();
    let mut best = Best::NONE;
    best.scan(w, &moves, moves.targets(), None, beta, |piece, _, sd| {
        (base + sd.gain(piece, us)) * SCALE
    });
    best.finish(w, ply)
}

/// A node with two plies left, searched in two steps: the killer alone
/// ([`TwoNode::killer`]), then everything else ([`TwoNode::finish`]). In
/// the variants other than `standard` the caller probes the table between
/// them: the killer decides most of these nodes for less than a table miss
/// costs.
pub struct TwoNode {
    moves: Moves,
    /// `standard`'s solver; `None` for the other variants.
    standard: Option<Two>,
    alpha: Value,
    beta: Value,
    ply: usize,
}

impl TwoNode {
    /// The node at the current position (two plies left), window (alpha, beta).
    #[inline(always)]
    pub fn new(w: &Worker, alpha: Value, beta: Value, ply: usize) -> TwoNode {
        let moves = w.pos.legal_moves();
        let mut groups = moves.groups();
        let standard = match (w.pos.variant(), groups.next(), groups.next()) {
            (Variant::Standard, Some((piece, targets)), None) => {
                Some(Two::new(w, piece, targets, alpha, beta, ply))
            }
            _ => None,
        };
        TwoNode {
            moves,
            standard,
            alpha,
            beta,
            ply,
        }
    }

    /// The value if a killer placement alone reaches beta. A killer that
    /// does not costs little: `finish` would have tried it anyway, and the
    /// loss map made for it serves the rest.
    #[inline]
    pub fn killer(&mut self, w: &mut Worker) -> Option<Value> {
        let n = self.standard.as_mut()?;
        let mut cut = false;
        let killers = w.tables.killers;
        for t in killers.into_iter().flatten() {
            if !n.rest.has(t) {
                continue;
            }
            n.rest.0 &= !Bitboard::from_square(t).0;
            let r = n.replies(w);
            let g = r.gain(t);
            if n.try_mapped(w, t, g) {
                cut = true;
                break;
            }
        }
        w.count(std::mem::take(&mut n.seen));
        cut.then_some(n.run.best)
    }

    /// The node's value within (alpha, beta) (a bound outside), after
    /// [`TwoNode::killer`] if that did not decide it.
    #[inline]
    pub fn finish(self, w: &mut Worker) -> Value {
        match self.standard {
            Some(mut n) => n.finish(w),
            None if w.pos.variant() == Variant::Open => {
                super::open_end::two(w, self.moves, self.alpha, self.beta, self.ply)
            }
            None => two_generic(w, self.moves, self.alpha, self.beta, self.ply),
        }
    }
}

/// The search of one `standard` node with two plies left: White places its
/// one remaining piece, then Black's King must touch it. Both are valued
/// from the node's loss map ([`Replies`]), so nothing is played.
struct Two {
    piece: Piece,
    /// White's placements not tried yet.
    rest: Bitboard,
    base: i32,
    empty: Bitboard,
    run: Running,
    ply: usize,
    /// Made on first use: a node whose killers are not legal needs it
    /// only in `finish`.
    replies: Option<Replies>,
    seen: u64,
}

impl Two {
    #[inline(always)]
    fn new(
        w: &Worker,
        piece: Piece,
        targets: Bitboard,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Two {
        Two {
            piece,
            rest: targets,
            base: w.pos.diff(),
            empty: w.pos.empty(),
            run: Running::new(alpha, beta),
            ply,
            replies: None,
            seen: 0,
        }
    }

    /// The node's [`Replies`], made on first use.
    #[inline]
    fn replies(&mut self, w: &mut Worker) -> &Replies {
        let piece = self.piece;
        self.replies
            .get_or_insert_with(|| Replies::new(&w.pos, piece, w.losses.update(&w.pos)))
    }

    /// Tries White's piece on `t` (gaining `g`) against every King reply
    /// (after [`Two::replies`]); true if it reaches beta.
    #[inline]
    fn try_mapped(&mut self, w: &mut Worker, t: Square, g: i32) -> bool {
        self.seen += 1;
        let Some(r) = &self.replies else { return false };
        let mut worst = INFINITE;
        let mut worst_k = None;
        for k in attacks::king(t) & self.empty {
            // The direction from `t` to `k`, from the step between them.
            let e = TOWARDS[t.index() + 9 - k.index()] as usize;
            self.seen += 1;
            let v = (self.base + g - r.king(t, k, e)) * SCALE;
            if v < worst {
                worst = v;
                worst_k = Some(k);
                if v <= self.run.alpha {
                    break;
                }
            }
        }
        // Rule 4 leaves every White placement a neighbour for the King.
        let Some(k) = worst_k else { return false };
        w.leaf_line(self.ply + 1, Placement::new(Piece::King, k));
        self.run
            .take(w, self.ply, Placement::new(self.piece, t), worst)
    }

    /// As [`Two::try_mapped`], but a King reply's floor first
    /// ([`Replies::king_floor`]): most targets of a node that fails low
    /// fall to the first floor, for a fraction of the exact reply's cost.
    /// The value they return is then a looser upper bound, still below alpha.
    #[inline]
    fn try_floored(&mut self, w: &mut Worker, t: Square, g: i32, white_lines: &[u64; 4]) -> bool {
        let Some(r) = &self.replies else { return false };
        for k in attacks::king(t) & self.empty {
            let e = TOWARDS[t.index() + 9 - k.index()] as usize;
            if white_lines[e & 3] >> t.index() & 1 != 0 {
                continue;
            }
            let v = (self.base + g - r.king_floor(k, e)) * SCALE;
            if v <= self.run.alpha {
                self.seen += 2;
                self.run.best = self.run.best.max(v);
                return false;
            }
        }
        self.try_mapped(w, t, g)
    }

    /// The placements not tried yet, by decreasing gain, valued from one
    /// loss map rather than a scan per square: most of these nodes try them
    /// all.
    fn finish(&mut self, w: &mut Worker) -> Value {
        // (gain + OFFSET) << 6 | square: sorting plain integers is cheaper.
        const OFFSET: i32 = 1 << 12;
        let rest = self.rest;
        let r = self.replies(w);
        let mut list = [0u32; 64];
        let mut len = 0;
        let mut top = 0;
        for t in rest {
            let g = r.gain(t);
            list[len] = ((g + OFFSET) as u32) << 6 | t.index() as u32;
            top = top.max(list[len]);
            len += 1;
        }
        let white_lines = r.white_lines();
        let list = &mut list[..len];
        // If no gain reaches alpha before the King's reply (which nearly
        // always gains), every target will most likely be tried: then
        // their order does not matter.
        if (self.base + (top >> 6) as i32 - OFFSET) * SCALE > self.run.alpha {
            list.sort_unstable();
        }
        for &x in list.iter().rev() {
            let t = Square::from_index((x & 63) as usize);
            if self.try_floored(w, t, (x >> 6) as i32 - OFFSET, &white_lines) {
                let [first, _] = w.tables.killers;
                if first != Some(t) {
                    w.tables.killers = [Some(t), first];
                }
                break;
            }
        }
        w.count(self.seen);
        self.run.value(w)
    }
}

/// Two plies left in any variant: every placement played, answered by
/// `last`, placements tried by decreasing gain.
fn two_generic(w: &mut Worker, moves: Moves, alpha: Value, beta: Value, ply: usize) -> Value {
    let us = w.pos.side_to_move().index();
    let mut deltas = [NO_DELTA; 64];
    let mut list = [(0, 0u16); MAX_MOVES];
    let mut n = 0;
    for sq in moves.targets() {
        let sd = w.pos.square_delta(sq);
        deltas[sq.index()] = sd;
        for (piece, b) in moves.groups() {
            if b.has(sq) {
                list[n] = (sd.gain(piece, us), encode(Placement::new(piece, sq)));
                n += 1;
            }
        }
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut run = Running::new(alpha, beta);
    for &(_, code) in list.iter() {
        let Some(m) = decode(code) else { continue };
        let sd = deltas[m.square.index()];
        let u = w.pos.play_with(m, &sd);
        w.count(1);
        let v = -last(w, -run.alpha, ply + 1).0;
        w.pos.undo(m, u);
        if run.take(w, ply, m, v) {
            break;
        }
    }
    run.value(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn towards_points_from_each_square_to_its_neighbour() {
        for t in Square::all() {
            for k in attacks::king(t) {
                let d = TOWARDS[k.index() + 9 - t.index()] as usize;
                let first = attacks::RAYS[d][k.index()] & attacks::king(k).0;
                assert_eq!(first, Bitboard::from_square(t).0, "{k} -> {t}");
            }
        }
    }
}
