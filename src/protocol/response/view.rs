//! What the debug commands show, taken from a position as plain data.

use crate::position::Position;
use crate::types::{Color, Placement, Square};
use crate::variant::Variant;

/// One piece on the board and the points it earns now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceScore {
    /// Whose piece.
    pub color: Color,
    /// The piece and its square.
    pub at: Placement,
    /// Empty squares it attacks.
    pub points: i32,
}

/// A snapshot of a position for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The variant played.
    pub variant: Variant,
    /// The position string.
    pub fen: String,
    /// Placements made so far.
    pub ply: u8,
    /// Side to move.
    pub side: Color,
    /// The piece letter on each square (`a1` = 0), `.` when empty.
    pub board: [char; 64],
    /// How many of each side's pieces attack each square (occupied: 0).
    pub attackers: [[u8; 64]; 2],
    /// Both sides' points, White first.
    pub points: [i32; 2],
    /// Every piece with its points.
    pub pieces: Vec<PieceScore>,
    /// The legal placements.
    pub moves: Vec<Placement>,
}

impl View {
    /// The snapshot of `pos`.
    pub fn of(pos: &Position) -> View {
        let mut v = View {
            variant: pos.variant(),
            fen: pos.fen(),
            ply: pos.ply(),
            side: pos.side_to_move(),
            board: ['.'; 64],
            attackers: [[0; 64]; 2],
            points: [pos.points(Color::White), pos.points(Color::Black)],
            pieces: Vec::new(),
            moves: pos.legal_moves().to_vec(),
        };
        for sq in Square::all() {
            if let Some((color, piece)) = pos.piece_at(sq) {
                v.add_piece(pos, color, Placement::new(piece, sq));
            }
        }
        v
    }

    fn add_piece(&mut self, pos: &Position, color: Color, at: Placement) {
        let letter = at.piece.letter();
        self.board[at.square.index()] = match color {
            Color::White => letter,
            Color::Black => letter.to_ascii_lowercase(),
        };
        let targets = pos.attacks_from(at.piece, at.square) & pos.empty();
        for sq in targets {
            self.attackers[color.index()][sq.index()] += 1;
        }
        let points = targets.count() as i32;
        self.pieces.push(PieceScore { color, at, points });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_points_add_up_to_the_scores() {
        let pos = Position::from_fen("8/8/8/3Q4/3Kq3/8/8/8 b d5", Variant::Standard).unwrap();
        let v = View::of(&pos);
        for c in Color::ALL {
            let sum: i32 = v
                .pieces
                .iter()
                .filter(|p| p.color == c)
                .map(|p| p.points)
                .sum();
            let attacked: i32 = v.attackers[c.index()].iter().map(|&n| i32::from(n)).sum();
            assert_eq!((sum, attacked), (pos.points(c), pos.points(c)));
        }
        assert_eq!(v.board["d4".parse::<Square>().unwrap().index()], 'K');
        assert_eq!(v.board["e4".parse::<Square>().unwrap().index()], 'q');
        assert_eq!(v.moves.len() as u64, pos.legal_moves().count());
    }
}
