//! `cheversi-web`: a web board for Cheversi. The server serves one page from
//! its own binary and gives each open page an engine process, driven through
//! the text protocol of `protocol.md` as any GUI would drive it.
#![deny(missing_docs)]

pub mod access;
pub mod address;
pub mod engine;
pub mod explore;
pub mod game;
pub mod message;
pub mod pgn;
pub mod server;
pub mod session;
pub mod uci;
