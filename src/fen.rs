//! The three-field position string of RULES.md: `8/8/8/4q3/3K4/8/8/8 w e5`.

use crate::position::Position;
use crate::types::{Color, Piece, Square};
use crate::variant::Variant;
use std::fmt;

/// Why a position string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is not three fields of the right form; says what is wrong.
    Syntax(String),
    /// A side has more of a piece than it holds at the start.
    TooMany(Color, Piece),
    /// The piece counts do not fit the side to move.
    SideToMove {
        /// White pieces on the board.
        white: u32,
        /// Black pieces on the board.
        black: u32,
        /// The side given.
        side: Color,
    },
    /// `last` names an empty square, or is `-` on a non-empty board.
    LastEmpty,
    /// `last` is given on an empty board.
    LastOnEmptyBoard,
    /// `last` holds a piece of the side to move.
    LastWrongSide(Square),
    /// The position cannot arise under the variant's rules.
    Unreachable(Variant, &'static str),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            Syntax(s) => write!(f, "bad position string: {s}"),
            TooMany(c, p) => write!(
                f,
                "{} has too many {}s (at most {})",
                side_name(*c),
                crate::variant::piece_name(*p),
                p.initial_count()
            ),
            SideToMove { white, black, side } => write!(
                f,
                "{white} White and {black} Black pieces cannot have {} to move",
                side_name(*side)
            ),
            LastEmpty => write!(f, "the last placement must name an occupied square"),
            LastOnEmptyBoard => write!(f, "the board is empty, so the last square must be '-'"),
            LastWrongSide(sq) => write!(
                f,
                "the piece on {sq} belongs to the side to move, so it cannot be the last placement"
            ),
            Unreachable(v, why) => write!(f, "position cannot arise in {v}: {why}"),
        }
    }
}

impl std::error::Error for PositionError {}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn syntax(s: impl Into<String>) -> PositionError {
    PositionError::Syntax(s.into())
}

/// Reads the board field into (colour, piece, square) triples.
fn parse_board(field: &str) -> Result<Vec<(Color, Piece, Square)>, PositionError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(syntax(format!(
            "the board needs 8 ranks separated by '/', found {}",
            ranks.len()
        )));
    }
    let mut pieces = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as u8;
            } else {
                let piece = Piece::from_letter(ch).ok_or_else(|| {
                    syntax(format!("'{ch}' is not a piece letter or a digit 1-8"))
                })?;
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let sq = Square::from_coords(file, rank)
                    .ok_or_else(|| syntax(format!("rank {} is longer than 8 squares", rank + 1)))?;
                pieces.push((color, piece, sq));
                file += 1;
            }
            if file > 8 {
                return Err(syntax(format!(
                    "rank {} is longer than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(syntax(format!(
                "rank {} has {file} squares, not 8",
                rank + 1
            )));
        }
    }
    Ok(pieces)
}

fn check_counts(pieces: &[(Color, Piece, Square)], side: Color) -> Result<(), PositionError> {
    for c in Color::ALL {
        for p in Piece::ALL {
            let n = pieces.iter().filter(|t| t.0 == c && t.1 == p).count();
            if n > p.initial_count() as usize {
                return Err(PositionError::TooMany(c, p));
            }
        }
    }
    let white = pieces.iter().filter(|t| t.0 == Color::White).count() as u32;
    let black = pieces.len() as u32 - white;
    let expected = if white == black {
        Color::White
    } else {
        Color::Black
    };
    if (white != black && white != black + 1) || expected != side {
        return Err(PositionError::SideToMove { white, black, side });
    }
    Ok(())
}

impl Position {
    /// Reads a position string and checks that it can arise in `variant`.
    pub fn from_fen(text: &str, variant: Variant) -> Result<Position, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, last] = fields[..] else {
            return Err(syntax(format!(
                "expected 3 fields (board, side, last square), found {}",
                fields.len()
            )));
        };
        let pieces = parse_board(board)?;
        let side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => {
                return Err(syntax(format!(
                    "side to move must be 'w' or 'b', not '{side}'"
                )));
            }
        };
        let last = match last {
            "-" => None,
            s => Some(s.parse::<Square>().map_err(|e| syntax(e.to_string()))?),
        };
        check_counts(&pieces, side)?;
        let pos = Position::from_board(variant, &pieces, last);
        match (pos.occupied().is_empty(), last) {
            (true, Some(_)) => return Err(PositionError::LastOnEmptyBoard),
            (false, None) => return Err(PositionError::LastEmpty),
            (_, Some(sq)) => match pos.piece_at(sq) {
                None => return Err(PositionError::LastEmpty),
                Some((c, _)) if c == side => return Err(PositionError::LastWrongSide(sq)),
                _ => {}
            },
            (true, None) => {}
        }
        variant
            .validate(&pos)
            .map_err(|why| PositionError::Unreachable(variant, why))?;
        Ok(pos)
    }

    /// The position string: board, side to move, last square.
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            let mut run = 0;
            for file in 0..8 {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => run += 1,
                    Some((c, p)) => {
                        if run > 0 {
                            s.push(char::from(b'0' + run));
                            run = 0;
                        }
                        let l = p.letter();
                        s.push(if c == Color::White {
                            l
                        } else {
                            l.to_ascii_lowercase()
                        });
                    }
                }
            }
            if run > 0 {
                s.push(char::from(b'0' + run));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side_to_move().letter());
        s.push(' ');
        match self.last() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            "8/8/8/8/8/8/8/8 w -",
            "8/8/8/4q3/3K4/8/8/8 w e5",
            "8/8/8/3Q4/3Kq3/8/8/8 b d5",
        ] {
            let pos = Position::from_fen(fen, Variant::Standard).unwrap();
            assert_eq!(pos.fen(), fen);
        }
    }

    #[test]
    fn refuses_what_cannot_arise() {
        let err = |f: &str| Position::from_fen(f, Variant::Standard).unwrap_err();
        assert!(matches!(err("8/8/8/8/8/8/8 w -"), PositionError::Syntax(_)));
        assert!(matches!(
            err("8/8/8/8/8/8/8/9 w -"),
            PositionError::Syntax(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/x7 w -"),
            PositionError::Syntax(_)
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/8 x -"),
            PositionError::Syntax(_)
        ));
        assert!(matches!(err("8/8/8/8/8/8/8/8 w"), PositionError::Syntax(_)));
        assert!(matches!(
            err("8/8/8/8/8/8/8/8 w z9"),
            PositionError::Syntax(_)
        ));
        assert!(matches!(
            err("8/8/8/8/3K4/8/8/8 w d4"),
            PositionError::SideToMove { .. }
        ));
        assert!(matches!(
            err("8/8/8/8/3K4/8/8/8 b e4"),
            PositionError::LastEmpty
        ));
        assert!(matches!(
            err("8/8/8/8/3K4/8/8/8 b -"),
            PositionError::LastEmpty
        ));
        assert!(matches!(
            err("8/8/8/8/8/8/8/8 w a1"),
            PositionError::LastOnEmptyBoard
        ));
        assert!(matches!(
            err("8/8/8/4q3/3K4/8/8/8 w d4"),
            PositionError::LastWrongSide(_)
        ));
        assert!(matches!(
            err("8/8/8/8/3Q4/8/8/8 b d4"),
            PositionError::Unreachable(..)
        ));
    }
}
