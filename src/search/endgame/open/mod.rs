//! `open`'s exact last plies.

pub mod last_two;
pub mod three_left;
