//! The exact code for the last plies: nodes that are always searched to the
//! end of the game, where the rules' arithmetic replaces the general move
//! loop. `last_two` solves the last two plies of every variant (the last is
//! a scan of squares without play/undo); `standard/` and `open/` hold what
//! only one variant's rules allow (its bounds, loss maps and patched
//! frames). Every shortcut here is sound: a bound proves a node fails low or
//! high, or the node is searched; the tests compare each against a plain
//! search.
//!
//! May use: the lower layers (types .. position, variant, gains, value,
//! codes), never the search above it. What the nodes need of the search
//! thread that runs them (its position, node count, lines, last-ply
//! killers and kept loss map) is the [`Thread`] trait in `node/`, and what
//! `open`'s last two plies borrow from the frames above them is
//! [`OpenThread`]. The worker implements both, and the nodes are generic
//! over them: every call is static and inlined as when they took the
//! worker itself. The worker dispatches to
//! them by variant and plies left (`worker.rs`).

pub mod last_two;
pub mod node;
pub mod open;
pub mod square_scan;
pub mod standard;

pub use node::Thread;
pub use open::last_two::OpenThread;
