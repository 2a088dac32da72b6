//! One search thread: principal variation search with a shared table, exact
//! whenever the depth reaches the end of the game.

pub use super::shared::Shared;

use super::depth::{reach, reduction};
use super::endgame::{OpenThread, Thread, last_two};
use super::history::Tables;
use super::moves::Picker;
use super::report::STATS_EVERY;
use super::three_left::{self, ThreeLeftThread};
use super::tt::{Tt, TtBound};
use super::{horizon, in_flight};
use crate::bitboard::Bitboard;
use crate::eval::evaluate;
use crate::gains::kept_loss_map::KeptLosses;
use crate::gains::offers::Frame;
use crate::position::Position;
use crate::search::endgame::open::four_left_bound as open_four;
use crate::search::endgame::open::last_two::Node;
use crate::search::endgame::open::three_left::Three;
use crate::search::endgame::open::three_left_bound as open_bound;
use crate::search::endgame::standard::four_left_bound::{self, Covered};
use crate::symmetry;
use crate::types::{Piece, Placement, Square};
use crate::value::{INFINITE, SCALE, Value};
use crate::variant::Variant;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// How often (in nodes) a thread publishes its count and the main thread
/// looks at the clock: about 50 microseconds at 20 M nodes/s.
const POLL: u64 = 1024;

/// From this many plies left, a node searched to the end looks for an
/// enhanced transposition cutoff among its children's table entries
/// ([`Worker::transposed_cut`]) before searching any of them. From 5
/// instead: 2% fewer nodes on 16 suite positions (564.6 M -> 553.3 M) but
/// 4.5% more CPU time on `standard` 10 and 11 plies left (the median of
/// five alternating pairs); from 7: more nodes (211.0 M -> 215.4 M) and
/// 1.6% more CPU time.
const ETC_FROM: u8 = 6;

/// Is the node at `ply` most likely one where every move fails low, `nth`
/// giving by ply the index of the move that led there in its parent's
/// loop? The first child of a node that was not its parent's first: that
/// parent most likely cuts on it (it is the expected cut node under an
/// expected all node), so the child must refute every move. With the
/// 4-left ceiling taken before the first child there (solve 12 12 wdl,
/// side by side: mean 14.259 s -> 12.783 s, 1.74 G -> 1.42 G nodes); where
/// it is wrong, the node cuts and the ceiling was spent for nothing (solve
/// 12 2 wdl, two White wins: 3.4-3.7 s -> 3.8-4.2 s).
#[inline]
fn expected_all(nth: &[u16; 18], ply: usize) -> bool {
    ply >= 2 && nth[ply] == 0 && nth[ply - 1] > 0
}

/// The main thread's live report during a `go` (`Event::Stats`): when the
/// next one is due, and who takes the depth under way and the nodes.
pub struct Ticker<'a> {
    /// When the next report is due.
    pub next: Instant,
    /// Takes the depth under way and the nodes of all threads.
    pub report: &'a mut dyn FnMut(u8, u64),
}

/// One thread's search state.
pub struct Worker<'a> {
    /// The position searched (played forward and back).
    pub pos: Position,
    /// Shared state.
    pub shared: &'a Shared<'a>,
    /// This thread's histories.
    pub tables: &'a mut Tables,
    /// 0 for the main thread.
    pub id: usize,
    /// The root iteration under way: given up once another thread completes it.
    pub iteration: u8,
    /// The depth of the root iteration under way, whatever the lines.
    pub searching: u8,
    /// The main thread's live reports, if its `go` wants them.
    pub ticker: Option<Ticker<'a>>,
    /// Nodes visited by this thread.
    pub nodes: u64,
    published: u64,
    /// Deepest ply from the root reached.
    pub seldepth: u32,
    /// No late-move reductions: every move searched to the full depth.
    pub full_width: bool,
    /// The principal variation per ply from the root.
    pv: [[Option<Placement>; 17]; 18],
    pv_len: [usize; 18],
    /// The squares of the last `open` node with three plies left, which its
    /// children patch instead of valuing every square again.
    pub three: Box<Three>,
    /// The frame of the last `open` node with four plies left whose
    /// ceiling was taken.
    pub four: Box<Frame>,
    /// The loss map of the last `standard` node with two plies left.
    pub losses: KeptLosses,
    /// Where 4-left ceilings are worked out.
    pub ceiling: Box<four_left_bound::Scratch>,
    /// By ply, the index of the move that led there in its parent's loop
    /// ([`expected_all`]).
    nth: [u16; 18],
}

impl<'a> Worker<'a> {
    /// A worker searching `pos`.
    pub fn new(pos: Position, shared: &'a Shared<'a>, tables: &'a mut Tables, id: usize) -> Self {
        Worker {
            pos,
            shared,
            tables,
            id,
            iteration: u8::MAX,
            searching: 0,
            ticker: None,
            nodes: 0,
            published: 0,
            seldepth: 0,
            full_width: false,
            pv: [[None; 17]; 18],
            pv_len: [0; 18],
            three: Box::default(),
            four: Box::default(),
            losses: KeptLosses::default(),
            ceiling: Box::default(),
            nth: [0; 18],
        }
    }

    /// Makes the node at `ply` (at least 2) one expected to fail low
    /// ([`expected_all`]): the first child of a later move.
    #[cfg(test)]
    pub(super) fn expect_all_at(&mut self, ply: usize) {
        self.nth[ply - 1] = 1;
        self.nth[ply] = 0;
    }

    /// Has the search been told to stop?
    #[inline]
    pub fn aborted(&self) -> bool {
        self.shared.abort.load(Relaxed) || self.shared.completed.load(Relaxed) >= self.iteration
    }

    /// Nodes of all threads as far as known.
    pub fn total_nodes(&self) -> u64 {
        self.shared.nodes.load(Relaxed) - self.published + self.nodes
    }

    /// Counts a node; now and then publishes and checks the limits.
    #[inline]
    pub fn count(&mut self, n: u64) {
        self.nodes += n;
        if self.nodes - self.published >= POLL {
            self.poll();
        }
        if self.id == 0 && self.nodes >= self.shared.node_limit {
            self.shared.abort.store(true, Relaxed);
        }
    }

    #[cold]
    fn poll(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.published, Relaxed);
        self.published = self.nodes;
        self.shared.pace(self.id, self.nodes);
        if self.id != 0 {
            return;
        }
        let s = self.shared;
        if s.control.stopped()
            || s.nodes.load(Relaxed) >= s.node_limit
            || s.clock_counts() && s.budget.hard_passed()
        {
            s.abort.store(true, Relaxed);
        } else if let Some(t) = &mut self.ticker {
            let now = Instant::now();
            if now >= t.next {
                t.next = now + STATS_EVERY;
                (t.report)(self.searching, s.nodes.load(Relaxed));
            }
        }
    }

    /// The principal variation found from `ply`.
    pub fn pv(&self, ply: usize) -> Vec<Placement> {
        self.pv[ply][..self.pv_len[ply]]
            .iter()
            .flatten()
            .copied()
            .collect()
    }

    /// Records `m` followed by the line below it as the best line at `ply`.
    pub fn best_line(&mut self, ply: usize, m: Placement) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let n = self.pv_len[ply + 1];
        head[ply][0] = Some(m);
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// Searches the child after `m` (played by the caller) with PVS: a null
    /// window first unless `first`, the full window again if it lands inside.
    #[inline]
    pub fn child(
        &mut self,
        depth: u8,
        alpha: Value,
        beta: Value,
        ply: usize,
        first: bool,
    ) -> Value {
        let pv_node = beta - alpha > 1;
        if first {
            return -self.search(depth, -beta, -alpha, ply, pv_node);
        }
        let v = -self.search(depth, -alpha - 1, -alpha, ply, false);
        if pv_node && v > alpha && v < beta && !self.aborted() {
            return -self.search(depth, -beta, -alpha, ply, true);
        }
        v
    }

    /// A late move's child searched `r` plies shallower with a null window,
    /// and again at full depth (PVS) only if it beats alpha.
    fn reduced(&mut self, depth: u8, r: u8, alpha: Value, beta: Value, ply: usize) -> Value {
        let v = -self.search(depth - r, -alpha - 1, -alpha, ply, false);
        if v > alpha && !self.aborted() {
            return self.child(depth, alpha, beta, ply, false);
        }
        v
    }

    /// Records `m` alone (the game ends after it) as the best line at `ply`.
    pub fn leaf_line(&mut self, ply: usize, m: Placement) {
        self.pv[ply][0] = Some(m);
        self.pv_len[ply] = 1;
    }

    /// Two plies left: the endgame solver behind the table, which meets the
    /// many orders of the same placements here. Not in `standard`: there
    /// the probe after the killer cut 5% of these nodes (solve 10 1), less
    /// than the cache misses of probes and stores cost once the rest is
    /// valued from one loss map, and its entries pushed out deeper ones.
    /// Nor in `original`, whose last placement is part of the key: the
    /// probe saved 0.06% of the nodes of 8 positions 10 plies left
    /// (win/draw/loss) and cost 10% of the time.
    fn two_cached(&mut self, alpha: Value, beta: Value, ply: usize, pv_node: bool) -> Value {
        let mut node = last_two::TwoNode::new(self, alpha, beta, ply);
        // In `standard` the killer call decides the whole node.
        if let Some(v) = node.killer(self) {
            return v;
        }
        if self.pos.variant() == Variant::Original {
            return node.finish(self);
        }
        let key = self.pos.key();
        if let Some(h) = self.shared.tt.probe(key)
            && !pv_node
            && h.cuts(2, alpha, beta)
        {
            return h.value;
        }
        let v = node.finish(self);
        if !self.aborted() {
            self.store(key, alpha, beta, v, None, 2);
        }
        v
    }

    /// A child with two plies left, searched as [`Worker::search`] would
    /// (for callers that know the plies left and skip its other cases).
    #[inline]
    pub fn two(&mut self, alpha: Value, beta: Value, ply: usize) -> Value {
        if !self.enter(ply) {
            return 0;
        }
        self.two_cached(alpha, beta, ply, beta - alpha > 1)
    }

    /// Counts a node at `ply` and clears its line; false if the search has
    /// been told to stop (the node's value then means nothing).
    #[inline(always)]
    fn enter(&mut self, ply: usize) -> bool {
        self.count(1);
        self.pv_len[ply] = 0;
        if self.aborted() {
            return false;
        }
        self.seldepth = self.seldepth.max(ply as u32);
        true
    }

    /// The negamax value of the current position within (alpha, beta),
    /// `depth` plies deep (exact when `depth` reaches the end).
    pub fn search(
        &mut self,
        depth: u8,
        alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
    ) -> Value {
        if !self.enter(ply) {
            return 0;
        }
        let left = self.pos.plies_left();
        if left <= 1 {
            return last_two::solve(self, alpha, beta, ply);
        }
        if left == 2 {
            return self.two_cached(alpha, beta, ply, pv_node);
        }
        if depth == 0 {
            return evaluate(&self.pos, self.shared.tuned).clamp(-INFINITE + 1, INFINITE - 1);
        }
        let depth = reach(depth, left);
        let key = self.pos.key();
        let hit = if three_left::in_table(&self.pos, pv_node) {
            self.shared.tt.probe(key)
        } else {
            None
        };
        if let Some(h) = hit
            && !pv_node
            && h.cuts(depth, alpha, beta)
        {
            return h.value;
        }
        if depth == 1 && left >= 4 {
            let (v, m) =
                horizon::search(self, self.shared.tuned, beta, ply, hit.and_then(|h| h.mv));
            self.store(key, alpha, beta, v, m, 1);
            return v;
        }
        if depth >= left
            && left >= ETC_FROM
            && !pv_node
            && let Some((v, m)) = self.transposed_cut(beta)
        {
            self.store(key, alpha, beta, v, Some(m), depth);
            return v;
        }
        let tt_move = hit.and_then(|h| h.move_for(depth, left));
        if left == 3 && self.pos.variant() == Variant::Open {
            let tt = self.shared.tt;
            self.three.prefetch(&self.pos, tt_move, |k| tt.prefetch(k));
            self.three.set(&self.pos);
            self.three
                .prefetch(&self.pos, self.three.best_gains(), |k| tt.prefetch(k));
        }
        let marked = depth >= in_flight::MIN_DEPTH && self.shared.busy.enter(key);
        let v = if left == 3 && self.pos.variant() == Variant::Standard {
            three_left::search(self, alpha, beta, ply, pv_node, key, tt_move)
        } else {
            self.moves(depth, alpha, beta, ply, pv_node, key, tt_move)
        };
        if marked {
            self.shared.busy.leave(key);
        }
        v
    }

    /// Enhanced transposition cutoff: a child whose table entry, searched
    /// to the end, proves it worth at most -beta (so the move at least
    /// beta) cuts the node before any child is searched. Sound: the entry
    /// is an exact or upper bound on that very child (its exact key,
    /// [`Position::child_key`]) from a search to the end of the game.
    fn transposed_cut(&self, beta: Value) -> Option<(Value, Placement)> {
        let tt = self.shared.tt;
        let need = self.pos.plies_left() - 1;
        let moves = self.pos.legal_moves();
        for m in moves.iter() {
            tt.prefetch(self.pos.child_key(m));
        }
        moves.iter().find_map(|m| {
            let h = tt.probe(self.pos.child_key(m))?;
            let proves = h.depth >= need && h.bound != TtBound::Lower && -h.value >= beta;
            proves.then_some((-h.value, m))
        })
    }

    /// The move loop of [`Worker::search`]: every placement (those of a
    /// symmetric twin excepted), table move first, a child that another
    /// thread is in put off until the others are done.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn moves(
        &mut self,
        depth: u8,
        mut alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
        key: u64,
        tt_move: Option<Placement>,
    ) -> Value {
        let left = self.pos.plies_left() as usize;
        let to_end = depth as usize >= left;
        let killers = self.tables.cuts(left);
        let mut picker = Picker::with_killers(&self.pos, tt_move, killers, to_end);
        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut tried = [None; 8];
        let mut n = 0;
        let symmetries = symmetry::near_start(&self.pos);
        let spread = depth > in_flight::MIN_DEPTH && self.shared.busy.active();
        let mut later = [None; 16];
        let (mut n_later, mut next_later) = (0, 0);
        let (mut covered, mut cover_tried) = (Covered::default(), false);
        // A 4-left node expected to fail low (Black's proof), and an
        // `open` 3-left one, takes its ceiling before any child; others
        // after their first child. (`open` 3-left, the suite's open9 and
        // open10-3 rows, four runs each, median: 36.3 s -> 31.2 s and
        // 12.1 s -> 9.8 s; 442.8 M -> 311.2 M and 109.0 M -> 77.8 M
        // nodes.)
        let early = left == 4 || left == 3 && self.pos.variant() == Variant::Open;
        let cover_at = usize::from(!(early && to_end && expected_all(&self.nth, ply)));
        let mut by_shallow = self.orders_by_shallow(to_end, ply);
        loop {
            if n == 1 && std::mem::take(&mut by_shallow) {
                // The first move did not cut: the rest by a shallow search.
                let mut rest = picker.rest(&self.pos, self.tables, &self.three);
                self.shallow_order(&mut rest, ply);
                if self.aborted() {
                    return 0;
                }
                picker.hand_out(&rest);
            }
            if n == cover_at && !cover_tried {
                // The first child did not cut, or the node is expected to
                // fail low: most likely no child will cut. The
                // covered moves, where no symmetry skips any, are left out
                // of the picker at once: never scored nor sorted.
                cover_tried = true;
                covered = if left == 4 && self.pos.variant() == Variant::Open {
                    self.four.set(&self.pos);
                    open_four::ceiling(&self.pos, &self.four, self.tables.cuts(3), alpha)
                        .map_or_else(Covered::default, |(s, v)| Covered::of(s, v))
                } else if left == 3 && self.pos.variant() == Variant::Open {
                    open_bound::ceiling(&self.pos, self.three.frame(), alpha)
                        .map_or_else(Covered::default, |(s, v)| Covered::of(s, v))
                } else {
                    Covered::at(
                        &self.pos,
                        self.tables.cuts(3),
                        &mut self.ceiling,
                        &mut self.losses,
                        alpha,
                    )
                };
                if symmetries == 0 && picker.leave_out(|m| covered.has(m)) {
                    best = best.max(covered.value);
                }
            }
            let (m, may_defer) = match picker.pick_in(&self.pos, self.tables, &self.three) {
                Some(m) => (m, spread && n > 0 && n_later < later.len()),
                None if next_later < n_later => {
                    next_later += 1;
                    match later[next_later - 1] {
                        Some(m) => (m, false),
                        None => break,
                    }
                }
                None => break,
            };
            if symmetries != 0 && symmetry::redundant(symmetries, m) {
                continue;
            }
            if covered.has(m) {
                best = best.max(covered.value);
                continue;
            }
            if left >= 3 && (left != 4 || self.pos.variant() != Variant::Standard) {
                // The children most likely all searched: their table
                // entries are loaded while the ones before them are searched
                // (where they have any, [`three_left::in_table`]).
                for c in picker.to_load() {
                    self.shared.tt.prefetch(self.pos.key_after(c));
                }
            }
            self.nth[ply + 1] = n as u16;
            let u = self.pos.play(m);
            if may_defer && self.shared.busy.contains(self.pos.key()) {
                self.pos.undo(m, u);
                later[n_later] = Some(m);
                n_later += 1;
                continue;
            }
            let r = if self.full_width {
                0
            } else {
                reduction(depth, left as u8, n, pv_node)
            };
            let v = match r {
                0 => self.child(depth - 1, alpha, beta, ply + 1, n == 0),
                r => self.reduced(depth - 1, r, alpha, beta, ply + 1),
            };
            self.pos.undo(m, u);
            if self.aborted() {
                return 0;
            }
            if n < tried.len() {
                tried[n] = Some(m);
            }
            n += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(m);
                    alpha = v;
                    if pv_node {
                        self.best_line(ply, m);
                    }
                    if v >= beta {
                        let side = self.pos.side_to_move();
                        let prev = self.pos.last_placement();
                        self.tables
                            .update(side, prev, m, &tried[..n.min(tried.len())], depth);
                        self.tables.set_cut(left, m);
                        break;
                    }
                }
            }
        }
        if best == -INFINITE {
            return self.pos.diff() * SCALE;
        }
        if three_left::in_table(&self.pos, pv_node) {
            self.store(key, alpha0, beta, best, best_move, depth);
        }
        best
    }

    /// Stores `best`, found in the window (alpha, beta), in the table.
    fn store(
        &self,
        key: u64,
        alpha: Value,
        beta: Value,
        best: Value,
        best_move: Option<Placement>,
        depth: u8,
    ) {
        let bound = if best >= beta {
            TtBound::Lower
        } else if best > alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        let reduced = !self.full_width && depth < self.pos.plies_left();
        self.shared
            .tt
            .store_reduced(key, best_move, best, depth, bound, reduced);
    }
}

/// The exact nodes run on the worker's own state.
impl Thread for Worker<'_> {
    #[inline(always)]
    fn pos(&self) -> &Position {
        &self.pos
    }

    #[inline(always)]
    fn pos_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    #[inline(always)]
    fn count(&mut self, n: u64) {
        Worker::count(self, n);
    }

    #[inline(always)]
    fn leaf_line(&mut self, ply: usize, m: Placement) {
        Worker::leaf_line(self, ply, m);
    }

    #[inline(always)]
    fn best_line(&mut self, ply: usize, m: Placement) {
        Worker::best_line(self, ply, m);
    }

    #[inline(always)]
    fn killers(&self) -> [Option<Square>; 2] {
        self.tables.killers
    }

    #[inline(always)]
    fn set_killers(&mut self, killers: [Option<Square>; 2]) {
        self.tables.killers = killers;
    }

    #[inline(always)]
    fn losses(&mut self) -> (&Position, &mut KeptLosses) {
        (&self.pos, &mut self.losses)
    }
}

/// `standard`'s nodes with three plies left search through the worker.
impl ThreeLeftThread for Worker<'_> {
    #[inline(always)]
    fn tables(&self) -> &Tables {
        self.tables
    }

    #[inline(always)]
    fn tables_mut(&mut self) -> &mut Tables {
        self.tables
    }

    #[inline(always)]
    fn tt(&self) -> &Tt {
        self.shared.tt
    }

    #[inline(always)]
    fn aborted(&self) -> bool {
        Worker::aborted(self)
    }

    #[inline(always)]
    fn two(&mut self, alpha: Value, beta: Value, ply: usize) -> Value {
        Worker::two(self, alpha, beta, ply)
    }

    #[inline(always)]
    fn moves(
        &mut self,
        depth: u8,
        alpha: Value,
        beta: Value,
        ply: usize,
        pv_node: bool,
        key: u64,
        tt_move: Option<Placement>,
    ) -> Value {
        Worker::moves(self, depth, alpha, beta, ply, pv_node, key, tt_move)
    }
}

/// `open`'s nodes with two plies left borrow the worker's frames.
impl OpenThread for Worker<'_> {
    #[inline(always)]
    fn lend_node(&mut self, piece: Piece, reply: Piece, squares: Bitboard) -> Box<Node> {
        self.three.lend(&self.pos, piece, reply, squares)
    }

    #[inline(always)]
    fn give_back(&mut self, node: Box<Node>) {
        self.three.give_back(node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_all_node_is_expected_below_a_later_move_then_a_first_one() {
        let mut nth = [0u16; 18];
        // The root's children and the first line: no all node expected.
        assert!(!expected_all(&nth, 0) && !expected_all(&nth, 1) && !expected_all(&nth, 2));
        nth[3] = 4;
        assert!(expected_all(&nth, 4));
        // A later move of the node at 4: the next ply's first child is.
        nth[4] = 1;
        assert!(!expected_all(&nth, 4) && expected_all(&nth, 5));
        nth[4] = 0;
        nth[5] = 2;
        assert!(!expected_all(&nth, 5) && expected_all(&nth, 6));
    }
}
