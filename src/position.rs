//! A position: board, hands, side, ply, last placement, points and hash.
//!
//! `play` and `undo` keep both sides' points and the Zobrist hash up to date
//! incrementally; `delta` gives a placement's point change in constant time.

use crate::attacks::{self, DISTANCE, RAY_LEN, RAYS};
use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Placement, Square, Variant};
use crate::zobrist;

/// The number of placements in a game.
pub const GAME_PLIES: u8 = 16;

/// A Cheversi position in one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    variant: Variant,
    by_color: [Bitboard; 2],
    by_piece: [Bitboard; 5],
    board: [Option<(Color, Piece)>; 64],
    hand: [[u8; 5]; 2],
    ply: u8,
    last: Option<Square>,
    points: [i32; 2],
    hash: u64,
}

/// What a placement on one empty square would change (see
/// [`Position::square_delta`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareDelta {
    /// Points the placed piece would earn, by piece index (K, Q, R, B, N).
    pub own: [i32; 5],
    /// Points each side (White, Black) would lose to the new blocker.
    pub loss: [i32; 2],
}

impl SquareDelta {
    /// The mover's gain (its points won minus the opponent's) for `piece`,
    /// `us` being the mover's colour index.
    #[inline]
    pub fn gain(&self, piece: Piece, us: usize) -> i32 {
        self.own[piece.index()] - self.loss[us] + self.loss[1 - us]
    }
}

/// What `undo` needs to restore a position after `play`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    last: Option<Square>,
    points: [i32; 2],
    hash: u64,
}

impl Position {
    /// The empty board, White to move.
    pub fn new(variant: Variant) -> Position {
        Position {
            variant,
            by_color: [Bitboard::EMPTY; 2],
            by_piece: [Bitboard::EMPTY; 5],
            board: [None; 64],
            hand: [[1, 1, 2, 2, 2]; 2],
            ply: 0,
            last: None,
            points: [0; 2],
            hash: 0,
        }
    }

    /// The variant whose rules apply.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Placements made so far, 0..=16.
    #[inline]
    pub fn ply(&self) -> u8 {
        self.ply
    }

    /// Placements left until the end of the game.
    #[inline]
    pub fn plies_left(&self) -> u8 {
        GAME_PLIES - self.ply
    }

    /// Has the 16th placement been made?
    #[inline]
    pub fn is_over(&self) -> bool {
        self.ply >= GAME_PLIES
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        Color::to_move_at(self.ply)
    }

    /// The square of the last placement, `None` on the empty board.
    #[inline]
    pub fn last(&self) -> Option<Square> {
        self.last
    }

    /// The last placement, `None` on the empty board.
    #[inline]
    pub fn last_placement(&self) -> Option<Placement> {
        let sq = self.last?;
        self.board[sq.index()].map(|(_, p)| Placement::new(p, sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<(Color, Piece)> {
        self.board[sq.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of `color`'s pieces of kind `piece`.
    #[inline]
    pub fn pieces_of(&self, color: Color, piece: Piece) -> Bitboard {
        self.by_color[color.index()] & self.by_piece[piece.index()]
    }

    /// The squares of both sides' pieces of kind `piece`.
    #[inline]
    pub fn of_kind(&self, piece: Piece) -> Bitboard {
        self.by_piece[piece.index()]
    }

    /// Both sides' pieces that slide along ranks and files (Q, R), and
    /// along diagonals (Q, B): a blocker cuts their rays.
    #[inline]
    pub fn line_sliders(&self) -> [Bitboard; 2] {
        let q = self.of_kind(Piece::Queen);
        [
            q | self.of_kind(Piece::Rook),
            q | self.of_kind(Piece::Bishop),
        ]
    }

    /// How many of `piece` `color` still holds.
    #[inline]
    pub fn in_hand(&self, color: Color, piece: Piece) -> u8 {
        self.hand[color.index()][piece.index()]
    }

    /// `color`'s points now (every empty square attacked, once per attacker).
    #[inline]
    pub fn points(&self, color: Color) -> i32 {
        self.points[color.index()]
    }

    /// The side to move's points minus the opponent's.
    #[inline]
    pub fn diff(&self) -> i32 {
        let us = self.side_to_move();
        self.points(us) - self.points(us.flip())
    }

    /// The Zobrist hash of the pieces on the board (hands, side and ply follow).
    #[inline]
    pub fn piece_hash(&self) -> u64 {
        self.hash
    }

    /// The squares `piece` on `sq` attacks in this position.
    #[inline]
    pub fn attacks_from(&self, piece: Piece, sq: Square) -> Bitboard {
        attacks::attacks(piece, sq, self.occupied())
    }

    /// What placing any piece on the empty square `s` would change: the
    /// points each piece kind would earn there and what each side would lose
    /// (its leapers' square, its sliders' rays through `s`). One scan of the
    /// eight rays serves every piece kind, so move ordering pays it once per square.
    #[inline]
    pub fn square_delta(&self, s: Square) -> SquareDelta {
        let occ = self.occupied().0;
        let si = s.index();
        let white = self.by_color[0].0;
        let lines = self.line_sliders().map(|b| b.0);
        let mut loss = [0i32; 2];
        let (mut rook, mut bishop) = (0, 0);
        // Direction d (towards higher squares) and d + 4 are opposite: scan
        // both, then each one's first blocker loses the other one's run.
        for d in 0..4 {
            let up = RAYS[d][si] & occ;
            let down = RAYS[d + 4][si] & occ;
            let up_sq = up.trailing_zeros() as usize & 63;
            let down_sq = 63 - (down.leading_zeros() as usize & 63);
            let run_up = if up == 0 {
                RAY_LEN[d][si] as i32
            } else {
                DISTANCE[si][up_sq] as i32 - 1
            };
            let run_down = if down == 0 {
                RAY_LEN[d + 4][si] as i32
            } else {
                DISTANCE[si][down_sq] as i32 - 1
            };
            let sliders = lines[d / 2];
            if up != 0 && sliders >> up_sq & 1 != 0 {
                let c = (white >> up_sq & 1 == 0) as usize;
                loss[c] += 1 + run_down;
            }
            if down != 0 && sliders >> down_sq & 1 != 0 {
                let c = (white >> down_sq & 1 == 0) as usize;
                loss[c] += 1 + run_up;
            }
            // Directions 0 and 1 (with 4 and 5) run along ranks and files.
            if d < 2 {
                rook += run_up + run_down;
            } else {
                bishop += run_up + run_down;
            }
        }
        // King and knight squares around `s` are disjoint: one mask serves both.
        let leapers = (attacks::king(s) & self.by_piece[Piece::King.index()])
            | (attacks::knight(s) & self.by_piece[Piece::Knight.index()]);
        loss[0] += (leapers & self.by_color[0]).count() as i32;
        loss[1] += (leapers & self.by_color[1]).count() as i32;
        let empty = Bitboard(!occ);
        SquareDelta {
            own: [
                (attacks::king(s) & empty).count() as i32,
                rook + bishop,
                rook,
                bishop,
                (attacks::knight(s) & empty).count() as i32,
            ],
            loss,
        }
    }

    /// The change of both sides' points (`[white, black]`) that placing
    /// `pl` for the side to move would make. `pl.square` must be empty.
    #[inline]
    pub fn delta(&self, pl: Placement) -> [i32; 2] {
        let sd = self.square_delta(pl.square);
        let us = self.side_to_move().index();
        let mut d = [-sd.loss[0], -sd.loss[1]];
        d[us] += sd.own[pl.piece.index()];
        d
    }

    /// The mover's point change minus the opponent's for `pl`.
    #[inline]
    pub fn gain(&self, pl: Placement) -> i32 {
        let d = self.delta(pl);
        let us = self.side_to_move().index();
        d[us] - d[1 - us]
    }

    /// Places `pl` for the side to move. The placement must be legal (or at
    /// least: the piece in hand and the square empty); returns what `undo` needs.
    #[inline]
    pub fn play(&mut self, pl: Placement) -> Undo {
        let sd = self.square_delta(pl.square);
        self.play_with(pl, &sd)
    }

    /// `play` with `sd = self.square_delta(pl.square)` already at hand (the
    /// endgame solver computes it for ordering anyway).
    #[inline]
    pub fn play_with(&mut self, pl: Placement, sd: &SquareDelta) -> Undo {
        debug_assert_eq!(*sd, self.square_delta(pl.square));
        let undo = Undo {
            last: self.last,
            points: self.points,
            hash: self.hash,
        };
        self.add(self.side_to_move(), pl, sd);
        self.last = Some(pl.square);
        self.ply += 1;
        undo
    }

    /// Takes back `pl`, which must be the last placement played.
    #[inline]
    pub fn undo(&mut self, pl: Placement, undo: Undo) {
        self.ply -= 1;
        let us = self.side_to_move();
        let bb = Bitboard::from_square(pl.square);
        self.by_color[us.index()] ^= bb;
        self.by_piece[pl.piece.index()] ^= bb;
        self.board[pl.square.index()] = None;
        self.hand[us.index()][pl.piece.index()] += 1;
        self.last = undo.last;
        self.points = undo.points;
        self.hash = undo.hash;
    }

    /// Puts a piece of `color` on the board from its hand, updating the hash
    /// but not the points.
    fn put(&mut self, color: Color, pl: Placement) {
        let bb = Bitboard::from_square(pl.square);
        self.by_color[color.index()] |= bb;
        self.by_piece[pl.piece.index()] |= bb;
        self.board[pl.square.index()] = Some((color, pl.piece));
        self.hand[color.index()][pl.piece.index()] -= 1;
        self.hash ^= zobrist::piece(color, pl.piece, pl.square);
    }

    /// This position with `color`'s `pl` added on its empty square, as
    /// [`Position::from_board`] would build it (no last placement), but
    /// without counting every piece's points again.
    pub(crate) fn with_added(&self, color: Color, pl: Placement) -> Position {
        let sd = self.square_delta(pl.square);
        let mut pos = self.clone();
        pos.add(color, pl, &sd);
        pos.ply += 1;
        pos.last = None;
        pos
    }

    /// Puts `color`'s `pl` on the board from its hand and counts its points
    /// (`sd` the square's delta before it), the hash updated too.
    #[inline(always)]
    fn add(&mut self, color: Color, pl: Placement, sd: &SquareDelta) {
        self.points[0] -= sd.loss[0];
        self.points[1] -= sd.loss[1];
        self.points[color.index()] += sd.own[pl.piece.index()];
        self.put(color, pl);
    }

    /// Builds a position from a board, with no check of the variant's rules.
    /// `pieces` must hold at most each side's initial pieces on distinct
    /// squares; the side to move follows from the counts.
    pub(crate) fn from_board(
        variant: Variant,
        pieces: &[(Color, Piece, Square)],
        last: Option<Square>,
    ) -> Position {
        let mut pos = Position::new(variant);
        for &(c, p, s) in pieces {
            pos.put(c, Placement::new(p, s));
        }
        pos.ply = pieces.len() as u8;
        pos.last = last;
        pos.points = pos.points_from_scratch();
        pos
    }

    /// Both sides' points counted from nothing: the slow, obvious way.
    pub fn points_from_scratch(&self) -> [i32; 2] {
        let occ = self.occupied();
        let mut pts = [0; 2];
        for sq in occ {
            let (c, p) = self.board[sq.index()].expect("occupied square has a piece");
            pts[c.index()] += (attacks::attacks(p, sq, occ) & !occ).count() as i32;
        }
        pts
    }

    /// The piece hash computed from nothing.
    pub fn hash_from_scratch(&self) -> u64 {
        self.occupied()
            .map(|sq| {
                let (c, p) = self.board[sq.index()].expect("occupied square has a piece");
                zobrist::piece(c, p, sq)
            })
            .fold(0, |a, b| a ^ b)
    }

    /// A copy of the position under another variant's rules.
    pub fn with_variant(&self, variant: Variant) -> Position {
        Position {
            variant,
            ..self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_added_gives_the_board_from_scratch() {
        let mut rng = crate::testing::Rng(0xADD0_0000_5EED_0001);
        for i in 0..300 {
            let pos = rng.position(Variant::Standard, 1 + (i % 15) as u8);
            let empty: Vec<Square> = pos.empty().into_iter().collect();
            let sq = empty[rng.below(empty.len())];
            let color = [Color::White, Color::Black][i % 2];
            let Some(piece) = Piece::ALL.into_iter().find(|&p| pos.in_hand(color, p) > 0) else {
                continue;
            };
            let mut pieces: Vec<_> = pos
                .occupied()
                .into_iter()
                .map(|s| {
                    let (c, p) = pos.piece_at(s).unwrap();
                    (c, p, s)
                })
                .collect();
            pieces.push((color, piece, sq));
            let want = Position::from_board(Variant::Standard, &pieces, None);
            assert_eq!(
                pos.with_added(color, Placement::new(piece, sq)),
                want,
                "{}",
                pos.fen()
            );
        }
    }

    fn pl(s: &str) -> Placement {
        s.parse().unwrap()
    }

    #[test]
    fn points_of_a_lone_king_and_blocking() {
        let mut pos = Position::new(Variant::Open);
        pos.play(pl("K@a1"));
        assert_eq!(pos.points(Color::White), 3);
        pos.play(pl("Q@b2"));
        // The king loses b2; the queen sees a2, b1 diagonals etc. but not a1.
        assert_eq!(
            pos.points_from_scratch(),
            [pos.points(Color::White), pos.points(Color::Black)]
        );
        assert_eq!(pos.points(Color::White), 2);
    }

    #[test]
    fn rook_blocked_by_own_and_enemy() {
        let mut pos = Position::new(Variant::Open);
        pos.play(pl("K@h8"));
        pos.play(pl("Q@h7"));
        pos.play(pl("R@a1"));
        assert_eq!(pos.points(Color::White), 2 + 14);
        let before = pos.points(Color::White);
        pos.play(pl("N@d1"));
        // The rook loses d1 itself and e1..h1 beyond it.
        assert_eq!(pos.points(Color::White), before - 5);
        assert_eq!(pos.points_from_scratch()[0], pos.points(Color::White));
    }

    #[test]
    fn deltas_match_recounting_in_random_games() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for v in Variant::ALL {
            for _ in 0..300 {
                let mut pos = Position::new(v);
                while !pos.is_over() {
                    let moves = pos.legal_moves().to_vec();
                    for &m in moves.iter().step_by(7) {
                        let d = pos.delta(m);
                        let before = pos.points_from_scratch();
                        let u = pos.play(m);
                        let after = pos.points_from_scratch();
                        assert_eq!([after[0] - before[0], after[1] - before[1]], d, "{m}");
                        pos.undo(m, u);
                    }
                    pos.play(moves[rng.below(moves.len())]);
                    assert_eq!(
                        pos.points_from_scratch(),
                        [pos.points(Color::White), pos.points(Color::Black)]
                    );
                }
            }
        }
    }

    #[test]
    fn undo_restores_exactly() {
        let mut pos = Position::new(Variant::Open);
        let start = pos.clone();
        let u1 = pos.play(pl("K@d4"));
        let after1 = pos.clone();
        let u2 = pos.play(pl("Q@e5"));
        pos.undo(pl("Q@e5"), u2);
        assert_eq!(pos, after1);
        pos.undo(pl("K@d4"), u1);
        assert_eq!(pos, start);
    }
}
