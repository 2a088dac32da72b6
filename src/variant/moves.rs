//! The legal placements of a position, as at most five (piece, targets) groups.

use crate::bitboard::Bitboard;
use crate::types::{Piece, Placement};

/// Legal placements grouped by piece; counting them is a popcount.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    groups: [(Option<Piece>, Bitboard); 5],
    len: u8,
}

impl Moves {
    /// No placements.
    pub const NONE: Moves = Moves {
        groups: [(None, Bitboard::EMPTY); 5],
        len: 0,
    };

    /// Adds the placements of `piece` on `targets` (nothing if `targets` is empty).
    #[inline]
    pub fn push(&mut self, piece: Piece, targets: Bitboard) {
        if !targets.is_empty() {
            self.groups[self.len as usize] = (Some(piece), targets);
            self.len += 1;
        }
    }

    /// The (piece, targets) groups.
    #[inline]
    pub fn groups(&self) -> impl Iterator<Item = (Piece, Bitboard)> + '_ {
        self.groups[..self.len as usize]
            .iter()
            .filter_map(|&(p, b)| p.map(|p| (p, b)))
    }

    /// Every target square of any piece.
    #[inline]
    pub fn targets(&self) -> Bitboard {
        self.groups[..self.len as usize]
            .iter()
            .fold(Bitboard::EMPTY, |a, g| a | g.1)
    }

    /// How many placements.
    #[inline]
    pub fn count(&self) -> u64 {
        self.groups[..self.len as usize]
            .iter()
            .map(|g| g.1.count() as u64)
            .sum()
    }

    /// Are there none?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Is `pl` among them?
    pub fn contains(&self, pl: Placement) -> bool {
        self.groups()
            .any(|(p, b)| p == pl.piece && b.has(pl.square))
    }

    /// Every placement, piece by piece (K, Q, R, B, N), squares from a1.
    pub fn iter(&self) -> impl Iterator<Item = Placement> + '_ {
        self.groups()
            .flat_map(|(p, b)| b.map(move |s| Placement::new(p, s)))
    }

    /// Every placement, collected.
    pub fn to_vec(&self) -> Vec<Placement> {
        self.iter().collect()
    }
}
