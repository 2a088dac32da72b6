//! `cheversi-match`: engine-vs-engine matches and gauntlets for Cheversi, with
//! the statistics of fastchess (Elo, nElo, LOS, pentanomial, GSPRT).
#![deny(missing_docs)]

pub mod sprt;
pub mod stats;
