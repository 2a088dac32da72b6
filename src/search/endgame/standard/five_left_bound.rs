//! A ceiling on a `standard` node with five plies left (Black places its
//! 6th piece, White its 7th, Black its 7th, White its last, Black its
//! King) that fails low, for Black: White's two pieces fixed, its 4-left
//! killer `u` and its 2-left killer `t`. At 13 plies left these nodes
//! hold most of the tree (`std13-1`: 1.58 M of them, 38 children each, 72%
//! of the nodes under them).
//!
//! The final board is R (the board with `u` and `t`) plus Black's three
//! pieces, added in any order: its value for Black is V(R), plus the gain
//! of Black's 6th piece on R, plus its 7th's once the 6th stands, plus its
//! King's. A Black piece only lowers what a later Black piece gains (it
//! takes a square the later one would attack, cuts a White ray the later
//! one would cut, or has a ray of its own cut by it) but where a Black
//! slider's ray that the later piece would cut is already cut: so the
//! 7th piece's best square on R and the King's best square next to `t`,
//! each with what Black's sliders lose to it there added back, bound the
//! two for every 6th piece.
//!
//! White's pieces stay legal whatever Black does, or the square is not
//! covered: `u` and `t` empty and of their Bishop's colour now, the 6th
//! piece on neither square; `t` with three empty neighbours (Black's two
//! pieces leave its King one, rule 4); Black's Queen as its 6th piece only
//! if White's 7th is its Queen or White holds none (the queen call). A 7th
//! piece on `t`'s own square makes White answer elsewhere: that square is
//! bounded apart, with White's last piece on another killer square or
//! its best square now, whichever leaves Black less.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::{Position, SquareDelta};
use crate::types::{Color, Piece, Placement, Square};
use crate::value::{SCALE, Value};
use crate::variant::Variant;

/// The plies left at these nodes.
pub const FIVE: u8 = 5;

/// By piece, the placements of `pos` (`standard`, five plies left, Black
/// to move) that a ceiling at most `alpha` covers, and the highest such
/// ceiling; `None` if it covers none. `cuts4`: White's latest cuts with
/// four plies left; `killers`: its last piece's killer squares.
pub fn ceiling(
    pos: &Position,
    cuts4: [Option<Placement>; 4],
    killers: [Option<Square>; 2],
    alpha: Value,
) -> Option<([Bitboard; 5], Value)> {
    let limit = alpha.div_euclid(SCALE);
    let mut covered = [Bitboard::EMPTY; 5];
    let mut value = Value::MIN;
    bounds(pos, cuts4, killers, |m, v| {
        if v <= limit {
            covered[m.piece.index()] |= Bitboard::from_square(m.square);
            value = value.max(v.max(limit - 1) * SCALE);
        }
    })?;
    (value > Value::MIN).then_some((covered, value))
}

/// Calls `f` with each placement of `pos` that [`ceiling`] bounds and its
/// bound, in points (Black's view), and returns White's two answers;
/// `None` if the killers cannot stand.
fn bounds(
    pos: &Position,
    cuts4: [Option<Placement>; 4],
    killers: [Option<Square>; 2],
    mut f: impl FnMut(Placement, i32),
) -> Option<(Placement, Placement)> {
    if pos.variant() != Variant::Standard
        || pos.plies_left() != FIVE
        || pos.side_to_move() != Color::Black
    {
        return None;
    }
    let u = cuts4.into_iter().flatten().find(|&m| white_may(pos, m))?;
    let p4 = pos.with_added(Color::White, u);
    let last = Piece::ALL
        .into_iter()
        .find(|&p| p4.in_hand(Color::White, p) > 0)?;
    let mut ts = killers
        .into_iter()
        .flatten()
        .map(|s| Placement::new(last, s))
        .filter(|&t| white_may(&p4, t) && roomy(&p4, t.square));
    let t = ts.next()?;
    let line = Line::new(&p4, t);
    // White's answers to a 7th piece on `t`'s square: its other killer,
    // and its last piece's best square now.
    let best = (p4.empty() & p4.occupied().adjacent() & !Bitboard::from_square(t.square))
        .into_iter()
        .map(|s| Placement::new(last, s))
        .filter(|&m| white_may(&p4, m) && roomy(&p4, m.square))
        .max_by_key(|m| p4.square_delta(m.square).gain(last, Color::White.index()));
    let others: Vec<Line> = ts
        .find(|m| m.square != t.square)
        .into_iter()
        .chain(best)
        .map(|t2| Line::new(&p4, t2))
        .collect();
    // The queen call: Black's Queen makes White's next piece its Queen.
    let queen_ok = u.piece == Piece::Queen || pos.in_hand(Color::White, Piece::Queen) == 0;
    for (x, squares) in pos.legal_moves().groups() {
        if x == Piece::King || x == Piece::Queen && !queen_ok {
            continue;
        }
        // Black's 7th piece: the other one it holds but the King.
        let Some(y) = Piece::ALL
            .into_iter()
            .find(|&p| p != Piece::King && pos.in_hand(Color::Black, p) > u8::from(p == x))
        else {
            continue;
        };
        let rest = line.rest(y);
        let apart: Vec<i32> = others
            .iter()
            .map(|o| o.base + o.seventh_on(y, t.square) + o.king)
            .collect();
        let taken = Bitboard::from_square(u.square) | Bitboard::from_square(t.square);
        for s in squares & !taken {
            // The 7th piece on `t`'s square: White's last goes elsewhere,
            // the answer that leaves Black least.
            let on_t = others
                .iter()
                .zip(&apart)
                .filter(|(o, _)| o.t != s)
                .map(|(o, more)| more + o.gain(x, s))
                .min();
            let Some(on_t) = on_t else {
                continue;
            };
            f(
                Placement::new(x, s),
                (line.base + line.gain(x, s) + rest).max(on_t),
            );
        }
    }
    Some((u, t))
}

/// May White place `m` in `pos`, and after any Black placement but on
/// its square? Its piece in hand (not the King), its square empty and
/// touching the board, and of its Bishop's colour (rule 5).
fn white_may(pos: &Position, m: Placement) -> bool {
    let (p, s) = (m.piece, m.square);
    if p == Piece::King || pos.in_hand(Color::White, p) == 0 || !pos.empty().has(s) {
        return false;
    }
    if !pos.occupied().adjacent().has(s) {
        return false;
    }
    let bishops = pos.pieces_of(Color::White, Piece::Bishop);
    let dark = !(bishops & Bitboard::DARK).is_empty();
    let light = !(bishops & Bitboard::LIGHT).is_empty();
    p != Piece::Bishop || !(dark && s.is_dark() || light && !s.is_dark())
}

/// Does `s` keep an empty neighbour for Black's King whatever Black's two
/// pieces before it do (three now)?
fn roomy(pos: &Position, s: Square) -> bool {
    (attacks::king(s) & pos.empty()).count() >= 3
}

/// R for one last White answer `t`: the board with White's two pieces,
/// its value for Black, and the King's best square next to `t`.
struct Line {
    r: Position,
    t: Square,
    base: i32,
    king: i32,
}

impl Line {
    fn new(p4: &Position, t: Placement) -> Line {
        let r = p4.with_added(Color::White, t);
        let base = r.points(Color::Black) - r.points(Color::White);
        let kings = attacks::king(t.square) & r.empty();
        let king = kings
            .into_iter()
            .map(|k| later_gain(&r, Piece::King, k))
            .max()
            .unwrap_or(0);
        Line {
            r,
            t: t.square,
            base,
            king,
        }
    }

    /// Black's `piece` gains on the empty square `s` of R.
    fn gain(&self, piece: Piece, s: Square) -> i32 {
        self.r.square_delta(s).gain(piece, Color::Black.index())
    }

    /// A ceiling on what Black's 7th piece `y` (anywhere but on `t`) and
    /// its King add.
    fn rest(&self, y: Piece) -> i32 {
        let seventh = self
            .r
            .empty()
            .into_iter()
            .map(|s| later_gain(&self.r, y, s))
            .max()
            .unwrap_or(0);
        seventh + self.king
    }

    /// A ceiling on what Black's 7th piece `y` on `t0` adds.
    fn seventh_on(&self, y: Piece, t0: Square) -> i32 {
        later_gain(&self.r, y, t0)
    }
}

/// A ceiling on what Black's `piece` on the empty square `s` of `r` gains
/// once Black's 6th piece stands too: its gain on `r`, with what Black's
/// sliders lose to it added back (the 6th piece may have cut their rays
/// first). Black's Knights' points on `s` stay lost.
fn later_gain(r: &Position, piece: Piece, s: Square) -> i32 {
    let sd: SquareDelta = r.square_delta(s);
    let us = Color::Black.index();
    let knights = attacks::knight(s) & r.pieces_of(Color::Black, Piece::Knight);
    sd.gain(piece, us) + sd.loss[us] - knights.count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::{alpha_beta, with_worker};
    use crate::testing::Rng;
    use crate::value::INFINITE;

    /// Killers for `pos`: those a search of it leaves, or (half the time)
    /// any legal White placement and any squares.
    fn killers(
        rng: &mut Rng,
        pos: &Position,
        tables: &mut Tables,
    ) -> ([Option<Placement>; 4], [Option<Square>; 2]) {
        if rng.below(2) == 0 {
            return with_worker(pos, tables, |w| {
                w.search(FIVE, -INFINITE, INFINITE, 0, false);
                (w.tables.cuts(4), w.tables.killers)
            });
        }
        let mut p = pos.clone();
        let replies = p.legal_moves().to_vec();
        p.play(replies[rng.below(replies.len())]);
        let whites = p.legal_moves().to_vec();
        let u = whites[rng.below(whites.len())];
        let near = |rng: &mut Rng| {
            let squares: Vec<Square> = (p.empty() & p.occupied().adjacent()).into_iter().collect();
            Some(squares[rng.below(squares.len())])
        };
        ([Some(u), None, None, None], [near(rng), near(rng)])
    }

    /// Every placement's 5-left ceiling holds: Black's value after it,
    /// searched to the end by plain alpha-beta, is at most its bound.
    #[test]
    fn bounds_hold_every_placement() {
        let mut rng = Rng(0x5EED_0005_B0D5_0001);
        let mut tables = Tables::default();
        let (mut checked, mut tight, mut on_t) = (0, 0, 0);
        for _ in 0..400 {
            let pos = rng.position(Variant::Standard, FIVE);
            let (cuts4, squares) = killers(&mut rng, &pos, &mut tables);
            let mut found = Vec::new();
            let Some((u, t)) = bounds(&pos, cuts4, squares, |m, v| found.push((m, v))) else {
                continue;
            };
            for (m, bound) in found {
                let mut p = pos.clone();
                p.play(m);
                let at = bound * SCALE;
                let v = -alpha_beta(&mut p, -(at + 1), -at);
                assert!(
                    v <= at,
                    "{} {m} {cuts4:?} {squares:?}: {v} > {at}",
                    pos.fen()
                );
                checked += 1;
                tight += usize::from(v == at);
                // Black's 7th piece on `t`'s square, after White's `u`:
                // White's last piece then goes elsewhere.
                if !p.legal_moves().contains(u) {
                    continue;
                }
                p.play(u);
                for b3 in p.legal_moves().to_vec() {
                    if b3.square != t.square {
                        continue;
                    }
                    let mut q = p.clone();
                    q.play(b3);
                    let w = alpha_beta(&mut q, -at - 1, -at);
                    assert!(w >= -at, "{} {m} {u} {b3}: {} > {at}", pos.fen(), -w);
                    on_t += 1;
                }
            }
        }
        assert!(checked > 3000 && tight * 10 > checked, "{checked} {tight}");
        assert!(on_t > 1000, "{on_t}");
    }

    /// Every placement a 5-left ceiling covers, searched to the end by
    /// plain alpha-beta, is worth at most the ceiling's value (at most
    /// alpha) to Black; the killers those a search of the node leaves,
    /// alpha around its value.
    #[test]
    fn ceilings_hold_every_covered_placement() {
        let mut rng = Rng(0x5EED_0005_CE11_0001);
        let mut tables = Tables::default();
        let (mut nodes, mut checked) = (0, 0);
        for _ in 0..300 {
            let pos = rng.position(Variant::Standard, FIVE);
            let shift = (rng.below(6) as Value - 1) * SCALE + rng.below(SCALE as usize) as Value;
            let (alpha, found) = with_worker(&pos, &mut tables, |w| {
                let want = w.search(FIVE, -INFINITE, INFINITE, 0, false);
                let alpha = want + shift;
                (
                    alpha,
                    ceiling(&w.pos, w.tables.cuts(4), w.tables.killers, alpha),
                )
            });
            let Some((covered, value)) = found else {
                continue;
            };
            nodes += 1;
            assert!(value <= alpha, "{} {alpha} {value}", pos.fen());
            for m in pos.legal_moves().to_vec() {
                if !covered[m.piece.index()].has(m.square) {
                    continue;
                }
                let mut p = pos.clone();
                p.play(m);
                let v = -alpha_beta(&mut p, -(value + 1), -value);
                assert!(v <= value, "{} {m}: {v} > {value} ({alpha})", pos.fen());
                checked += 1;
            }
        }
        assert!(nodes > 100 && checked > 2000, "{nodes} {checked}");
    }
}
