//! The search: the API the engine drives. It never prints; it reports
//! typed [`Event`]s through a callback that the protocol layer renders.
//!
//! The driver, top down: `go` (one search: threads, events, the chosen
//! move) runs `root` (iterative deepening, aspiration, MultiPV) on every
//! thread; each thread is a `worker` (principal variation search, exact once
//! the depth reaches the end of the game) over what the threads share
//! (`shared`: the table `tt`, the limits from `time`, the nodes in flight
//! `in_flight`). A worker orders its moves with `moves` and `history`
//! (`crate::codes` index both), scores the nodes above the horizon from the
//! evaluation without playing their children (`horizon`, with the exact
//! code's square scan), runs `standard`'s 3-left nodes through its own loop
//! (`three_left`) and hands the last plies to the exact code (`endgame/`),
//! which sees the worker only through the traits it owns
//! (`endgame::Thread`, `OpenThread`).
//!
//! May use: every layer below it (types .. variant, symmetry, value, gains,
//! eval). Never the engine or the protocol, and never stdout.

pub mod bench;
mod endgame;
mod go;
mod history;
mod horizon;
mod in_flight;
pub mod moves;
mod root;
mod shared;
#[cfg(test)]
mod test_worker;
mod three_left;
pub mod time;
pub mod tt;
mod worker;

/// The evaluation, at its old path (`crate::eval` is its home).
pub use crate::eval;
use crate::position::Position;
use crate::types::Placement;
pub use crate::value::{INFINITE, SCALE, Value};
use history::Tables;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tt::Tt;

pub use go::Solved;

/// What a `go` asks for. Every limit is optional; none means "until stopped"
/// only with `infinite` (otherwise the search picks a sensible default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search this many plies (clamped to the plies left in the game).
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Spend this long.
    pub movetime: Option<Duration>,
    /// White's and Black's clocks.
    pub time: [Option<Duration>; 2],
    /// White's and Black's increments.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Pondering: search until `stop` or `ponderhit`.
    pub ponder: bool,
    /// Only consider these root placements (all if empty).
    pub searchmoves: Vec<Placement>,
}

/// Engine settings that outlive one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept back per move for communication.
    pub move_overhead: Duration,
    /// Use the fitted evaluation (false: the current difference alone, kept
    /// to measure what the fitting is worth).
    pub tuned_eval: bool,
    /// Play from the committed solution data where it settles the position
    /// (`OwnBook`; the engine's, `crate::solve::book`: the search ignores it).
    pub own_book: bool,
    /// A measuring aid: the threads keep pace in nodes, as if each had a
    /// core to itself, so that node counts compare lazy SMP fairly on a
    /// busy machine (`analyse ttd`). Slower; never for play.
    pub lockstep: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(20),
            tuned_eval: true,
            own_book: true,
            lockstep: false,
        }
    }
}

/// How a reported score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value itself.
    Exact,
    /// The true value is at least this.
    Lower,
    /// The true value is at most this.
    Upper,
}

/// One line of search progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Completed nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line among the MultiPV lines.
    pub multipv: usize,
    /// 100 x the expected final point difference, side to move's view.
    pub score: i32,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    /// Whether the search saw to the end of the game (score is the game value).
    pub exact: bool,
    /// Nodes visited so far (all threads).
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Placement>,
}

/// The figures of the iteration under way, reported between completed
/// depths (see [`STATS_EVERY`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// The nominal depth being searched (not yet completed).
    pub depth: u32,
    /// Nodes visited so far (all threads, as far as published).
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

/// How often a `go` reports [`Event::Stats`] while it runs: first after
/// this long, then again this long after the last one. The main thread
/// looks at the clock every 1024 nodes, so a report is late by at most
/// that much searching.
pub const STATS_EVERY: Duration = Duration::from_secs(1);

/// What the search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Progress.
    Info(Info),
    /// The live figures of the depth under way (`go` only, about once a
    /// second, never before the first second).
    Stats(Stats),
    /// A free-text note for people (rendered as `info string`).
    Message(String),
}

/// The result of a finished search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play; `None` when the game is over.
    pub best: Option<Placement>,
    /// The expected reply, if known.
    pub ponder: Option<Placement>,
    /// Nodes visited.
    pub nodes: u64,
}

/// Flags the engine sets from other threads while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    ponderhit: AtomicBool,
}

impl Control {
    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
    /// Has a stop been asked for?
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// The opponent played the pondered move: switch to normal time use.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::Relaxed);
    }
    /// Has `ponderhit` arrived?
    pub fn pondering_over(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }
    /// Clears both flags for a new search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.ponderhit.store(false, Ordering::Relaxed);
    }
}

/// A searcher: the state kept between searches (tables, histories).
#[derive(Debug)]
pub struct Searcher {
    options: Options,
    tt: Tt,
    tables: Vec<Tables>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(Options::default())
    }
}

impl Searcher {
    /// A searcher with these options.
    pub fn new(options: Options) -> Searcher {
        let mut s = Searcher {
            tt: Tt::new(options.hash_mb),
            tables: Vec::new(),
            options,
        };
        s.fit_threads();
        s
    }

    fn fit_threads(&mut self) {
        let n = self.options.threads.max(1);
        self.tables.truncate(n);
        while self.tables.len() < n {
            self.tables.push(Tables::default());
        }
    }

    /// Changes the options (resizes tables as needed).
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Tt::new(options.hash_mb);
        }
        self.options = options;
        self.fit_threads();
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.tables {
            t.clear();
        }
    }

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
        go::run(self, pos, limits, control, on_event)
    }
}
