//! What each empty square of a position offers a placement: the points a
//! rook and a bishop there would earn, and what a blocker there would cost
//! each side (the loss map). A child's frame follows from its parent's by
//! patching the squares its placement touches (those on its rays and a
//! knight's jump away), so a node with three plies left values its
//! children's squares once, where each child scanned them all again.

use crate::attacks::{self, RAYS, slides_along};
use crate::bitboard::Bitboard;
use crate::gains::keys::{Keys, NONE, best_below, gain_of, square_of};
use crate::gains::loss_map::loss_map;
use crate::gains::points::{bishop_points, rook_points, slider_points};
use crate::position::Position;
use crate::types::{Color, Piece, Placement, Square};
use crate::zobrist;

/// The pieces of one position as the rays from a square see them, from
/// its side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sides {
    /// Occupied squares.
    pub occupied: Bitboard,
    /// The side to move's pieces.
    pub ours: Bitboard,
    /// The opponent's pieces.
    pub theirs: Bitboard,
    /// Pieces of both sides sliding along ranks and files, along diagonals.
    pub lines: [Bitboard; 2],
}

impl Sides {
    /// The sides of `pos`.
    pub fn new(pos: &Position) -> Sides {
        let us = pos.side_to_move();
        Sides {
            occupied: pos.occupied(),
            ours: pos.pieces(us),
            theirs: pos.pieces(us.flip()),
            lines: pos.line_sliders(),
        }
    }

    /// The sides after the side to move places `m` (on an empty square).
    #[inline]
    pub fn after(&self, m: Placement) -> Sides {
        let bb = Bitboard::from_square(m.square);
        let line = |d: usize| {
            if slides_along(m.piece, d) {
                self.lines[d / 2] | bb
            } else {
                self.lines[d / 2]
            }
        };
        Sides {
            occupied: self.occupied | bb,
            ours: self.theirs,
            theirs: self.ours | bb,
            lines: [line(0), line(2)],
        }
    }

    /// The same pieces from the other side's view (the opponent to move).
    #[inline(always)]
    pub fn flipped(&self) -> Sides {
        Sides {
            ours: self.theirs,
            theirs: self.ours,
            ..*self
        }
    }

    /// The sides before the placement `m` that made these: the inverse of
    /// [`Sides::after`].
    #[inline]
    pub fn before(&self, m: Placement) -> Sides {
        let bb = Bitboard::from_square(m.square);
        Sides {
            occupied: self.occupied & !bb,
            ours: self.theirs & !bb,
            theirs: self.ours,
            lines: self.lines.map(|l| l & !bb),
        }
    }

    /// [`loss_map`] at the empty square `t` for the side to move, `(run,
    /// sign)` being [`Sides::rays`] from `t` and `leapers` the Kings and
    /// the Knights: each slider next along a line loses `t` and the run
    /// beyond it, each King or Knight `t`.
    fn loss_at(&self, t: Square, (run, sign): Rays, leapers: [Bitboard; 2]) -> i32 {
        let sliders: i32 = (0..8).map(|d| sign[d] * (1 + run[d ^ 4])).sum();
        let near = (attacks::king(t) & leapers[0]) | (attacks::knight(t) & leapers[1]);
        sliders + (near & self.theirs).count() as i32 - (near & self.ours).count() as i32
    }

    /// The empty squares along each ray from the empty square `t`, and whose
    /// loss the first piece along it would be if it slides along that line:
    /// +1 the opponent's, -1 the side to move's, 0 no such piece.
    #[inline]
    pub fn rays(&self, t: Square) -> Rays {
        let ti = t.index();
        let occ = self.occupied.0;
        let mut runs = [0i32; 8];
        let mut signs = [0i32; 8];
        for d in 0..4 {
            let (up_ray, down_ray) = (RAYS[d][ti], RAYS[d + 4][ti]);
            let (up, down) = (up_ray & occ, down_ray & occ);
            // The first blocker upwards is the lowest bit, downwards the highest.
            let up_first = up & up.wrapping_neg();
            let below = if down == 0 {
                0
            } else {
                u64::MAX >> down.leading_zeros()
            };
            let down_first = below ^ (below >> 1);
            runs[d] = (up_ray & up_first.wrapping_sub(1)).count_ones() as i32;
            runs[d + 4] = (down_ray & !below).count_ones() as i32;
            let line = self.lines[d / 2].0;
            let (theirs, ours) = (line & self.theirs.0, line & self.ours.0);
            signs[d] = (theirs & up_first != 0) as i32 - (ours & up_first != 0) as i32;
            signs[d + 4] = (theirs & down_first != 0) as i32 - (ours & down_first != 0) as i32;
        }
        (runs, signs)
    }

    /// Calls `f(s, loss, cut)` for each empty square `s` that placing `m`
    /// touches: `loss` is the change of [`loss_map`] at `s` for the side to
    /// move once it has placed `m` (the map changes sides: the new value is
    /// `loss` minus the old one), `cut[i]` what `pieces[i]` on `s` would
    /// attack less.
    ///
    /// A square `s`, `k` steps from `t = m.square` in direction `e`, changes
    /// only along that line: a slider through it sees `t` and what lies
    /// beyond no more; the slider beyond `s` loses as much to a blocker on
    /// `s`, the one beyond `t` nothing any more, and `m`'s piece the rest of
    /// the ray if it slides along it (or `s` if it is a King a step away).
    /// Returns the rays from `t`.
    #[inline(always)]
    pub fn touched(
        &self,
        m: Placement,
        pieces: [Piece; 2],
        mut f: impl FnMut(usize, i32, [i32; 2]),
    ) -> Rays {
        let t = m.square;
        let (run, sign) = self.rays(t);
        let king = |p: Piece| (p == Piece::King) as i32;
        let king_step = king(m.piece);
        let kings = pieces.map(king);
        let (placed, cutting) = (slide_dirs(m.piece), pieces.map(slide_dirs));
        for e in 0..8 {
            let len = run[e];
            if len == 0 {
                continue;
            }
            let o = e ^ 4;
            let far = 1 + run[o];
            let along = |dirs: u32| (dirs >> e & 1) as i32;
            let per = sign[o] + along(placed);
            let cut = [along(cutting[0]) * far, along(cutting[1]) * far];
            let step = attacks::step(e);
            let fixed = sign[e] * far;
            // The first square, a King's step away, then the rest.
            let mut s = t.index() as isize + step;
            let loss = fixed + per * len + king_step;
            f(s as usize, loss, [cut[0] + kings[0], cut[1] + kings[1]]);
            for x in (1..len).rev() {
                s += step;
                f(s as usize, fixed + per * x, cut);
            }
        }
        let knight = |p: Piece| (p == Piece::Knight) as i32;
        let (loss, cut) = (knight(m.piece), pieces.map(knight));
        for s in attacks::knight(t) & !self.occupied {
            f(s.index(), loss, cut);
        }
        (run, sign)
    }
}

/// By piece, the directions it slides along, one bit each.
const SLIDE_DIRS: [u32; 5] = {
    let mut dirs = [0; 5];
    let mut p = 0;
    while p < 5 {
        let mut d = 0;
        while d < 8 {
            if slides_along(Piece::ALL[p], d) {
                dirs[p] |= 1 << d;
            }
            d += 1;
        }
        p += 1;
    }
    dirs
};

/// The directions `piece` slides along, bit `d` for direction `d`: one
/// table read for [`slides_along`] in every direction, where its match
/// cost a few branches per direction in the patching loops.
#[inline(always)]
pub fn slide_dirs(piece: Piece) -> u32 {
    SLIDE_DIRS[piece.index()]
}

/// The empty squares along each ray from a square, and the sign of the
/// slider ending each ([`Sides::rays`]).
pub type Rays = ([i32; 8], [i32; 8]);

/// The squares of one position, from its side to move's view.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The position's piece hash, to tell another position at once; the
    /// frame describes a position only if the whole boards agree
    /// ([`Frame::describes`]).
    hash: u64,
    /// The side to move.
    side: Color,
    /// The position's last placement.
    last: Option<Placement>,
    /// The pieces.
    pub sides: Sides,
    /// The Kings and the Knights of both sides (with `sides`, the board).
    leapers: [Bitboard; 2],
    /// What a rook, a bishop would attack on each empty square.
    rook: [i8; 64],
    bishop: [i8; 64],
    /// The empty squares a King, a Knight would attack from each square.
    leaping: [[i8; 64]; 2],
    /// [`loss_map`] for the side to move (within (-64, 64), as the keys'
    /// gains: 16-bit lanes, so that the keys are made eight at a time).
    pub loss: [i16; 64],
    /// -1 on the occupied squares, 0 on the empty ones: masks the keys
    /// lane by lane in their vector loop, where a store per occupied
    /// square followed it (a loop of a dozen turns, its exit mispredicted).
    filled: [i16; 64],
    /// The first two kinds the side to move holds, and its gains for each:
    /// the move picker and the children of an `open` node with three plies
    /// left read them, where each valued every square again.
    held: [Option<Piece>; 2],
    keys: [Keys; 2],
}

/// The Kings and the Knights of both sides.
fn leapers(pos: &Position) -> [Bitboard; 2] {
    [pos.of_kind(Piece::King), pos.of_kind(Piece::Knight)]
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            hash: 0,
            side: Color::White,
            last: None,
            sides: Sides {
                occupied: Bitboard(!0),
                ours: Bitboard::EMPTY,
                theirs: Bitboard::EMPTY,
                lines: [Bitboard::EMPTY; 2],
            },
            leapers: [Bitboard::EMPTY; 2],
            rook: [0; 64],
            bishop: [0; 64],
            leaping: [[0; 64]; 2],
            loss: [0; 64],
            filled: [-1; 64],
            held: [None; 2],
            keys: [[NONE; 64]; 2],
        }
    }
}

impl Frame {
    /// The frame of `pos`.
    pub fn new(pos: &Position) -> Frame {
        let mut f = Frame::default();
        f.set(pos);
        f
    }

    /// Makes this the frame of `pos`: patched if it was the frame of a
    /// sibling (the same parent, another placement), as the children of a
    /// node are searched in turn; else made afresh.
    pub fn set(&mut self, pos: &Position) {
        if !self.describes(pos) && !self.step_to_sibling(pos) {
            self.afresh(pos);
        }
    }

    /// Makes this the frame of `pos` from nothing.
    fn afresh(&mut self, pos: &Position) {
        let us = pos.side_to_move();
        let occ = pos.occupied();
        self.hash = pos.piece_hash();
        self.side = us;
        self.last = pos.last_placement();
        self.sides = Sides::new(pos);
        self.leapers = leapers(pos);
        (self.rook, self.bishop) = slider_points(occ);
        for (i, s) in Square::all().enumerate() {
            self.leaping[0][i] = (attacks::king(s) & !occ).count() as i8;
            self.leaping[1][i] = (attacks::knight(s) & !occ).count() as i8;
        }
        self.loss = loss_map(pos, us).map(|l| l as i16);
        self.filled = std::array::from_fn(|i| -((occ.0 >> i & 1) as i16));
        let mut held = Piece::ALL.into_iter().filter(|&p| pos.in_hand(us, p) > 0);
        self.held = [held.next(), held.next()];
        self.fill_keys();
    }

    /// Makes the keys of the held kinds.
    fn fill_keys(&mut self) {
        for i in 0..2 {
            if let Some(p) = self.held[i] {
                self.keys[i] = self.keys_of(p, 1);
            }
        }
    }

    /// Makes this the frame of `pos` if it is that of a sibling of `pos`:
    /// the squares its last placement touched, and the square it stands
    /// on, are valued back as in the parent, then patched for `pos`'s last
    /// placement. The loss map keeps this side's view throughout: the
    /// parent's, negated.
    fn step_to_sibling(&mut self, pos: &Position) -> bool {
        let (Some(m), Some(next)) = (self.last, pos.last_placement()) else {
            return false;
        };
        let mover = pos.side_to_move().flip();
        let parent_hash = pos.piece_hash() ^ zobrist::piece(mover, next.piece, next.square);
        if self.side != pos.side_to_move()
            || self.hash ^ zobrist::piece(mover, m.piece, m.square) != parent_hash
        {
            return false;
        }
        let parent = self.sides.before(m);
        let kind = |pl: Placement, p| {
            if pl.piece == p {
                Bitboard::from_square(pl.square)
            } else {
                Bitboard::EMPTY
            }
        };
        let lp = [Piece::King, Piece::Knight];
        let parent_leapers = [0, 1].map(|i| self.leapers[i] & !kind(m, lp[i]));
        let now = [0, 1].map(|i| parent_leapers[i] | kind(next, lp[i]));
        if parent.occupied.has(next.square)
            || parent.after(next) != Sides::new(pos)
            || now != leapers(pos)
        {
            return false;
        }
        let (rook, bishop, loss) = (&mut self.rook, &mut self.bishop, &mut self.loss);
        let rays = parent.touched(m, [Piece::Rook, Piece::Bishop], |s, d, cut| {
            loss[s] -= d as i16;
            rook[s] += cut[0] as i8;
            bishop[s] += cut[1] as i8;
        });
        let t = m.square;
        loss[t.index()] = -parent.loss_at(t, rays, parent_leapers) as i16;
        rook[t.index()] = rook_points(parent.occupied, t) as i8;
        bishop[t.index()] = bishop_points(parent.occupied, t) as i8;
        parent.touched(next, [Piece::Rook, Piece::Bishop], |s, d, cut| {
            loss[s] += d as i16;
            rook[s] -= cut[0] as i8;
            bishop[s] -= cut[1] as i8;
        });
        self.step_leaping(t, 1);
        self.step_leaping(next.square, -1);
        self.filled[t.index()] = 0;
        self.filled[next.square.index()] = -1;
        self.hash = pos.piece_hash();
        self.last = Some(next);
        self.sides = parent.after(next);
        self.leapers = now;
        self.fill_keys();
        true
    }

    /// Counts `change` more empty squares around `t` for Kings and Knights.
    fn step_leaping(&mut self, t: Square, change: i8) {
        for s in attacks::king(t) {
            self.leaping[0][s.index()] += change;
        }
        for s in attacks::knight(t) {
            self.leaping[1][s.index()] += change;
        }
    }

    /// By square, the keys of the gains of `piece`: the side to move's
    /// (`sign` 1) or the opponent's as if it moved now (`sign` -1: the
    /// loss map from its side).
    pub fn keys_of(&self, piece: Piece, sign: i32) -> Keys {
        // Every lane alike in 16 bits (the compiler's vectors, eight lanes
        // at a time), then the occupied ones.
        let (own, other, both) = match piece {
            Piece::King => (&self.leaping[0], &self.rook, 0),
            Piece::Queen => (&self.rook, &self.bishop, 1),
            Piece::Rook => (&self.rook, &self.bishop, 0),
            Piece::Bishop => (&self.bishop, &self.rook, 0),
            Piece::Knight => (&self.leaping[1], &self.rook, 0),
        };
        let sign = sign as i16;
        let mut keys = [NONE; 64];
        for (i, k) in keys.iter_mut().enumerate() {
            let gain = own[i] as i16 + both * other[i] as i16 + sign * self.loss[i];
            let f = self.filled[i];
            *k = (gain * 64 + (63 - i as i16)) & !f | NONE & f;
        }
        keys
    }

    /// The keys of the side to move's gains for `piece`, if it is one of
    /// the first two kinds it holds.
    pub fn held_keys(&self, piece: Piece) -> Option<&Keys> {
        let i = self.held.iter().position(|&h| h == Some(piece))?;
        Some(&self.keys[i])
    }

    /// The best-gain placement of each held kind (the first two).
    pub fn held_best(&self) -> impl Iterator<Item = Placement> + '_ {
        (0..2).filter_map(|i| {
            let p = self.held[i]?;
            let k = best_below(&self.keys[i], i16::MAX);
            (k != NONE).then(|| Placement::new(p, square_of(k)))
        })
    }

    /// Is this the frame of `pos`?
    #[inline]
    pub fn describes(&self, pos: &Position) -> bool {
        self.hash == pos.piece_hash()
            && self.side == pos.side_to_move()
            && self.sides == Sides::new(pos)
            && self.leapers == leapers(pos)
    }

    /// Is this the frame of the position before `pos`'s last placement?
    #[inline]
    pub fn describes_parent_of(&self, pos: &Position) -> Option<Placement> {
        let m = pos.last_placement()?;
        let bb = Bitboard::from_square(m.square);
        let them = pos.side_to_move().flip();
        let parent = pos.piece_hash() ^ zobrist::piece(them, m.piece, m.square);
        let placed = |p| if m.piece == p { bb } else { Bitboard::EMPTY };
        let leapers_after = [
            self.leapers[0] | placed(Piece::King),
            self.leapers[1] | placed(Piece::Knight),
        ];
        (self.hash == parent
            && self.side == them
            && !self.sides.occupied.has(m.square)
            && self.sides.after(m) == Sides::new(pos)
            && leapers_after == leapers(pos))
        .then_some(m)
    }

    /// The points `piece` would earn on the empty square `s`.
    #[inline(always)]
    pub fn own(&self, piece: Piece, s: Square) -> i32 {
        let i = s.index();
        let (rook, bishop) = (self.rook[i] as i32, self.bishop[i] as i32);
        match piece {
            Piece::King => self.leaping[0][i] as i32,
            Piece::Queen => rook + bishop,
            Piece::Rook => rook,
            Piece::Bishop => bishop,
            Piece::Knight => self.leaping[1][i] as i32,
        }
    }

    /// The side to move's gain for `piece` on the empty square `s`.
    #[inline(always)]
    pub fn gain(&self, piece: Piece, s: Square) -> i32 {
        match self.held {
            [Some(p), _] if p == piece => gain_of(self.keys[0][s.index()]),
            [_, Some(p)] if p == piece => gain_of(self.keys[1][s.index()]),
            _ => self.own(piece, s) + self.loss[s.index()] as i32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn slide_dirs_are_slides_along_in_every_direction() {
        for p in Piece::ALL {
            for d in 0..8 {
                assert_eq!(slide_dirs(p) >> d & 1 == 1, slides_along(p, d), "{p:?} {d}");
            }
        }
    }

    /// Positions that only a hash collision would confuse: the same
    /// squares and colours, one piece of another kind.
    #[test]
    fn a_frame_tells_boards_apart_beyond_the_hash() {
        let v = Variant::Open;
        let a = Position::from_fen("k6n/6r1/2R2b2/4q3/3K4/2R5/1B6/N7 w a8", v).unwrap();
        let b = Position::from_fen("k6n/6r1/2R2n2/4q3/3K4/2R5/1B6/N7 w a8", v).unwrap();
        let mut f = Frame::new(&a);
        assert!(f.describes(&a));
        f.hash = b.piece_hash();
        assert!(!f.describes(&b));
        let m = Placement::new(Piece::Knight, Square::from_index(7));
        let (mut ca, mut cb) = (a.clone(), b.clone());
        ca.play(m);
        cb.play(m);
        let mut f = Frame::new(&a);
        assert_eq!(f.describes_parent_of(&ca), Some(m));
        f.hash = b.piece_hash();
        assert_eq!(f.describes_parent_of(&cb), None);
    }

    /// Does `f` hold what `want` does on its empty squares?
    fn same(f: &Frame, want: &Frame) {
        assert_eq!(
            (f.hash, f.side, f.last, f.sides, f.leapers, f.held),
            (
                want.hash,
                want.side,
                want.last,
                want.sides,
                want.leapers,
                want.held
            )
        );
        for i in (0..2).filter(|&i| want.held[i].is_some()) {
            assert_eq!(f.keys[i], want.keys[i]);
        }
        for s in !want.sides.occupied {
            let i = s.index();
            assert_eq!(
                (f.rook[i], f.bishop[i]),
                (want.rook[i], want.bishop[i]),
                "{s}"
            );
            assert_eq!(f.loss[i], want.loss[i], "{s}");
            assert_eq!(f.leaping[0][i], want.leaping[0][i], "{s}");
            assert_eq!(f.leaping[1][i], want.leaping[1][i], "{s}");
        }
    }

    /// A sibling's frame, patched into the frame of another child of the
    /// same parent, equals the one made afresh, in random positions; a
    /// position of another parent is made afresh.
    #[test]
    fn siblings_patch_into_each_other() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        let mut patched = 0;
        for v in [Variant::Open, Variant::Standard, Variant::Original] {
            for _ in 0..150 {
                let mut pos = Position::new(v);
                let plies = rng.below(15) as u8;
                while pos.ply() < plies {
                    rng.play(&mut pos);
                }
                let moves = pos.legal_moves().to_vec();
                let mut f = Frame::default();
                let mut last = pos.clone();
                for _ in 0..4 {
                    let mut child = pos.clone();
                    child.play(moves[rng.below(moves.len())]);
                    let sibling = f.last.is_some() && f.hash != child.piece_hash();
                    f.set(&child);
                    patched += sibling as usize;
                    same(&f, &Frame::new(&child));
                    last = child;
                }
                rng.play(&mut last);
                f.set(&last);
                same(&f, &Frame::new(&last));
            }
        }
        assert!(patched > 1000, "{patched}");
    }

    /// A frame agrees with a scan of each square, and what a placement
    /// touches, patched into its frame, gives the frame of the child
    /// played, in random positions.
    #[test]
    fn touched_squares_patch_a_frame_into_its_child() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for v in [Variant::Open, Variant::Standard, Variant::Original] {
            for _ in 0..60 {
                let mut pos = Position::new(v);
                let plies = rng.below(15) as u8;
                while pos.ply() < plies {
                    rng.play(&mut pos);
                }
                let f = Frame::new(&pos);
                assert!(f.describes(&pos));
                let us = pos.side_to_move().index();
                for s in pos.empty() {
                    let sd = pos.square_delta(s);
                    for p in Piece::ALL {
                        assert_eq!(f.gain(p, s), sd.gain(p, us), "{} {p:?} {s}", pos.fen());
                    }
                }
                for m in pos.legal_moves().iter() {
                    let mut child = pos.clone();
                    child.play(m);
                    assert_eq!(f.describes_parent_of(&child), Some(m));
                    let fresh = Frame::new(&child);
                    assert_eq!(f.sides.after(m), fresh.sides);
                    let mut loss = f.loss.map(|l| -l as i32);
                    let mut own = [[0; 64]; 5];
                    for p in Piece::ALL {
                        for s in child.empty() {
                            own[p.index()][s.index()] = f.own(p, s);
                        }
                    }
                    for p in Piece::ALL {
                        f.sides.touched(m, [p, Piece::King], |s, d, cut| {
                            if p == Piece::King {
                                loss[s] += d;
                            }
                            own[p.index()][s] -= cut[0];
                        });
                    }
                    for s in child.empty() {
                        let want = fresh.loss[s.index()] as i32;
                        assert_eq!(loss[s.index()], want, "{m} loss {s}");
                        for p in Piece::ALL {
                            let want = fresh.own(p, s);
                            assert_eq!(own[p.index()][s.index()], want, "{m} {p:?} {s}");
                        }
                    }
                }
            }
        }
    }
}
