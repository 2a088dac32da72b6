//! CECP, the XBoard/WinBoard engine protocol (version 2), beside UCI over the
//! same engine facade: `cheversi` speaks it when its first command is
//! `xboard`. Cheversi is an engine-defined variant: `variant cheversi`
//! (or `cheversi-open`, `cheversi-original`) is answered with a `setup`
//! line that gives XBoard the board, the pieces and the holdings
//! (`setup.rs`), `lift` with the legal squares of the lifted piece.
//!
//! `command.rs` is the grammar (pure), `session.rs` the state machine,
//! `game.rs` the game and clock it keeps, `response.rs` all the text.
//! See protocol.md, "CECP (XBoard, WinBoard)".

pub mod command;
pub mod game;
pub mod response;
pub mod session;
pub mod setup;

pub use session::run;
