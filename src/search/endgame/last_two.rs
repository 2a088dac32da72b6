//! The last two plies, solved without the general machinery: the final
//! placement's value is the running difference plus its gain, so the last
//! ply needs no play/undo at all, and stops at the first move reaching beta.
//!
//! Both plies go square by square: one `square_delta` serves every piece
//! that may land on the square (and, on the second to last ply, the `play`).
//! In `standard` the second to last ply needs no scan at all: White's one
//! piece and Black's King are valued from a loss map kept from the last
//! such node ([`Replies`]).

use crate::attacks::{self, towards};
use crate::bitboard::Bitboard;
use crate::gains::points::with_piece_const;
use crate::position::SquareDelta;
use crate::search::endgame::node::{Running, Thread};
use crate::search::endgame::open::last_two::OpenThread;
use crate::search::endgame::square_scan::Best;
use crate::search::endgame::standard::replies::Replies;
use crate::types::{Piece, Placement, Square};
use crate::value::{INFINITE, SCALE, Value};
use crate::variant::{Moves, Variant, last_piece};

const NO_DELTA: SquareDelta = SquareDelta {
    own: [0; 5],
    loss: [0; 2],
};

/// The exact value of a position with at most two plies left.
#[inline]
pub fn solve(w: &mut impl OpenThread, alpha: Value, beta: Value, ply: usize) -> Value {
    match w.pos().plies_left() {
        0 => w.pos().diff() * SCALE,
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
fn last(w: &mut impl Thread, beta: Value, ply: usize) -> (Value, Option<Placement>) {
    let base = w.pos().diff();
    let us = w.pos().side_to_move().index();
    let moves = w.pos().legal_moves();
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
/// costs. In `standard`, which probes no table, [`TwoNode::killer`] does
/// both in one function ([`Two::solve`]): the node's values then stay where
/// they were made, not moved into the node and out again.
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
    /// In `standard` White's one piece and its squares come straight from
    /// the rules ([`last_piece`]), the other placements never listed.
    pub fn new(w: &impl Thread, alpha: Value, beta: Value, ply: usize) -> TwoNode {
        if w.pos().variant() == Variant::Standard
            && let Some((piece, targets)) = last_piece(w.pos())
        {
            let two = Two::new(w, piece, targets, alpha, beta, ply);
            return TwoNode::with(Moves::NONE, Some(two), alpha, beta, ply);
        }
        let moves = w.pos().legal_moves();
        let mut groups = moves.groups();
        let standard = match (w.pos().variant(), groups.next(), groups.next()) {
            (Variant::Standard, Some((piece, targets)), None) => {
                Some(Two::new(w, piece, targets, alpha, beta, ply))
            }
            _ => None,
        };
        TwoNode::with(moves, standard, alpha, beta, ply)
    }

    #[inline(always)]
    fn with(moves: Moves, standard: Option<Two>, alpha: Value, beta: Value, ply: usize) -> TwoNode {
        TwoNode {
            moves,
            standard,
            alpha,
            beta,
            ply,
        }
    }

    /// The value if a killer placement alone reaches beta; in `standard`
    /// the node's value whatever the killers do, as no table probe comes
    /// between ([`Two::solve`]).
    #[inline]
    pub fn killer(&mut self, w: &mut impl Thread) -> Option<Value> {
        let mut n = self.standard.take()?;
        Some(n.solve(w))
    }

    /// The node's value within (alpha, beta) (a bound outside), after
    /// [`TwoNode::killer`] if that did not decide it.
    #[inline]
    pub fn finish(self, w: &mut impl OpenThread) -> Value {
        match self.standard {
            Some(mut n) => n.solve(w),
            None if w.pos().variant() == Variant::Open => {
                crate::search::endgame::open::last_two::two(
                    w, self.moves, self.alpha, self.beta, self.ply,
                )
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
    seen: u64,
}

impl Two {
    #[inline(always)]
    fn new(
        w: &impl Thread,
        piece: Piece,
        targets: Bitboard,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Two {
        Two {
            piece,
            rest: targets,
            base: w.pos().diff(),
            empty: w.pos().empty(),
            run: Running::new(alpha, beta),
            ply,
            seen: 0,
        }
    }

    /// The node's value: the killers alone first, then everything else
    /// ([`Two::finish`]). A killer that does not cut costs little: `finish`
    /// would have tried it anyway, and the loss map made for it serves the
    /// rest.
    #[inline]
    fn solve(&mut self, w: &mut impl Thread) -> Value {
        // `standard`'s values, made on first use: a node whose killers are
        // not legal needs them only in `finish`.
        let mut replies = None;
        let mut cut = false;
        for t in w.killers().into_iter().flatten() {
            if !self.rest.has(t) {
                continue;
            }
            self.rest.0 &= !Bitboard::from_square(t).0;
            let r = replies.get_or_insert_with(|| self.near_replies(w));
            r.freshen(t);
            let g = r.gain(t);
            if self.try_exact(w, r, t, g) {
                cut = true;
                break;
            }
        }
        if replies.is_some() {
            w.losses().1.killer_cut(cut);
        }
        w.count(std::mem::take(&mut self.seen));
        if cut {
            return self.run.best;
        }
        let r = match replies {
            Some(mut r) => {
                r.settle(w.losses().1);
                r
            }
            None => self.replies(w),
        };
        self.finish(w, &r)
    }

    /// The node's [`Replies`], from the kept loss map.
    #[inline]
    fn replies(&self, w: &mut impl Thread) -> Replies {
        let (pos, losses) = w.losses();
        Replies::new(pos, self.piece, losses.update(pos))
    }

    /// The node's [`Replies`] for a killer: the kept loss map may miss one
    /// piece, valued on the killer's squares alone ([`Replies::freshen`]).
    #[inline]
    fn near_replies(&self, w: &mut impl Thread) -> Replies {
        let (pos, losses) = w.losses();
        let (map, placed) = losses.near(pos);
        Replies::near(pos, self.piece, map, placed)
    }

    /// Tries White's piece on `t` (gaining `g`) against every King reply;
    /// true if it reaches beta. Out of line: inlined, it crowded the loop
    /// of [`Two::finish`] out of registers (solve 10 5 wdl: 8309 M
    /// instructions inlined, 8256 M out of line).
    #[inline(never)]
    fn try_exact(&mut self, w: &mut impl Thread, r: &Replies, t: Square, g: i32) -> bool {
        self.seen += 1;
        let mut worst = INFINITE;
        let mut worst_k = None;
        for k in attacks::king(t) & self.empty {
            // The direction from `t` to `k`, from the step between them.
            let e = towards(t, k);
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

    /// The placements not tried yet, in square order: most of these nodes
    /// fail low and try every target, most of which a King reply's floor
    /// refutes ([`floored`]); the others are tried against the exact
    /// replies at once, so a node that cuts stops there. Sorting by gain
    /// first cost more than it saved (solve 8 4: 2352 M instructions
    /// sorted, 2210 M in square order; solve 9 6: 15302 M, 15270 M).
    fn finish(&mut self, w: &mut impl Thread, r: &Replies) -> Value {
        let white_lines = r.white_lines();
        let (refuted, widest) =
            with_piece_const!(self.piece, P => self.floors::<P>(w, r, &white_lines));
        // A floor refutes with one King reply valued.
        self.seen += 2 * refuted;
        if widest > i32::MIN {
            self.run.best = self.run.best.max((self.base + widest) * SCALE);
        }
        w.count(self.seen);
        self.run.value(w)
    }

    /// The loop of [`Two::finish`], White's piece `Piece::ALL[P]` fixed at
    /// compile time: the targets refuted by a floor, and the widest gap
    /// (White's gain less the King's floor, in points) among them.
    #[inline(always)]
    fn floors<const P: usize>(
        &mut self,
        w: &mut impl Thread,
        r: &Replies,
        white_lines: &[u64; 4],
    ) -> (u64, i32) {
        // In points, not values: a gap `g - floor` refutes if at most `top`.
        let mut top = self.top();
        let (mut refuted, mut widest) = (0, i32::MIN);
        for t in self.rest {
            let g = r.gain_as::<P>(t);
            match floored(r, t, self.empty, white_lines, g - top) {
                Some(floor) => {
                    widest = widest.max(g - floor);
                    refuted += 1;
                }
                None if self.try_exact(w, r, t, g) => {
                    let [first, _] = w.killers();
                    if first != Some(t) {
                        w.set_killers([Some(t), first]);
                    }
                    break;
                }
                // The exact try may have raised alpha.
                None => top = self.top(),
            }
        }
        (refuted, widest)
    }

    /// The largest gap (White's gain less the King's reply, in points)
    /// whose value is at most alpha.
    #[inline(always)]
    fn top(&self) -> i32 {
        self.run.alpha.div_euclid(SCALE) - self.base
    }
}

/// Refutes White's piece on `t` by a King reply's floor
/// ([`Replies::king_floor`]) if one reaches `need` (White's gain less
/// the most the node's alpha allows): that floor, the King's least gain.
/// The exact reply costs some eighty instructions, the floor ten.
#[inline(always)]
fn floored(
    r: &Replies,
    t: Square,
    empty: Bitboard,
    white_lines: &[u64; 4],
    need: i32,
) -> Option<i32> {
    for k in attacks::king(t) & empty {
        let e = towards(t, k);
        if white_lines[e & 3] >> t.index() & 1 != 0 {
            continue;
        }
        let floor = r.king_floor(k, e);
        if floor >= need {
            return Some(floor);
        }
    }
    None
}

/// Two plies left in any variant: every placement played, answered by
/// `last`, placements tried by decreasing gain. The mover holds one piece
/// (seven of eight placed, as every position string must have it), so the
/// list is one entry per target: 64 entries to clear, not one per code
/// (11% of `original`'s time at 10 plies left, see the commit).
fn two_generic(w: &mut impl Thread, moves: Moves, alpha: Value, beta: Value, ply: usize) -> Value {
    let Some((piece, targets)) = moves.groups().next() else {
        return w.pos().diff() * SCALE;
    };
    let us = w.pos().side_to_move().index();
    let mut deltas = [NO_DELTA; 64];
    let mut list = [(0i32, 0u8); 64];
    let mut n = 0;
    for sq in targets {
        let sd = w.pos().square_delta(sq);
        deltas[sq.index()] = sd;
        list[n] = (sd.gain(piece, us), sq.index() as u8);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut run = Running::new(alpha, beta);
    for &(_, s) in list.iter() {
        let sq = Square::from_index(s as usize);
        let m = Placement::new(piece, sq);
        let sd = deltas[sq.index()];
        let u = w.pos_mut().play_with(m, &sd);
        w.count(1);
        let v = -last(w, -run.alpha, ply + 1).0;
        w.pos_mut().undo(m, u);
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
    fn standard_two_nodes_match_playing_every_placement() {
        use crate::position::Position;
        use crate::search::history::Tables;
        use crate::search::test_worker::{agrees, with_worker};
        let mut tables = Tables::default();
        let start = Position::new(Variant::Standard);
        let mut rng = crate::testing::Rng(0x5EED_2B0D_F00D_1234);
        let checked = with_worker(&start, &mut tables, |w| {
            let mut checked = 0;
            for i in 0..60u8 {
                // Siblings share a start, as in the search: the kept loss map
                // and the killers carry over from one to the next.
                // Every other start has one ply fewer: its nodes differ by
                // Black's last piece alone, as a 3-left node's children do.
                let mut start = Position::new(Variant::Standard);
                while start.plies_left() > 3 + i % 2 {
                    rng.play(&mut start);
                }
                for _ in 0..8 {
                    let mut pos = start.clone();
                    while pos.plies_left() > 2 {
                        rng.play(&mut pos);
                    }
                    w.pos = pos.clone();
                    let want = two_generic(w, pos.legal_moves(), -INFINITE, INFINITE, 0);
                    let mut windows = [
                        (-INFINITE, INFINITE),
                        (want - 1, want + 1),
                        (want - 3 * SCALE, want - SCALE),
                        (want + SCALE, want + 3 * SCALE),
                        (want - SCALE, want),
                        (want, want + SCALE),
                    ];
                    // Any order: a killer that cut makes the next node value
                    // its killer from a map that misses a piece.
                    windows.rotate_left(rng.below(6));
                    for (a, b) in windows {
                        let got = solve(w, a, b, 0);
                        assert!(
                            agrees(got, want, (a, b)),
                            "{} ({a}, {b}): {got} {want}",
                            pos.fen()
                        );
                        checked += 1;
                    }
                }
            }
            checked
        });
        assert!(checked >= 2000, "{checked}");
    }
}
