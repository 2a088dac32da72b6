//! The settings of a whole match, as saved in the state file so `--resume`
//! and `merge` can check that they continue or join the same match.

use crate::engine_config::EngineConfig;
use crate::sprt::Sprt;
use serde::{Deserialize, Serialize};

/// How file openings are ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum OpeningOrder {
    /// Shuffled with the seed.
    Random,
    /// As in the file.
    Sequential,
}

/// Everything that decides which games a match plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    /// The first engine, then its opponents.
    pub engines: Vec<EngineConfig>,
    /// The rules (`standard`, `open`, `original`).
    pub variant: String,
    /// Games per pairing (even).
    pub games: u64,
    /// Seed of openings and their order.
    pub seed: u64,
    /// Openings file, if any.
    pub openings: Option<String>,
    /// Order of the file's openings.
    pub opening_order: OpeningOrder,
    /// Plies of random openings.
    pub opening_plies: u8,
    /// The SPRT, if any.
    pub sprt: Option<Sprt>,
    /// Games `start..end` of the match this run plays (a shard), or all.
    pub range: (u64, u64),
}

impl MatchConfig {
    /// Games in the whole match.
    pub fn total_games(&self) -> u64 {
        self.games * (self.engines.len() as u64 - 1)
    }

    /// Whether `other` is the same match, shards aside.
    pub fn same_match(&self, other: &MatchConfig) -> bool {
        MatchConfig {
            range: (0, 0),
            ..self.clone()
        } == MatchConfig {
            range: (0, 0),
            ..other.clone()
        }
    }
}
