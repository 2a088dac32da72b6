//! `open`: the older BrainKing rules (King first, then Black's Queen, then free).

use super::{Moves, Rules};
use crate::position::Position;
use crate::types::{Color, Piece, Placement};

/// The older BrainKing rules.
pub struct Open;

/// The piece this ply must be, if the rules force one.
fn forced(ply: u8) -> Option<Piece> {
    match ply {
        0 => Some(Piece::King),
        1 => Some(Piece::Queen),
        _ => None,
    }
}

impl Rules for Open {
    #[inline(never)]
    fn legal(pos: &Position) -> Moves {
        let mut moves = Moves::NONE;
        if pos.is_over() {
            return moves;
        }
        let us = pos.side_to_move();
        for p in Piece::ALL {
            if pos.in_hand(us, p) > 0 && forced(pos.ply()).is_none_or(|f| f == p) {
                moves.push(p, pos.empty());
            }
        }
        moves
    }

    fn why_illegal(pos: &Position, _pl: Placement) -> &'static str {
        match pos.ply() {
            0 => "White's first placement must be the King",
            _ => "Black's first placement must be the Queen",
        }
    }

    fn validate(pos: &Position) -> Result<(), &'static str> {
        if pos.ply() >= 1 && pos.pieces_of(Color::White, Piece::King).is_empty() {
            return Err("White's first placement is its King, but White has no King on the board");
        }
        if pos.ply() >= 2 && pos.pieces_of(Color::Black, Piece::Queen).is_empty() {
            return Err(
                "Black's first placement is its Queen, but Black has no Queen on the board",
            );
        }
        Ok(())
    }

    fn key_extra(_pos: &Position) -> u64 {
        0
    }

    fn key_extra_after(_pos: &Position, _pl: Placement) -> u64 {
        0
    }

    fn restriction(pos: &Position) -> Option<String> {
        match pos.ply() {
            0 => Some("White's first placement is its King, rule 1".into()),
            1 => Some("Black's first placement is its Queen, rule 1".into()),
            _ => None,
        }
    }
}
