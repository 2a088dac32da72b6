//! `standard`'s nodes with three plies left: Black places its last piece
//! but the King, then White its last piece, then Black's King. These nodes
//! are always searched to the end and nearly all cut on their first move
//! (97.7%, 1.4 children on average), so what the general move loop costs
//! around the two-ply solve below them weighs: a picker that clears a
//! 1280-byte list, children's table entries loaded that a `standard` node
//! with two plies left never probes, reduction and deferral bookkeeping.
//! Here the moves are one piece's targets, the table move and the killer
//! are checked against them, and the rest are scored only if both fail.
//! The order, the values, the table and the histories stay those of
//! [`ThreeLeftThread::moves`], but where a ceiling on the placements left after the
//! table move and the killer proves the node fails low
//! ([`three_left_bound::ceiling`]): those are then not searched, and the node's value
//! is a looser upper bound.
//!
//! A node kind of the worker's, beside it: it searches its children
//! through the worker and keeps its table and histories; only the
//! ceiling is exact arithmetic (`endgame/standard/three_left_bound.rs`).
//! What it needs of the worker is [`ThreeLeftThread`], which the worker
//! implements: this file never imports the worker, and the node is
//! generic over the trait, every call static and inlined as before.

use crate::bitboard::Bitboard;
use crate::codes::encode;
use crate::position::Position;
use crate::search::endgame::Thread;
use crate::search::endgame::standard::three_left_bound;
use crate::search::history::Tables;
use crate::search::tt::{Tt, TtBound};
use crate::types::{Piece, Placement, Square};
use crate::value::{INFINITE, SCALE, Value};
use crate::variant::Variant;

/// What a `standard` node with three plies left needs of the search thread
/// beyond [`Thread`]: its histories, its table, its stop flag and its two
/// searches below (the general move loop, and a child with two plies left).
pub trait ThreeLeftThread: Thread {
    /// This thread's histories.
    fn tables(&self) -> &Tables;
    /// This thread's histories, to update.
    fn tables_mut(&mut self) -> &mut Tables;
    /// The shared table.
    fn tt(&self) -> &Tt;
    /// Has the search been told to stop?
    fn aborted(&self) -> bool;
    /// A child with two plies left, searched as the general search would.
    fn two(&mut self, alpha: Value, beta: Value, ply: usize) -> Value;
    /// The general move loop, `depth` plies deep (the node's fallback).
    #[allow(clippy::too_many_arguments)]
    fn moves(
        &mut self,
        depth: u8,
        alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
        key: u64,
        tt_move: Option<Placement>,
    ) -> Value;
}

/// The plies left at these nodes (the index of their killer).
const LEFT: usize = 3;

/// Does a node of `pos` (a PV node or not) look up and keep table
/// entries? All but `standard`'s non-PV nodes with three plies left: 4.4%
/// of their lookups cut (6.3 M nodes, 279 thousand cuts, on the suite's
/// `std12-1`), each of the others cost a cache miss, and each entry kept
/// pushed out a deeper one. Without them the suite's `standard` positions
/// visit a few more nodes in less time (see the commit). PV nodes keep
/// theirs: a search of a position with three plies left names its move
/// from the root's entry.
#[inline(always)]
pub fn in_table(pos: &Position, pv_node: bool) -> bool {
    pv_node || !(pos.plies_left() as usize == LEFT && pos.variant() == Variant::Standard)
}

/// The value of the current `standard` position (three plies left) within
/// (alpha, beta), as [`ThreeLeftThread::moves`] finds it but for the ceiling,
/// `key` its table key and `tt_move` the table's move.
pub fn search(
    w: &mut impl ThreeLeftThread,
    alpha: Value,
    beta: Value,
    ply: usize,
    pv_node: bool,
    key: u64,
    tt_move: Option<Placement>,
) -> Value {
    let window = (alpha, beta, ply, pv_node);
    search_with(w, window, key, tt_move, true)
}

/// [`search`], with or without the ceiling of the placements left after
/// the table move and the killer ([`three_left_bound::ceiling`]): without it
/// the node is searched exactly as [`ThreeLeftThread::moves`] does.
fn search_with(
    w: &mut impl ThreeLeftThread,
    (alpha, beta, ply, pv_node): (Value, Value, usize, bool),
    key: u64,
    tt_move: Option<Placement>,
    ceiling: bool,
) -> Value {
    let moves = w.pos().legal_moves();
    let mut groups = moves.groups();
    // Black holds its King and one other piece, and may not place the King
    // yet: one group. Anything else goes the general way.
    let (Some((piece, targets)), None) = (groups.next(), groups.next()) else {
        return w.moves(3, alpha, beta, ply, pv_node, key, tt_move);
    };
    let legal = |m: Option<Placement>| m.filter(|m| m.piece == piece && targets.has(m.square));
    let tt = legal(tt_move);
    // The latest cut that may stand here: the killer, or one before it
    // where that one's square is taken (mostly by a White placement on the
    // square of the reply that a 4-left ceiling assumed).
    let killer = w
        .tables()
        .cuts(LEFT)
        .into_iter()
        .find_map(|m| legal(m).filter(|&k| Some(k) != tt));
    let mut node = Node {
        alpha0: alpha,
        alpha,
        beta,
        best: -INFINITE,
        best_move: None,
        tried: [None; 8],
        n: 0,
        ply,
        pv_node,
    };
    let mut done = false;
    for m in [tt, killer].into_iter().flatten() {
        match node.try_move(w, m) {
            Step::Next => {}
            Step::Stop => return 0,
            Step::Cut => {
                done = true;
                break;
            }
        }
    }
    if !done {
        let mut rest = targets;
        for m in [tt, killer].into_iter().flatten() {
            rest.0 &= !Bitboard::from_square(m.square).0;
        }
        let found = if ceiling {
            let killers = w.killers();
            let (pos, losses) = w.losses();
            three_left_bound::ceiling(pos, killers, losses, piece, rest, node.alpha)
        } else {
            None
        };
        if let Some((v, others)) = found {
            // The placements it covers cannot raise alpha: only the
            // others are searched.
            node.best = node.best.max(v);
            rest = others;
        }
        if node.by_history(w, piece, rest) {
            return 0;
        }
    }
    node.finish(w, key)
}

/// What one move's search says about the loop.
enum Step {
    /// Go on with the next move.
    Next,
    /// The move reached beta.
    Cut,
    /// The search was stopped: the node's value means nothing.
    Stop,
}

/// The running state of the move loop.
struct Node {
    alpha0: Value,
    alpha: Value,
    beta: Value,
    best: Value,
    best_move: Option<Placement>,
    /// The first moves searched, for the history update.
    tried: [Option<Placement>; 8],
    n: usize,
    ply: usize,
    pv_node: bool,
}

impl Node {
    /// Plays `m`, searches its child (PVS, the first with the full window)
    /// and takes its value, as [`ThreeLeftThread::moves`] does.
    #[inline]
    fn try_move(&mut self, w: &mut impl ThreeLeftThread, m: Placement) -> Step {
        let u = w.pos_mut().play(m);
        let v = self.child(w);
        w.pos_mut().undo(m, u);
        if w.aborted() {
            return Step::Stop;
        }
        if self.n < self.tried.len() {
            self.tried[self.n] = Some(m);
        }
        self.n += 1;
        if v > self.best {
            self.best = v;
            if v > self.alpha {
                self.best_move = Some(m);
                self.alpha = v;
                if self.pv_node {
                    w.best_line(self.ply, m);
                }
                if v >= self.beta {
                    let side = w.pos().side_to_move();
                    let prev = w.pos().last_placement();
                    let tried = &self.tried[..self.n.min(self.tried.len())];
                    w.tables_mut().update(side, prev, m, tried, LEFT as u8);
                    w.tables_mut().set_cut(LEFT, m);
                    return Step::Cut;
                }
            }
        }
        Step::Next
    }

    /// The child's value (the worker's PVS child with two plies left).
    #[inline]
    fn child(&self, w: &mut impl ThreeLeftThread) -> Value {
        let (alpha, beta, ply) = (self.alpha, self.beta, self.ply + 1);
        if self.n == 0 {
            return -w.two(-beta, -alpha, ply);
        }
        let v = -w.two(-alpha - 1, -alpha, ply);
        if beta - alpha > 1 && v > alpha && v < beta && !w.aborted() {
            return -w.two(-beta, -alpha, ply);
        }
        v
    }

    /// Searches `piece` on each of `rest` by history (the picker's order:
    /// the best first by selection, the others sorted once it did not cut);
    /// true if the search was stopped.
    fn by_history(&mut self, w: &mut impl ThreeLeftThread, piece: Piece, rest: Bitboard) -> bool {
        let history = w
            .tables()
            .scores(w.pos().side_to_move(), w.pos().last_placement());
        // `score << 9 | (511 - code)`: distinct keys, ties to the lower code.
        let mut list = [0i32; 64];
        let mut len = 0;
        for sq in rest {
            let code = encode(Placement::new(piece, sq));
            list[len] = history.score(code) << 9 | (511 - code as i32);
            len += 1;
        }
        let list = &mut list[..len];
        if len == 0 {
            return false;
        }
        let top = (0..len).fold(0, |b, i| if list[i] > list[b] { i } else { b });
        list.swap(0, top);
        for i in 0..len {
            if i == 1 {
                // The best did not cut: the node most likely tries them
                // all, and one sort beats selecting each in turn.
                list[1..].sort_unstable_by(|a, b| b.cmp(a));
            }
            let code = 511 - (list[i] & 511) as usize;
            let m = Placement::new(piece, Square::from_index(code % 64));
            match self.try_move(w, m) {
                Step::Next => {}
                Step::Stop => return true,
                Step::Cut => return false,
            }
        }
        false
    }

    /// The node's value, kept in the table at a PV node ([`in_table`]).
    fn finish(&self, w: &mut impl ThreeLeftThread, key: u64) -> Value {
        if self.best == -INFINITE {
            return w.pos().diff() * SCALE;
        }
        if in_table(w.pos(), self.pv_node) {
            let bound = if self.best >= self.beta {
                TtBound::Lower
            } else if self.best > self.alpha0 {
                TtBound::Exact
            } else {
                TtBound::Upper
            };
            w.tt()
                .store(key, self.best_move, self.best, LEFT as u8, bound);
        }
        self.best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::search::history::Tables;
    use crate::search::test_worker::{agrees, killers, windows_above, with_worker};
    use crate::testing::Rng;
    use crate::variant::Variant;

    /// What a search leaves behind: value, nodes, killer, table entry.
    type Trace = (
        Value,
        u64,
        Option<Placement>,
        Option<crate::search::tt::TtHit>,
    );

    /// Searches `pos` (three plies left) with [`search_with`] (`fast`:
    /// with the ceiling or not) or the general loop (`None`), the worker's
    /// histories in `tables`.
    fn run(
        pos: &Position,
        tables: &mut Tables,
        window: (Value, Value),
        tt: Option<Placement>,
        fast: Option<bool>,
    ) -> Trace {
        with_worker(pos, tables, |w| {
            let (alpha, beta) = window;
            let pv = beta - alpha > 1;
            let key = pos.key();
            let v = match fast {
                Some(ceiling) => search_with(w, (alpha, beta, 0, pv), key, tt, ceiling),
                None => w.moves(3, alpha, beta, 0, pv, key, tt),
            };
            assert_eq!(w.pos, *pos);
            let (nodes, killer) = (w.nodes, w.tables.cut[LEFT]);
            (v, nodes, killer, w.shared.tt.probe(key))
        })
    }

    #[test]
    fn same_values_nodes_killers_and_entries_as_the_general_loop() {
        let mut rng = Rng(0x5DEE_CE66_D1CE_4E5B);
        let (mut fast_tables, mut slow_tables) = (Tables::default(), Tables::default());
        let mut cuts = 0;
        for i in 0..400 {
            let pos = rng.position(Variant::Standard, 3);
            let moves = pos.legal_moves().to_vec();
            // A table move: none, legal, or one of the other side's.
            let tt = match i % 3 {
                0 => None,
                1 => Some(moves[rng.below(moves.len())]),
                _ => Some(Placement::new(Piece::King, pos.empty().first().unwrap())),
            };
            if i % 4 == 0 {
                let killer = Some(moves[rng.below(moves.len())]);
                fast_tables.cut[LEFT] = killer;
                slow_tables.cut[LEFT] = killer;
            }
            let d = pos.diff() * SCALE;
            let windows = [
                (-INFINITE, INFINITE),
                (d - 1, d),
                (d + 300, d + 301),
                (d - 500, d - 499),
                (d - 200, d + 200),
            ];
            let window = windows[rng.below(windows.len())];
            let fast = run(&pos, &mut fast_tables, window, tt, Some(false));
            let slow = run(&pos, &mut slow_tables, window, tt, None);
            assert_eq!(fast, slow, "{} {window:?} {tt:?}", pos.fen());
            cuts += usize::from(fast.0 >= window.1);
        }
        // Both cut and all nodes were compared.
        assert!(cuts > 50 && cuts < 350, "{cuts}");
    }

    #[test]
    fn ceilings_keep_the_values_of_the_general_loop() {
        let mut rng = Rng(0x3C31_1196_D1CE_4E5B);
        let (mut tables, mut plain) = (Tables::default(), Tables::default());
        let (mut spared, mut lows) = (0, 0);
        for _ in 0..2000 {
            let pos = rng.position(Variant::Standard, 3);
            let want = run(&pos, &mut tables, (-INFINITE, INFINITE), None, None).0;
            let windows = windows_above(want);
            let window = windows[rng.below(windows.len())];
            tables.killers = killers(&mut rng, &pos);
            plain.killers = tables.killers;
            let got = run(&pos, &mut tables, window, None, Some(true));
            let exact = run(&pos, &mut plain, window, None, Some(false));
            assert!(agrees(got.0, want, window), "{} {window:?}", pos.fen());
            spared += usize::from(got.1 < exact.1);
            lows += usize::from(want <= window.0);
        }
        // The ceiling spared children in many of the nodes that fail low.
        assert!(lows > 1000 && spared > 150, "{lows} {spared}");
    }
}
