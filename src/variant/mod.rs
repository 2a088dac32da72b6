//! The variants' rules, one module each, behind one dispatching enum.
//!
//! Adding a variant means adding a module that implements [`Rules`] and an arm
//! to each `match` below; the search only sees [`Position::legal_moves`].

mod moves;
mod open;
pub mod original;
pub mod standard;

pub use moves::Moves;
pub use standard::{last_piece, white_reply};

use crate::position::Position;
use crate::types::{Color, Piece, Placement};
pub use crate::types::{UnknownVariant, Variant};
use crate::zobrist;
use std::fmt;

/// The rules of one variant.
pub trait Rules {
    /// The legal placements in `pos` (empty when the game is over).
    fn legal(pos: &Position) -> Moves;
    /// Which rule forbids `pl`, given that the piece is in hand, the square is
    /// empty and `pl` is not among the legal placements.
    fn why_illegal(pos: &Position, pl: Placement) -> &'static str;
    /// Whether a position (counts and `last` already checked) can arise.
    fn validate(pos: &Position) -> Result<(), &'static str>;
    /// The part of the position key that the last placement contributes.
    fn key_extra(pos: &Position) -> u64;
    /// [`Rules::key_extra`] of the position after `pl`, without playing it.
    fn key_extra_after(pos: &Position, pl: Placement) -> u64;
    /// For people: the rule that narrows the side to move's placements
    /// now beyond "a piece in hand on an empty square", if one does.
    fn restriction(pos: &Position) -> Option<String>;
}

impl Variant {
    /// The legal placements in `pos`: inlined where the search asks, so
    /// that `standard`'s last plies cost no call (the other rule sets are
    /// calls).
    #[inline(always)]
    pub fn legal(self, pos: &Position) -> Moves {
        match self {
            Variant::Standard => standard::Standard::legal(pos),
            Variant::Open => open::Open::legal(pos),
            Variant::Original => original::Original::legal(pos),
        }
    }

    fn why_illegal(self, pos: &Position, pl: Placement) -> &'static str {
        match self {
            Variant::Standard => standard::Standard::why_illegal(pos, pl),
            Variant::Open => open::Open::why_illegal(pos, pl),
            Variant::Original => original::Original::why_illegal(pos, pl),
        }
    }

    pub(crate) fn validate(self, pos: &Position) -> Result<(), &'static str> {
        match self {
            Variant::Standard => standard::Standard::validate(pos),
            Variant::Open => open::Open::validate(pos),
            Variant::Original => original::Original::validate(pos),
        }
    }

    /// The rule that narrows the legal placements of `pos` now, in words
    /// (`d` shows it beside the move count).
    pub fn restriction(self, pos: &Position) -> Option<String> {
        if pos.is_over() {
            return None;
        }
        match self {
            Variant::Standard => standard::Standard::restriction(pos),
            Variant::Open => open::Open::restriction(pos),
            Variant::Original => original::Original::restriction(pos),
        }
    }

    #[inline]
    pub(crate) fn key_extra(self, pos: &Position) -> u64 {
        match self {
            Variant::Standard => standard::Standard::key_extra(pos),
            Variant::Open => open::Open::key_extra(pos),
            Variant::Original => original::Original::key_extra(pos),
        }
    }

    #[inline]
    pub(crate) fn key_extra_after(self, pos: &Position, pl: Placement) -> u64 {
        match self {
            Variant::Standard => standard::Standard::key_extra_after(pos, pl),
            Variant::Open => open::Open::key_extra_after(pos, pl),
            Variant::Original => original::Original::key_extra_after(pos, pl),
        }
    }
}

/// Why a placement cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalPlacement {
    /// All 16 placements have been made.
    GameOver,
    /// The side to move holds no such piece.
    NotInHand(Color, Piece),
    /// The square holds a piece.
    Occupied(Placement),
    /// A rule of the variant forbids it; the text names the rule.
    Rule(Placement, &'static str),
}

impl fmt::Display for IllegalPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalPlacement::GameOver => write!(f, "the game is over: all 16 pieces are placed"),
            IllegalPlacement::NotInHand(c, p) => {
                let side = if *c == Color::White { "White" } else { "Black" };
                write!(f, "{side} has no {} left in hand", piece_name(*p))
            }
            IllegalPlacement::Occupied(pl) => write!(f, "{pl}: square {} is occupied", pl.square),
            IllegalPlacement::Rule(pl, why) => write!(f, "{pl} is illegal: {why}"),
        }
    }
}

impl std::error::Error for IllegalPlacement {}

/// The English name of a side.
pub const fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The English name of a piece.
pub const fn piece_name(p: Piece) -> &'static str {
    match p {
        Piece::King => "King",
        Piece::Queen => "Queen",
        Piece::Rook => "Rook",
        Piece::Bishop => "Bishop",
        Piece::Knight => "Knight",
    }
}

impl Position {
    /// The key that identifies the position for its variant's rules: the piece
    /// hash plus whatever of the last placement changes the legal moves.
    #[inline]
    pub fn key(&self) -> u64 {
        self.piece_hash() ^ self.variant().key_extra(self)
    }

    /// The key of the position after `pl`, without playing it, to load its
    /// table entry ahead: exact in `open` and `original`; in `standard` the
    /// pieces' part alone (its last square or a queen call keys few nodes).
    #[inline]
    pub fn key_after(&self, pl: Placement) -> u64 {
        let pieces = self.piece_hash() ^ zobrist::piece(self.side_to_move(), pl.piece, pl.square);
        match self.variant() {
            Variant::Original => pieces ^ zobrist::last(pl.square),
            _ => pieces,
        }
    }

    /// The key of the position after `pl`, exactly as [`Position::key`]
    /// will give it once `pl` is played (the table entry of that child).
    #[inline]
    pub fn child_key(&self, pl: Placement) -> u64 {
        self.piece_hash()
            ^ zobrist::piece(self.side_to_move(), pl.piece, pl.square)
            ^ self.variant().key_extra_after(self, pl)
    }

    /// The legal placements, grouped by piece.
    #[inline]
    pub fn legal_moves(&self) -> Moves {
        self.variant().legal(self)
    }

    /// Checks `pl` against the rules and says which one it breaks.
    pub fn check(&self, pl: Placement) -> Result<(), IllegalPlacement> {
        if self.is_over() {
            return Err(IllegalPlacement::GameOver);
        }
        let us = self.side_to_move();
        if self.in_hand(us, pl.piece) == 0 {
            return Err(IllegalPlacement::NotInHand(us, pl.piece));
        }
        if self.piece_at(pl.square).is_some() {
            return Err(IllegalPlacement::Occupied(pl));
        }
        if self.legal_moves().contains(pl) {
            Ok(())
        } else {
            Err(IllegalPlacement::Rule(
                pl,
                self.variant().why_illegal(self, pl),
            ))
        }
    }

    /// Plays `pl` if it is legal; otherwise leaves the position unchanged.
    pub fn play_checked(&mut self, pl: Placement) -> Result<(), IllegalPlacement> {
        self.check(pl)?;
        self.play(pl);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn child_key_is_the_key_after_playing_in_every_variant() {
        let mut rng = crate::testing::Rng(0x4B45_5941_F7E2_0002);
        for v in Variant::ALL {
            for i in 0..300 {
                let mut pos = rng.position(v, 1 + (i % 16) as u8);
                for m in pos.legal_moves().to_vec() {
                    let want = pos.child_key(m);
                    let u = pos.play(m);
                    assert_eq!(pos.key(), want, "{v} {} {m}", pos.fen());
                    pos.undo(m, u);
                }
            }
        }
    }

    #[test]
    fn key_after_is_the_key_after_playing_in_open_and_original() {
        let mut rng = crate::testing::Rng(0x4B45_5941_F7E2_0001);
        for v in [Variant::Open, Variant::Original] {
            for i in 0..200 {
                let mut pos = rng.position(v, 1 + (i % 16) as u8);
                for m in pos.legal_moves().to_vec() {
                    let want = pos.key_after(m);
                    let u = pos.play(m);
                    assert_eq!(pos.key(), want, "{v} {} {m}", pos.fen());
                    pos.undo(m, u);
                }
            }
        }
    }
}
