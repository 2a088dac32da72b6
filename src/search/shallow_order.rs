//! `original`'s nodes near the root of an exact search, ordered by a
//! shallow search once their first move has not cut.
//!
//! There the moves are ordered by fewest replies ([`super::moves`]), and
//! the losing side's nodes that cut do so on their first move only 44-66%
//! of the time (orig12-1, 4, 6 and 8 plies left; Black's 90-95%). Near
//! the root, where a node's subtree is largest, a node whose first move
//! did not cut has each other move's child searched [`DEPTH`] plies deep
//! with a full window (the evaluation at its horizon) and tries them best
//! first by that value, ties in the picker's order. The children's table
//! entries, moves included, then order their own exact searches too.
//!
//! Measured with `bench suite`, one thread, the other core busy, against
//! the same binary without it (nodes; every value and move right):
//! - orig10-*: 27.18 M -> 21.36 M.
//! - orig12-*, 256 MiB: 740.8 M -> 439.6 M, 89.9 s -> 55.8 s.
//! - orig13-2, 1 GiB: 1477.5 M -> 855.7 M, 211.8 s -> 118.1 s.
//!
//! Only the top [`PLIES`] + 1 plies of the search, measured by the plies
//! left it starts at: 8 (ply 4 of orig12) gave 556.3 M, 7 (ply 5) 631.6 M;
//! on orig13-2, 9 (ply 4) gave 1180.4 M and 11 (ply 2) 928.1 M. Lower down, the picker's order
//! is the better one, and the shallow searches cost more than they save.
//! Not [`DEPTH`] 1 (orig12 from 7 plies left: 715.9 M with depth 2 above
//! 9) nor 3 or 4 (orig10: 32.0 M and 42.6 M from 8 plies left, against
//! 21.6 M at 2); not before the first move where there is no table move
//! (orig12: 437.2 M, the same); nor without the shallow searches' table
//! entries (orig12: 606.2 M). Not in `standard`, where cut nodes cut on
//! their first move 92-99% of the time: std11-* 163.1 M -> 203.3 M from 9
//! plies left.

use super::worker::Worker;
use crate::types::Placement;
use crate::value::INFINITE;
use crate::variant::Variant;

/// How deep each child is searched to order them.
const DEPTH: u8 = 2;

/// The deepest ply (from the root) whose nodes are ordered so.
const PLIES: usize = 3;

/// The fewest plies left at such a node: its children's searches stay
/// shallow (not within two plies of the end, [`super::depth::reach`]).
const MIN_LEFT: u8 = 7;

impl Worker<'_> {
    /// Does the node at `ply`, searched to the end or not (`to_end`),
    /// order its moves after the first by a shallow search?
    pub(super) fn orders_by_shallow(&self, to_end: bool, ply: usize) -> bool {
        to_end
            && ply <= PLIES
            && self.pos.variant() == Variant::Original
            && self.pos.plies_left() >= MIN_LEFT
    }

    /// Orders `moves` (of the node at `ply`) best first by a search of each
    /// child [`DEPTH`] plies deep, ties kept in their order.
    pub(super) fn shallow_order(&mut self, moves: &mut [Placement], ply: usize) {
        let mut valued = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            let u = self.pos.play(m);
            valued.push((-self.search(DEPTH, -INFINITE, INFINITE, ply + 1, false), m));
            self.pos.undo(m, u);
        }
        // A stable sort: ties keep their order.
        valued.sort_by_key(|&(v, _)| std::cmp::Reverse(v));
        for (slot, (_, m)) in moves.iter_mut().zip(valued) {
            *slot = m;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::{agrees, alpha_beta, with_worker};
    use crate::testing::Rng;

    #[test]
    fn the_moves_come_back_all_of_them_best_first() {
        let mut rng = Rng(0x5AA1_0001);
        for _ in 0..20 {
            let pos = rng.position(Variant::Original, 9);
            with_worker(&pos, &mut Tables::default(), |w| {
                assert!(w.orders_by_shallow(true, PLIES) && !w.orders_by_shallow(false, 0));
                let legal = pos.legal_moves().to_vec();
                let mut moves = legal.clone();
                w.shallow_order(&mut moves, 0);
                let mut sorted = moves.clone();
                sorted.sort_by_key(|m| crate::codes::encode(*m));
                let mut want = legal;
                want.sort_by_key(|m| crate::codes::encode(*m));
                assert_eq!(sorted, want, "{}", pos.fen());
                // Searched again, through the entries the first searches
                // left: the same values, best first.
                let values: Vec<_> = moves
                    .iter()
                    .map(|&m| {
                        let u = w.pos.play(m);
                        let v = -w.search(DEPTH, -INFINITE, INFINITE, 1, false);
                        w.pos.undo(m, u);
                        v
                    })
                    .collect();
                assert!(
                    values.windows(2).all(|p| p[0] >= p[1]),
                    "{}: {values:?}",
                    pos.fen()
                );
            });
        }
    }

    #[test]
    fn searches_ordered_so_agree_with_plain_alpha_beta() {
        let mut rng = Rng(0x5AA1_0002);
        for i in 0..12 {
            let left = 7 + (i % 2) as u8;
            let pos = rng.position(Variant::Original, left);
            let want = alpha_beta(&mut pos.clone(), -INFINITE, INFINITE);
            for window in [
                (want - 1, want + 1),
                (want, want + 1),
                (want - 1, want),
                (-1, 1),
            ] {
                let got = with_worker(&pos, &mut Tables::default(), |w| {
                    w.search(left, window.0, window.1, 0, window.1 - window.0 > 1)
                });
                assert!(
                    agrees(got, want, window),
                    "{} {window:?}: {got}, value {want}",
                    pos.fen()
                );
            }
        }
    }
}
