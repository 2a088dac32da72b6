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

/// Would the side to move's Queen make a queen call (rule 6): do both
/// sides still hold their Queens? Then the opponent's next piece must be
/// its Queen, whatever else the position is.
pub fn may_call_queen(pos: &Position) -> bool {
    let us = pos.side_to_move();
    pos.in_hand(us, Piece::Queen) > 0 && pos.in_hand(us.flip(), Piece::Queen) > 0
}

/// May the side to move place `p` (in hand), before any square rule
/// (rules 1, 3, 6), `call` telling whether a queen call holds?
#[inline]
fn allowed(pos: &Position, p: Piece, call: bool) -> bool {
    let us = pos.side_to_move();
    pos.in_hand(us, p) > 0
        && (pos.ply() > 0 || p == Piece::King)
        && (us == Color::White || p != Piece::King || pos.ply() == LAST_BLACK_PLY)
        && (!call || p == Piece::Queen)
}

/// Squares allowed for any piece by rules 3 and 4 (empty ones only).
#[inline]
fn common_squares(pos: &Position) -> Bitboard {
    let empty = pos.empty();
    let mut ok = empty;
    if pos.ply() == LAST_BLACK_PLY {
        ok &= pos.last().map_or(Bitboard::EMPTY, attacks::king);
    }
    if pos.ply() == LAST_WHITE_PLY {
        ok &= empty.adjacent();
    }
    ok
}

/// The squares of the colour `side`'s second Bishop must take (rule 5):
/// every square while no Bishop stands.
#[inline]
fn bishop_colour(pos: &Position, side: Color) -> Bitboard {
    let placed = pos.pieces_of(side, Piece::Bishop);
    let mut ok = Bitboard::FULL;
    if !(placed & Bitboard::DARK).is_empty() {
        ok &= Bitboard::LIGHT;
    }
    if !(placed & Bitboard::LIGHT).is_empty() {
        ok &= Bitboard::DARK;
    }
    ok
}

/// The squares of `ok` (allowed to every piece) that `side`'s `piece` may
/// take: a Bishop only those of its colour (rule 5).
#[inline]
fn for_piece(pos: &Position, side: Color, piece: Piece, ok: Bitboard) -> Bitboard {
    if piece == Piece::Bishop {
        ok & bishop_colour(pos, side)
    } else {
        ok
    }
}

/// Squares allowed for `piece` by every rule but touching (rules 3, 4, 5).
fn square_rules(pos: &Position, piece: Piece) -> Bitboard {
    for_piece(pos, pos.side_to_move(), piece, common_squares(pos))
}

/// The legal placements on `touching`: the square rules shared by every
/// piece found once (this runs at every node of the search).
#[inline]
fn generate(pos: &Position, touching: Bitboard) -> Moves {
    let mut moves = Moves::NONE;
    let ok = common_squares(pos) & touching;
    if ok.is_empty() {
        return moves;
    }
    let call = queen_call(pos);
    for p in Piece::ALL {
        if allowed(pos, p, call) {
            moves.push(p, for_piece(pos, pos.side_to_move(), p, ok));
        }
    }
    moves
}

/// The one piece of Black's 7th placement or White's 8th and its squares,
/// which the last plies of every search generate (solve 10 1: seven
/// million times): the side to move then holds one piece it may place
/// (Black's King waits for the last ply), so the piece rules (1, 3, 6)
/// leave that piece alone, and the square rules narrow to its squares.
/// `None` at other plies and where no square touches (rule 7 is left to
/// [`general`]).
#[inline(always)]
pub fn last_piece(pos: &Position) -> Option<(Piece, Bitboard)> {
    if pos.ply() != LAST_WHITE_PLY && pos.ply() != LAST_WHITE_PLY - 1 {
        return None;
    }
    let us = pos.side_to_move();
    let piece = last_held(pos, us)?;
    let ok = for_piece(
        pos,
        us,
        piece,
        common_squares(pos) & pos.occupied().adjacent(),
    );
    (!ok.is_empty()).then_some((piece, ok))
}

/// White's last piece and the squares where it may answer whatever
/// Black's 7th placement is (Black to move at ply 13), but that placement's
/// own square and, by rule 4, a square whose one empty neighbour it took:
/// the squares touching the board now and of the Bishop's colour (rule 5).
/// Touching, queen call (White holds one piece) and the King's wait
/// (rules 2, 6, 3) ask nothing more of them.
pub fn white_reply(pos: &Position) -> Option<(Piece, Bitboard)> {
    if pos.ply() != LAST_WHITE_PLY - 1 {
        return None;
    }
    let piece = last_held(pos, Color::White)?;
    let ok = pos.empty() & pos.occupied().adjacent();
    Some((piece, for_piece(pos, Color::White, piece, ok)))
}

/// The piece other than the King that `side` holds, its last but the
/// King's at the plies where [`last_piece`] and [`white_reply`] ask.
#[inline(always)]
fn last_held(pos: &Position, side: Color) -> Option<Piece> {
    [Piece::Queen, Piece::Rook, Piece::Bishop, Piece::Knight]
        .into_iter()
        .find(|&p| pos.in_hand(side, p) > 0)
}

/// The placements of Black's 7th piece and White's 8th ([`last_piece`]).
#[inline(always)]
fn last_but_king(pos: &Position) -> Option<Moves> {
    let (piece, ok) = last_piece(pos)?;
    let mut moves = Moves::NONE;
    moves.push(piece, ok);
    Some(moves)
}

/// The legal placements of any position, the piece rules asked of each
/// kind in turn.
#[inline(never)]
fn general(pos: &Position) -> Moves {
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

impl Rules for Standard {
    #[inline(always)]
    fn legal(pos: &Position) -> Moves {
        last_but_king(pos).unwrap_or_else(|| general(pos))
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

    fn restriction(pos: &Position) -> Option<String> {
        let side = super::side_name(pos.side_to_move());
        Some(match pos.ply() {
            0 => "White's first placement is its King, rule 1".into(),
            _ if queen_call(pos) => format!("queen call: {side} must place its Queen, rule 6"),
            LAST_BLACK_PLY => {
                let last = pos.last().map(|s| s.to_string()).unwrap_or_default();
                format!("Black's King, next to White's last piece on {last}, rule 3")
            }
            LAST_WHITE_PLY => {
                "touching, with an empty neighbour left for Black's King, rules 2 and 4".into()
            }
            _ => "touching a piece, rule 2; Black's King comes last, rule 3".into(),
        })
    }

    #[inline]
    fn key_extra(pos: &Position) -> u64 {
        // Only where the last square changes the legal moves, so that more
        // transpositions meet.
        match pos.last() {
            Some(sq) if pos.ply() == LAST_BLACK_PLY => zobrist::last(sq),
            Some(_) if queen_call(pos) => zobrist::queen_call(),
            _ => 0,
        }
    }

    #[inline]
    fn key_extra_after(pos: &Position, pl: Placement) -> u64 {
        // As `key_extra` once `pl` is played: the opponent then moves, and
        // a queen call holds if `pl` is a Queen and they still hold theirs.
        if pos.ply() + 1 == LAST_BLACK_PLY {
            zobrist::last(pl.square)
        } else if pl.piece == Piece::Queen
            && pos.in_hand(pos.side_to_move().flip(), Piece::Queen) > 0
        {
            zobrist::queen_call()
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn last_pieces_but_the_king_are_generated_as_in_general() {
        let mut rng = crate::testing::Rng(0x6A09_E667_F3BC_C908);
        let mut fast = 0;
        for _ in 0..3000 {
            let mut pos = Position::new(Variant::Standard);
            let plies = LAST_WHITE_PLY - 1 + rng.below(3) as u8;
            while pos.ply() < plies {
                rng.play(&mut pos);
            }
            let want = general(&pos);
            if let Some(got) = last_but_king(&pos) {
                assert_eq!(got, want, "{}", pos.fen());
                fast += 1;
            }
            assert_eq!(Standard::legal(&pos), want, "{}", pos.fen());
        }
        assert!(fast > 1500, "{fast}");
    }
}
