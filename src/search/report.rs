//! What a search gives back: the typed events it reports while it runs
//! (the protocol layer renders them; the search never prints) and the
//! results of a finished `go` or solve. Plain data, re-exported by
//! `search` (`crate::search::Event`, ...); it imports nothing of the
//! driver, which imports it.

use crate::types::Placement;
use crate::value::Value;
use std::time::Duration;

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

/// What [`Searcher::solve_within`](crate::search::Searcher::solve_within) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The value, or a bound on the side of the window it fell.
    pub value: Value,
    /// Nodes visited, all threads.
    pub nodes: u64,
    /// The root's table move (proving the value unless it failed low).
    pub best: Option<Placement>,
}
