//! A ceiling on an `open` node with four plies left (White to move, each
//! side holding two pieces) that fails low: White places `a` on `s`,
//! Black answers, White places `b`, Black its last piece. With Black's
//! answer fixed (the board R), the final value for White is V(R) plus
//! gain(a on s | R) plus gain(b | R + s) minus the gain of Black's last
//! piece. The first two terms are bounded as at three plies left
//! ([`Cover::cover`]); Black's last gain is bounded from below by a square
//! no Black piece attacks on R ([`last_floor`]). A placement whose bound
//! is at most alpha is not searched. The answers tried: Black's best
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
//! The floor is loose: Black's last piece mostly gains far more, so the
//! tests cannot tell a floor a few points too high (a bound 6 points
//! lower fails them, 3 points lower does not).

use super::three_left_bound::Cover;
use crate::attacks;
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
        let Some(floor) = last_floor(pos, attacked, answer, last) else {
            continue;
        };
        let base = pos.diff() - gain - floor;
        c.cover(frame, answer, base, [a, b], &ours, alpha);
        if c.all_covered() {
            break;
        }
    }
    (c.value > Value::MIN).then_some((c.covered, c.value))
}

/// The squares `side`'s pieces attack in `pos`.
fn attacked_by(pos: &Position, side: Color) -> Bitboard {
    let occ = pos.occupied();
    let mut attacked = Bitboard::EMPTY;
    for p in Piece::ALL {
        for q in pos.pieces_of(side, p) {
            attacked |= attacks::attacks(p, q, occ);
        }
    }
    attacked
}

/// A floor on what the last piece of the side that answers, `last`, gains
/// after `answer` and any two placements of the other side, `attacked`
/// the squares the answering side attacks before `answer`: on a square
/// none of its pieces attacks after `answer` it takes nothing from its own
/// side (the other side's pieces only block its rays, never add to them)
/// and nothing from itself, so it gains at least its own points there,
/// which each of the two placements lowers by at most one for a King or a
/// Knight. The two placements may take two such squares: the third best
/// counts. `None` if there are fewer than three. (`answer` may block a
/// ray of its own side: the squares behind it then count as attacked, a
/// floor lower than it could be, never higher.)
fn last_floor(pos: &Position, attacked: Bitboard, answer: Placement, last: Piece) -> Option<i32> {
    let occ = pos.occupied() | Bitboard::from_square(answer.square);
    let attacked = attacked | attacks::attacks(answer.piece, answer.square, occ);
    let free = !occ & !attacked;
    let leaps = match last {
        Piece::King => attacks::king,
        Piece::Knight => attacks::knight,
        _ => return (free.count() >= 3).then_some(0),
    };
    let mut top = [i32::MIN; 3];
    for s in free {
        let v = (leaps(s) & !occ).count() as i32 - 2;
        if v > top[2] {
            top[2] = v;
            top.sort_unstable_by(|x, y| y.cmp(x));
        }
    }
    (top[2] > i32::MIN).then_some(top[2].max(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::{alpha_beta, search_agrees};
    use crate::testing::Rng;
    use crate::value::SCALE;

    /// A random placement of `pos`'s side to move, half the time on one of
    /// the `near` squares where it may (else anywhere).
    fn pick(rng: &mut Rng, pos: &Position, near: Bitboard) -> Placement {
        let moves = pos.legal_moves().to_vec();
        let close: Vec<_> = moves.iter().filter(|m| near.has(m.square)).collect();
        if !close.is_empty() && rng.below(2) == 0 {
            *close[rng.below(close.len())]
        } else {
            moves[rng.below(moves.len())]
        }
    }

    /// Whatever White places twice around Black's answer, Black's last
    /// piece then gains at least its floor. Most of White's placements go
    /// where that piece would gain most, or on a square it would attack
    /// from there.
    #[test]
    fn the_last_piece_gains_at_least_its_floor() {
        let mut rng = Rng(0x40F1_0E2A_77C3_5EED);
        let (mut checked, mut above_nothing) = (0, 0);
        for _ in 0..6000 {
            let pos = rng.position(Variant::Open, 4);
            let them = pos.side_to_move().flip();
            let theirs = two_held(&pos, them).expect("two Black pieces at four plies left");
            let y = {
                let mut p = pos.clone();
                let x = p.legal_moves().iter().next().expect("a placement");
                p.play(x);
                let ys = p.legal_moves().to_vec();
                ys[rng.below(ys.len())]
            };
            let last = if y.piece == theirs[0] {
                theirs[1]
            } else {
                theirs[0]
            };
            let Some(floor) = last_floor(&pos, attacked_by(&pos, them), y, last) else {
                continue;
            };
            // The last piece's best squares with White to move, and what
            // it attacks from them.
            let hot = |p: &Position, rng: &mut Rng| {
                let keys = Frame::new(p).keys_of(last, -1);
                let mut k = i16::MAX;
                let mut hot = Bitboard::EMPTY;
                for _ in 0..3 {
                    k = best_below(&keys, k);
                    if k == NONE {
                        break;
                    }
                    let s = square_of(k);
                    hot |= Bitboard::from_square(s);
                    if rng.below(2) == 0 {
                        hot |= attacks::attacks(last, s, p.occupied());
                    }
                }
                hot
            };
            let mut p = pos.clone();
            let x_near = hot(&p, &mut rng) & !Bitboard::from_square(y.square);
            let x = pick(&mut rng, &p, x_near);
            p.play(x);
            if !p.empty().has(y.square) {
                continue;
            }
            p.play(y);
            let near = hot(&p, &mut rng);
            let z = pick(&mut rng, &p, near);
            p.play(z);
            let most = p.legal_moves().iter().map(|m| p.gain(m)).max().unwrap();
            assert!(most >= floor, "{} {x} {y} {z}: {most} {floor}", pos.fen());
            checked += 1;
            above_nothing += usize::from(floor > 0);
        }
        assert!(
            checked > 2000 && above_nothing > 100,
            "{checked} {above_nothing}"
        );
    }

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
