//! White's last piece's answers on R, as a 4-left ceiling looks at them:
//! each square next to the board or to White's 7th piece, with a ceiling
//! on what Black's King replies leave it (`top`), filled for both of
//! White's pieces in one pass and ordered highest `top` first.

use super::board::Board;
use crate::attacks::{self, towards};
use crate::bitboard::Bitboard;
use crate::search::endgame::standard::replies::{Replies, king_value};
use crate::types::{Color, Square};

/// White's last piece on a square `t` of R and Black's King replies.
#[derive(Clone, Copy)]
pub(super) struct Answer {
    pub(super) t: Square,
    /// White's points less Black's on R + `t`, before the King.
    pub(super) g: i32,
    /// The King's squares, and the final value for White of R + `t` + the
    /// King there, in points (16 bits: half the bytes to write). Found
    /// only once a bound reaches the answer ([`Ceiling::settle`](super::ceiling::Ceiling::settle)).
    pub(super) kings: [(Square, i16); 8],
    pub(super) len: u8,
    /// Are `kings` and `low` found?
    pub(super) settled: bool,
    /// The lowest of those values: Black's best reply.
    pub(super) low: i32,
    /// `t` and the King's squares, and every square next to them: a piece
    /// of White's outside, not cut off by them from a slider's ray, leaves
    /// every reply's ceiling as it is. Found with the King replies: the
    /// answers no bound reaches never need them.
    pub(super) zone: Bitboard,
    pub(super) reach: Bitboard,
    /// At least the second lowest of those values (the lowest if alone):
    /// whichever square White's 7th piece takes, a King reply stays that
    /// gives at most this, the two terms of that piece added. Found from
    /// floors of the King's replies ([`Replies::king_floor`]).
    pub(super) top: i32,
}

/// The indices of `tops` (at most 64), highest first, into `order`. The
/// tops of a ceiling's answers span a few dozen points: counted, they are
/// ordered in some 1,000 instructions with their gathering (1,700 with the
/// bounds checks that the masks spare: callgrind, solve 10 12 wdl, seeds 4
/// and 6), where a comparison sort of their keys took some 2,100 (ties,
/// whose order no bound depends on, go either way).
pub(super) fn highest_first(tops: &[i32], order: &mut [u8]) {
    const SPAN: usize = 64;
    let n = tops.len().min(64);
    let (tops, order) = (&tops[..n], &mut order[..n]);
    let (low, high) = tops
        .iter()
        .fold((i32::MAX, i32::MIN), |(l, h), &t| (l.min(t), h.max(t)));
    if n == 0 {
        return;
    }
    if (high - low) as usize >= SPAN {
        // `top` then index in one key.
        let mut keys = [0i64; 64];
        for (i, (key, &top)) in keys.iter_mut().zip(tops).enumerate() {
            *key = (i64::from(top) << 6) | i as i64;
        }
        keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        for (o, k) in order.iter_mut().zip(&keys) {
            *o = (k & 63) as u8;
        }
        return;
    }
    // By top, from the highest down: how many before it, then where each
    // goes. Indices masked into the arrays' bounds (they are within them):
    // no bounds checks in the loops.
    let span = (high - low) as usize;
    let mut at = [0u8; 2 * SPAN];
    for &top in tops {
        at[((high - top) as usize + 1) & (2 * SPAN - 1)] += 1;
    }
    for i in 1..=span {
        at[i] += at[i - 1];
    }
    let mut placed = [0u8; 64];
    for (i, &top) in tops.iter().enumerate().rev() {
        let slot = &mut at[(high - top) as usize & (2 * SPAN - 1)];
        placed[*slot as usize & 63] = i as u8;
        *slot += 1;
    }
    order.copy_from_slice(&placed[..n]);
}

/// One ceiling's share of [`fill_answers`].
pub(super) struct Parts<'a> {
    pub(super) replies: &'a Replies,
    pub(super) answers: &'a mut [Answer; 64],
    pub(super) len: &'a mut usize,
    pub(super) targets: Bitboard,
}

/// Fills each ceiling's answers (White's last piece, `replies` its gains,
/// on R next to the board or to White's 7th piece on `targets`), each
/// with a ceiling on its `top` but no King replies yet, and their count.
/// One pass for both of White's pieces: the squares, the King's squares
/// and the lines through them are the same (callgrind, seeds 4 and 6 of
/// solve 10 12 wdl: see the commit).
pub(super) fn fill_answers<const N: usize>(mut sets: [Parts; N], b: &Board) {
    let r = &b.r;
    // The lines of the board, the same whichever piece's replies give them.
    let Some(lines) = sets.first().map(|s| s.replies) else {
        return;
    };
    let white_lines = lines.white_lines();
    let bases: [[i32; 9]; N] = std::array::from_fn(|i| *sets[i].replies.bases());
    let least: [i32; N] = std::array::from_fn(|i| sets[i].replies.least_base());
    let empty = r.empty();
    let ranges: [Bitboard; N] =
        std::array::from_fn(|i| empty & (r.occupied() | sets[i].targets).adjacent());
    let base = r.points(Color::White) - r.points(Color::Black);
    for set in sets.iter_mut() {
        *set.len = 0;
    }
    let all = ranges.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    for t in all {
        let kings = attacks::king(t) & empty;
        if kings.is_empty() {
            // Rule 4: never a legal answer.
            continue;
        }
        let seconds = second_floors(lines, t, kings, &white_lines, &b.room, &bases, least);
        for (i, set) in sets.iter_mut().enumerate() {
            if !ranges[i].has(t) {
                continue;
            }
            let a = &mut set.answers[*set.len];
            a.t = t;
            a.g = base + set.replies.gain(t);
            a.settled = false;
            a.top = a.g - seconds[i];
            *set.len += 1;
        }
    }
}

/// For each of White's last pieces (`bases`, `least`: their
/// [`Replies`] terms): the second highest of Black's King's gains on the
/// squares `kings` next to `t` (the highest if alone), or less: the exact
/// gain on White's lines through `t` ([`Replies::king`]), elsewhere a
/// floor ([`Replies::king_floor`], or the King's [`Board::room`] and the
/// least base if no line of White's passes `t`). `r` gives the lines,
/// the same for every piece.
pub(super) fn second_floors<const N: usize>(
    r: &Replies,
    t: Square,
    kings: Bitboard,
    white_lines: &[u64; 4],
    room: &[i32; 64],
    bases: &[[i32; 9]; N],
    least: [i32; N],
) -> [i32; N] {
    if white_lines.iter().all(|l| l >> t.index() & 1 == 0) {
        let s = second_highest(kings.into_iter().map(|k| room[k.index()]));
        return least.map(|l| s + l);
    }
    let (mut high, mut second) = ([i32::MIN; N], [i32::MIN; N]);
    for k in kings {
        let e = towards(t, k);
        // The King's empty neighbours less the map's loss.
        let own = room[k.index()];
        let on_line = white_lines[e & 3] >> t.index() & 1 != 0;
        let line = if on_line { r.line_terms(t, e) } else { (0, 0) };
        for i in 0..N {
            let b = &bases[i];
            let v = if on_line {
                king_value(b, own, e, line)
            } else {
                own + b[e & 7]
            };
            second[i] = second[i].max(high[i].min(v));
            high[i] = high[i].max(v);
        }
    }
    std::array::from_fn(|i| {
        if second[i] == i32::MIN {
            high[i]
        } else {
            second[i]
        }
    })
}

/// The second highest of `values` (the highest if alone, `i32::MIN` if
/// none), without branches.
#[inline(always)]
pub(super) fn second_highest(values: impl Iterator<Item = i32>) -> i32 {
    let (mut high, mut second) = (i32::MIN, i32::MIN);
    for v in values {
        second = second.max(high.min(v));
        high = high.max(v);
    }
    if second == i32::MIN { high } else { second }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::endgame::standard::four_left_bound::LEFT;
    use crate::search::endgame::standard::four_left_bound::ceiling::Ceiling;
    use crate::testing::Rng;
    use crate::types::{Piece, Placement};
    use crate::variant::Variant;

    /// The answers of both of White's pieces filled in one pass are those
    /// filled one piece at a time.
    #[test]
    fn answers_filled_together_match_one_piece_at_a_time() {
        let mut rng = Rng(0xF0C3_1196_0000_2B07);
        let mut both = 0;
        for _ in 0..300 {
            let pos = rng.position(Variant::Standard, LEFT);
            let replies = pos
                .empty()
                .into_iter()
                .flat_map(|s| Piece::ALL.into_iter().map(move |p| Placement::new(p, s)));
            let Some(b) = replies.filter_map(|r| Board::new(&pos, r)).next() else {
                continue;
            };
            let groups: Vec<_> = pos.legal_moves().groups().collect();
            let [(p1, t1), (p2, t2)] = groups[..] else {
                continue;
            };
            let (mut one, mut two) = (Ceiling::empty(), Ceiling::empty());
            one.prepare(&pos, &b, p1, t1);
            two.prepare(&pos, &b, p2, t2);
            let (Some(x), Some(y)) = (one.parts(), two.parts()) else {
                continue;
            };
            fill_answers([x, y], &b);
            for (c, (piece, targets)) in [(&one, (p1, t1)), (&two, (p2, t2))] {
                let mut alone = Ceiling::empty();
                assert!(alone.set(&pos, &b, piece, targets));
                let fields = |c: &Ceiling| -> Vec<_> {
                    c.answers[..c.len]
                        .iter()
                        .map(|a| (a.t, a.g, a.top))
                        .collect()
                };
                assert_eq!(fields(c), fields(&alone), "{} {piece:?}", pos.fen());
            }
            both += 1;
        }
        assert!(both > 100, "{both}");
    }

    #[test]
    fn highest_first_orders_like_a_sort() {
        let mut rng = Rng(0xF0C3_1196_0000_50F7);
        for round in 0..2000 {
            let len = rng.below(65);
            // Mostly a narrow span, now and then one too wide to count.
            let span = if round % 10 == 0 { 200 } else { 40 };
            let tops: Vec<i32> = (0..len).map(|_| rng.below(span) as i32 - 20).collect();
            let mut order = [0u8; 64];
            highest_first(&tops, &mut order[..len]);
            let got: Vec<i32> = order[..len].iter().map(|&i| tops[i as usize]).collect();
            let mut want = tops.clone();
            want.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(got, want, "{tops:?}");
            let mut seen = order[..len].to_vec();
            seen.sort_unstable();
            assert!(seen.iter().enumerate().all(|(i, &o)| o as usize == i));
        }
    }
}
