//! `standard`: the current BrainKing rules (RULES.md, rules 1-7).

use super::{Moves, Rules};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::{GAME_PLIES, Position};
use crate::types::{Color, Piece, Placement};
use crate::zobrist;

/// The current BrainKing rules.
pub struct Standard;

const LAST_BLACK_PLY: u8 = GAME_PLIES - 1;
const LAST_WHITE_PLY: u8 = GAME_PLIES - 2;

/// Must the side to move answer the opponent's Queen with its own (rule 6)?
fn queen_call(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.in_hand(us, Piece::Queen) > 0
        && pos
            .last_placement()
            .is_some_and(|pl| pl.piece == Piece::Queen)
}

/// The pieces the side to move may place, before any square rule (rules 1, 3, 6).
fn allowed_pieces(pos: &Position) -> impl Iterator<Item = Piece> + '_ {
    let us = pos.side_to_move();
    let call = queen_call(pos);
    Piece::ALL.into_iter().filter(move |&p| {
        pos.in_hand(us, p) > 0
            && (pos.ply() > 0 || p == Piece::King)
            && (us == Color::White || p != Piece::King || pos.ply() == LAST_BLACK_PLY)
            && (!call || p == Piece::Queen)
    })
}

/// Squares allowed for `piece` by every rule but touching (rules 3, 4, 5).
fn square_rules(pos: &Position, piece: Piece) -> Bitboard {
    let empty = pos.empty();
    let us = pos.side_to_move();
    let mut ok = empty;
    if pos.ply() == LAST_BLACK_PLY {
        ok &= pos.last().map_or(Bitboard::EMPTY, attacks::king);
    }
    if pos.ply() == LAST_WHITE_PLY {
        ok &= empty.adjacent();
    }
    if piece == Piece::Bishop {
        let placed = pos.pieces_of(us, Piece::Bishop);
        if !(placed & Bitboard::DARK).is_empty() {
            ok &= Bitboard::LIGHT;
        }
        if !(placed & Bitboard::LIGHT).is_empty() {
            ok &= Bitboard::DARK;
        }
    }
    ok
}

fn generate(pos: &Position, touching: Bitboard) -> Moves {
    let mut moves = Moves::NONE;
    for p in allowed_pieces(pos) {
        moves.push(p, square_rules(pos, p) & touching);
    }
    moves
}

impl Rules for Standard {
    fn legal(pos: &Position) -> Moves {
        if pos.is_over() {
            return Moves::NONE;
        }
        let occ = pos.occupied();
        if occ.is_empty() {
            return generate(pos, Bitboard::FULL);
        }
        let moves = generate(pos, occ.adjacent());
        if moves.is_empty() {
            // Rule 7: with no move, touching is lifted for this one move.
            generate(pos, Bitboard::FULL)
        } else {
            moves
        }
    }

    fn why_illegal(pos: &Position, pl: Placement) -> &'static str {
        let us = pos.side_to_move();
        if pos.ply() == 0 && pl.piece != Piece::King {
            return "White's first placement must be the King (rule 1)";
        }
        if us == Color::Black && pl.piece == Piece::King && pos.ply() != LAST_BLACK_PLY {
            return "Black's King must be Black's last piece (rule 3)";
        }
        if queen_call(pos) && pl.piece != Piece::Queen {
            return "the opponent placed its Queen: this placement must be the Queen (rule 6)";
        }
        if pos.ply() == LAST_BLACK_PLY && !square_rules(pos, pl.piece).has(pl.square) {
            return "Black's King must touch the piece White placed last (rule 3)";
        }
        if pos.ply() == LAST_WHITE_PLY && !pos.empty().adjacent().has(pl.square) {
            return "White's 8th piece must keep an empty neighbouring square (rule 4)";
        }
        if pl.piece == Piece::Bishop && !square_rules(pos, Piece::Bishop).has(pl.square) {
            return "a side's two Bishops must stand on squares of different colours (rule 5)";
        }
        "the piece must touch an occupied square (rule 2)"
    }

    fn validate(pos: &Position) -> Result<(), &'static str> {
        let occ = pos.occupied();
        if occ.is_empty() {
            return Ok(());
        }
        if pos.pieces_of(Color::White, Piece::King).is_empty() {
            return Err("White's first placement is its King, but White has no King on the board");
        }
        let black_king = pos.pieces_of(Color::Black, Piece::King);
        if let Some(k) = black_king.first() {
            if pos.ply() != GAME_PLIES || pos.last() != Some(k) {
                return Err("Black's King can only be Black's last placement");
            }
            if (attacks::king(k) & pos.pieces(Color::White)).is_empty() {
                return Err("Black's King must touch the piece White placed last");
            }
        }
        for c in Color::ALL {
            let b = pos.pieces_of(c, Piece::Bishop);
            if b.count() == 2
                && ((b & Bitboard::DARK).is_empty() || (b & Bitboard::LIGHT).is_empty())
            {
                return Err("a side's two Bishops stand on squares of the same colour");
            }
            let q = pos.pieces_of(c, Piece::Queen);
            if !q.is_empty()
                && pos.pieces_of(c.flip(), Piece::Queen).is_empty()
                && pos.last() != q.first()
            {
                return Err("a Queen was not answered by the opponent's Queen (queen call)");
            }
        }
        if occ.count() > 1 && occ.into_iter().any(|s| (attacks::king(s) & occ).is_empty()) {
            return Err("every piece must touch another piece");
        }
        if pos.ply() == GAME_PLIES - 1 {
            let last = pos.last().map_or(Bitboard::EMPTY, attacks::king);
            if (last & pos.empty()).is_empty() {
                return Err("White's 8th piece has no empty neighbouring square for Black's King");
            }
        }
        Ok(())
    }

    fn key_extra(pos: &Position) -> u64 {
        // Only where the last square changes the legal moves, so that more
        // transpositions meet.
        match pos.last() {
            Some(sq) if pos.ply() == LAST_BLACK_PLY => zobrist::last(sq),
            Some(_) if queen_call(pos) => zobrist::queen_call(),
            _ => 0,
        }
    }
}
