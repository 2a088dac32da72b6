//! The legal placements of a position, as at most five (piece, targets) groups.

use crate::bitboard::Bitboard;
use crate::types::{Piece, Placement};

/// Legal placements grouped by piece; counting them is a popcount.
///
/// Pieces and targets in two arrays (48 bytes where pairs took 88): every
/// node of the search makes one and hands it on by value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves {
    /// The first `len` are the groups' targets, the rest empty.
    targets: [Bitboard; 5],
    /// The first `len` are the groups' pieces, the rest Kings.
    pieces: [Piece; 5],
    len: u8,
}

impl Default for Moves {
    fn default() -> Moves {
        Moves::NONE
    }
}

impl Moves {
    /// No placements.
    pub const NONE: Moves = Moves {
        targets: [Bitboard::EMPTY; 5],
        pieces: [Piece::King; 5],
        len: 0,
    };

    /// Adds the placements of `piece` on `targets` (nothing if `targets` is empty).
    #[inline]
    pub fn push(&mut self, piece: Piece, targets: Bitboard) {
        if !targets.is_empty() {
            self.targets[self.len as usize] = targets;
            self.pieces[self.len as usize] = piece;
            self.len += 1;
        }
    }

    /// The (piece, targets) groups.
    #[inline]
    pub fn groups(&self) -> impl Iterator<Item = (Piece, Bitboard)> + '_ {
        let n = self.len as usize;
        self.pieces[..n]
            .iter()
            .copied()
            .zip(self.targets[..n].iter().copied())
    }

    /// Every target square of any piece.
    #[inline]
    pub fn targets(&self) -> Bitboard {
        self.targets[..self.len as usize]
            .iter()
            .fold(Bitboard::EMPTY, |a, &b| a | b)
    }

    /// How many placements.
    #[inline]
    pub fn count(&self) -> u64 {
        self.targets[..self.len as usize]
            .iter()
            .map(|b| b.count() as u64)
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
