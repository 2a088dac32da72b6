//! The text protocol (UCI-like, with the UGI additions): grammar, responses,
//! and the session loop. See `protocol.md`.

pub mod command;
pub mod options;
pub mod output;
pub mod reader;
pub mod response;
pub mod session;

pub use session::run;
