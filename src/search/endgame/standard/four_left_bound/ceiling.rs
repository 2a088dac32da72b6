//! The ceiling of one of White's pieces (its 7th) on each of its squares:
//! over White's last piece's answers on R, each against Black's King
//! replies found only once a bound reaches it ([`Ceiling::settle`]), the
//! highest `top` first, so that most squares are settled by the first few.

#[cfg(test)]
use super::answers::fill_answers;
use super::answers::{Answer, Parts, highest_first};
use super::board::Board;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::gains::points::own_points;
use crate::position::Position;
use crate::search::endgame::standard::replies::Replies;
use crate::types::{Color, Piece, Square};
use crate::value::{SCALE, Value};

/// What bounds White's 7th piece on each square: White's last piece's
/// answers on R with their King replies.
pub(super) struct Ceiling {
    pub(super) piece: Piece,
    /// Its squares.
    pub(super) targets: Bitboard,
    pub(super) answers: [Answer; 64],
    /// The indices of the answers, highest `top` first.
    pub(super) order: [u8; 64],
    pub(super) len: usize,
    /// White's last piece's gains and King replies on R.
    pub(super) replies: Option<Replies>,
}

impl Ceiling {
    /// A ceiling with no answers yet.
    pub(super) fn empty() -> Ceiling {
        let s = Square::from_index(0);
        let none = Answer {
            t: s,
            g: 0,
            kings: [(s, 0); 8],
            len: 0,
            settled: false,
            low: 0,
            zone: Bitboard::EMPTY,
            reach: Bitboard::EMPTY,
            top: 0,
        };
        Ceiling {
            piece: Piece::King,
            targets: Bitboard::EMPTY,
            answers: [none; 64],
            order: [0; 64],
            len: 0,
            replies: None,
        }
    }

    /// Makes this the ceiling of White's `piece` (one of the two it holds)
    /// on each of `targets` when Black answers on `b`; false if White's
    /// last piece might go beyond the answers looked at. White's last
    /// piece may answer next to the board or to its 7th piece. The King
    /// replies wait for a bound to reach their answer: most answers are
    /// never reached (solve 10 5 wdl, counted on a first version of these
    /// floors: 0.83 M reached of 4.0 M).
    #[cfg(test)]
    pub(super) fn set(
        &mut self,
        pos: &Position,
        b: &Board,
        piece: Piece,
        targets: Bitboard,
    ) -> bool {
        self.replies = None;
        self.prepare(pos, b, piece, targets);
        let Some(parts) = self.parts() else {
            return false;
        };
        fill_answers([parts], b);
        self.sort();
        true
    }

    /// [`Ceiling::set`] but the answers ([`fill_answers`](super::answers::fill_answers), one pass for
    /// both of White's pieces) and their order: `replies` stays `None`
    /// where White's last piece might go beyond the answers looked at.
    pub(super) fn prepare(&mut self, pos: &Position, b: &Board, piece: Piece, targets: Bitboard) {
        let Some(last) = other_piece(pos, piece) else {
            return;
        };
        let r = &b.r;
        if !always_touches(r, last) {
            return;
        }
        self.piece = piece;
        self.targets = targets;
        self.replies = Some(Replies::new(r, last, &b.map.map(|v| v as i8)));
    }

    /// What [`fill_answers`](super::answers::fill_answers) works on, if prepared.
    pub(super) fn parts(&mut self) -> Option<Parts<'_>> {
        let Ceiling {
            targets,
            answers,
            len,
            replies,
            ..
        } = self;
        Some(Parts {
            replies: replies.as_ref()?,
            answers,
            len,
            targets: *targets,
        })
    }

    /// Orders the answers, highest `top` first.
    pub(super) fn sort(&mut self) {
        let mut tops = [0; 64];
        for (top, a) in tops[..self.len].iter_mut().zip(&self.answers) {
            *top = a.top;
        }
        highest_first(&tops[..self.len], &mut self.order[..self.len]);
    }

    /// Finds the King replies of answer `i` and their lowest value, and
    /// returns the second lowest (the lowest if alone).
    pub(super) fn settle(&mut self, i: usize) -> i32 {
        let a = &mut self.answers[i];
        let Some(replies) = &self.replies else {
            return a.top;
        };
        a.len = 0;
        a.zone = Bitboard::from_square(a.t);
        let (mut low, mut second) = (i32::MAX, i32::MAX);
        replies.kings(a.t, |k, king| {
            let v = a.g - king;
            a.kings[a.len as usize] = (k, v as i16);
            a.len += 1;
            a.zone |= Bitboard::from_square(k);
            (low, second) = if v < low {
                (v, low)
            } else {
                (low, second.min(v))
            };
        });
        a.low = low;
        a.reach = a.zone.adjacent();
        a.settled = true;
        if second == i32::MAX { low } else { second }
    }

    /// A ceiling, in points, on White's piece on the empty square `u` of
    /// `b` (not Black's), or one above `limit` once that is sure: `None`
    /// if no answer of White's stands against it. Once the ceiling is sure
    /// to be at most `floor` (which is at most `limit`), one at most
    /// `floor`, not necessarily the lowest: the caller keeps only the
    /// highest of several, and that is at least `floor`.
    ///
    /// Left out, measured: the points White's two pieces take from each
    /// other (the 7th piece attacking `t` or a King square, `t` attacking
    /// `u`), a point each. They cover more (solve 12 12 wdl: 1160 M nodes
    /// -> 1060 M) but cost the ceiling as much as they spare (8.206 s ->
    /// 8.187 s side by side); the 7th piece's share alone visited more
    /// nodes at 12 plies left (1289 M, 9.98 s): a placement covered is a
    /// refutation the next ceilings' reply does not learn.
    pub(super) fn bound(&mut self, b: &Board, u: Square, limit: i32, floor: i32) -> Option<i32> {
        let gain = own_points(b.r.occupied(), self.piece, u) + b.map[u.index()];
        let (shadow, loss) = (b.shadow[u.index()], b.slider_loss[u.index()]);
        let near = attacks::king(u);
        // No answer gives more than the highest top: at most `floor`, the
        // loop need not look (the same bounds, callgrind on solve 10 12
        // wdl, seeds 4 and 6: 5.90 G instructions before, 5.78 G with it).
        // Some answer always stands ([`always_touches`]).
        if let Some(&first) = self.order[..self.len].first() {
            let most = gain + self.answers[first as usize].top + 1 + loss;
            if most <= floor {
                return Some(most);
            }
        }
        let mut best = None;
        for o in 0..self.len {
            let i = self.order[o] as usize;
            let a = &self.answers[i];
            if best.is_some_and(|b: i32| b.max(floor) >= gain + a.top + 1 + loss) {
                // The answers left give no more, or not above `floor`.
                break;
            }
            if a.t == u {
                continue;
            }
            if !a.settled {
                self.settle(i);
            }
            let a = &self.answers[i];
            if !a.reach.has(u) && (shadow & a.zone).is_empty() {
                // Far from every reply: each keeps its value.
                let v = gain + a.low;
                if v > limit {
                    return Some(v);
                }
                best = best.max(Some(v));
                continue;
            }
            let cut_t = shadow.has(a.t);
            let worst = a.kings[..a.len as usize]
                .iter()
                .filter(|&&(k, _)| k != u)
                .map(|&(k, v)| {
                    let cut = if cut_t || shadow.has(k) { loss } else { 0 };
                    i32::from(v) + i32::from(near.has(k)) + cut
                })
                .min();
            // No King reply: rule 4 forbids `t` once `u` stands.
            let Some(v) = worst else { continue };
            let v = gain + v;
            if v > limit {
                return Some(v);
            }
            best = best.max(Some(v));
        }
        best
    }

    /// The squares of `targets` that it holds at most `alpha`, and a
    /// ceiling on all of them and on `best` (a ceiling already found, or
    /// `Value::MIN`): the highest of their bounds, of `best` and of
    /// [`slack`] under alpha, so that bounds at most that need not be
    /// exact.
    pub(super) fn cover(
        &mut self,
        b: &Board,
        targets: Bitboard,
        alpha: Value,
        best: Value,
    ) -> (Value, Bitboard) {
        let limit = alpha.div_euclid(SCALE);
        // `best` in points (it is whole points, or `Value::MIN`), kept as
        // the floor: a covered square's bound at most it raises nothing.
        let mut floor = best.div_euclid(SCALE).max(slack(limit));
        let mut covered = Bitboard::EMPTY;
        for u in targets {
            if u == b.s {
                continue;
            }
            if let Some(v) = self.bound(b, u, limit, floor)
                && v <= limit
            {
                floor = floor.max(v);
                covered |= Bitboard::from_square(u);
            }
        }
        if covered.is_empty() {
            return (best, covered);
        }
        (best.max(floor * SCALE), covered)
    }
}

/// How low, in points, a covered placement's ceiling must be proved when
/// the node's alpha is `limit` points: one point under it. The node then
/// fails low with a value its table entry keeps as an upper bound, and
/// one point under alpha is all that the two null windows of a
/// win/draw/loss search, (-1, 0) and (0, 1), ever ask of that entry: an
/// exact bound per placement cost most of the ceiling's instructions for
/// nothing there (callgrind and times in the commit; solve 12 12 wdl
/// visits the same nodes, an exact solve a few more).
pub(super) fn slack(limit: i32) -> i32 {
    limit - 1
}

/// White's piece other than `piece`, of the two it holds.
pub(super) fn other_piece(pos: &Position, piece: Piece) -> Option<Piece> {
    Piece::ALL.into_iter().find(|&p| {
        let held = pos.in_hand(Color::White, p) - u8::from(p == piece);
        held > 0 && p != Piece::King
    })
}

/// Does White's last piece keep a legal square touching the board of `r`
/// whatever White's 7th piece does? Else rule 7 might let it go anywhere,
/// beyond the answers the ceiling looks at. Two squares of each colour
/// it may take (a Bishop's colour follows White's other Bishop, on the
/// board or placed as its 7th piece), each with two empty neighbours:
/// the 7th piece takes at most one of them, or one neighbour of each.
pub(super) fn always_touches(r: &Position, last: Piece) -> bool {
    let empty = r.empty();
    let ok = empty & r.occupied().adjacent();
    let roomy = |b: Bitboard| {
        b.into_iter()
            .filter(|&t| (attacks::king(t) & empty).count() >= 2)
            .count()
            >= 2
    };
    if last != Piece::Bishop {
        return roomy(ok);
    }
    let placed = r.pieces_of(Color::White, Piece::Bishop);
    [Bitboard::DARK, Bitboard::LIGHT]
        .into_iter()
        .filter(|&c| (placed & c).is_empty())
        .all(|c| roomy(ok & c))
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_alpha;
    use super::*;
    use crate::search::endgame::standard::four_left_bound::LEFT;
    use crate::search::history::Tables;
    use crate::search::test_worker::with_worker;
    use crate::testing::Rng;
    use crate::types::Placement;
    use crate::value::INFINITE;
    use crate::variant::Variant;

    /// A random 4-left position, one of White's pieces with its squares,
    /// and Black's reply after that piece on the first of them: mostly one
    /// that touches, now and then any.
    fn random_reply(rng: &mut Rng) -> (Position, Piece, Bitboard, Placement) {
        let pos = rng.position(Variant::Standard, LEFT);
        let groups: Vec<_> = pos.legal_moves().groups().collect();
        let (piece, targets) = groups[rng.below(groups.len())];
        let mut after = pos.clone();
        after.play(Placement::new(piece, targets.first().unwrap()));
        let replies = after.legal_moves().to_vec();
        let reply = replies[rng.below(replies.len())];
        (pos, piece, targets, reply)
    }

    /// [`Ceiling::cover`] the slow way: every square's exact bound.
    fn cover_exactly(
        c: &mut Ceiling,
        b: &Board,
        targets: Bitboard,
        alpha: Value,
    ) -> (Value, Bitboard) {
        let (mut best, mut covered) = (Value::MIN, Bitboard::EMPTY);
        for u in targets & !Bitboard::from_square(b.s) {
            if let Some(v) = c.bound(b, u, i32::MAX, i32::MIN)
                && v * SCALE <= alpha
            {
                best = best.max(v * SCALE);
                covered |= Bitboard::from_square(u);
            }
        }
        (best, covered)
    }

    #[test]
    fn covers_match_exact_bounds() {
        let mut rng = Rng(0xF0C3_1196_0000_C0FE);
        let (mut checked, mut covered) = (0, 0);
        for _ in 0..400 {
            let (pos, piece, targets, reply) = random_reply(&mut rng);
            let Some(b) = Board::new(&pos, reply) else {
                continue;
            };
            let mut c = Ceiling::empty();
            if !c.set(&pos, &b, piece, targets) {
                continue;
            }
            let alpha = random_alpha(&mut rng);
            let (best, squares) = cover_exactly(&mut c, &b, targets, alpha);
            // A ceiling found before (at most `alpha`), or none.
            let before = match rng.below(3) {
                0 => Value::MIN,
                _ => (alpha.div_euclid(SCALE) - rng.below(4) as Value) * SCALE,
            };
            let got = c.cover(&b, targets, alpha, before);
            // A point under alpha's, at least, once any square is covered.
            let least = slack(alpha.div_euclid(SCALE)) * SCALE;
            let value = if squares.is_empty() {
                before
            } else {
                best.max(before).max(least)
            };
            assert_eq!(
                got,
                (value, squares),
                "{} {piece:?} {alpha} {before}",
                pos.fen()
            );
            checked += 1;
            covered += squares.count();
        }
        assert!(checked > 300 && covered > 1000, "{checked} {covered}");
    }

    /// Every answer's King replies found at once, the answers ordered by
    /// their exact `top`: the ceiling as it was before it found them lazily.
    fn settle_all(c: &mut Ceiling) {
        for i in 0..c.len {
            c.answers[i].top = c.settle(i);
        }
        c.sort();
    }

    #[test]
    fn lazy_covers_match_eager_ones() {
        let mut rng = Rng(0xF0C3_1196_0000_1A2E);
        let mut tables = Tables::default();
        let (mut checked, mut covered) = (0, 0);
        for _ in 0..300 {
            let pos = rng.position(Variant::Standard, LEFT);
            let want = with_worker(&pos, &mut tables, |w| {
                // Black's 3-left killer, as the search leaves it.
                w.search(LEFT, -INFINITE, INFINITE, 0, false);
                w.tables.cut[3]
            });
            let Some(b) = want.and_then(|reply| Board::new(&pos, reply)) else {
                continue;
            };
            let alpha = random_alpha(&mut rng);
            let (mut lazy, mut eager) = (Ceiling::empty(), Ceiling::empty());
            let mut best = Value::MIN;
            for (piece, targets) in pos.legal_moves().groups() {
                if !lazy.set(&pos, &b, piece, targets) {
                    continue;
                }
                assert!(eager.set(&pos, &b, piece, targets));
                settle_all(&mut eager);
                let got = lazy.cover(&b, targets, alpha, best);
                let (value, squares) = eager.cover(&b, targets, alpha, best);
                assert_eq!(got, (value, squares), "{} {piece:?} {alpha}", pos.fen());
                best = value;
                checked += 1;
                covered += squares.count();
            }
        }
        assert!(checked > 200 && covered > 1000, "{checked} {covered}");
    }

    /// White's best value, in points, after `u` then `reply`, every answer
    /// and King reply played; `None` if `reply` is not legal after `u`.
    fn played(pos: &Position, u: Placement, reply: Placement) -> Option<i32> {
        let mut p = pos.clone();
        p.play(u);
        if !p.legal_moves().contains(reply) {
            return None;
        }
        p.play(reply);
        let mut best = i32::MIN;
        for t in p.legal_moves().to_vec() {
            let mut q = p.clone();
            q.play(t);
            let worst = q
                .legal_moves()
                .iter()
                .map(|k| {
                    let mut end = q.clone();
                    end.play(k);
                    end.points(Color::White) - end.points(Color::Black)
                })
                .min()
                .unwrap();
            best = best.max(worst);
        }
        Some(best)
    }

    #[test]
    fn ceilings_hold_every_placement_and_reply() {
        let mut rng = Rng(0xF0C3_1196_0000_5EED);
        let (mut checked, mut tight, mut slack) = (0, 0, 0);
        for _ in 0..400 {
            let (pos, piece, targets, reply) = random_reply(&mut rng);
            let Some(b) = Board::new(&pos, reply) else {
                continue;
            };
            let mut c = Ceiling::empty();
            if !c.set(&pos, &b, piece, targets) {
                continue;
            }
            for u in targets {
                let Some(bound) = c.bound(&b, u, i32::MAX, i32::MIN) else {
                    continue;
                };
                if u == reply.square {
                    continue;
                }
                let m = Placement::new(piece, u);
                let want = played(&pos, m, reply);
                let want = want.unwrap_or_else(|| panic!("{} {m} {reply}: illegal", pos.fen()));
                assert!(want <= bound, "{} {m} {reply}: {want} {bound}", pos.fen());
                checked += 1;
                tight += usize::from(want == bound);
                slack += bound - want;
            }
        }
        // Bounds that hold but are rarely reached would prove little.
        // Measured: 6121 checked, 2532 reached, 1.9 points above on average.
        assert!(checked > 5000 && tight * 3 > checked, "{checked} {tight}");
        assert!(slack < 3 * checked as i32, "{slack} {checked}");
    }
}
