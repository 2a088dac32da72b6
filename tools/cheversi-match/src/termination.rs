//! How a game ended, and its result.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended; every value but `Normal` is a loss for the engine at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// All 16 placements were played; the points decide.
    Normal,
    /// The engine exited or closed a pipe.
    Crash,
    /// No `bestmove` before its clock (or move limit) plus the margin ran out.
    TimeForfeit,
    /// An illegal or unreadable `bestmove`.
    IllegalMove,
    /// No `uciok`/`readyok` in time when starting or preparing the game.
    Stall,
}

impl Termination {
    /// Every termination, in the summary's order.
    pub const ALL: [Termination; 5] = [
        Termination::Normal,
        Termination::Crash,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Stall,
    ];

    /// The PGN `Termination` value and summary key.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Crash => "crash",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Stall => "stall",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game's result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result when side `loser` (0 White, 1 Black) forfeits.
    pub fn loss_for(loser: usize) -> GameResult {
        if loser == 0 {
            GameResult::BlackWins
        } else {
            GameResult::WhiteWins
        }
    }

    /// The result of final points [white, black].
    pub fn from_points(points: [i32; 2]) -> GameResult {
        match points[0].cmp(&points[1]) {
            std::cmp::Ordering::Greater => GameResult::WhiteWins,
            std::cmp::Ordering::Less => GameResult::BlackWins,
            std::cmp::Ordering::Equal => GameResult::Draw,
        }
    }
}
