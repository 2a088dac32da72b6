//! The last two plies, solved without the general machinery: the final
//! placement's value is the running difference plus its gain, so the last
//! ply needs no play/undo at all, and stops at the first move reaching beta.
//!
//! Both plies go square by square: one `square_delta` serves every piece
//! that may land on the square (and, on the second to last ply, the `play`).

use super::moves::{MAX_MOVES, decode, encode};
use super::replies::Replies;
use super::scan::Best;
use super::worker::{Running, Worker};
use super::{INFINITE, SCALE, Value};
use crate::attacks::{self, is_orthogonal};
use crate::bitboard::Bitboard;
use crate::position::SquareDelta;
use crate::types::{Piece, Placement, Square};
use crate::variant::{Moves, Variant};
use std::mem::MaybeUninit;

/// `TOWARDS[k + 9 - t]`: the direction (of [`attacks::DIRECTIONS`]) from a
/// square `k` to its neighbour `t`, by the step `k - t` in -9..=9.
const TOWARDS: [u8; 19] = {
    let mut t = [0u8; 19];
    let mut d = 0;
    while d < 8 {
        let (f, r) = attacks::DIRECTIONS[d];
        t[(9 - (f as i32 + 8 * r as i32)) as usize] = d as u8;
        d += 1;
    }
    t
};

const NO_DELTA: SquareDelta = SquareDelta {
    own: [0; 5],
    loss: [0; 2],
};

/// The exact value of a position with at most two plies left.
#[inline]
pub fn solve(w: &mut Worker, alpha: Value, beta: Value, ply: usize) -> Value {
    match w.pos.plies_left() {
        0 => w.pos.diff() * SCALE,
        1 => last(w, beta, ply).0,
        _ => {
            let mut node = TwoNode::new(w, alpha, beta, ply);
            match node.killer(w) {
                Some(v) => v,
                None => node.finish(w),
            }
        }
    }
}

/// The best final placement's value and the placement, stopping early once
/// the value reaches `beta` ([`Best::scan`]).
fn last(w: &mut Worker, beta: Value, ply: usize) -> (Value, Option<Placement>) {
    let base = w.pos.diff();
    let us = w.pos.side_to_move().index();
    let moves = w.pos.legal_moves();
    let mut best = Best::NONE;
    best.scan(w, &moves, moves.targets(), None, beta, |piece, _, sd| {
        (base + sd.gain(piece, us)) * SCALE
    });
    best.finish(w, ply)
}

/// A node with two plies left, searched in two steps: the killer alone
/// ([`TwoNode::killer`]), then everything else ([`TwoNode::finish`]). The
/// caller probes the table between them: the killer decides most of these
/// nodes for less than a table miss costs.
pub struct TwoNode {
    moves: Moves,
    /// `standard`'s solver; `None` for the other variants.
    standard: Option<Two>,
    alpha: Value,
    beta: Value,
    ply: usize,
}

impl TwoNode {
    /// The node at the current position (two plies left), window (alpha, beta).
    #[inline(always)]
    pub fn new(w: &Worker, alpha: Value, beta: Value, ply: usize) -> TwoNode {
        let moves = w.pos.legal_moves();
        let mut groups = moves.groups();
        let standard = match (w.pos.variant(), groups.next(), groups.next()) {
            (Variant::Standard, Some((piece, targets)), None) => {
                Some(Two::new(w, piece, targets, alpha, beta, ply))
            }
            _ => None,
        };
        TwoNode {
            moves,
            standard,
            alpha,
            beta,
            ply,
        }
    }

    /// The value if a killer placement alone reaches beta. A killer that
    /// does not costs little: `finish` would have tried it anyway, and the
    /// King replies scanned for it stay known.
    #[inline]
    pub fn killer(&mut self, w: &mut Worker) -> Option<Value> {
        let n = self.standard.as_mut()?;
        let mut cut = false;
        let killers = w.tables.killers;
        for t in killers.into_iter().flatten() {
            if !n.rest.has(t) {
                continue;
            }
            n.rest.0 &= !Bitboard::from_square(t).0;
            let g = n.gain(w, t);
            if n.try_square(w, t, g) {
                cut = true;
                break;
            }
        }
        w.count(std::mem::take(&mut n.seen));
        cut.then_some(n.run.best)
    }

    /// The node's value within (alpha, beta) (a bound outside), after
    /// [`TwoNode::killer`] if that did not decide it.
    #[inline]
    pub fn finish(self, w: &mut Worker) -> Value {
        match self.standard {
            Some(mut n) => n.finish(w),
            None if w.pos.variant() == Variant::Open => {
                super::open_end::two(w, self.moves, self.alpha, self.beta, self.ply)
            }
            None => two_generic(w, self.moves, self.alpha, self.beta, self.ply),
        }
    }
}

/// What one scan of an empty square tells the node: what Black's King there
/// would gain and needs to know of the rays (see [`Scan::king_value`]), and
/// so also White's gain there ([`Two::gain`]). Most King squares are White's
/// targets too, so one scan serves both roles.
#[derive(Clone, Copy)]
struct Scan {
    king: i8,
    run: [i8; 8],
    slider: [u8; 8],
}

impl Scan {
    #[inline(always)]
    fn new(w: &Worker, s: Square) -> Scan {
        let (sd, rays) = w.pos.square_rays(s);
        Scan {
            king: sd.gain(Piece::King, 1) as i8,
            run: rays.run.map(|r| r as i8),
            slider: rays.slider,
        }
    }

    /// The King's gain on this square `k` once White's `piece` stands on the
    /// neighbour of `k` in direction `d`, a square that was empty: the King
    /// loses it; the line through `k` and that square now ends there on that
    /// side (so the slider beyond no longer reaches `k`, and the one on the
    /// other side only loses `k` itself); White's piece loses `k` and beyond
    /// if it slides along that line, and `k` itself if it is a King.
    #[inline]
    fn king_value(&self, d: usize, piece: Piece) -> i32 {
        let o = d ^ 4;
        let signed = |c: u8, n: i32| match c {
            1 => -n,
            2 => n,
            _ => 0,
        };
        let along = match piece {
            Piece::Queen => true,
            Piece::Rook => is_orthogonal(d),
            Piece::Bishop => !is_orthogonal(d),
            _ => false,
        };
        let beyond = 1 + self.run[o] as i32;
        self.king as i32 - 1
            + signed(self.slider[d], beyond)
            + signed(self.slider[o], self.run[d] as i32)
            + if along { beyond } else { 0 }
            + (piece == Piece::King) as i32
    }
}

/// The search of one `standard` node with two plies left: White places its
/// one remaining piece, then Black's King must touch it. The King's reply
/// is valued from a scan of its square before White's placement (shared by
/// every White placement next to it, and by White's placement on that
/// square), so nothing is played.
struct Two {
    piece: Piece,
    /// White's placements not tried yet.
    rest: Bitboard,
    base: i32,
    empty: Bitboard,
    run: Running,
    ply: usize,
    /// Scans by square, written before `known` marks them: left
    /// uninitialised, as clearing 1 KiB per node measured 2.5% of a solve.
    scans: [MaybeUninit<Scan>; 64],
    known: Bitboard,
    seen: u64,
}

impl Two {
    #[inline(always)]
    fn new(
        w: &Worker,
        piece: Piece,
        targets: Bitboard,
        alpha: Value,
        beta: Value,
        ply: usize,
    ) -> Two {
        Two {
            piece,
            rest: targets,
            base: w.pos.diff(),
            empty: w.pos.empty(),
            run: Running::new(alpha, beta),
            ply,
            scans: [const { MaybeUninit::uninit() }; 64],
            known: Bitboard::EMPTY,
            seen: 0,
        }
    }

    /// The scan of the empty square `s`, made on first use.
    #[inline]
    fn scan(&mut self, w: &Worker, s: Square) -> &Scan {
        if !self.known.has(s) {
            self.scans[s.index()] = MaybeUninit::new(Scan::new(w, s));
            self.known |= Bitboard::from_square(s);
        }
        // SAFETY: `known` holds `s`, so `scans[s]` was written above or before.
        unsafe { self.scans[s.index()].assume_init_ref() }
    }

    /// White's gain for its piece on the empty square `t`, from the scan
    /// made for the King: both lose the same points to the blocker on `t`
    /// (White's gain is own - (lost White - lost Black), the King's
    /// own - (lost Black - lost White)), so only the own points differ.
    #[inline]
    fn gain(&mut self, w: &Worker, t: Square) -> i32 {
        let empty = self.empty;
        let piece = self.piece;
        let sc = self.scan(w, t);
        let runs = |dirs: [usize; 4]| dirs.iter().map(|&d| sc.run[d] as i32).sum::<i32>();
        let own = match piece {
            Piece::King => (attacks::king(t) & empty).count() as i32,
            Piece::Knight => (attacks::knight(t) & empty).count() as i32,
            Piece::Rook => runs([0, 1, 4, 5]),
            Piece::Bishop => runs([2, 3, 6, 7]),
            Piece::Queen => runs([0, 1, 4, 5]) + runs([2, 3, 6, 7]),
        };
        own + (attacks::king(t) & empty).count() as i32 - sc.king as i32
    }

    /// Tries White's piece on `t` (gaining `g`) against every King reply;
    /// true if it reaches beta.
    #[inline]
    fn try_square(&mut self, w: &mut Worker, t: Square, g: i32) -> bool {
        self.seen += 1;
        let mut worst = INFINITE;
        let mut worst_k = None;
        // Replies already scanned first: one of them usually refutes `t`,
        // and then the others need no scan.
        let around = attacks::king(t) & self.empty;
        'passes: for scanned in [true, false] {
            let replies = if scanned {
                around & self.known
            } else {
                around & !self.known
            };
            for k in replies {
                // The direction from `k` to `t`, from the step between them.
                let d = TOWARDS[k.index() + 9 - t.index()] as usize;
                self.seen += 1;
                let piece = self.piece;
                let kv = self.scan(w, k).king_value(d, piece);
                let v = (self.base + g - kv) * SCALE;
                if v < worst {
                    worst = v;
                    worst_k = Some(k);
                    if v <= self.run.alpha {
                        break 'passes;
                    }
                }
            }
        }
        // Rule 4 leaves every White placement a neighbour for the King.
        let Some(k) = worst_k else { return false };
        w.leaf_line(self.ply + 1, Placement::new(Piece::King, k));
        self.run
            .take(w, self.ply, Placement::new(self.piece, t), worst)
    }

    /// Tries White's piece on `t` (gaining `g`) against every King reply
    /// valued from `r`; true if it reaches beta.
    #[inline]
    fn try_mapped(&mut self, w: &mut Worker, r: &Replies, t: Square, g: i32) -> bool {
        self.seen += 1;
        let mut worst = INFINITE;
        let mut worst_k = None;
        for k in attacks::king(t) & self.empty {
            // The direction from `t` to `k`, from the step between them.
            let e = TOWARDS[t.index() + 9 - k.index()] as usize;
            self.seen += 1;
            let v = (self.base + g - r.king(t, k, e)) * SCALE;
            if v < worst {
                worst = v;
                worst_k = Some(k);
                if v <= self.run.alpha {
                    break;
                }
            }
        }
        // Rule 4 leaves every White placement a neighbour for the King.
        let Some(k) = worst_k else { return false };
        w.leaf_line(self.ply + 1, Placement::new(Piece::King, k));
        self.run
            .take(w, self.ply, Placement::new(self.piece, t), worst)
    }

    /// The placements not tried yet, by decreasing gain, valued from one
    /// loss map rather than a scan per square: most of these nodes try them
    /// all.
    fn finish(&mut self, w: &mut Worker) -> Value {
        // (gain + OFFSET) << 6 | square: sorting plain integers is cheaper.
        const OFFSET: i32 = 1 << 12;
        let r = Replies::new(&w.pos, self.piece, w.losses.update(&w.pos));
        let mut list = [0u32; 64];
        let mut len = 0;
        for t in self.rest {
            let g = r.gain(t);
            list[len] = ((g + OFFSET) as u32) << 6 | t.index() as u32;
            len += 1;
        }
        let list = &mut list[..len];
        list.sort_unstable();
        for &x in list.iter().rev() {
            let t = Square::from_index((x & 63) as usize);
            if self.try_mapped(w, &r, t, (x >> 6) as i32 - OFFSET) {
                let [first, _] = w.tables.killers;
                if first != Some(t) {
                    w.tables.killers = [Some(t), first];
                }
                break;
            }
        }
        w.count(self.seen);
        self.run.value(w)
    }
}

/// Two plies left in any variant: every placement played, answered by
/// `last`, placements tried by decreasing gain.
fn two_generic(w: &mut Worker, moves: Moves, alpha: Value, beta: Value, ply: usize) -> Value {
    let us = w.pos.side_to_move().index();
    let mut deltas = [NO_DELTA; 64];
    let mut list = [(0, 0u16); MAX_MOVES];
    let mut n = 0;
    for sq in moves.targets() {
        let sd = w.pos.square_delta(sq);
        deltas[sq.index()] = sd;
        for (piece, b) in moves.groups() {
            if b.has(sq) {
                list[n] = (sd.gain(piece, us), encode(Placement::new(piece, sq)));
                n += 1;
            }
        }
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut run = Running::new(alpha, beta);
    for &(_, code) in list.iter() {
        let Some(m) = decode(code) else { continue };
        let sd = deltas[m.square.index()];
        let u = w.pos.play_with(m, &sd);
        w.count(1);
        let v = -last(w, -run.alpha, ply + 1).0;
        w.pos.undo(m, u);
        if run.take(w, ply, m, v) {
            break;
        }
    }
    run.value(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn towards_points_from_each_square_to_its_neighbour() {
        for t in Square::all() {
            for k in attacks::king(t) {
                let d = TOWARDS[k.index() + 9 - t.index()] as usize;
                let first = attacks::RAYS[d][k.index()] & attacks::king(k).0;
                assert_eq!(first, Bitboard::from_square(t).0, "{k} -> {t}");
            }
        }
    }
}
