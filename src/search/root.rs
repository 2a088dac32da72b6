//! The root: iterative deepening with aspiration windows and MultiPV, run by
//! every thread; only the main thread reports.

use super::depth::reach;
use super::moves::Picker;
use super::shared::RootMove;
use super::worker::Worker;
use crate::symmetry;
use crate::types::Placement;
use crate::value::{INFINITE, Value};

/// The depth of the search that gives MTD(f) its first guess. A pass that
/// fails low costs 10-100 times one that fails high, so a closer guess pays
/// far more than its search costs: 5 against 4, nodes of solve 8 48 / 9 24 /
/// 10 12 / 11 3 -2.6% / -3.7% / -7.2% / -20.3% (6 and 7 were mixed).
///
/// The guess search is full width (no late-move reductions): it costs
/// ~130 thousand nodes instead of ~30, and its table moves order the
/// exact passes' upper plies better: nodes of solve 8 48 / 9 24 / 10 12 /
/// 11 3 -14.5% / -10.2% / -15.4% / -3.3%. (Full width, depths 4 / 6 / 7
/// gave 10 12: +15% / +1.7% / -5.1%, 9 24: +7.6% / -17.7% / +24% against 5
/// with reductions.)
///
/// Measured again on the suite (`bench suite`, one thread, 256 MiB, after
/// 118b031): guesses of depth 5 / 7 / 8 visit 590.6 M / 572.1 M / 573.8 M
/// nodes at 12 plies left but 163.1 M / 142.6 M / 188.5 M at 11, each
/// position up or down by up to 3x (std12-2: 224.9 M at 5, 654.3 M at 6):
/// the table moves of the guess reorder the tree, no depth is better on
/// the whole. Nor a shallow search for a move at the nodes searched to the
/// end without one (internal iterative deepening, depth 2 / 3 from 8 plies
/// left, 3 from 7): 11 plies left 169.7 M / 183.2 M / 192.9 M nodes
/// against 163.1 M.
pub(super) const GUESS_DEPTH: u8 = 5;

/// The legal root moves in ordering order, restricted to `only` when that
/// names at least one of them.
pub fn root_moves(w: &Worker, only: &[Placement]) -> Vec<RootMove> {
    let hit = w.shared.tt.probe(w.pos.key());
    let mut picker = Picker::new(&w.pos, hit.and_then(|h| h.mv), None, false);
    let mut all = Vec::new();
    // Placements that a symmetry maps onto an earlier one are left out,
    // unless named in `only`.
    let symmetries = symmetry::of(&w.pos);
    while let Some(mv) = picker.pick(&w.pos, w.tables) {
        if symmetry::redundant(symmetries, mv) && !only.contains(&mv) {
            continue;
        }
        all.push(RootMove {
            mv,
            score: -INFINITE,
            pv: vec![mv],
        });
    }
    let chosen: Vec<RootMove> = all
        .iter()
        .filter(|r| only.contains(&r.mv))
        .cloned()
        .collect();
    if chosen.is_empty() { all } else { chosen }
}

/// What the main thread hands to its reporter after each completed depth.
pub struct Progress<'a> {
    /// The completed depth.
    pub depth: u8,
    /// The lines, best first; the first `lines` of them are the MultiPV lines.
    pub roots: &'a [RootMove],
    /// How many lines are reported.
    pub lines: usize,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
}

impl Worker<'_> {
    /// The next depth this thread searches once some thread completed
    /// `reached` (0 at the start), at most `max_depth`: every other helper
    /// stays one ahead of the main thread, whose iteration then meets the
    /// deeper entries they leave in the table. A search asked to solve goes
    /// from the full-width guess of [`GUESS_DEPTH`] straight to the end:
    /// the table moves of shallow reduced iterations order the exact search
    /// worse (see the commit).
    fn next_depth(&self, reached: u8, max_depth: u8) -> u8 {
        let left = self.pos.plies_left();
        let depth = if self.shared.solve {
            if reached < GUESS_DEPTH {
                GUESS_DEPTH
            } else {
                left
            }
        } else {
            reached + 1 + (self.id % 2) as u8
        };
        reach(depth, left).min(max_depth)
    }

    /// Iterative deepening to `max_depth` over `roots`; calls `report` after
    /// every completed depth. Returns the deepest completed depth (0 if none),
    /// with `roots` ordered by the last completed search.
    pub fn iterate(
        &mut self,
        roots: &mut [RootMove],
        max_depth: u8,
        multipv: usize,
        report: &mut dyn FnMut(&Progress),
    ) -> u8 {
        let lines = multipv.clamp(1, roots.len().max(1));
        let mut done = 0;
        let mut kept = roots.to_vec();
        let max_depth = reach(max_depth, self.pos.plies_left());
        self.full_width = self.shared.solve;
        let mut depth = self.next_depth(0, max_depth);
        while depth <= max_depth {
            // Extra lines are the main thread's alone: it never hands them over.
            self.iteration = if lines == 1 { depth } else { u8::MAX };
            self.searching = depth;
            for i in 0..lines {
                self.aspiration(&mut roots[i..], depth);
                if self.aborted() {
                    break;
                }
            }
            let superseded = self.aborted();
            self.iteration = u8::MAX;
            if self.aborted() {
                break;
            }
            let reached = if superseded {
                self.shared.adopt(roots)
            } else {
                // Each line was searched after the ones above it; a later
                // line can come out better (the table has learnt since):
                // the lines are reported, and the best played, in order.
                roots[..lines].sort_by_key(|r| -r.score);
                self.shared.publish(depth, roots);
                depth
            };
            done = reached;
            kept.clone_from_slice(roots);
            report(&Progress {
                depth: reached,
                roots,
                lines,
                seldepth: self.seldepth,
                nodes: self.total_nodes(),
            });
            let s = self.shared;
            if self.id == 0 && s.clock_counts() && s.budget.soft_passed() {
                break;
            }
            // Past the last depth a helper would idle: it joins the last one.
            depth = if reached >= max_depth {
                reached + 1
            } else {
                self.next_depth(reached, max_depth)
            };
        }
        roots.clone_from_slice(&kept);
        done
    }

    /// Searches the lines `roots` at `depth` in a window around the last
    /// score, widening it on failure; leaves `roots` sorted best first.
    ///
    /// Asked to solve, MTD(f) null windows over the root moves instead
    /// (steps of one point from the rounded guess) visited more nodes on the
    /// suite's `standard` positions: 183.8 M against 162.4 M at 11 plies
    /// left, 575.3 M against 560.0 M at 12. Forgetting the guess's table
    /// entries but its root move before the exact search, as a windowed
    /// `Searcher::solve` does: `standard` 10 / 11 / 12
    /// plies left 51.8 M / 156.8 M / 532.4 M against 48.5 M / 162.4 M /
    /// 560.0 M, `original` 12 plies left 1345.6 M against 740.8 M.
    ///
    /// Nor windows built from the bounds the passes prove (values are
    /// whole points there, a fail-soft value a proved bound: the next
    /// window from it, one point wide then doubling), the first one point
    /// under the rounded guess (a pass that fails low refutes every root
    /// move; branch `exp/exact-window`). On the suite (one thread, 1 GiB),
    /// nodes with the first window 1 / 2 points under the guess against
    /// these: std12-1 250.9 / 256.1 M against 257.1 M, std12-2 258.3 /
    /// 276.5 M against 223.0 M, std12-5 120.5 / 117.4 M against 118.7 M,
    /// std13-5 611.0 / 592.7 M against 712.9 M; std14-1, 1 / 0 points
    /// under, 9.05 / 7.54 G against 6.97 G. What a pass costs hangs on what
    /// the pass before left in the table more than on its window: std14-1's
    /// exact pass after the same first pass (1.34 G nodes, its value at
    /// least 2) cost 5.63 G here, in (19, 260), and 6.21 G in (199, 301);
    /// in (99, 201) after a first pass that proved at least 1, 7.83 G.
    fn aspiration(&mut self, roots: &mut [RootMove], depth: u8) {
        let prev = roots[0].score;
        let mut delta = 60;
        let (mut alpha, mut beta) = if depth >= 3 && prev > -INFINITE {
            (prev - delta, prev + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let v = self.search_root(roots, depth, alpha, beta);
            roots.sort_by_key(|r| -r.score);
            if self.aborted() {
                return;
            }
            if v <= alpha && alpha > -INFINITE {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITE);
            } else if v >= beta && beta < INFINITE {
                beta = (v + delta).min(INFINITE);
            } else {
                return;
            }
            delta *= 3;
        }
    }

    /// One pass over the root moves with PVS; scores each move searched in
    /// full and marks the others -INFINITE. With more threads, a move (not
    /// the first) whose child another thread is in is put off until the
    /// others are done, as in [`Worker::moves`]: the threads then share the
    /// root's moves instead of meeting in each one's subtree first.
    fn search_root(
        &mut self,
        roots: &mut [RootMove],
        depth: u8,
        mut alpha: Value,
        beta: Value,
    ) -> Value {
        let mut best = -INFINITE;
        for r in roots.iter_mut() {
            r.score = -INFINITE;
        }
        let spread = self.shared.busy.active();
        let (n, mut later) = (roots.len(), Vec::new());
        let mut k = 0;
        while k < n + later.len() {
            let i = if k < n { k } else { later[k - n] };
            let may_defer = spread && 0 < k && k < n;
            k += 1;
            let Some(v) = self.root_move(&mut roots[i], depth, (alpha, beta), i == 0, may_defer)
            else {
                later.push(i);
                continue;
            };
            if self.aborted() {
                return best;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches root move `r` in `window` (with a null window first unless
    /// `first`) and records its score and line if it is the first or beats
    /// alpha; `None` if it is put off: `may_defer` and another thread is in
    /// its child.
    fn root_move(
        &mut self,
        r: &mut RootMove,
        depth: u8,
        (alpha, beta): (Value, Value),
        first: bool,
        may_defer: bool,
    ) -> Option<Value> {
        let m = r.mv;
        let u = self.pos.play(m);
        if may_defer && self.shared.busy.contains(self.pos.key()) {
            self.pos.undo(m, u);
            return None;
        }
        let v = self.child(depth - 1, alpha, beta, 1, first);
        self.pos.undo(m, u);
        if !self.aborted() && (first || v > alpha) {
            r.score = v;
            r.pv = std::iter::once(m).chain(self.pv(1)).collect();
        }
        Some(v)
    }
}
