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

    /// Checks what a state file could get wrong: engines, games, range, variant.
    pub fn validate(&self) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err(format!(
                "{} engines; a match needs two or more",
                self.engines.len()
            ));
        }
        if self.games == 0 || !self.games.is_multiple_of(2) {
            return Err(format!(
                "{} games per pairing; must be even and positive",
                self.games
            ));
        }
        let total = self.games.saturating_mul(self.engines.len() as u64 - 1);
        let (a, b) = self.range;
        if a >= b || b > total || !a.is_multiple_of(2) || !b.is_multiple_of(2) {
            return Err(format!(
                "range {a}..{b} is not an even range within 0..{total}"
            ));
        }
        self.variant
            .parse::<cheversi::Variant>()
            .map_err(|e| format!("variant: {e}"))?;
        Ok(())
    }

    /// The first setting (as the argument that gives it) in which `given`
    /// differs from this saved match, for a refusal that says what to change.
    pub fn difference(&self, given: &MatchConfig) -> Option<String> {
        let differs = |arg: &str, saved: String, now: String| {
            (saved != now).then(|| format!("{arg}: given {now}, the saved match has {saved}"))
        };
        if self.engines.len() != given.engines.len() {
            return Some(format!(
                "--engine: given {} engines, the saved match has {}",
                given.engines.len(),
                self.engines.len()
            ));
        }
        for (i, (s, g)) in self.engines.iter().zip(&given.engines).enumerate() {
            if s != g {
                return Some(format!(
                    "--engine {} (or --each): given {}, the saved match has {}",
                    i + 1,
                    g.describe(),
                    s.describe()
                ));
            }
        }
        let debug = |x: &dyn std::fmt::Debug| format!("{x:?}");
        differs("--variant", self.variant.clone(), given.variant.clone())
            .or_else(|| differs("--games", self.games.to_string(), given.games.to_string()))
            .or_else(|| differs("--seed", self.seed.to_string(), given.seed.to_string()))
            .or_else(|| differs("--openings", debug(&self.openings), debug(&given.openings)))
            .or_else(|| {
                differs(
                    "--opening-order",
                    debug(&self.opening_order),
                    debug(&given.opening_order),
                )
            })
            .or_else(|| {
                differs(
                    "--opening-plies",
                    self.opening_plies.to_string(),
                    given.opening_plies.to_string(),
                )
            })
            .or_else(|| differs("--sprt", debug(&self.sprt), debug(&given.sprt)))
            .or_else(|| {
                differs(
                    "--range",
                    format!("{}..{}", self.range.0, self.range.1),
                    format!("{}..{}", given.range.0, given.range.1),
                )
            })
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
