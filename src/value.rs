//! Values: what the evaluation estimates and the search proves, 100 x the
//! final point difference from the side to move's view. Below the
//! evaluation and the search, which both speak it; uses nothing.

/// A search value: 100 x the (expected) final point difference, from the
/// side to move's view.
pub type Value = i32;
/// Centipoints per point.
pub const SCALE: Value = 100;
/// Above every value a search can return.
pub const INFINITE: Value = 1_000_000;
