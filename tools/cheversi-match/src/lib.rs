//! `cheversi-match`: engine-vs-engine matches and gauntlets for Cheversi, with
//! the statistics of fastchess (Elo, nElo, LOS, pentanomial, GSPRT).
#![deny(missing_docs)]

pub mod cli;
pub mod comm_log;
pub mod commands;
pub mod config;
pub mod engine_config;
pub mod engine_process;
pub mod game;
pub mod limit;
pub mod openings;
pub mod output;
pub mod pgn;
pub mod pgn_mark;
pub mod record;
pub mod report;
pub mod rng;
pub mod runner;
pub mod schedule;
pub mod signals;
pub mod sprt;
pub mod state;
pub mod stats;
pub mod summary;
pub mod termination;
