//! `original`: Lewicki's 2003 rules (follow the opponent's last piece).

use super::{Moves, Rules};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Piece, Placement};
use crate::zobrist;

/// Lewicki's rules.
pub struct Original;

/// Where the placement after `piece` on `sq` may go, on a board occupied
/// by `occ` (`sq` among it): the empty squares the piece attacks (rule 2),
/// or, with none, any empty square (rule 3).
#[inline(always)]
pub fn targets(piece: Piece, sq: crate::types::Square, occ: Bitboard) -> Bitboard {
    let empty = !occ;
    let followed = attacks::attacks(piece, sq, occ) & empty;
    if followed.is_empty() { empty } else { followed }
}

impl Rules for Original {
    #[inline(never)]
    fn legal(pos: &Position) -> Moves {
        let mut moves = Moves::NONE;
        if pos.is_over() {
            return moves;
        }
        let targets = match pos.last_placement() {
            Some(last) => targets(last.piece, last.square, pos.occupied()),
            None => pos.empty(),
        };
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

    /// The last placement must have followed a piece of the side to move
    /// (rule 2, or rule 3 where that piece attacked no empty square). Which
    /// of its pieces was placed before is not known, so any one that could
    /// have been will do: a reachable position always passes.
    fn validate(pos: &Position) -> Result<(), &'static str> {
        let Some(last) = pos.last() else {
            return Ok(());
        };
        let before = pos.occupied() & !Bitboard::from_square(last);
        let us = pos.side_to_move();
        let followed = pos.pieces(us).into_iter().any(|sq| {
            let (_, piece) = pos.piece_at(sq).expect("a piece of ours");
            let attacked = attacks::attacks(piece, sq, before) & !before;
            attacked.has(last) || attacked.is_empty()
        });
        if pos.ply() == 1 || followed {
            Ok(())
        } else {
            Err(
                "the last placement is on a square that no piece of the side to move attacked (rule 2)",
            )
        }
    }

    fn key_extra(pos: &Position) -> u64 {
        pos.last().map_or(0, zobrist::last)
    }

    fn key_extra_after(_pos: &Position, pl: Placement) -> u64 {
        zobrist::last(pl.square)
    }

    fn restriction(pos: &Position) -> Option<String> {
        let last = pos.last_placement()?;
        let attacked = pos.attacks_from(last.piece, last.square) & pos.empty();
        Some(if attacked.is_empty() {
            format!("{last} attacks no empty square, so any empty square, rule 3")
        } else {
            format!("on a square that {last} attacks, rule 2")
        })
    }
}
