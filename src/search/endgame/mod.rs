//! The exact code for the last plies.

pub mod last_two;
pub mod open;
pub mod standard;
