//! The search: the API the engine drives. It never prints; it reports
//! typed [`Event`]s through a callback that the protocol layer renders.
//!
//! This file only declares the modules and re-exports the API, so that no
//! file of the driver imports it. What a search is given (`limits`:
//! [`Limits`], [`Options`], [`Control`]) and what it gives back (`report`:
//! [`Event`], [`Info`], [`Stats`], [`Bound`], [`Outcome`], [`Solved`]) are
//! plain data that import nothing of the search; `searcher` holds the
//! [`Searcher`] and the state it keeps between searches (the table, the
//! histories).
//!
//! The driver, top down: `go` (one search, [`Searcher::go`]: threads,
//! events, the chosen move; and the solves) runs `root` (iterative
//! deepening, aspiration, MultiPV) on every thread; each thread is a
//! `worker` (principal variation search, exact once the depth reaches the
//! end of the game) over what the threads share (`shared`: the table `tt`,
//! the limits from `time`, the nodes in flight `in_flight`). A worker
//! orders its moves with `moves` and `history` (`crate::codes` index
//! both), scores the nodes above the horizon from the evaluation without
//! playing their children (`horizon`, with the exact code's square scan),
//! runs `standard`'s 3-left nodes through its own loop (`three_left`) and
//! hands the last plies to the exact code (`endgame/`), which sees the
//! worker only through the traits it owns (`endgame::Thread`,
//! `OpenThread`). The files import one way, down that list: `go` ->
//! `root` -> `worker` -> `shared` -> `time` -> `limits`; `root` adds its
//! iteration to the worker in an `impl Worker` that `worker` never sees,
//! and `shallow_order` `original`'s ordering near the root the same way;
//! `depth` (how deep a node is really searched) imports nothing.
//!
//! May use: every layer below it (types .. variant, symmetry, value, gains,
//! eval). Never the engine or the protocol, and never stdout.

pub mod bench;
mod depth;
mod endgame;
mod go;
mod history;
mod horizon;
mod in_flight;
mod limits;
mod move_order;
pub mod moves;
mod report;
mod root;
mod searcher;
mod shallow_order;
mod shared;
#[cfg(test)]
mod test_worker;
mod three_left;
pub mod time;
pub mod tt;
mod worker;

/// The evaluation, at its old path (`crate::eval` is its home).
pub use crate::eval;
pub use crate::value::{INFINITE, SCALE, Value};
pub use limits::{Control, Limits, Options};
pub use report::{Bound, Event, Info, Outcome, STATS_EVERY, Solved, Stats};
pub use searcher::Searcher;
