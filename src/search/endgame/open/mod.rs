//! `open`'s exact last plies, where each side places its last piece on any
//! empty square: a reply keeps its gain unless the placement before it
//! touched its square, so only the touched squares are valued again
//! (`last_two`, the best replies kept in order by `best_replies`), and a
//! node with three plies left values its squares once
//! for all its children (`three_left`, over `gains::offers`), and a
//! ceiling spares most children of such a node that fails low
//! (`three_left_bound`), as another does one ply up, at White's nodes with
//! four plies left (`four_left_bound`, with its floor on Black's last
//! piece's gain in `last_floor`).
//!
//! May use: what `endgame` may, and `endgame/node` (the thread a node runs
//! on); never `endgame`'s own files, which dispatch to these.

mod best_replies;
pub mod four_left_bound;
mod last_floor;
pub mod last_two;
pub mod three_left;
pub mod three_left_bound;
