//! Cheversi: a placement game on a chess board, and an engine that plays it.
#![deny(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod codes;
pub mod engine;
pub mod eval;
pub mod fen;
mod gains;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod sched;
pub mod search;
pub mod solve;
pub mod suite;
pub mod symmetry;
#[cfg(test)]
mod testing;
pub mod types;
pub mod value;
pub mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::PositionError;
pub use position::{GAME_PLIES, Position, Undo};
pub use types::{Color, NotationError, Piece, Placement, Square};
pub use variant::{IllegalPlacement, Moves, Variant};
