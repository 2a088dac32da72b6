//! A loss map kept from one node to the next and brought up to date piece
//! by piece. Consecutive `standard` nodes with two plies left mostly differ
//! by White's 7th piece alone (the siblings of a 4-left node fall to the
//! same Black reply), so two pieces change where fourteen stand.

use crate::attacks::{self, DISTANCE, RAY_LEN, RAYS, is_orthogonal, nearest, slides_along, step};
use crate::position::Position;
use crate::types::{Color, Piece};

/// Beyond this many changed squares, the map is made afresh: an update
/// costs about as much per square as a fresh map does per piece.
const MAX_CHANGES: u32 = 4;

/// The pieces on the board, by colour and by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Board {
    colors: [u64; 2],
    pieces: [u64; 5],
}

impl Board {
    fn of(pos: &Position) -> Board {
        let mut b = Board {
            colors: [pos.pieces(Color::White).0, pos.pieces(Color::Black).0],
            pieces: [0; 5],
        };
        for p in Piece::ALL {
            b.pieces[p.index()] = pos.of_kind(p).0;
        }
        b
    }

    fn occupied(&self) -> u64 {
        self.colors[0] | self.colors[1]
    }

    /// Sliders along ranks and files, along diagonals (both colours).
    fn lines(&self) -> [u64; 2] {
        let q = self.pieces[Piece::Queen.index()];
        [
            q | self.pieces[Piece::Rook.index()],
            q | self.pieces[Piece::Bishop.index()],
        ]
    }

    /// The squares that differ between `self` and `other`.
    fn changed(&self, other: &Board) -> u64 {
        let mut x = (self.colors[0] ^ other.colors[0]) | (self.colors[1] ^ other.colors[1]);
        for i in 0..5 {
            x |= self.pieces[i] ^ other.pieces[i];
        }
        x
    }

    /// The pieces that `self` and `other` both have, on the same squares.
    fn common(&self, other: &Board) -> Board {
        let keep = !self.changed(other);
        Board {
            colors: self.colors.map(|c| c & keep),
            pieces: self.pieces.map(|p| p & keep),
        }
    }

    /// The piece on the occupied square `s`.
    fn piece_on(&self, s: usize) -> (Color, Piece) {
        let color = if self.colors[0] >> s & 1 != 0 {
            Color::White
        } else {
            Color::Black
        };
        let i = (0..5).find(|&i| self.pieces[i] >> s & 1 != 0).unwrap_or(0);
        (color, Piece::ALL[i])
    }

    fn toggle(&mut self, s: usize, (color, piece): (Color, Piece)) {
        self.colors[color.index()] ^= 1 << s;
        self.pieces[piece.index()] ^= 1 << s;
    }
}

/// The run of empty squares from `s` in direction `d`.
#[inline(always)]
fn run(occ: u64, s: usize, d: usize) -> usize {
    let blockers = RAYS[d][s] & occ;
    if blockers == 0 {
        return RAY_LEN[d][s] as usize;
    }
    DISTANCE[s][nearest(d, blockers)] as usize - 1
}

/// The loss maps of the last node and of what it shares with the node
/// before it, each brought up to date from whichever is nearer. Two
/// patterns make most of the search's visits: the siblings that one 3-left
/// node tries in turn (Black's last piece but the King on one square after
/// another), and those of a 4-left node that all fall to the same Black
/// reply (White's 7th piece moves, Black's stays). Either way the part
/// shared with the last node is the part shared with the next, so a
/// sibling costs one piece to add where the last node's map has one to
/// take back too.
#[derive(Clone, Debug, Default)]
pub struct KeptLosses {
    node: Map,
    shared: Map,
}

impl KeptLosses {
    /// The map of `pos`: by empty square, the points a White blocker there
    /// would take from Black minus those it would take from White.
    pub fn update(&mut self, pos: &Position) -> &[i8; 64] {
        let now = Board::of(pos);
        let direct = self.node.board.changed(&now).count_ones();
        if self.shared.board.changed(&now).count_ones() < direct {
            self.shared.bring(self.shared.board.common(&now));
            self.node = self.shared;
        } else {
            let common = self.node.board.common(&now);
            self.node.bring(common);
            self.shared = self.node;
        }
        self.node.bring(now);
        &self.node.map
    }
}

/// The loss map of one position, [`super::losses::loss_map`] for White,
/// but with a leaper's share on every square it attacks, occupied or not:
/// then a square that empties needs no leaper recount.
#[derive(Clone, Copy, Debug)]
struct Map {
    map: [i8; 64],
    board: Board,
}

impl Default for Map {
    /// The empty board's map: all zero.
    fn default() -> Map {
        Map {
            map: [0; 64],
            board: Board::default(),
        }
    }
}

impl Map {
    /// Brings the map up to date for `now`.
    fn bring(&mut self, now: Board) {
        let changed = self.board.changed(&now);
        if changed.count_ones() > MAX_CHANGES {
            self.afresh(now);
            return;
        }
        // Each piece that goes is valued on the board without it, as the
        // one that comes on the board before it.
        for s in crate::bitboard::Bitboard(changed & self.board.occupied()) {
            let pc = self.board.piece_on(s.index());
            self.board.toggle(s.index(), pc);
            self.place(s.index(), pc, -1);
        }
        for s in crate::bitboard::Bitboard(changed & now.occupied()) {
            let pc = now.piece_on(s.index());
            self.place(s.index(), pc, 1);
            self.board.toggle(s.index(), pc);
        }
    }

    /// Adds (`apply` 1) or takes back (-1) what `piece` placed on the empty
    /// square `s` changes: its own attacks, and the slider rays it cuts.
    fn place(&mut self, s: usize, (color, piece): (Color, Piece), apply: i32) {
        let occ = self.board.occupied();
        let lines = self.board.lines();
        let white = self.board.colors[0];
        let sign = apply * if color == Color::White { -1 } else { 1 };
        // The runs from `s` and the slider ending each (0 if none, else
        // `apply` times its sign), found once for both passes below.
        let mut runs = [0isize; 8];
        let mut cuts = [0i32; 8];
        for d in 0..8 {
            let blockers = RAYS[d][s] & occ;
            if blockers == 0 {
                runs[d] = RAY_LEN[d][s] as isize;
                continue;
            }
            let b = nearest(d, blockers);
            runs[d] = DISTANCE[s][b] as isize - 1;
            if lines[usize::from(!is_orthogonal(d))] >> b & 1 != 0 {
                cuts[d] = apply * if white >> b & 1 != 0 { -1 } else { 1 };
            }
        }
        if matches!(piece, Piece::King | Piece::Knight) {
            self.attacks(s, piece, sign);
        } else {
            for d in (0..8).filter(|&d| slides_along(piece, d)) {
                let len = runs[d];
                for j in 1..=len {
                    self.add(s as isize + j * step(d), sign * (len + 1 - j) as i32);
                }
            }
        }
        for d in (0..8).filter(|&d| cuts[d] != 0) {
            // The slider beyond reached `s` and `beyond` squares past it;
            // now the squares between keep only themselves, and `s` and
            // the squares past it lose all.
            let cut = cuts[d];
            let beyond = runs[d ^ 4];
            let (up, down) = (step(d), step(d ^ 4));
            for i in 1..=runs[d] {
                self.add(s as isize + i * up, -cut * (1 + beyond) as i32);
            }
            for i in 0..=beyond {
                self.add(s as isize + i * down, -cut * (1 + beyond - i) as i32);
            }
        }
    }

    /// Adds `sign` times the shares of `piece` on `s` (board without it).
    fn attacks(&mut self, s: usize, piece: Piece, sign: i32) {
        let sq = crate::types::Square::from_index(s);
        match piece {
            Piece::King | Piece::Knight => {
                let targets = if piece == Piece::King {
                    attacks::king(sq)
                } else {
                    attacks::knight(sq)
                };
                for t in targets {
                    self.add(t.index() as isize, sign);
                }
            }
            _ => {
                let occ = self.board.occupied();
                for d in (0..8).filter(|&d| slides_along(piece, d)) {
                    let len = run(occ, s, d) as isize;
                    for j in 1..=len {
                        self.add(s as isize + j * step(d), sign * (len + 1 - j) as i32);
                    }
                }
            }
        }
    }

    #[inline(always)]
    fn add(&mut self, s: isize, v: i32) {
        let m = &mut self.map[s as usize];
        *m = (*m as i32 + v) as i8;
    }

    /// The map of `board` made from nothing.
    fn afresh(&mut self, board: Board) {
        self.map = [0; 64];
        self.board = board;
        for color in Color::ALL {
            let sign = if color == Color::White { -1 } else { 1 };
            for piece in Piece::ALL {
                let mine = board.colors[color.index()] & board.pieces[piece.index()];
                for s in crate::bitboard::Bitboard(mine) {
                    self.attacks(s.index(), piece, sign);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::losses::loss_map;
    use super::*;
    use crate::variant::Variant;

    fn check(kept: &mut KeptLosses, pos: &Position) {
        let want = loss_map(pos, Color::White);
        let got = *kept.update(pos);
        for s in pos.empty() {
            assert_eq!(got[s.index()] as i32, want[s.index()], "{} {s}", pos.fen());
        }
    }

    #[test]
    fn kept_map_matches_a_fresh_one() {
        let mut rng = crate::testing::Rng(0x1234_5678_9ABC_DEF1);
        let mut kept = KeptLosses::default();
        let mut checked = 0;
        for _ in 0..200 {
            // A common start, then siblings that differ in a few late plies.
            let mut start = Position::new(Variant::Standard);
            let plies = 6 + rng.below(8) as u8;
            while start.ply() < plies {
                rng.play(&mut start);
            }
            for _ in 0..5 {
                let mut pos = start.clone();
                let more = rng.below(4);
                for _ in 0..more {
                    if pos.plies_left() == 0 {
                        break;
                    }
                    rng.play(&mut pos);
                }
                check(&mut kept, &pos);
                checked += 1;
            }
        }
        assert!(checked >= 1000);
    }
}
