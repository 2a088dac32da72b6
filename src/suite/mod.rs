//! The solving benchmark suite (the project's FFO endgame suite): positions
//! with their exact value and every optimal move, searched to the end one
//! row at a time (`cheversi bench suite`).
//!
//! `entry.rs` reads and writes the suite file, `run.rs` searches its
//! positions and judges what the search found (it never prints), `table.rs`
//! renders the rows and totals.
//!
//! May use: every layer below it (position, variant, search). Never the
//! protocol, and never stdout outside `table.rs`'s strings.

pub mod entry;
pub mod run;
pub mod table;

pub use entry::{Entry, parse};
pub use run::{Row, Settings, run};

/// The committed suite, compiled in: `cheversi bench suite` without a file.
pub const DEFAULT: &str = include_str!("../../tests/data/suite.txt");
