//! The game as XBoard sees it: an engine-defined variant on XBoard's
//! crazyhouse board (8x8 with holdings of five piece kinds), the variant
//! names, the holdings' squares that `lift` names, and the position strings
//! `setboard` brings (XBoard's FEN with `[holdings]`, or our own three
//! fields). Data only: the text is written in `response.rs`.
//!
//! XBoard's King is royal: with legality testing on (its default) XBoard
//! refuses a placement that leaves one's own King attacked, as chess does.
//! Cheversi has no check, so our King is XBoard's Commoner (the non-royal
//! piece that moves as a King), still written `K`: a piece table that gives
//! the Commoner the letter `K` and leaves XBoard's King out. XBoard then
//! never tests check, holds our King in hand like any other piece and
//! draws it with the Commoner's picture (a crown-less King).

use crate::bitboard::Bitboard;
use crate::fen::PositionError;
use crate::position::Position;
use crate::types::{Color, Piece, Square, Variant};

/// XBoard's piece table (`-pieceToCharTable`): Pawn absent, then Knight,
/// Bishop, Rook, Queen, five absent kinds, the Commoner as `K`, and XBoard's
/// King absent (the last letter of each half); White's half, then Black's.
pub const PIECE_TABLE: &str = ".NBRQ.....K..nbrq.....k.";

/// XBoard's parent variant: its drops, holdings and drop notation (`Q@e5`).
pub const PARENT: &str = "crazyhouse";

/// The holdings' rows, as XBoard numbers the pieces the table lets in:
/// White's from rank 1 up, Black's from rank 8 down.
pub const HAND: [Piece; 5] = [
    Piece::Knight,
    Piece::Bishop,
    Piece::Rook,
    Piece::Queen,
    Piece::King,
];

/// The file letter XBoard gives White's holdings in `lift` (two columns
/// right of `h`: the counts, then the pieces).
const WHITE_HAND_FILE: char = 'j';
/// The file letter of Black's holdings (two columns left of `a`).
const BLACK_HAND_FILE: char = '_';

/// The variant's name in XBoard's menus and `variant` commands.
pub const fn xboard_name(v: Variant) -> &'static str {
    match v {
        Variant::Standard => "cheversi",
        Variant::Open => "cheversi-open",
        Variant::Original => "cheversi-original",
    }
}

/// The variant an XBoard name (or our own name, `standard`...) stands for.
pub fn variant_named(name: &str) -> Option<Variant> {
    Variant::ALL
        .into_iter()
        .find(|&v| xboard_name(v) == name || v.name() == name)
}

/// A square XBoard names in `lift`, `put` and `hover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// A square of the board.
    Board(Square),
    /// A side's holdings: the row of this piece.
    Hand(Color, Piece),
    /// Anything else (the count columns, a name we do not know).
    Off,
}

/// Reads a square name of `lift`/`put`/`hover`.
pub fn spot(word: &str) -> Spot {
    if let Ok(sq) = word.parse::<Square>() {
        return Spot::Board(sq);
    }
    let mut chars = word.chars();
    let (Some(file), Ok(rank)) = (chars.next(), chars.as_str().parse::<usize>()) else {
        return Spot::Off;
    };
    let row = match file {
        WHITE_HAND_FILE => rank.checked_sub(1).map(|r| (Color::White, r)),
        BLACK_HAND_FILE => 8usize.checked_sub(rank).map(|r| (Color::Black, r)),
        _ => None,
    };
    match row.and_then(|(c, r)| HAND.get(r).map(|&p| (c, p))) {
        Some((c, p)) => Spot::Hand(c, p),
        None => Spot::Off,
    }
}

/// The squares to mark when the user lifts the piece at `spot`: where it
/// may be placed now. A piece on the board never moves: nothing.
pub fn targets(pos: &Position, spot: Spot) -> Bitboard {
    match spot {
        Spot::Hand(c, p) if c == pos.side_to_move() => pos
            .legal_moves()
            .groups()
            .filter(|&(q, _)| q == p)
            .fold(Bitboard::EMPTY, |acc, (_, t)| acc | t),
        _ => Bitboard::EMPTY,
    }
}

/// The pieces each side holds, in XBoard's order (White's uppercase, then
/// Black's lowercase), e.g. `NNBBRRQKnnbbrrqk` on the empty board.
pub fn holdings(pos: &Position) -> String {
    let mut s = String::new();
    for c in Color::ALL {
        for p in HAND {
            for _ in 0..pos.in_hand(c, p) {
                let l = p.letter();
                s.push(if c == Color::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
    }
    s
}

/// Reads `setboard`'s position: our three fields (`<board> <side> <last>`),
/// or XBoard's FEN, `<board>[<holdings>] <side> <castling> <e.p.> ...`,
/// whose e.p. field may give the last placement's square. Where it gives
/// none and the rules depend on it, the one square that makes the position
/// possible is taken, or the same legal placements follow from every
/// possible one; otherwise the position is refused as ambiguous.
pub fn read_position(text: &str, variant: Variant) -> Result<Position, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() == 3 && !fields[2].contains(['K', 'Q', 'k', 'q']) {
        return Position::from_fen(text, variant).map_err(|e| e.to_string());
    }
    if fields.len() > 6 {
        return Err(format!(
            "expected at most 6 fields (board, side, castling, e.p., two counts), found {}",
            fields.len()
        ));
    }
    let [board, side, rest @ ..] = &fields[..] else {
        return Err(format!(
            "expected a board and a side to move, found {} field(s)",
            fields.len()
        ));
    };
    let (board, hand) = match board.split_once('[') {
        Some((b, h)) => match h.strip_suffix(']') {
            Some(h) => (b, Some(h)),
            None => return Err(format!("holdings '[{h}' do not end with ']'")),
        },
        None => (*board, None),
    };
    let pos = match rest.get(1).filter(|&&ep| ep != "-") {
        Some(last) => Position::from_fen(&format!("{board} {side} {last}"), variant)
            .map_err(|e| e.to_string())?,
        None => guess_last(board, side, variant)?,
    };
    match hand {
        Some(h) if sorted(h) != sorted(&holdings(&pos)) => Err(format!(
            "the holdings [{h}] do not match the board, which leaves [{}] in hand",
            holdings(&pos)
        )),
        _ => Ok(pos),
    }
}

fn sorted(s: &str) -> Vec<char> {
    let mut v: Vec<char> = s.chars().filter(|&c| c != '-').collect();
    v.sort_unstable();
    v
}

/// The position with the last placement on one of the squares of the side
/// that just moved, where that choice does not change the legal moves.
fn guess_last(board: &str, side: &str, variant: Variant) -> Result<Position, String> {
    let empty = Position::from_fen(&format!("{board} {side} -"), variant);
    if empty.is_ok() {
        return empty.map_err(|e| e.to_string());
    }
    let mut first_error = None;
    let mut found: Vec<Position> = Vec::new();
    for sq in Square::all() {
        match Position::from_fen(&format!("{board} {side} {sq}"), variant) {
            Ok(p) => found.push(p),
            // Not a square of the side that moved.
            Err(PositionError::LastEmpty | PositionError::LastWrongSide(_)) => {}
            Err(e) => {
                first_error.get_or_insert(e.to_string());
            }
        }
    }
    let Some(first) = found.first() else {
        return Err(first_error.unwrap_or_else(|| "no piece of the side that moved".into()));
    };
    let moves = first.legal_moves().to_vec();
    if found.iter().all(|p| p.legal_moves().to_vec() == moves) {
        return Ok(first.clone());
    }
    let squares: Vec<String> = found
        .iter()
        .filter_map(|p| p.last())
        .map(|s| s.to_string())
        .collect();
    Err(format!(
        "the last placement decides the legal moves here and could be on {}: give its square as the e.p. field",
        squares.join(" or ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn holdings_squares_name_the_pieces_xboard_shows_there() {
        assert_eq!(spot("j5"), Spot::Hand(Color::White, Piece::King));
        assert_eq!(spot("j1"), Spot::Hand(Color::White, Piece::Knight));
        assert_eq!(spot("_8"), Spot::Hand(Color::Black, Piece::Knight));
        assert_eq!(spot("_4"), Spot::Hand(Color::Black, Piece::King));
        assert_eq!(spot("e4"), Spot::Board(sq("e4")));
        for off in ["j6", "_3", "i1", "`2", "j", "", "_9x", "j0"] {
            assert_eq!(spot(off), Spot::Off, "{off}");
        }
    }

    #[test]
    fn the_holdings_follow_the_board_in_xboard_order() {
        let mut pos = Position::new(Variant::Open);
        assert_eq!(holdings(&pos), "NNBBRRQKnnbbrrqk");
        pos.play_checked("K@d4".parse().unwrap()).unwrap();
        assert_eq!(holdings(&pos), "NNBBRRQnnbbrrqk");
    }

    #[test]
    fn lifting_a_piece_in_hand_marks_its_legal_squares() {
        let mut pos = Position::new(Variant::Standard);
        pos.play_checked("K@d4".parse().unwrap()).unwrap();
        let black_queen = targets(&pos, Spot::Hand(Color::Black, Piece::Queen));
        assert_eq!(black_queen, (Bitboard::from_square(sq("d4"))).neighbours());
        assert!(targets(&pos, Spot::Hand(Color::White, Piece::Queen)).is_empty());
        assert!(targets(&pos, Spot::Board(sq("d4"))).is_empty());
    }

    #[test]
    fn setboard_reads_xboards_fen_and_our_own() {
        let v = Variant::Standard;
        let empty = read_position("8/8/8/8/8/8/8/8[NNBBRRQKnnbbrrqk] w - - 0 1", v).unwrap();
        assert_eq!(empty.fen(), "8/8/8/8/8/8/8/8 w -");
        let ours = read_position("8/8/8/4q3/3K4/8/8/8 w e5", v).unwrap();
        assert_eq!(ours.last(), Some(sq("e5")));
        let ep = read_position("8/8/8/4q3/3K4/8/8/8[NNBBRRQnnbbrrk] w - e5 0 2", v).unwrap();
        assert_eq!(ep.fen(), ours.fen());
        // One Black piece: it was the last placement.
        let guessed = read_position("8/8/8/4q3/3K4/8/8/8 w - - 0 2", v).unwrap();
        assert_eq!(guessed.fen(), ours.fen());
        let wrong = read_position("8/8/8/4q3/3K4/8/8/8[NNBBRRQKnnbbrrk] w - - 0 2", v);
        assert!(wrong.unwrap_err().contains("do not match"));
        assert!(read_position("8/8/8 w", v).is_err());
        assert!(read_position("8/8/8/8/8/8/8/8[NN w - - 0 1", v).is_err());
    }

    #[test]
    fn an_ambiguous_last_placement_is_refused_where_it_matters() {
        // K@d4 Q@e5 N@f4 R@e6 in original: the next piece follows the last
        // one's attacks, so e5 and e6 leave White different moves.
        let board = "8/8/4r3/4q3/3K1N2/8/8/8 w";
        let err = read_position(&format!("{board} - - 0 3"), Variant::Original).unwrap_err();
        assert!(err.contains("could be on e5 or e6"), "{err}");
        let given = read_position(&format!("{board} - e6 0 3"), Variant::Original).unwrap();
        assert_eq!(given.last(), Some(sq("e6")));
        // In open the last placement changes nothing: any will do.
        assert!(read_position(&format!("{board} - - 0 3"), Variant::Open).is_ok());
        // Only h1 could be last, and White's King on a1 never attacked it.
        let err = read_position("8/8/8/8/8/8/8/K6q w - - 0 1", Variant::Original).unwrap_err();
        assert!(err.contains("rule 2"), "{err}");
    }
}
