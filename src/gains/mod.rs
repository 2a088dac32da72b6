//! What a placement on each square gains or costs, computed fast: the points
//! a piece would earn on an empty square (`points`), what a blocker there
//! would cost each side (`loss_map`, and `kept_loss_map` brought up to date
//! piece by piece from node to node), all of a position's squares valued at
//! once and patched per placement (`offers`), and gains packed as small
//! integers that order by gain (`keys`). Exact arithmetic over the rules'
//! scoring, never an estimate: each file's tests check it against a plain
//! computation (the attack sets, [`Position::gain`]).
//!
//! May use: types, bitboard, attacks, zobrist, position. Used by the
//! evaluation, the move ordering and the exact code; knows nothing of them.
//!
//! [`Position::gain`]: crate::position::Position::gain

pub mod kept_loss_map;
pub mod keys;
pub mod loss_map;
pub mod offers;
pub mod points;
