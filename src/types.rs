//! The game's small vocabulary: colours, pieces, squares, placements and the
//! variants' names (their rules are in `variant/`).

use std::fmt;
use std::str::FromStr;

/// A side of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that places first.
    White = 0,
    /// The side that places second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side to move after `ply` placements.
    #[inline]
    pub const fn to_move_at(ply: u8) -> Color {
        if ply.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// A kind of piece. Every side holds K, Q, R, R, B, B, N, N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Piece {
    /// King: the eight neighbouring squares.
    King = 0,
    /// Queen: rook and bishop rays.
    Queen = 1,
    /// Rook: ranks and files.
    Rook = 2,
    /// Bishop: diagonals.
    Bishop = 3,
    /// Knight: the knight jumps.
    Knight = 4,
}

impl Piece {
    /// Every piece kind, in index order.
    pub const ALL: [Piece; 5] = [
        Piece::King,
        Piece::Queen,
        Piece::Rook,
        Piece::Bishop,
        Piece::Knight,
    ];

    /// How many of this piece each side holds at the start.
    #[inline]
    pub const fn initial_count(self) -> u8 {
        match self {
            Piece::King | Piece::Queen => 1,
            _ => 2,
        }
    }

    /// Index 0..5.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index, if any.
    pub const fn from_index(i: usize) -> Option<Piece> {
        match i {
            0 => Some(Piece::King),
            1 => Some(Piece::Queen),
            2 => Some(Piece::Rook),
            3 => Some(Piece::Bishop),
            4 => Some(Piece::Knight),
            _ => None,
        }
    }

    /// The uppercase letter: `K Q R B N`.
    pub const fn letter(self) -> char {
        match self {
            Piece::King => 'K',
            Piece::Queen => 'Q',
            Piece::Rook => 'R',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
        }
    }

    /// The piece named by a letter, either case.
    pub const fn from_letter(c: char) -> Option<Piece> {
        match c.to_ascii_uppercase() {
            'K' => Some(Piece::King),
            'Q' => Some(Piece::Queen),
            'R' => Some(Piece::Rook),
            'B' => Some(Piece::Bishop),
            'N' => Some(Piece::Knight),
            _ => None,
        }
    }

    /// Does this piece slide (and can therefore be blocked)?
    #[inline]
    pub const fn is_slider(self) -> bool {
        matches!(self, Piece::Queen | Piece::Rook | Piece::Bishop)
    }
}

/// A square `a1`..`h8`, index `rank * 8 + file` (a1 = 0, h1 = 7, h8 = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index; `None` past 63.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index, which must be below 64.
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The square at file 0..8 and rank 0..8.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (a = 0).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (rank 1 = 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// Is this a dark square? `a1` is dark.
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why a square or placement could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not a square `a1`..`h8`.
    BadSquare(String),
    /// Not one of `K Q R B N`.
    UnknownPiece(String),
    /// Not of the form `<Piece>@<square>`.
    BadPlacement(String),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::BadSquare(s) => write!(f, "'{s}' is not a square on the board (a1..h8)"),
            NotationError::UnknownPiece(s) => write!(f, "'{s}' is not a piece (K, Q, R, B or N)"),
            NotationError::BadPlacement(s) => {
                write!(
                    f,
                    "'{s}' is not a placement (expected <Piece>@<square>, e.g. K@d4)"
                )
            }
        }
    }
}

impl std::error::Error for NotationError {}

impl FromStr for Square {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Square, NotationError> {
        let b = s.as_bytes();
        let bad = || NotationError::BadSquare(s.to_string());
        if b.len() != 2 {
            return Err(bad());
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'1');
        Square::from_coords(file, rank).ok_or_else(bad)
    }
}

/// One move: a piece from the mover's hand put on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The piece placed.
    pub piece: Piece,
    /// Where it goes.
    pub square: Square,
}

impl Placement {
    /// A placement of `piece` on `square`.
    pub const fn new(piece: Piece, square: Square) -> Placement {
        Placement { piece, square }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.piece.letter(), self.square)
    }
}

impl FromStr for Placement {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Placement, NotationError> {
        let (p, sq) = s
            .split_once('@')
            .ok_or_else(|| NotationError::BadPlacement(s.to_string()))?;
        let mut chars = p.chars();
        let piece = match (chars.next(), chars.next()) {
            (Some(c), None) => Piece::from_letter(c),
            _ => None,
        }
        .ok_or_else(|| NotationError::UnknownPiece(p.to_string()))?;
        Ok(Placement::new(piece, sq.parse()?))
    }
}

/// One of the three rule sets of RULES.md.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Current BrainKing rules (the default).
    #[default]
    Standard,
    /// Older BrainKing rules: King first, Black's Queen first, then anything.
    Open,
    /// Lewicki's 2003 rules: follow the square the opponent's last piece attacks.
    Original,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [Variant::Standard, Variant::Open, Variant::Original];

    /// The variant's name as used on the command line and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Open => "open",
            Variant::Original => "original",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not one of `standard`, `open`, `original`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected standard, open or original)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert!("a1".parse::<Square>().unwrap().is_dark());
        assert!(!"h1".parse::<Square>().unwrap().is_dark());
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!("é1".parse::<Square>().is_err());
    }

    #[test]
    fn placements_parse_either_case_and_print_uppercase() {
        let p: Placement = "q@e5".parse().unwrap();
        assert_eq!(p.to_string(), "Q@e5");
        assert_eq!(
            "X@e5".parse::<Placement>(),
            Err(NotationError::UnknownPiece("X".into()))
        );
        assert!(matches!(
            "Qe5".parse::<Placement>(),
            Err(NotationError::BadPlacement(_))
        ));
        assert!(matches!(
            "Q@z9".parse::<Placement>(),
            Err(NotationError::BadSquare(_))
        ));
        assert!("@".parse::<Placement>().is_err());
        assert!("KK@a1".parse::<Placement>().is_err());
    }
}
