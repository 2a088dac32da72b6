//! `original`: Lewicki's 2003 rules (follow the opponent's last piece).

use super::{Moves, Rules};
use crate::position::Position;
use crate::types::{Piece, Placement};
use crate::zobrist;

/// Lewicki's rules.
pub struct Original;

impl Rules for Original {
    #[inline(never)]
    fn legal(pos: &Position) -> Moves {
        let mut moves = Moves::NONE;
        if pos.is_over() {
            return moves;
        }
        let empty = pos.empty();
        let followed = match pos.last_placement() {
            Some(last) => pos.attacks_from(last.piece, last.square) & empty,
            None => empty,
        };
        // Rule 3: with no attacked empty square, any empty square.
        let targets = if followed.is_empty() { empty } else { followed };
        let us = pos.side_to_move();
        for p in Piece::ALL {
            if pos.in_hand(us, p) > 0 {
                moves.push(p, targets);
            }
        }
        moves
    }

    fn why_illegal(_pos: &Position, _pl: Placement) -> &'static str {
        "the piece must go on an empty square attacked by the piece the opponent placed last (rule 2)"
    }

    fn validate(_pos: &Position) -> Result<(), &'static str> {
        Ok(())
    }

    fn key_extra(pos: &Position) -> u64 {
        pos.last().map_or(0, zobrist::last)
    }
}
