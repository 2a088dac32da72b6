//! A ceiling on an `open` node with four plies left (White to move, each
//! side holding two pieces) that fails low: White places `a` on `s`,
//! Black answers, White places `b`, Black its last piece. With Black's
//! answer fixed (the board R), the final value for White is V(R) plus
//! gain(a on s | R) plus gain(b | R + s) minus the gain of Black's last
//! piece. The first two terms are bounded as at three plies left
//! ([`Cover::cover`]); Black's last gain is bounded from below by the
//! squares no Black piece attacks on R ([`Floors`]: the third best with
//! two White placements to come, and for a placement whose bound that
//! leaves above alpha, the second best once its square is known). A
//! placement whose bound is at most alpha is not searched. The answers tried: Black's best
//! square now for each kind it holds, then its 3-left killers; a
//! placement is covered if any one of them holds it.
//!
//! Where it matters: at 10 plies left White's 4-left nodes are the ones
//! that fail low (open10-3: 0.76 M of them, 86.5 children each searched,
//! 34.7 M 3-left children cutting); with the ceiling 1.50 children each.
//! Measured (`bench suite`, one thread, the binary before and after):
//! open10-3 86.3 s, 2.76 G nodes -> 12.1 s, 0.11 G; open10-4 437.3 s,
//! 19.87 G -> 57.9 s, 1.33 G; open8 4.73 and 5.21 s -> 1.66 and 1.77 s
//! (209.9 M -> 42.6 M nodes). At 9 plies left the 4-left nodes mostly
//! cut and their children that it spares are cheap: 694.0 M -> 442.4 M
//! nodes, 38.5 and 40.1 s -> 39.2 and 37.6 s (the same time).
//!
//! The floors first counted the last piece's own points alone (nothing
//! for a slider), on the third best square: open10-4 then searched 6.59
//! children at each White 4-left node that failed low, most of their
//! bounds one to three points above alpha. What the floors count now is
//! in [`super::last_floor`], with its measurements.

use super::last_floor::{Floors, after_answer, attacked_by, own_floor};
use super::three_left_bound::Cover;
use crate::bitboard::Bitboard;
use crate::gains::keys::{NONE, best_below, gain_of, square_of};
use crate::gains::offers::Frame;
use crate::position::Position;
use crate::types::{Color, Piece, Placement};
use crate::value::Value;
use crate::variant::Variant;

/// The pieces `side` holds, if exactly two.
fn two_held(pos: &Position, side: Color) -> Option<[Piece; 2]> {
    let mut held = [None; 2];
    let mut n = 0;
    for p in Piece::ALL {
        for _ in 0..pos.in_hand(side, p) {
            if n < 2 {
                held[n] = Some(p);
            }
            n += 1;
        }
    }
    match (held, n) {
        ([Some(a), Some(b)], 2) => Some([a, b]),
        _ => None,
    }
}

/// By piece, the placements of the current position (`open`, four plies
/// left) that a ceiling at most `alpha` covers, and the highest such
/// ceiling; `None` if it covers none. `frame` is the position's frame;
/// `killers` Black answers to try beside its best square for each kind.
pub fn ceiling(
    pos: &Position,
    frame: &Frame,
    killers: [Option<Placement>; 4],
    alpha: Value,
) -> Option<([Bitboard; 5], Value)> {
    if pos.variant() != Variant::Open || pos.plies_left() != 4 || !frame.describes(pos) {
        return None;
    }
    let us = pos.side_to_move();
    let them = us.flip();
    let [a, b] = two_held(pos, us)?;
    let theirs = two_held(pos, them)?;
    let held = |p: Piece| match frame.held_keys(p) {
        Some(k) => *k,
        None => frame.keys_of(p, 1),
    };
    let ours = [held(a), held(b)];
    let mut c = Cover::new(pos, [a, b]);
    let mut answers: [Option<(Placement, i32)>; 6] = [None; 6];
    let mut n = 0;
    for (i, &p) in theirs.iter().enumerate() {
        if i == 1 && p == theirs[0] {
            break;
        }
        let keys = frame.keys_of(p, -1);
        let k = best_below(&keys, i16::MAX);
        if k != NONE {
            answers[n] = Some((Placement::new(p, square_of(k)), gain_of(k)));
            n += 1;
        }
        for m in killers.into_iter().flatten() {
            if m.piece == p
                && pos.empty().has(m.square)
                && answers[..n].iter().all(|x| x.map(|x| x.0) != Some(m))
                && n < answers.len()
            {
                answers[n] = Some((m, gain_of(keys[m.square.index()])));
                n += 1;
            }
        }
    }
    let attacked = attacked_by(pos, them);
    for &(answer, gain) in answers[..n].iter().flatten() {
        let last = if answer.piece == theirs[0] {
            theirs[1]
        } else {
            theirs[0]
        };
        let after = after_answer(pos, attacked, answer);
        let Some(floor) = own_floor(last, after) else {
            continue;
        };
        let base = pos.diff() - gain - floor;
        // The finer floors, made for the first placement the cheap one
        // leaves above alpha.
        let mut floors: Option<Floors> = None;
        c.cover(frame, (answer, base), [a, b], &ours, alpha, |s, need| {
            let f = floors.get_or_insert_with(|| Floors::new(pos, last, after));
            let fine = f.base().unwrap_or(floor).max(floor);
            if f.most().max(fine) - floor < need {
                return 0;
            }
            f.at(s).max(fine) - floor
        });
        if c.all_covered() {
            break;
        }
    }
    (c.value > Value::MIN).then_some((c.covered, c.value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::{alpha_beta, search_agrees};
    use crate::testing::Rng;
    use crate::value::SCALE;

    /// Random Black answers to try, some of them missing.
    fn killers(rng: &mut Rng, pos: &Position) -> [Option<Placement>; 4] {
        let mut p = pos.clone();
        let x = p.legal_moves().iter().next().expect("a placement");
        p.play(x);
        let answers = p.legal_moves().to_vec();
        std::array::from_fn(|_| {
            let m = answers[rng.below(answers.len())];
            (rng.below(3) > 0).then_some(m)
        })
    }

    /// Every covered placement is worth at most the ceiling (searched to
    /// the end with a null window at it), which is at most alpha.
    #[test]
    fn ceilings_hold_every_covered_placement() {
        let mut rng = Rng(0x5EED_40F1_0E2A_77C3);
        let (mut nodes, mut checked) = (0, 0);
        for _ in 0..300 {
            let pos = rng.position(Variant::Open, 4);
            let frame = Frame::new(&pos);
            let d = pos.diff() * SCALE;
            let alpha = [d, d + 300, d - 300, d + 800][rng.below(4)];
            let Some((covered, value)) = ceiling(&pos, &frame, killers(&mut rng, &pos), alpha)
            else {
                continue;
            };
            assert!(value <= alpha, "{} {value} {alpha}", pos.fen());
            nodes += 1;
            for m in pos.legal_moves().iter() {
                if covered[m.piece.index()].has(m.square) {
                    let mut p = pos.clone();
                    p.play(m);
                    let v = -alpha_beta(&mut p, -value - 1, -value);
                    assert!(v <= value, "{} {m}: {v} {value}", pos.fen());
                    checked += 1;
                }
            }
        }
        assert!(nodes > 20 && checked > 1000, "{nodes} {checked}");
    }

    /// The worker's `open` nodes with four plies left, with the ceiling,
    /// return what plain alpha-beta may for the window, in random
    /// positions and windows (mostly above the value: the nodes that fail
    /// low, where the ceiling spares children).
    #[test]
    fn nodes_with_the_ceiling_agree_with_plain_search() {
        let mut rng = Rng(0x77C3_5EED_40F1_0E2A);
        let mut tables = Tables::default();
        let (mut lows, mut spared) = (0, 0);
        for _ in 0..24 {
            let (pos, want, window) =
                search_agrees(&mut rng, &mut tables, (Variant::Open, 4, 0), |_| {});
            if want <= window.0 {
                lows += 1;
                let covers = ceiling(&pos, &Frame::new(&pos), tables.cuts(3), window.0);
                spared += usize::from(covers.is_some());
            }
        }
        assert!(lows > 8 && spared > 4, "{lows} {spared}");
    }

    /// Nodes with three and four plies left expected to fail low, which
    /// take their ceilings before their first child, return what plain
    /// alpha-beta may for the window.
    #[test]
    fn nodes_expected_to_fail_low_agree_with_plain_search() {
        let mut rng = Rng(0x0E2A_77C3_5EED_40F1);
        let mut tables = Tables::default();
        let mut lows = [0; 2];
        for i in 0..240 {
            let left = 3 + (i % 2) as u8;
            let (_, want, window) =
                search_agrees(&mut rng, &mut tables, (Variant::Open, left, 2), |w| {
                    w.expect_all_at(2)
                });
            lows[usize::from(left - 3)] += usize::from(want <= window.0);
        }
        assert!(lows[0] > 50 && lows[1] > 50, "{lows:?}");
    }
}
