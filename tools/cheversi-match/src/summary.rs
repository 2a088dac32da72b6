//! The `--summary` JSON and the closing text of a match.

use crate::config::MatchConfig;
use crate::record::Tally;
use crate::report::Report;
use serde::Serialize;
use std::collections::BTreeMap;

/// The whole match from the first engine's point of view.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Engine names, the first engine first.
    pub engines: Vec<String>,
    /// The rules.
    pub variant: String,
    /// The seed of the openings (always recorded).
    pub seed: u64,
    /// The games `start..end` this summary covers.
    pub range: (u64, u64),
    /// Whether every game of the range was played (false when the SPRT stopped it).
    pub complete: bool,
    /// All games together.
    #[serde(flatten)]
    pub report: Report,
    /// Games per termination, keyed `normal`, `crash`, `time forfeit`, `illegal move`, `stall`.
    pub terminations: BTreeMap<&'static str, u64>,
    /// Each opponent separately (one entry in a two-engine match).
    pub pairings: Vec<Pairing>,
}

/// The first engine against one opponent.
#[derive(Clone, Debug, Serialize)]
pub struct Pairing {
    /// The opponent's name.
    pub opponent: String,
    /// Its statistics.
    #[serde(flatten)]
    pub report: Report,
}

impl Summary {
    /// Builds the summary of `tally` for `config`.
    pub fn new(config: &MatchConfig, tally: &Tally, complete: bool) -> Summary {
        let sprt = config.sprt.as_ref();
        let pairings = tally
            .per_opponent
            .iter()
            .map(|(&i, c)| Pairing {
                // Records are checked on load; a stray index still names no one.
                opponent: config
                    .engines
                    .get(i)
                    .map_or_else(|| format!("engine {i}"), |e| e.name.clone()),
                report: Report::from_counts(c, sprt),
            })
            .collect();
        Summary {
            engines: config.engines.iter().map(|e| e.name.clone()).collect(),
            variant: config.variant.clone(),
            seed: config.seed,
            range: config.range,
            complete,
            report: Report::from_counts(&tally.total, sprt),
            terminations: tally.terminations.clone(),
            pairings,
        }
    }

    /// Writes the JSON to `path`.
    pub fn write(&self, path: &str) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {path}: {e}"))
    }

    /// The rating lines: one per opponent in a gauntlet, then the total.
    pub fn rating_lines(&self) -> String {
        let first = &self.engines[0];
        let mut lines: Vec<String> = self
            .pairings
            .iter()
            .map(|p| format!("Score of {first} vs {}: {}", p.opponent, p.report.line()))
            .collect();
        if self.pairings.len() != 1 {
            lines.push(format!("Score of {first} vs all: {}", self.report.line()));
        }
        lines.join("\n")
    }

    /// The terminations as one line.
    pub fn terminations_line(&self) -> String {
        let parts: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!("Terminations: {}", parts.join(", "))
    }
}
