//! `standard`'s exact last plies.

pub mod four_left_bound;
pub mod replies;
pub mod three_left;
pub mod three_left_bound;
