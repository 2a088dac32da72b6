//! `standard`'s exact last plies, where its rules (White's last piece, then
//! Black's King next to it) allow what the general code cannot: the last two
//! plies from one loss map (`replies`), and ceilings that prove most
//! placements of a 3-left (`three_left_bound`) or 4-left node
//! (`four_left_bound`) cannot raise alpha, so only the others are searched
//! (the 3-left move loop that uses its ceiling is the worker's:
//! `search/three_left.rs`).
//!
//! May use: the layers below the search (position, variant, gains, value);
//! nothing of the search nor of the rest of `endgame/`. Its bounds take
//! what they read (the position, the cuts, their scratch) as arguments.

pub mod four_left_bound;
pub mod replies;
pub mod three_left_bound;
