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

    /// The pieces of `self` off the squares `changed`.
    fn without(&self, changed: u64) -> Board {
        let keep = !changed;
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

    /// The run from `s` in direction `d`, and the sign of the slider
    /// ending it (-1 White, 1 Black) if one moves along it, else 0.
    #[inline(always)]
    fn end(&self, s: usize, d: usize) -> (i32, i32) {
        let blockers = RAYS[d][s] & self.occupied();
        if blockers == 0 {
            return (RAY_LEN[d][s] as i32, 0);
        }
        let b = nearest(d, blockers);
        let run = DISTANCE[s][b] as i32 - 1;
        if self.lines()[usize::from(!is_orthogonal(d))] >> b & 1 == 0 {
            return (run, 0);
        }
        (run, if self.colors[0] >> b & 1 != 0 { -1 } else { 1 })
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

/// Two loss maps, each of some recent node or of what two recent nodes
/// share, the nearer brought up to date. Two patterns make most of the
/// search's visits: the siblings that one 3-left node tries in turn
/// (Black's last piece but the King on one square after another), and
/// those of a 4-left node that all fall to the same Black reply (White's
/// 7th piece moves, Black's stays). Either way the part shared with the
/// last node is the part shared with the next, so keeping it makes a
/// sibling cost one piece to add where the last node's map has one to
/// take back too.
#[derive(Clone, Debug, Default)]
pub struct KeptLosses {
    maps: [Map; 2],
    /// Did the last killer tried decide its node? Then the next one most
    /// likely does too (the siblings of a node that fails low), and
    /// [`KeptLosses::near`] leaves out the piece to add.
    cut: bool,
}

impl KeptLosses {
    /// The map of `pos`: by empty square, the points a White blocker there
    /// would take from Black minus those it would take from White.
    pub fn update(&mut self, pos: &Position) -> &[i8; 64] {
        let now = Board::of(pos);
        let (i, changed) = self.nearer(&now);
        self.maps[i].drop_missing(&now, changed);
        // The shared part stays for the next node.
        self.maps[1 - i] = self.maps[i];
        self.maps[i].bring(now);
        &self.maps[i].map
    }

    /// The map of `pos` but for at most one piece, which is then returned
    /// to be valued square by square ([`Placed::delta`]): a node that a
    /// killer decides needs the map on a few squares only, and bringing it
    /// up to date costs more than those few squares.
    pub fn near(&mut self, pos: &Position) -> (&[i8; 64], Option<Placed>) {
        let now = Board::of(pos);
        let (i, changed) = self.nearer(&now);
        let added = self.maps[i].drop_missing(&now, changed);
        if self.cut && added.count_ones() == 1 {
            let q = added.trailing_zeros() as usize;
            let placed = Placed::new(&self.maps[i].board, i, q, now.piece_on(q));
            return (&self.maps[i].map, Some(placed));
        }
        // The shared part stays for the next node, as in `update`.
        self.maps[1 - i] = self.maps[i];
        self.maps[i].bring(now);
        (&self.maps[i].map, None)
    }

    /// Records whether a killer decided its node.
    pub fn killer_cut(&mut self, cut: bool) {
        self.cut = cut;
    }

    /// The whole map of the node that [`KeptLosses::near`] left `placed`
    /// out of: that piece added.
    pub fn settle(&mut self, placed: &Placed) -> &[i8; 64] {
        let i = placed.map & 1;
        // The shared part stays for the next node, as in `update`.
        self.maps[1 - i] = self.maps[i];
        let m = &mut self.maps[i];
        let pc = (placed.color(), placed.piece);
        m.place(placed.q, pc, 1);
        m.board.toggle(placed.q, pc);
        &m.map
    }

    /// The index of the map nearer to `now`, and the squares where it
    /// differs from `now`.
    fn nearer(&self, now: &Board) -> (usize, u64) {
        let [a, b] = self.maps.each_ref().map(|m| m.board.changed(now));
        if b.count_ones() < a.count_ones() {
            (1, b)
        } else {
            (0, a)
        }
    }
}

/// `LINE[q][s]`: the direction from `q` to `s` if a rank, file or
/// diagonal joins them, else 8.
const LINE: [[u8; 64]; 64] = {
    let mut t = [[8u8; 64]; 64];
    let mut d = 0;
    while d < 8 {
        let mut q = 0;
        while q < 64 {
            let mut ray = RAYS[d][q];
            while ray != 0 {
                t[q][ray.trailing_zeros() as usize] = d as u8;
                ray &= ray - 1;
            }
            q += 1;
        }
        d += 1;
    }
    t
};

/// `LINES[q]`: the squares that a rank, file or diagonal joins to `q`.
const LINES: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut q = 0;
    while q < 64 {
        let mut d = 0;
        while d < 8 {
            t[q] |= RAYS[d][q];
            d += 1;
        }
        q += 1;
    }
    t
};

/// A piece on a square of the map's board that the map does not count
/// yet, valued on one empty square at a time: its own share there, and
/// the slider rays through it that it cuts.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    /// The index of the map left without it.
    map: usize,
    q: usize,
    piece: Piece,
    /// 1 for Black, -1 for White.
    sign: i32,
    /// The squares a leaper attacks.
    leaps: u64,
    /// The board without it.
    board: Board,
}

impl Placed {
    /// `piece` placed on the empty square `q` of `board`.
    fn new(board: &Board, map: usize, q: usize, (color, piece): (Color, Piece)) -> Placed {
        let sq = crate::types::Square::from_index(q);
        let leaps = match piece {
            Piece::King => attacks::king(sq).0,
            Piece::Knight => attacks::knight(sq).0,
            _ => 0,
        };
        Placed {
            map,
            q,
            piece,
            sign: if color == Color::White { -1 } else { 1 },
            leaps,
            board: *board,
        }
    }

    /// `piece` of `color` on the empty square `sq` of `pos`, which the
    /// position's loss map does not count yet.
    pub fn on(pos: &Position, sq: crate::types::Square, color: Color, piece: Piece) -> Placed {
        Placed::new(&Board::of(pos), 0, sq.index(), (color, piece))
    }

    fn color(&self) -> Color {
        if self.sign < 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The squares where [`Placed::delta`] may not be zero.
    #[inline(always)]
    pub fn reach(&self) -> u64 {
        LINES[self.q & 63] | self.leaps
    }

    /// What the piece changes on the empty square `s`: as [`Map::place`]
    /// has it, only the line through `s` and `q` counts, if nothing
    /// stands between them.
    #[inline(always)]
    pub fn delta(&self, s: usize) -> i32 {
        let (q, s) = (self.q & 63, s & 63);
        let mut v = if self.leaps >> s & 1 != 0 {
            self.sign
        } else {
            0
        };
        let d = LINE[q][s] as usize;
        let occ = self.board.occupied();
        if d >= 8 || (RAYS[d][q] ^ RAYS[d][s]) & occ & !(1 << s) != 0 {
            return v;
        }
        // Beyond `s`, and behind `q`: the runs and the sliders ending them.
        let (run, near) = self.board.end(s, d);
        let (behind, far) = self.board.end(q, d ^ 4);
        let own = if slides_along(self.piece, d) {
            self.sign
        } else {
            0
        };
        v += (own - far) * (1 + run) - near * (1 + behind);
        v
    }
}

/// The loss map of one position, [`crate::gains::loss_map::loss_map`] for White,
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
    /// Takes back the pieces that `now` does not have (`changed` the
    /// squares where the map's board differs from `now`): what is left to
    /// bring is pieces to add, on the squares returned.
    #[inline]
    fn drop_missing(&mut self, now: &Board, changed: u64) -> u64 {
        if changed & self.board.occupied() != 0 {
            self.bring(self.board.without(changed));
        }
        changed & now.occupied()
    }

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
    /// One line at a time, its two directions fixed at compile time: a
    /// loop over the eight picked each one's tables at run time.
    fn place(&mut self, s: usize, (color, piece): (Color, Piece), apply: i32) {
        let sign = apply * if color == Color::White { -1 } else { 1 };
        if matches!(piece, Piece::King | Piece::Knight) {
            self.attacks(s, piece, sign);
        }
        let straight = slides_along(piece, 0);
        let diagonal = slides_along(piece, 2);
        self.place_line::<0, 4>(s, straight, sign, apply);
        self.place_line::<1, 5>(s, straight, sign, apply);
        self.place_line::<2, 6>(s, diagonal, sign, apply);
        self.place_line::<3, 7>(s, diagonal, sign, apply);
    }

    /// [`Map::place`] on the line through `s` in directions `U` and
    /// `D = U ^ 4`: the piece's own runs if it `slides` along it, and
    /// the slider beyond each end cut off at `s`.
    #[inline(always)]
    fn place_line<const U: usize, const D: usize>(
        &mut self,
        s: usize,
        slides: bool,
        sign: i32,
        apply: i32,
    ) {
        let (up, up_sign) = self.board.end(s, U);
        let (down, down_sign) = self.board.end(s, D);
        if slides {
            self.add_run::<U>(s, 1, up, sign, sign);
            self.add_run::<D>(s, 1, down, sign, sign);
        }
        if up_sign != 0 {
            self.cut::<U, D>(s, up, down, -apply * up_sign);
        }
        if down_sign != 0 {
            self.cut::<D, U>(s, down, up, -apply * down_sign);
        }
    }

    /// The slider beyond the run of `run` squares from `s` in direction
    /// `U` (`beyond` the run from `s` the other way, `D`) reached `s` and
    /// the squares past it; now the squares between keep only themselves,
    /// and `s` and the squares past it lose all: `v` times each share lost.
    #[inline(always)]
    fn cut<const U: usize, const D: usize>(&mut self, s: usize, run: i32, beyond: i32, v: i32) {
        self.add_run::<U>(s, 1, run, 0, v * (1 + beyond));
        self.add_run::<D>(s, 0, beyond, v, v);
    }

    /// Adds to the squares `from..=to` steps from `s` in direction `D`
    /// `last + slope * (to - j)` at step `j` (`last` on the furthest).
    #[inline(always)]
    fn add_run<const D: usize>(&mut self, s: usize, from: i32, to: i32, slope: i32, last: i32) {
        let (mut j, mut v) = (to, last);
        while j >= from {
            self.add(s as isize + j as isize * step(D), v);
            v += slope;
            j -= 1;
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
        // In range: `s` is a square of the board (no bounds check).
        let m = &mut self.map[s as usize & 63];
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
    use super::*;
    use crate::gains::loss_map::loss_map;
    use crate::variant::Variant;

    /// A random `standard` position 6 to 13 plies in: the common start of
    /// a group of siblings.
    fn late_start(rng: &mut crate::testing::Rng) -> Position {
        let mut start = Position::new(Variant::Standard);
        let plies = 6 + rng.below(8) as u8;
        while start.ply() < plies {
            rng.play(&mut start);
        }
        start
    }

    /// `start` and up to three more random plies: siblings differ in a few
    /// late plies, as the search's nodes do.
    fn sibling(rng: &mut crate::testing::Rng, start: &Position) -> Position {
        let mut pos = start.clone();
        for _ in 0..rng.below(4) {
            if pos.plies_left() > 0 {
                rng.play(&mut pos);
            }
        }
        pos
    }

    fn check(kept: &mut KeptLosses, pos: &Position) {
        let want = loss_map(pos, Color::White);
        let got = *kept.update(pos);
        for s in pos.empty() {
            assert_eq!(got[s.index()] as i32, want[s.index()], "{} {s}", pos.fen());
        }
    }

    /// The map `near` leaves, plus the placed piece's deltas.
    fn check_near(kept: &mut KeptLosses, pos: &Position) -> bool {
        let want = loss_map(pos, Color::White);
        kept.killer_cut(true);
        let (map, placed) = kept.near(pos);
        for s in pos.empty() {
            let delta = placed.map_or(0, |p| p.delta(s.index()));
            let got = map[s.index()] as i32 + delta;
            assert_eq!(got, want[s.index()], "{} {s}", pos.fen());
        }
        // Half the time the node goes on to need the whole map.
        if let Some(p) = placed
            && pos.empty().count().is_multiple_of(2)
        {
            let got = *kept.settle(&p);
            for s in pos.empty() {
                assert_eq!(got[s.index()] as i32, want[s.index()], "{} {s}", pos.fen());
            }
        }
        placed.is_some()
    }

    #[test]
    fn near_maps_and_placed_pieces_match_a_fresh_map() {
        let mut rng = crate::testing::Rng(0x0F1E_2D3C_4B5A_6978);
        let mut kept = KeptLosses::default();
        let (mut placed, mut checked) = (0, 0);
        for _ in 0..300 {
            let start = late_start(&mut rng);
            for _ in 0..5 {
                let pos = sibling(&mut rng, &start);
                // Either way, as the search mixes them.
                if rng.below(3) == 0 {
                    check(&mut kept, &pos);
                } else {
                    placed += usize::from(check_near(&mut kept, &pos));
                }
                checked += 1;
            }
        }
        assert!(checked >= 1000 && placed >= 150, "{checked} {placed}");
    }

    #[test]
    fn kept_map_matches_a_fresh_one() {
        let mut rng = crate::testing::Rng(0x1234_5678_9ABC_DEF1);
        let mut kept = KeptLosses::default();
        let mut checked = 0;
        for _ in 0..200 {
            let start = late_start(&mut rng);
            for _ in 0..5 {
                let pos = sibling(&mut rng, &start);
                check(&mut kept, &pos);
                checked += 1;
            }
        }
        assert!(checked >= 1000);
    }
}
