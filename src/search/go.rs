//! One `go` (`Searcher::go`): sets up the shared state, runs the main
//! thread and the helpers (lazy SMP), renders progress as events and picks
//! the move; and the solves (`Searcher::solve`, `solve_within`), which run
//! the workers to the end of the game in a window.

use super::depth::reach;
use super::limits::{Control, Limits};
use super::report::{Bound, Event, Info, Outcome, STATS_EVERY, Solved, Stats};
use super::root::{GUESS_DEPTH, Progress, root_moves};
use super::searcher::Searcher;
use super::shared::Shared;
use super::time::Budget;
use super::tt::TtBound;
use super::worker::{Ticker, Worker};
use crate::position::Position;
use crate::value::{INFINITE, SCALE, Value};
use std::cell::RefCell;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

fn info(p: &Progress, line: usize, exact: bool, start: Instant, hashfull: u32) -> Info {
    let r = &p.roots[line];
    Info {
        depth: p.depth as u32,
        seldepth: p.seldepth.max(p.depth as u32),
        multipv: line + 1,
        score: r.score,
        bound: Bound::Exact,
        exact,
        nodes: p.nodes,
        time: start.elapsed(),
        hashfull,
        pv: r.pv.clone(),
    }
}

/// Waits until an infinite or pondering search may return.
fn hold(control: &Control, limits: &Limits) {
    while !control.stopped() && (limits.infinite || limits.ponder && !control.pondering_over()) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Does `limits` ask for the game's value: a depth reaching the end and no
/// limit of time or nodes that could stop the search short of it?
fn asked_to_solve(pos: &Position, limits: &Limits) -> bool {
    let left = pos.plies_left();
    limits
        .depth
        .is_some_and(|d| reach(d.min(64) as u8, left) >= left)
        && limits.movetime.is_none()
        && limits.time == [None; 2]
        && limits.nodes.is_none()
}

/// Runs one search (the body of [`Searcher::go`]).
fn run(
    s: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    control: &Control,
    on_event: &mut dyn FnMut(Event),
) -> Outcome {
    let start = Instant::now();
    s.tt.new_search();
    let shared = Shared {
        pondering: limits.ponder,
        infinite: limits.infinite,
        node_limit: limits.nodes.unwrap_or(u64::MAX).max(1),
        solve: asked_to_solve(pos, limits),
        lockstep: s.options.lockstep,
        ..Shared::new(
            &s.tt,
            control,
            Budget::new(pos, limits, &s.options, start),
            s.options.threads,
            s.options.tuned_eval,
        )
    };
    let left = pos.plies_left();
    let max_depth = limits
        .depth
        .unwrap_or(u32::MAX)
        .clamp(1, left.max(1) as u32) as u8;
    let multipv = s.options.multipv;
    // The main thread reports both its completed depths and, between
    // them, the live figures.
    let on_event = RefCell::new(on_event);
    let mut tick = |depth: u8, nodes: u64| {
        let stats = Stats {
            depth: depth as u32,
            nodes,
            time: start.elapsed(),
            hashfull: shared.tt.hashfull(),
        };
        (on_event.borrow_mut())(Event::Stats(stats));
    };
    let (main_tables, helpers) = s.tables.split_first_mut().expect("one table per thread");
    let mut main = Worker::new(pos.clone(), &shared, main_tables, 0);
    main.ticker = Some(Ticker {
        next: start + STATS_EVERY,
        report: &mut tick,
    });
    let mut roots = root_moves(&main, &limits.searchmoves);
    if roots.is_empty() {
        hold(control, limits);
        return Outcome {
            best: None,
            ponder: None,
            nodes: 0,
        };
    }
    let exact_at = left;
    let hashfull = || shared.tt.hashfull();
    let nodes = std::thread::scope(|scope| {
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(i, t)| {
                let mut r = roots.clone();
                let shared = &shared;
                scope.spawn(move || {
                    let mut w = Worker::new(pos.clone(), shared, t, i + 1);
                    w.iterate(&mut r, max_depth, 1, &mut |_| {});
                    shared.done(w.id);
                    w.nodes
                })
            })
            .collect();
        main.iterate(&mut roots, max_depth, multipv, &mut |p| {
            for line in 0..p.lines {
                let i = info(p, line, p.depth >= exact_at, start, hashfull());
                (on_event.borrow_mut())(Event::Info(i));
            }
        });
        shared.done(0);
        hold(control, limits);
        shared.abort.store(true, Relaxed);
        main.nodes
            + handles
                .into_iter()
                .map(|h| h.join().unwrap_or(0))
                .sum::<u64>()
    });
    Outcome {
        best: Some(roots[0].mv),
        ponder: roots[0].pv.get(1).copied(),
        nodes,
    }
}

impl Searcher {
    /// Searches `pos` within `limits`, reporting through `on_event`, until a
    /// limit is reached or `control` says stop. Blocks; the engine runs it on
    /// its own thread.
    pub fn go(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        on_event: &mut dyn FnMut(Event),
    ) -> Outcome {
        run(self, pos, limits, control, on_event)
    }

    /// The exact value of `pos` if it lies within (alpha, beta), else a bound
    /// on the side of the window it fell: a full-depth search at one thread,
    /// for solving (a window of (-1, 1) only decides win, draw or loss).
    /// Returns the value and the nodes visited.
    pub fn solve(&mut self, pos: &Position, alpha: Value, beta: Value) -> (Value, u64) {
        self.tt.new_search();
        let control = Control::default();
        let budget = Budget::new(pos, &Limits::default(), &self.options, Instant::now());
        let shared = Shared::new(&self.tt, &control, budget, 1, self.options.tuned_eval);
        let mut w = Worker::new(pos.clone(), &shared, &mut self.tables[0], 0);
        let left = pos.plies_left();
        let v = if alpha <= -INFINITE && beta >= INFINITE {
            mtdf(&mut w, left)
        } else {
            if left >= FORGET_FROM {
                guess(&mut w, left - WINDOW_GUESS_SHORT);
            }
            w.search(left, alpha.max(-INFINITE), beta.min(INFINITE), 0, true)
        };
        (v, w.nodes)
    }

    /// The value of `pos` within (alpha, beta), as [`Searcher::solve`] with
    /// a window, for a driver that solves many related positions with one
    /// table (`crate::solve`): no guess search and nothing forgotten, so
    /// what earlier calls proved keeps serving; `Options::threads` threads
    /// search the same tree (lazy SMP over the shared table). Also returns
    /// the root's table move, the move that proved the value or bound.
    pub fn solve_within(&mut self, pos: &Position, alpha: Value, beta: Value) -> Solved {
        self.solve_window(pos, alpha, beta, &Control::default())
    }

    /// [`Searcher::solve_within`] until `control` says stop (the explorer's
    /// searches, which `stop` and a time budget end): `None` if it did, as
    /// the value of a search cut short proves nothing.
    pub fn solve_within_until(
        &mut self,
        pos: &Position,
        alpha: Value,
        beta: Value,
        control: &Control,
    ) -> Option<Solved> {
        let solved = self.solve_window(pos, alpha, beta, control);
        (!control.stopped()).then_some(solved)
    }

    fn solve_window(
        &mut self,
        pos: &Position,
        alpha: Value,
        beta: Value,
        control: &Control,
    ) -> Solved {
        self.tt.new_search();
        let budget = Budget::new(pos, &Limits::default(), &self.options, Instant::now());
        let threads = self.tables.len();
        let shared = Shared::new(&self.tt, control, budget, threads, self.options.tuned_eval);
        let (alpha, beta) = (alpha.max(-INFINITE), beta.min(INFINITE));
        let left = pos.plies_left();
        let (main_tables, helpers) = self.tables.split_first_mut().expect("one table per thread");
        let (value, nodes) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .enumerate()
                .map(|(i, t)| {
                    let shared = &shared;
                    scope.spawn(move || {
                        let mut w = Worker::new(pos.clone(), shared, t, i + 1);
                        w.search(left, alpha, beta, 0, true);
                        w.nodes
                    })
                })
                .collect();
            let mut w = Worker::new(pos.clone(), &shared, main_tables, 0);
            let v = w.search(left, alpha, beta, 0, true);
            shared.abort.store(true, Relaxed);
            let helped: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (v, w.nodes + helped)
        });
        let best = self.tt.probe(pos.key()).and_then(|h| h.mv);
        Solved { value, nodes, best }
    }
}

/// A windowed solve (win/draw/loss: a window of (-1, 1)) from
/// [`FORGET_FROM`] plies left or more first searches this many plies short
/// of the end for the root's first move. Its order matters most there: in a
/// draw, every move before the first that draws must be proved to lose, a
/// costlier proof than the "no better than a draw" of the moves after it,
/// and in a win the first winning move ends the search (seed 6 of solve 12
/// 12 wdl: the drawing move came 17th, and the 16 before it cost 123 M of
/// the 225 M nodes). Nodes of solve 10 12 / 11 6 / 12 12 wdl, by how far
/// short of the end the guess stops: no guess 50.1 M / 125.9 M / 1417 M;
/// 7 short 50.0 M / 125.1 M / 1366 M; 6 short 37.9 M / 113.9 M / 1160 M;
/// 5 short 42.9 M / 118.5 M / 1342 M; 4 short 49.2 M / 132.1 M / -.
///
/// The window stays (-1, 1) whatever the guess: a null window (0, 1) first
/// where the guess says White wins (seed 8 of solve 12 12 wdl: 95.5 M nodes
/// -> 44.9 M) costs a draw most of a second proof (seeds 6 and 10: 194.7 M
/// -> 364.4 M, 223.6 M -> 351.0 M) and its guesses overlap the wins' (2.12
/// and 2.72 points against 1.84 to 5.04), and (-1, 0) alone for the loss
/// (seed 12) visits 460.8 M nodes against 329.2 M.
const WINDOW_GUESS_SHORT: u8 = 6;

/// From this many plies left, the table forgets a solve's guess search but
/// its root move ([`guess`]): clearing a table of 64 MiB takes 6-8 ms, a
/// quarter of a solve from 8 plies left.
const FORGET_FROM: u8 = 10;

/// A full-width search of `depth` from the root, for a first guess at its
/// value and its best move. From [`FORGET_FROM`] plies left on, the table
/// then keeps that move alone: the guess's table moves come from an
/// evaluation, not from the end, and deeper down they order the solve's
/// proofs worse. Nodes of solve 10 12 / 11 4 (exact): 123.8 M / 168.9 M
/// with the guess's entries kept, 110.3 M / 161.9 M without; seeds 4, 7
/// and 8 of solve 12 12 wdl, with the guess 5 short: 21.8 M, 373.6 M,
/// 111.2 M kept, 19.5 M, 201.6 M, 113.9 M without (the histories kept
/// too; forgetting them as well: 22.2 M, 214.5 M, 166.6 M). Those were
/// measured on a build that differed in other ways; the exact solves on
/// this one.
fn guess(w: &mut Worker, depth: u8) -> Value {
    w.full_width = true;
    let v = w.search(depth, -INFINITE, INFINITE, 0, true);
    if w.pos.plies_left() >= FORGET_FROM {
        let (tt, key) = (&w.shared.tt, w.pos.key());
        let best = tt.probe(key).and_then(|h| h.mv);
        tt.clear();
        // A bound that never decides: the move alone.
        tt.store(key, best, -INFINITE, 0, TtBound::Lower);
    }
    v
}

/// MTD(f): null-window searches from a first guess, each narrowing the
/// known interval [lo, hi] of the value, until it closes.
///
/// The guess comes from a shallow search (the evaluation at its leaves),
/// which also leaves table moves behind: measured, solve 9 12 visits 87 M
/// nodes instead of 121 M (starting at the current difference).
fn mtdf(w: &mut Worker, depth: u8) -> Value {
    let (mut lo, mut hi) = (-INFINITE, INFINITE);
    let mut g = w.pos.diff() * SCALE;
    if reach(GUESS_DEPTH, depth) < depth {
        let v = guess(w, GUESS_DEPTH);
        g = (v + v.signum() * SCALE / 2) / SCALE * SCALE;
    }
    while lo < hi {
        let b = g.max(lo + 1);
        let v = w.search(depth, b - 1, b, 0, false);
        if w.aborted() {
            break;
        }
        if v >= b {
            lo = v;
        } else {
            hi = v;
        }
        g = v;
    }
    hi
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn only_a_depth_to_the_end_without_other_limits_asks_to_solve() {
        let pos = Position::from_fen("8/8/6Q1/7n/6bN/6BK/6qn/8 w h2", Variant::Standard).unwrap();
        let depth = |d| Limits {
            depth: Some(d),
            ..Limits::default()
        };
        assert!(asked_to_solve(&pos, &depth(40)));
        assert!(asked_to_solve(&pos, &depth(6)));
        assert!(!asked_to_solve(&pos, &depth(5)));
        assert!(!asked_to_solve(&pos, &Limits::default()));
        let timed = Limits {
            movetime: Some(Duration::from_secs(1)),
            ..depth(40)
        };
        assert!(!asked_to_solve(&pos, &timed));
    }

    /// Entries of reduced searches are marked; of exact and full-width
    /// ones not.
    #[test]
    fn reduced_searches_mark_their_entries() {
        let pos = Position::from_fen("8/8/6Q1/7n/6bN/6BK/6qn/8 w h2", Variant::Standard).unwrap();
        let mut s = Searcher::default();
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let best = s.go(&pos, &limits, &Control::default(), &mut |_| {}).best;
        let mut child = pos.clone();
        child.play(best.unwrap());
        assert!(s.tt.probe(child.key()).unwrap().reduced);
        s.clear();
        s.solve(&pos, -INFINITE, INFINITE);
        assert!(!s.tt.probe(child.key()).unwrap().reduced);
    }

    /// From [`FORGET_FROM`] plies left, the guess leaves its root move in
    /// the table and nothing else; below, its entries stay.
    #[test]
    fn a_guess_from_ten_plies_left_leaves_only_its_root_move() {
        let mut rng = crate::testing::Rng(0x6E55_0000_0000_000A);
        for left in [FORGET_FROM, FORGET_FROM - 1] {
            let pos = rng.position(Variant::Standard, left);
            let mut s = Searcher::default();
            let control = Control::default();
            let budget = Budget::new(&pos, &Limits::default(), &s.options, Instant::now());
            let shared = Shared::new(&s.tt, &control, budget, 1, s.options.tuned_eval);
            let mut w = Worker::new(pos.clone(), &shared, &mut s.tables[0], 0);
            guess(&mut w, 4);
            let best = s.tt.probe(pos.key()).and_then(|h| h.mv);
            assert!(best.is_some_and(|m| pos.legal_moves().contains(m)));
            let children_kept = pos.legal_moves().to_vec().into_iter().any(|m| {
                let mut child = pos.clone();
                child.play(m);
                s.tt.probe(child.key()).is_some()
            });
            assert_eq!(children_kept, left < FORGET_FROM, "{}", pos.fen());
        }
    }

    /// A win/draw/loss solve that starts with a guess finds the sign of
    /// the exact value: random positions with 10 plies left.
    #[test]
    fn a_windowed_solve_after_its_guess_keeps_the_sign_of_the_value() {
        let mut rng = crate::testing::Rng(0x6E55_0000_0000_0B0B);
        let mut s = Searcher::default();
        for _ in 0..2 {
            let pos = rng.position(Variant::Standard, FORGET_FROM);
            let (want, _) = s.solve(&pos, -INFINITE, INFINITE);
            s.clear();
            let (got, _) = s.solve(&pos, -1, 1);
            assert_eq!(got.signum(), want.signum(), "{}", pos.fen());
        }
    }

    /// Two threads asked to solve, which put off root moves and children
    /// that the other is in, reach the value of one thread's solve, in
    /// lockstep or not: random positions with 9 plies left.
    #[test]
    fn two_threads_solve_to_one_threads_value() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        for i in 0..8 {
            let pos = rng.position(Variant::Standard, 9);
            let (want, _) = Searcher::default().solve(&pos, -INFINITE, INFINITE);
            let mut s = Searcher::new(crate::search::Options {
                threads: 2,
                lockstep: i % 2 == 1,
                ..Default::default()
            });
            let limits = Limits {
                depth: Some(16),
                ..Limits::default()
            };
            let mut last = None;
            s.go(&pos, &limits, &Control::default(), &mut |e| {
                if let Event::Info(i) = e {
                    last = Some(i);
                }
            });
            let last = last.unwrap();
            assert!(last.exact);
            assert_eq!(last.score, want, "{}", pos.fen());
        }
    }

    /// Asked to solve, `go` reports the full-width guess, then the value
    /// that [`Searcher::solve`] finds, exact, with the move it plays first
    /// in its line: random positions with 8 plies left.
    #[test]
    fn go_asked_to_solve_reports_the_solved_value() {
        let mut rng = crate::testing::Rng(0xD1B5_4A32_D192_ED03);
        for _ in 0..6 {
            let pos = rng.position(Variant::Standard, 8);
            let mut s = Searcher::default();
            let (want, _) = s.solve(&pos, -INFINITE, INFINITE);
            s.clear();
            let limits = Limits {
                depth: Some(16),
                ..Limits::default()
            };
            let mut infos = Vec::new();
            let out = s.go(&pos, &limits, &Control::default(), &mut |e| {
                if let Event::Info(i) = e {
                    infos.push(i);
                }
            });
            let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
            assert_eq!(depths, [GUESS_DEPTH as u32, 8], "{}", pos.fen());
            let last = infos.last().unwrap();
            assert!(last.exact);
            assert_eq!(last.score, want, "{}", pos.fen());
            assert_eq!(last.pv.first().copied(), out.best);
        }
    }
}
