//! A floor on what the last piece of the side that answers gains, for the
//! `open` 4-left ceiling ([`super::four_left_bound`]): White places on
//! `s`, Black answers (fixed), White places its last piece anywhere, then
//! Black places its last piece. Black's last gain is at least what it
//! gains on the best square no Black piece attacks after the answer.
//!
//! On such a square `q` it takes nothing from Black (White's pieces only
//! block Black's rays, never add to them), so it gains its own points
//! there plus what it takes from White: a point for each White piece that
//! attacks `q`, and for each White slider whose ray reaches `q`, the
//! squares behind `q` along that ray. White's placements after the answer
//! only lower this by blocking: each lies on at most one of the eight
//! lines from `q`, or on one square a Knight on `q` would attack, and a
//! blocker next to `q` on a line cuts the most there (the arm of a slider
//! on `q`, a King's square, a White slider's attack on `q` with the
//! squares behind it, and the part of another White slider's ray through
//! `q` beyond it) ([`Sight::points`]). White may also take `q` itself: of
//! the squares with two blockers the third best counts, and once `s` is
//! known, the second best of those with one more blocker ([`Floors::at`]).
//! White's placements that attack `q` would raise the floor: left out, it
//! is lower than it could be, never higher. The ceiling first takes the
//! cheaper [`own_floor`] (the last piece's own points alone), and makes
//! [`Floors`] for an answer only once a placement's bound is above alpha.
//!
//! Measured (`bench suite`, the suite's `open` rows, one thread, 1 GiB,
//! the binary before (135f732) and after, alternating twice, every value
//! and move right): open8 1.90, 1.80 s -> 1.98, 1.48 s (41.0 M -> 21.7 M
//! nodes); open9 32.9, 33.5 s -> 33.3, 28.6 s (311.2 M -> 191.9 M);
//! open10-3 12.0, 9.9 s -> 11.3, 9.4 s (77.8 M -> 34.0 M); open10-4 60.7,
//! 47.0 s -> 43.6, 42.7 s (1275.5 M -> 562.4 M). At open10-4's White
//! 4-left nodes that fail low, 6.59 children were searched each before,
//! 3.56 with the own points per first placement alone (713.5 M nodes);
//! with what the last piece takes from White, 562.4 M nodes. The nodes fall
//! by half or more, the time far less: what is left is mostly the
//! ceilings' own cost and the nodes that cut.
//!
//! Tried and dropped: Black's second best square of each kind as a
//! further answer (open10-4 712.7 M -> 635.3 M nodes, 45.8 and 46.9 s
//! -> 45.2 and 43.6 s, alternating: no faster); the finer floors made at
//! once for every answer instead of when first needed (the same nodes
//! within 0.4%, no faster).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::gains::points::own_points;
use crate::position::Position;
use crate::types::{Color, Piece, Placement, Square};

/// How many of the last piece's best squares [`Floors`] keeps.
const KEPT: usize = 8;

/// Keeps in `top` (highest first) the highest values pushed so far.
#[inline]
fn push_top<const N: usize>(top: &mut [i32; N], v: i32) {
    if v > top[N - 1] {
        top[N - 1] = v;
        top.sort_unstable_by(|x, y| y.cmp(x));
    }
}

/// The squares left empty after `answer` in `pos` and those of them no
/// piece of the answering side attacks then, `attacked` the squares it
/// attacked before: where its last piece takes nothing from its own side.
pub(super) fn after_answer(
    pos: &Position,
    attacked: Bitboard,
    answer: Placement,
) -> (Bitboard, Bitboard) {
    let occ = pos.occupied() | Bitboard::from_square(answer.square);
    let attacked = attacked | attacks::attacks(answer.piece, answer.square, occ);
    (occ, !occ & !attacked)
}

/// What the answering side's last piece sees of the board after its
/// answer: the pieces, and the other side's pieces that it may take
/// points from.
struct Sight {
    last: Piece,
    occ: Bitboard,
    /// The other side's sliders along ranks and files, and diagonals.
    sliders: [Bitboard; 2],
    /// The other side's Kings and Knights.
    kings: Bitboard,
    knights: Bitboard,
}

impl Sight {
    /// What `last` of the side not to move in `pos` sees with `occ` on the
    /// board.
    fn new(pos: &Position, last: Piece, occ: Bitboard) -> Sight {
        let other = pos.side_to_move();
        Sight {
            last,
            occ,
            sliders: pos.line_sliders().map(|l| l & pos.pieces(other)),
            kings: pos.pieces_of(other, Piece::King),
            knights: pos.pieces_of(other, Piece::Knight),
        }
    }

    /// Floors on the gain of the last piece on `q` (empty, attacked by
    /// none of its side's pieces) with `occ` on the board, once one and
    /// two more pieces are placed anywhere but on `q`.
    fn points(&self, q: Square, occ: Bitboard) -> [i32; 2] {
        let mut arm = [0; 8];
        let mut slider = [false; 8];
        for d in 0..8 {
            let ray = attacks::ray(d, q, occ);
            arm[d] = (ray & !occ).count() as i32;
            let line = usize::from(!attacks::is_orthogonal(d));
            slider[d] = !(ray & self.sliders[line]).is_empty();
        }
        // A slider's own points are its arms, counted below.
        let mut own = match self.last {
            Piece::King | Piece::Knight => own_points(occ, self.last, q),
            _ => 0,
        };
        let mut taken = (attacks::king(q) & self.kings).count() as i32
            + (attacks::knight(q) & self.knights).count() as i32;
        // The most one blocker cuts, then the second most elsewhere.
        let mut cuts = [0; 2];
        for d in 0..8 {
            let back = attacks::opposite(d);
            let slides = attacks::slides_along(self.last, d);
            own += if slides { arm[d] } else { 0 };
            if slider[d] {
                taken += 1 + arm[back];
            }
            if arm[d] > 0 {
                let mut v = if slides { arm[d] } else { 0 };
                v += i32::from(self.last == Piece::King);
                v += if slider[d] { 1 + arm[back] } else { 0 };
                v += if slider[back] { arm[d] } else { 0 };
                push_top(&mut cuts, v);
            }
        }
        if self.last == Piece::Knight {
            for _ in 0..(attacks::knight(q) & !occ).count().min(2) {
                push_top(&mut cuts, 1);
            }
        }
        let all = own + taken;
        [all - cuts[0], all - cuts[0] - cuts[1]]
    }
}

/// The answering side's last piece's floors after one answer: the third
/// best square with two blockers ([`Floors::base`]), and with White's
/// first placement known, the second best with one ([`Floors::at`]) from
/// the best [`KEPT`] squares valued once with one blocker; a placement on
/// `s` changes only `s` itself and the squares whose lines or Knight
/// squares hold it, and only downwards.
pub(super) struct Floors {
    sight: Sight,
    base: Option<i32>,
    best: [(Square, i32); KEPT],
    len: usize,
}

impl Floors {
    /// The floors of `last` in `pos` (the other side to move) after an
    /// answer, `(occ, free)` what [`after_answer`] gives for it.
    pub(super) fn new(pos: &Position, last: Piece, (occ, free): (Bitboard, Bitboard)) -> Floors {
        let mut f = Floors {
            sight: Sight::new(pos, last, occ),
            base: None,
            best: [(Square::from_index(0), i32::MIN); KEPT],
            len: 0,
        };
        let mut third = [i32::MIN; 3];
        for q in free {
            let [v, two] = f.sight.points(q, occ);
            push_top(&mut third, two);
            if f.len < KEPT {
                f.best[f.len] = (q, v);
                f.len += 1;
            } else if v > f.best[KEPT - 1].1 {
                f.best[KEPT - 1] = (q, v);
            } else {
                continue;
            }
            f.best[..f.len].sort_unstable_by_key(|&(_, v)| std::cmp::Reverse(v));
        }
        f.base = (third[2] > i32::MIN).then_some(third[2].max(0));
        f
    }

    /// A floor on the last piece's gain after any two placements of the
    /// other side: `None` if fewer than three squares count.
    pub(super) fn base(&self) -> Option<i32> {
        self.base
    }

    /// The highest [`Floors::at`] may give.
    pub(super) fn most(&self) -> i32 {
        match self.len {
            0 | 1 => 0,
            _ => self.best[1].1.max(0),
        }
    }

    /// A floor on the last piece's gain after the other side's placement
    /// on `s` and any one more: the second best of the squares kept, `s`
    /// itself left out and those it may block valued again (which only
    /// lowers them). Any two squares bound it: the last placement takes
    /// at most one of them. `i32::MIN` if fewer than two.
    pub(super) fn at(&self, s: Square) -> i32 {
        let occ = self.sight.occ | Bitboard::from_square(s);
        let mut top = [i32::MIN; 2];
        for &(q, v) in &self.best[..self.len] {
            if top[1] >= v {
                // The squares left are valued no higher.
                break;
            }
            if q == s {
                continue;
            }
            let near = attacks::attacks(Piece::Queen, q, self.sight.occ) | attacks::knight(q);
            let v = if near.has(s) {
                self.sight.points(q, occ)[0]
            } else {
                v
            };
            push_top(&mut top, v);
        }
        if top[1] == i32::MIN {
            i32::MIN
        } else {
            top[1].max(0)
        }
    }
}

/// A cheaper floor than [`Floors::base`]: the last piece's own points
/// alone on the third best free square, less what two blockers cut of
/// them (a point each for a King or a Knight, an arm each for a slider),
/// `(occ, free)` what [`after_answer`] gives. `None` if fewer than three
/// squares count.
pub(super) fn own_floor(last: Piece, (occ, free): (Bitboard, Bitboard)) -> Option<i32> {
    let mut top = [i32::MIN; 3];
    for q in free {
        push_top(&mut top, own_points_blocked(last, q, occ));
    }
    (top[2] > i32::MIN).then_some(top[2].max(0))
}

/// What `piece` on `q` (empty, `occ` the board) attacks of the empty
/// squares once two more pieces are placed anywhere but on `q`: each
/// takes at most one square a King or a Knight attacks, and cuts at
/// most one arm of a slider.
fn own_points_blocked(piece: Piece, q: Square, occ: Bitboard) -> i32 {
    match piece {
        Piece::King | Piece::Knight => own_points(occ, piece, q) - 2,
        _ => {
            let (mut total, mut longest) = (0, [0; 2]);
            for d in (0..8).filter(|&d| attacks::slides_along(piece, d)) {
                let arm = (attacks::ray(d, q, occ) & !occ).count() as i32;
                total += arm;
                push_top(&mut longest, arm);
            }
            total - longest[0] - longest[1]
        }
    }
}

/// The squares `side`'s pieces attack in `pos`.
pub(super) fn attacked_by(pos: &Position, side: Color) -> Bitboard {
    let occ = pos.occupied();
    let mut attacked = Bitboard::EMPTY;
    for p in Piece::ALL {
        for q in pos.pieces_of(side, p) {
            attacked |= attacks::attacks(p, q, occ);
        }
    }
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use crate::variant::Variant;

    /// A placement of `pos`'s side to move, most of the time on one of the
    /// `near` squares where it may (else anywhere).
    fn pick(rng: &mut Rng, pos: &Position, near: Bitboard) -> Placement {
        let moves = pos.legal_moves().to_vec();
        let close: Vec<_> = moves.iter().filter(|m| near.has(m.square)).collect();
        if !close.is_empty() && rng.below(4) > 0 {
            *close[rng.below(close.len())]
        } else {
            moves[rng.below(moves.len())]
        }
    }

    /// Where a blocker hurts the squares the floors keep first: on them,
    /// next to them, or a Knight's jump away.
    fn near_best(f: &Floors, n: usize) -> Bitboard {
        f.best[..f.len.min(n)]
            .iter()
            .fold(Bitboard::EMPTY, |b, &(q, _)| {
                b | Bitboard::from_square(q) | attacks::king(q) | attacks::knight(q)
            })
    }

    /// [`Sight::points`] against every blocker, and every pair of
    /// blockers next to the square or a Knight's jump from it (where
    /// they cut most), placed as pieces of the other side that do not
    /// attack the square where one it holds may: the last piece's gain
    /// there is never lower.
    #[test]
    fn no_blockers_cut_below_the_points() {
        let mut rng = Rng(0xB10C_4E25_0000_0003);
        let (mut checked, mut tight, mut tight_own) = (0, [0; 2], 0);
        for _ in 0..300 {
            let left = 6 + rng.below(4) as u8;
            let pos = rng.position(Variant::Open, left);
            let other = pos.side_to_move();
            let us = other.flip();
            let free = pos.empty() & !attacked_by(&pos, us);
            let n = rng.below(free.count().max(1) as usize);
            let Some(q) = free.into_iter().nth(n) else {
                continue;
            };
            let last = Piece::ALL[rng.below(5)];
            let sight = Sight::new(&pos, last, pos.occupied());
            let want = sight.points(q, pos.occupied());
            let held: Vec<Piece> = Piece::ALL
                .into_iter()
                .filter(|&k| pos.in_hand(other, k) > 0)
                .collect();
            // The other side's piece on `b`, one that spares `q` if any.
            let block = |p: &Position, b: Square| {
                let spares = held.iter().copied().filter(|&k| p.in_hand(other, k) > 0);
                let kind = spares
                    .clone()
                    .find(|&k| !attacks::attacks(k, b, p.occupied()).has(q))
                    .or_else(|| spares.clone().next());
                kind.map(|k| p.with_added(other, Placement::new(k, b)))
            };
            let gain = |p: &Position| p.square_delta(q).gain(last, us.index());
            let others = pos.empty() & !Bitboard::from_square(q);
            for b in others {
                let Some(p) = block(&pos, b) else { continue };
                let got = gain(&p);
                assert!(
                    got >= want[0],
                    "{} {last:?} {q} {b}: {got} {want:?}",
                    pos.fen()
                );
                checked += 1;
                tight[0] += usize::from(got == want[0]);
            }
            let close: Vec<Square> = (others & (attacks::king(q) | attacks::knight(q)))
                .into_iter()
                .collect();
            for (i, &b) in close.iter().enumerate() {
                for &c in &close[i + 1..] {
                    let Some(p) = block(&pos, b).and_then(|p| block(&p, c)) else {
                        continue;
                    };
                    let got = gain(&p);
                    assert!(
                        got >= want[1],
                        "{} {last:?} {q} {b} {c}: {got} {want:?}",
                        pos.fen()
                    );
                    let own = own_points(p.occupied(), last, q);
                    let floor = own_points_blocked(last, q, pos.occupied());
                    assert!(
                        own >= floor,
                        "{} {last:?} {q} {b} {c}: {own} {floor}",
                        pos.fen()
                    );
                    tight_own += usize::from(own == floor);
                    checked += 1;
                    tight[1] += usize::from(got == want[1]);
                }
            }
        }
        assert!(
            checked > 10_000 && tight[0] > 200 && tight[1] > 200 && tight_own > 200,
            "{checked} {tight:?} {tight_own}"
        );
    }

    /// Whatever White places twice around Black's answer (mostly where
    /// it hurts the squares the floors count), Black's last piece then
    /// gains at least the floor on some square no Black piece attacked
    /// after the answer, and at least the floor once White's first
    /// placement is known.
    #[test]
    fn the_last_piece_gains_at_least_its_floors() {
        let mut rng = Rng(0x40F1_0E2A_77C3_5EED);
        let (mut checked, mut above_nothing, mut above_base, mut close) = (0, 0, 0, 0);
        for _ in 0..6000 {
            let pos = rng.position(Variant::Open, 4);
            let them = pos.side_to_move().flip();
            let (y, last) = {
                let mut p = pos.clone();
                let x = p.legal_moves().iter().next().expect("a placement");
                p.play(x);
                let ys = p.legal_moves().to_vec();
                let y = ys[rng.below(ys.len())];
                p.play(y);
                // Black's other piece: the one it holds after `y`.
                let last = Piece::ALL.into_iter().find(|&k| p.in_hand(them, k) > 0);
                (y, last.expect("Black's last piece"))
            };
            let after = after_answer(&pos, attacked_by(&pos, them), y);
            let floors = Floors::new(&pos, last, after);
            let Some(base) = floors.base() else {
                continue;
            };
            let mut p = pos.clone();
            let x = pick(
                &mut rng,
                &p,
                near_best(&floors, 3) & !Bitboard::from_square(y.square),
            );
            p.play(x);
            if !p.empty().has(y.square) {
                continue;
            }
            p.play(y);
            let z = pick(&mut rng, &p, near_best(&floors, 2));
            p.play(z);
            let free = after.1;
            let most = (free & p.empty())
                .into_iter()
                .map(|q| p.gain(Placement::new(last, q)))
                .max()
                .map_or(i32::MIN, |v| v.max(0));
            assert!(most >= base, "{} {x} {y} {z}: {most} {base}", pos.fen());
            // The cheaper floor stands on the last piece's own points alone.
            let own = own_floor(last, after).expect("as many squares as the base's");
            let points = (free & p.empty())
                .into_iter()
                .map(|q| own_points(p.occupied(), last, q))
                .max()
                .map_or(i32::MIN, |v| v.max(0));
            assert!(points >= own, "{} {x} {y} {z}: {points} {own}", pos.fen());
            checked += 1;
            above_nothing += usize::from(base > 0);
            let known = floors.at(x.square);
            assert!(floors.most() >= known, "{} {x} {y}", pos.fen());
            if known > i32::MIN {
                assert!(most >= known, "{} {x} {y} {z}: {most} {known}", pos.fen());
                above_base += usize::from(known > base);
                close += usize::from(most - known <= 1);
            }
        }
        assert!(
            checked > 3000 && above_nothing > 1000 && above_base > 1000 && close > 30,
            "{checked} {above_nothing} {above_base} {close}"
        );
    }
}
