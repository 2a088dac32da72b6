//! The resume state: the match's config, every finished game and the PGN
//! length that goes with them, rewritten atomically after each game.

use crate::config::MatchConfig;
use crate::record::GameRecord;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// Format version of the state file.
const VERSION: u32 = 1;

/// What a match has done so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Format version.
    pub version: u32,
    /// The match.
    pub config: MatchConfig,
    /// Finished games, in the order they finished.
    pub records: Vec<GameRecord>,
    /// Bytes of the PGN file that hold exactly these games.
    pub pgn_bytes: u64,
}

impl State {
    /// A state with no games.
    pub fn new(config: MatchConfig) -> State {
        State {
            version: VERSION,
            config,
            records: Vec::new(),
            pgn_bytes: 0,
        }
    }

    /// Reads a state file.
    pub fn load(path: &str) -> Result<State, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let state: State =
            serde_json::from_str(&text).map_err(|e| format!("{path}: not a state file: {e}"))?;
        if state.version != VERSION {
            return Err(format!(
                "{path}: state version {} (expected {VERSION})",
                state.version
            ));
        }
        Ok(state)
    }

    /// Writes the state to a temporary file, syncs it, and renames it over
    /// `path`, so a crash leaves either the old or the new state.
    pub fn save(&self, path: &str) -> Result<(), String> {
        let tmp = format!("{path}.tmp");
        let text = serde_json::to_string(self).map_err(|e| e.to_string())?;
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// Whether game `index` is finished.
    pub fn has(&self, index: u64) -> bool {
        self.records.iter().any(|r| r.index == index)
    }
}

/// Whether a state file exists at `path`.
pub fn exists(path: &str) -> bool {
    Path::new(path).exists()
}
