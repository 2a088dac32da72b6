//! Which game is which: game `i` of a match belongs to pair `i / 2`; the
//! pairs cycle over the first engine's opponents, and each pair plays one
//! opening twice with colours swapped. Game indices never depend on timing,
//! so shards of a match (index ranges) can run anywhere and be merged.

use crate::openings::{self, Opening};
use crate::rng::SplitMix64;
use cheversi::Variant;

/// The fixed facts of one game of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's index in the whole match.
    pub index: u64,
    /// Index of the opponent engine (1..engines).
    pub opponent: usize,
    /// Whether the first engine has White.
    pub first_is_white: bool,
    /// Which opening (round) the pair plays.
    pub round: u64,
}

impl GameSpec {
    /// The spec of game `index` in a match of the first engine against `opponents` others.
    pub fn of(index: u64, opponents: usize) -> GameSpec {
        let pair = index / 2;
        GameSpec {
            index,
            opponent: 1 + (pair % opponents as u64) as usize,
            first_is_white: index.is_multiple_of(2),
            round: pair / opponents as u64,
        }
    }
}

/// Where openings come from.
#[derive(Clone, Debug)]
pub enum OpeningBook {
    /// From a file, in a fixed (possibly seeded) order, cycling.
    List(Vec<Opening>),
    /// Random legal openings of this many plies from the seed.
    Random {
        /// Plies per opening.
        plies: u8,
    },
}

impl OpeningBook {
    /// Shuffles a file's openings with the seed (the same order on every shard).
    pub fn shuffled(mut list: Vec<Opening>, seed: u64) -> OpeningBook {
        SplitMix64::new(seed).shuffle(&mut list);
        OpeningBook::List(list)
    }

    /// The opening of `round`.
    pub fn opening(&self, variant: Variant, seed: u64, round: u64) -> Opening {
        match self {
            OpeningBook::List(list) => list[(round % list.len() as u64) as usize].clone(),
            OpeningBook::Random { plies } => openings::random(variant, *plies, seed, round),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_cycle_opponents() {
        let s: Vec<GameSpec> = (0..8).map(|i| GameSpec::of(i, 2)).collect();
        assert_eq!(
            s.iter().map(|g| g.opponent).collect::<Vec<_>>(),
            [1, 1, 2, 2, 1, 1, 2, 2]
        );
        assert_eq!(
            s.iter().map(|g| g.round).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1, 1]
        );
        assert!(s[0].first_is_white && !s[1].first_is_white);
    }
}
