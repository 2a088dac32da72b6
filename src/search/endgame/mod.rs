//! The exact code for the last plies: nodes that are always searched to the
//! end of the game, where the rules' arithmetic replaces the general move
//! loop. `last_two` solves the last two plies of every variant (the last is
//! a scan of squares without play/undo); `standard/` and `open/` hold what
//! only one variant's rules allow (its bounds, loss maps and patched
//! frames). Every shortcut here is sound: a bound proves a node fails low or
//! high, or the node is searched; the tests compare each against a plain
//! search.
//!
//! May use: the lower layers (types .. position, variant, gains, value) and,
//! by design, the search thread's state: these are the worker's own node
//! kinds, so they take `&mut Worker` (its position, node count, table and
//! histories) and `standard/`'s 3- and 4-left nodes search their children
//! through it. The worker dispatches to them by variant and plies left
//! (`worker.rs`); nothing above the worker (go, root, the engine) calls them.

pub mod last_two;
pub mod open;
pub mod standard;
