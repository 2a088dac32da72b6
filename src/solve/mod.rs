//! Solving positions to the end of the game, above the search: a driver
//! that runs its own alpha-beta over the top plies of the tree, keyed by
//! the canonical (symmetry-reduced) position, and hands every position
//! with [`Config::frontier`] plies left or fewer to
//! [`Searcher::solve_within`] with the window it needs. One searcher (one
//! table) serves every frontier call, so transpositions between them still
//! help; what the driver proves of each top position (an interval of
//! points and the move that proves its lower end) goes to a [`Store`],
//! committed in batches, so a killed solve resumes where it was.
//!
//! Architecture invariant: this module prints nothing; it reports typed
//! [`Event`]s, which `cli` renders.

pub mod book;
pub mod canon;
pub mod cli;
pub mod explore;
pub mod job;
pub mod mode;
pub mod split;
pub mod store;

use crate::position::Position;
use crate::search::{Control, Event as SearchEvent, INFINITE, Limits, Options, SCALE, Searcher};
use crate::symmetry;
use crate::types::{Piece, Placement, Variant};
use crate::variant::standard::may_call_queen;
use canon::Canonical;
pub use mode::Mode;
use std::time::Instant;
pub use store::{Entry, NO_BOUND, Store};

/// How a solve runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Positions with this many plies left or fewer go to the search.
    pub frontier: u8,
    /// Search threads per frontier call.
    pub threads: usize,
    /// The search's table in MiB.
    pub hash_mb: usize,
}

impl Config {
    /// The frontier for a solve of a position with `left` plies left: the
    /// one that measured best for `variant` (see `SOLUTION.md`), but at
    /// least three plies below the root, so that no single search is most
    /// of the solve and a kill loses only a small part of it; never under
    /// a floor where the searches are short and a deeper driver only costs
    /// (9 plies left, `standard`: frontier 6 visits 20.8 M nodes, frontier 8
    /// 2.7 M; 8 left, `open`: frontier 6 545 M, frontier 7 74 M).
    pub fn default_frontier(variant: crate::variant::Variant, left: u8) -> u8 {
        let (best, floor) = match variant {
            crate::variant::Variant::Open => (8, 7),
            _ => (12, 10),
        };
        best.min(left.saturating_sub(3).max(floor))
    }
}

/// What the driver reports while it works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The driver starts on root move `index` (of `count`) with this window.
    RootMove {
        /// 0-based.
        index: usize,
        /// Root moves after symmetry.
        count: usize,
        /// The move.
        mv: Placement,
    },
    /// A root move is as settled as this search needs: its value lies in
    /// [lo, hi] points, the root's side's view.
    RootSettled {
        /// The move.
        mv: Placement,
        /// At least.
        lo: i32,
        /// At most.
        hi: i32,
    },
    /// A frontier position was solved.
    Frontier {
        /// Nodes so far in this run.
        nodes: u64,
        /// Frontier calls so far in this run.
        calls: u64,
        /// Positions in the store.
        stored: usize,
    },
}

/// A root move and what is proven of it, the root's side's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootValue {
    /// The move (one of each symmetric set).
    pub mv: Placement,
    /// At least this many points.
    pub lo: i32,
    /// At most this many points.
    pub hi: i32,
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value (points; in win/draw/loss mode -1, 0 or 1 stand for a
    /// loss, a draw, a win by at least that much), or the bound reached.
    pub value: i32,
    /// The interval that holds the root's value.
    pub lo: i32,
    /// See `lo`.
    pub hi: i32,
    /// Each root move's interval.
    pub moves: Vec<RootValue>,
    /// Proven moves from the root, as far as the store has them.
    pub pv: Vec<Placement>,
    /// Nodes of this run (driver, ordering and frontier searches).
    pub nodes: u64,
    /// Frontier calls of this run.
    pub calls: u64,
}

/// The solver: the searcher, the store and the small searcher that orders
/// the top plies' moves.
pub struct Solver<'a> {
    mode: Mode,
    config: Config,
    searcher: Searcher,
    orderer: Searcher,
    store: Store,
    nodes: u64,
    calls: u64,
    start: Instant,
    on_event: &'a mut dyn FnMut(&Event),
}

/// Points to the search's value window: values at most `alpha` points
/// fall at or under the first, at least `beta` at or over the second (the
/// search's values are whole points).
fn search_window(alpha: i32, beta: i32) -> (i32, i32) {
    let a = if alpha <= -NO_BOUND {
        -INFINITE
    } else {
        alpha * SCALE + SCALE - 1
    };
    let b = if beta >= NO_BOUND {
        INFINITE
    } else if beta - alpha >= 2 {
        beta * SCALE - SCALE + 1
    } else {
        a + 1
    };
    (a, b)
}

/// The least whole point at or above `v` centipoints.
fn ceil_points(v: i32) -> i32 {
    -(-v).div_euclid(SCALE)
}

/// The greatest whole point at or below `v` centipoints.
fn floor_points(v: i32) -> i32 {
    v.div_euclid(SCALE)
}

impl<'a> Solver<'a> {
    /// A solver in `mode` writing to `store`.
    pub fn new(
        mode: Mode,
        config: Config,
        store: Store,
        on_event: &'a mut dyn FnMut(&Event),
    ) -> Solver<'a> {
        let searcher = Searcher::new(Options {
            hash_mb: config.hash_mb,
            threads: config.threads.max(1),
            ..Options::default()
        });
        Solver {
            mode,
            config,
            searcher,
            orderer: Searcher::new(Options::default()),
            store,
            nodes: 0,
            calls: 0,
            start: Instant::now(),
            on_event,
        }
    }

    /// The store, to read it after a solve.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Solves `pos`; everything proven is committed before it returns.
    pub fn solve(&mut self, pos: &Position) -> Result<Solution, String> {
        let (alpha, beta) = self.mode.window();
        let mut p = pos.clone();
        let v = self.node(&mut p, alpha, beta, 0)?;
        self.commit()?;
        let (lo, hi) = match self.entry(pos) {
            Some(e) => (e.lo, e.hi),
            None => (v, v),
        };
        let mut pv = self.pv(pos);
        if self.settles(lo, hi) {
            self.finish_line(pos, &mut pv, lo);
        }
        Ok(Solution {
            value: v,
            lo,
            hi,
            moves: self.root_values(pos),
            pv,
            nodes: self.nodes,
            calls: self.calls,
        })
    }

    /// Does [lo, hi] settle the root in this mode (and prove a line)?
    fn settles(&self, lo: i32, hi: i32) -> bool {
        lo == hi || self.mode == Mode::Wdl && lo >= 1
    }

    /// Extends `pv`, the store's proven line from `pos` (value `v` there,
    /// or at least `v` in a win/draw/loss win), to the end of the game:
    /// from where the store stops, each move is the one a search within a
    /// window around the value proves keeps it (the table still holds most
    /// of these positions from the solve).
    fn finish_line(&mut self, pos: &Position, pv: &mut Vec<Placement>, v: i32) {
        let mut p = pos.clone();
        for &m in pv.iter() {
            p.play(m);
        }
        let mut want = if pv.len().is_multiple_of(2) { v } else { -v };
        let exact = self.mode == Mode::Exact;
        while !p.is_over() {
            // Exact: the value itself; win/draw/loss: the same outcome (a
            // loss proves no move).
            let (a, b) = match want {
                _ if exact => (want - 1, want + 1),
                0 => (-1, 1),
                1.. => (0, 1),
                _ => break,
            };
            let (got, best) = self.within(&p, a, b);
            let kept = if exact || want == 0 {
                got > a && got < b
            } else {
                got >= b
            };
            // The search's last plies keep no table move: a search to the
            // end names the best one.
            let best = match best {
                None if kept && p.plies_left() <= 2 => self.shallow(&p, p.plies_left() as u32).1,
                b => b,
            };
            let Some(m) = best.filter(|_| kept) else {
                break;
            };
            if !p.legal_moves().contains(m) {
                break;
            }
            p.play(m);
            pv.push(m);
            want = if exact { -got } else { -want.signum() };
        }
    }

    /// Commits what waits in memory.
    pub fn commit(&mut self) -> Result<(), String> {
        let secs = self.start.elapsed().as_secs_f64();
        self.store.flush(self.nodes, secs)
    }

    fn entry(&self, pos: &Position) -> Option<Entry> {
        self.store.get(&Canonical::of(pos).key).copied()
    }

    /// The negamax value of `pos` in points within (alpha, beta),
    /// fail-soft: at most alpha is an upper bound, at least beta a lower one.
    fn node(
        &mut self,
        pos: &mut Position,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<i32, String> {
        if pos.is_over() {
            return Ok(pos.diff());
        }
        let left = pos.plies_left();
        let c = Canonical::of(pos);
        let mut e = self
            .store
            .get(&c.key)
            .copied()
            .unwrap_or(Entry::unknown(left));
        if e.lo >= beta || e.lo == e.hi {
            return Ok(e.lo);
        }
        if e.hi <= alpha {
            return Ok(e.hi);
        }
        let (a, b) = (alpha.max(e.lo), beta.min(e.hi));
        let before = self.nodes;
        let hint = e.best.map(|m| c.from_image(m));
        let (v, best) = if left <= self.config.frontier && ply > 0 || left < 2 {
            self.frontier(pos, a, b)
        } else {
            self.interior(pos, a, b, hint, ply)?
        };
        if v <= a {
            e.hi = e.hi.min(v);
        } else {
            e.lo = e.lo.max(v);
            if v < b {
                e.hi = v;
            }
            e.best = best.map(|m| c.to_image(m)).or(e.best);
        }
        e.nodes += self.nodes - before;
        self.store.put(&c.key, &c.fen, e);
        self.store
            .tick(self.nodes, self.start.elapsed().as_secs_f64())?;
        Ok(v)
    }

    /// A node above the frontier: principal variation search over its
    /// moves (one of each symmetric pair), in the order of a shallow search.
    fn interior(
        &mut self,
        pos: &mut Position,
        a: i32,
        b: i32,
        hint: Option<Placement>,
        ply: usize,
    ) -> Result<(i32, Option<Placement>), String> {
        let moves = self.ordered(pos, hint);
        let (mut best, mut best_move, mut alpha) = (-NO_BOUND - 1, None, a);
        for (i, &m) in moves.iter().enumerate() {
            if ply == 0 {
                (self.on_event)(&Event::RootMove {
                    index: i,
                    count: moves.len(),
                    mv: m,
                });
            }
            let undo = pos.play(m);
            let v = if self.mode == Mode::Exact && i > 0 && b - alpha > 1 {
                let t = -self.node(pos, -alpha - 1, -alpha, ply + 1)?;
                if t > alpha && t < b {
                    -self.node(pos, -b, -alpha, ply + 1)?
                } else {
                    t
                }
            } else {
                -self.node(pos, -b, -alpha, ply + 1)?
            };
            if ply == 0 {
                let (lo, hi) = self.entry(pos).map_or((v, v), |e| (-e.hi, -e.lo));
                (self.on_event)(&Event::RootSettled { mv: m, lo, hi });
            }
            pos.undo(m, undo);
            if v > best {
                (best, best_move) = (v, Some(m));
                alpha = alpha.max(v);
                if alpha >= b {
                    break;
                }
            }
        }
        Ok((best, best_move))
    }

    /// The moves of `pos` but one of each symmetric set, the store's best
    /// first, then by a shallow search of each (best for the mover first);
    /// in `standard`, where a Queen would make a queen call, the Queen's
    /// placements before the others, as in the search's own exact nodes
    /// (`queen_call_first` in `search/move_order.rs`: the opponent's
    /// next piece must be its Queen, so the refutation behind it is
    /// narrower).
    fn ordered(&mut self, pos: &mut Position, hint: Option<Placement>) -> Vec<Placement> {
        let queens_first = pos.variant() == Variant::Standard && may_call_queen(pos);
        let sym = symmetry::of(pos);
        let moves: Vec<Placement> = pos
            .legal_moves()
            .iter()
            .filter(|&m| !symmetry::redundant(sym, m))
            .collect();
        let depth = pos.plies_left().saturating_sub(1).min(3) as u32;
        let mut scored: Vec<(i32, Placement)> = moves
            .into_iter()
            .map(|m| {
                // The store's move goes first by the key below: no search.
                if Some(m) == hint {
                    return (0, m);
                }
                let undo = pos.play(m);
                let s = -self.shallow(pos, depth).0;
                pos.undo(m, undo);
                (s, m)
            })
            .collect();
        let queen = |m: Placement| queens_first && m.piece == Piece::Queen;
        scored.sort_by_key(|&(s, m)| std::cmp::Reverse((Some(m) == hint, queen(m), s)));
        scored.into_iter().map(|(_, m)| m).collect()
    }

    /// The score of a shallow search of `pos` (side to move's view) and
    /// its best move.
    fn shallow(&mut self, pos: &Position, depth: u32) -> (i32, Option<Placement>) {
        if pos.is_over() || depth == 0 {
            return (pos.diff() * SCALE, None);
        }
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let mut score = pos.diff() * SCALE;
        let out = self
            .orderer
            .go(pos, &limits, &Control::default(), &mut |e| {
                if let SearchEvent::Info(i) = e {
                    score = i.score;
                }
            });
        self.nodes += out.nodes;
        (score, out.best)
    }

    /// A frontier position: one windowed search for a narrow window, else
    /// MTD(f) within (a, b) from a shallow search's guess.
    fn frontier(&mut self, pos: &Position, a: i32, b: i32) -> (i32, Option<Placement>) {
        let (v, best) = if b - a <= 2 {
            self.within(pos, a, b)
        } else {
            // Well short of the end: a guess that reached it would be the solve.
            let depth = 5.min(pos.plies_left().saturating_sub(4)) as u32;
            let (guess, _) = self.shallow(pos, depth);
            let mut g = (guess + guess.signum() * SCALE / 2) / SCALE;
            let (mut lo, mut hi, mut best) = (a, b, None);
            while lo < hi {
                let gamma = g.clamp(lo + 1, hi);
                let (v, m) = self.within(pos, gamma - 1, gamma);
                if v >= gamma {
                    (lo, best) = (v, m);
                } else {
                    hi = v;
                }
                g = v;
            }
            (if hi <= a { hi } else { lo }, best)
        };
        self.calls += 1;
        (self.on_event)(&Event::Frontier {
            nodes: self.nodes,
            calls: self.calls,
            stored: self.store.len(),
        });
        (v, best)
    }

    /// One search of `pos` within (alpha, beta) points: the value in
    /// points (a bound outside the window) and the move that proves it.
    fn within(&mut self, pos: &Position, alpha: i32, beta: i32) -> (i32, Option<Placement>) {
        let (a, b) = search_window(alpha, beta);
        let s = self.searcher.solve_within(pos, a, b);
        self.nodes += s.nodes;
        if s.value <= a {
            (floor_points(s.value), None)
        } else {
            (ceil_points(s.value), s.best)
        }
    }

    /// Each root move's interval from the store.
    fn root_values(&self, pos: &Position) -> Vec<RootValue> {
        root_values(&self.store, pos)
    }

    /// The proven line from `pos`: each store entry's best move while the
    /// entry settles its value for this mode.
    fn pv(&self, pos: &Position) -> Vec<Placement> {
        principal_variation(&self.store, self.mode, pos)
    }
}

/// What `store` proves of each move of `pos` (one of each symmetric set),
/// the mover's view, best first; moves it knows nothing of are left out.
pub fn root_values(store: &Store, pos: &Position) -> Vec<RootValue> {
    let entry = |p: &Position| store.get(&Canonical::of(p).key).copied();
    {
        let sym = symmetry::of(pos);
        let mut out = Vec::new();
        let mut p = pos.clone();
        for m in pos
            .legal_moves()
            .iter()
            .filter(|&m| !symmetry::redundant(sym, m))
        {
            let undo = p.play(m);
            let known = if p.is_over() {
                Some((p.diff(), p.diff()))
            } else {
                entry(&p).map(|e| (e.lo, e.hi))
            };
            p.undo(m, undo);
            if let Some((lo, hi)) = known {
                out.push(RootValue {
                    mv: m,
                    lo: -hi,
                    hi: -lo,
                });
            }
        }
        out.sort_by_key(|r| (std::cmp::Reverse(r.lo), std::cmp::Reverse(r.hi)));
        out
    }
}

/// Does `e` settle its position for `mode` (exact value, or win/draw/loss)?
pub fn settled(e: &Entry, mode: Mode) -> bool {
    match mode {
        Mode::Exact => e.lo == e.hi,
        Mode::Wdl => e.lo == e.hi || e.lo >= 1 || e.hi <= -1,
    }
}

/// The line of best moves the store proves from `pos`.
pub fn principal_variation(store: &Store, mode: Mode, pos: &Position) -> Vec<Placement> {
    let mut p = pos.clone();
    let mut line = Vec::new();
    while !p.is_over() {
        let c = Canonical::of(&p);
        let Some(e) = store.get(&c.key) else { break };
        let Some(best) = e.best else { break };
        // A loss proves no move better than another.
        if !settled(e, mode) || e.hi <= -1 && e.lo < e.hi {
            break;
        }
        let m = c.from_image(best);
        if !p.legal_moves().contains(m) {
            break;
        }
        p.play(m);
        line.push(m);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_windows_map_onto_search_windows() {
        assert_eq!(search_window(-1, 1), (-1, 1));
        assert_eq!(search_window(2, 3), (299, 300));
        assert_eq!(search_window(-NO_BOUND, NO_BOUND), (-INFINITE, INFINITE));
        assert_eq!((ceil_points(-150), floor_points(-150)), (-1, -2));
        assert_eq!((ceil_points(300), floor_points(300)), (3, 3));
    }

    /// Where a Queen would make a queen call, the driver tries the
    /// Queen's placements first, after the store's move.
    #[test]
    fn the_driver_tries_queen_calls_first() {
        let mut quiet = |_: &Event| {};
        let store = Store::memory(Variant::Standard, Mode::Exact).unwrap();
        let config = Config {
            frontier: 10,
            threads: 1,
            hash_mb: 1,
        };
        let mut solver = Solver::new(Mode::Exact, config, store, &mut quiet);
        let mut pos = Position::from_fen("8/8/8/2r5/3K4/8/8/8 w c5", Variant::Standard).unwrap();
        let hint = Placement::new(Piece::Rook, "e5".parse().unwrap());
        let moves = solver.ordered(&mut pos, Some(hint));
        let queens = moves.iter().filter(|m| m.piece == Piece::Queen).count();
        assert!(queens > 0 && queens + 1 < moves.len());
        assert_eq!(moves[0], hint);
        assert!(moves[1..=queens].iter().all(|m| m.piece == Piece::Queen));
    }
}
