//! Compact move codes: a placement as `piece * 64 + square`, the index of
//! the search's history tables, its table's stored move, its picker's
//! entries and the exact nodes' move lists. Uses only the types.

use crate::types::{Piece, Placement, Square};

/// The code meaning "no move".
pub const NO_MOVE: u16 = u16::MAX;
/// How many distinct move codes there are.
pub const CODES: usize = 5 * 64;
/// At most this many legal placements exist in any position.
pub const MAX_MOVES: usize = CODES;
/// The code of a placement, `0..CODES`.
#[inline]
pub fn encode(pl: Placement) -> u16 {
    (pl.piece.index() * 64 + pl.square.index()) as u16
}

/// The placement of a code; `None` for [`NO_MOVE`] or any other bad code.
#[inline]
pub fn decode(code: u16) -> Option<Placement> {
    let piece = Piece::from_index(code as usize / 64)?;
    Some(Placement::new(
        piece,
        Square::from_index(code as usize % 64),
    ))
}
