//! What is kept of a finished game, and the counts drawn from many of them.

use crate::stats::{Counts, Outcome};
use crate::termination::{GameResult, Termination};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// A finished game as saved in the state file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Index in the match.
    pub index: u64,
    /// The opponent engine's index.
    pub opponent: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Final points [white, black].
    pub points: [i32; 2],
    /// The fault, if any.
    pub detail: Option<String>,
}

impl GameRecord {
    /// The outcome from the first engine's point of view.
    pub fn outcome(&self) -> Outcome {
        match (self.result, self.first_is_white) {
            (GameResult::Draw, _) => Outcome::Draw,
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Outcome::Win,
            _ => Outcome::Loss,
        }
    }
}

/// Counts of a set of games: per opponent, overall, and terminations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Counts against each opponent, keyed by engine index.
    pub per_opponent: BTreeMap<usize, Counts>,
    /// All games together.
    pub total: Counts,
    /// Games per termination.
    pub terminations: BTreeMap<&'static str, u64>,
}

/// Counts `records`; a pair counts once both its games are in.
pub fn tally(records: &[GameRecord]) -> Tally {
    let mut t = Tally::default();
    for term in Termination::ALL {
        t.terminations.insert(term.as_str(), 0);
    }
    let mut open: HashMap<u64, Outcome> = HashMap::new();
    for r in records {
        let c = t.per_opponent.entry(r.opponent).or_default();
        c.add_game(r.outcome());
        *t.terminations.entry(r.termination.as_str()).or_default() += 1;
        match open.remove(&(r.index / 2)) {
            Some(other) => c.add_pair(other, r.outcome()),
            None => {
                open.insert(r.index / 2, r.outcome());
            }
        }
    }
    for c in t.per_opponent.values() {
        t.total.merge(c);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(index: u64, result: GameResult, termination: Termination) -> GameRecord {
        GameRecord {
            index,
            opponent: 1,
            first_is_white: index.is_multiple_of(2),
            result,
            termination,
            points: [0, 0],
            detail: None,
        }
    }

    #[test]
    fn tally_counts_games_pairs_and_terminations() {
        use GameResult::*;
        let records = [
            rec(0, WhiteWins, Termination::Normal),
            rec(1, WhiteWins, Termination::Crash),
            rec(3, BlackWins, Termination::Normal),
            rec(2, Draw, Termination::Normal),
            rec(4, WhiteWins, Termination::Normal),
        ];
        let t = tally(&records);
        assert_eq!((t.total.wins, t.total.draws, t.total.losses), (3, 1, 1));
        // Pair 0: win + loss; pair 1: draw + win; game 4 waits for its partner.
        assert_eq!(t.total.penta, [0, 0, 1, 1, 0]);
        assert_eq!(t.terminations["crash"], 1);
        assert_eq!(t.terminations["normal"], 4);
        assert_eq!(t.terminations["stall"], 0);
    }
}
