//! The resume state: the match's config, every finished game and the part
//! of the PGN file that holds them, rewritten atomically after each game.
//! Every record is checked when a state is read, so a damaged or edited
//! state is an error naming the file, never a panic or a wrong count.

use crate::config::MatchConfig;
use crate::pgn_mark::PgnMark;
use crate::record::GameRecord;
use crate::schedule::GameSpec;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

/// Format version of the state file (1 kept only a PGN byte count).
const VERSION: u32 = 2;

/// What a match has done so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Format version.
    pub version: u32,
    /// The match.
    pub config: MatchConfig,
    /// Finished games, in the order they finished.
    pub records: Vec<GameRecord>,
    /// The PGN file these games were written to, if any, and what of it is theirs.
    pub pgn: Option<PgnMark>,
}

impl State {
    /// A state with no games.
    pub fn new(config: MatchConfig) -> State {
        State {
            version: VERSION,
            config,
            records: Vec::new(),
            pgn: None,
        }
    }

    /// Reads a state file and checks every record in it.
    pub fn load(path: &str) -> Result<State, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{path}: not a state file: {e}"))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(VERSION) => {}
            Some(1) => {
                return Err(format!(
                    "{path}: a state of an older cheversi-match (format 1), which cannot \
                     prove which PGN it wrote; finish that match with the older version, \
                     or start a new one with another --state"
                ));
            }
            other => {
                return Err(format!(
                    "{path}: state format {other:?} (expected {VERSION}); not a state of this cheversi-match"
                ));
            }
        }
        let state: State =
            serde_json::from_value(value).map_err(|e| format!("{path}: not a state file: {e}"))?;
        state.validate().map_err(|e| format!("{path}: {e}"))?;
        Ok(state)
    }

    /// Checks the config and that each record is a distinct game of this
    /// state's range, against the opponent and colours the schedule gives it.
    pub fn validate(&self) -> Result<(), String> {
        self.config.validate()?;
        let (start, end) = self.config.range;
        let opponents = self.config.engines.len() - 1;
        let mut seen = HashSet::new();
        for (n, r) in self.records.iter().enumerate() {
            let at = format!("record {} (game {})", n + 1, r.index.saturating_add(1));
            if !(start..end).contains(&r.index) {
                return Err(format!(
                    "{at} is outside the games {start}..{end} this state plays"
                ));
            }
            let spec = GameSpec::of(r.index, opponents);
            if r.opponent != spec.opponent || r.first_is_white != spec.first_is_white {
                return Err(format!(
                    "{at} names opponent {} with the first engine {}, but the match gives it \
                     opponent {} with the first engine {}",
                    r.opponent,
                    colour(r.first_is_white),
                    spec.opponent,
                    colour(spec.first_is_white)
                ));
            }
            if !seen.insert(r.index) {
                return Err(format!("{at} is recorded twice"));
            }
        }
        if let Some(mark) = &self.pgn {
            mark.validate()?;
        }
        Ok(())
    }

    /// Whether every game of the range is recorded.
    pub fn complete(&self) -> bool {
        self.records.len() as u64 >= self.config.range.1 - self.config.range.0
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
        write().map_err(|e| format!("cannot write --state {path}: {e}"))
    }

    /// Whether game `index` is finished.
    pub fn has(&self, index: u64) -> bool {
        self.records.iter().any(|r| r.index == index)
    }
}

fn colour(first_is_white: bool) -> &'static str {
    if first_is_white { "White" } else { "Black" }
}

/// Whether a state file exists at `path`.
pub fn exists(path: &str) -> bool {
    Path::new(path).exists()
}
