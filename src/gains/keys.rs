//! Gains by square as small integers that order by gain, then by lower
//! square: the best square is a maximum over 64 lanes, which the compiler
//! makes a few vector instructions, where picking the best squares of a
//! bitboard by gain took a bucket sort.

use crate::bitboard::Bitboard;
use crate::types::Square;

/// By square: `gain * 64 + 63 - square` on an empty square, [`NONE`] on an
/// occupied one. Gains stay within (-64, 64): a piece attacks at most 27
/// squares, and a blocker cuts at most 7 squares per line from sliders,
/// plus one per King or Knight next to it.
pub type Keys = [i16; 64];

/// The key of an occupied square: below every other.
pub const NONE: i16 = i16::MIN;

/// The key of `gain` on the square of index `s`.
#[inline(always)]
pub fn pack(gain: i32, s: usize) -> i16 {
    (gain * 64 + 63 - s as i32) as i16
}

/// The gain of a key.
#[inline(always)]
pub fn gain_of(k: i16) -> i32 {
    k as i32 >> 6
}

/// The square of a key.
#[inline(always)]
pub fn square_of(k: i16) -> Square {
    Square::from_index(63 - (k as i32 & 63) as usize)
}

/// The highest of `keys` below `bound` ([`NONE`] if none): plain lanes,
/// so that it compiles to vector maxima.
#[inline(always)]
pub fn best_below(keys: &Keys, bound: i16) -> i16 {
    let mut best = [NONE; 8];
    for chunk in keys.chunks_exact(8) {
        for (b, &k) in best.iter_mut().zip(chunk) {
            *b = (*b).max(if k < bound { k } else { NONE });
        }
    }
    best.into_iter().fold(NONE, i16::max)
}

/// The best gain on `squares` and its square, the higher square winning
/// ties ([`None`] if `squares` is empty): a maximum over 64 lanes of the
/// keys with their square bits flipped, the others masked out.
#[inline(always)]
pub fn best_on_highest(keys: &Keys, squares: Bitboard) -> Option<(i32, Square)> {
    let mut best = [NONE; 8];
    for (c, chunk) in keys.chunks_exact(8).enumerate() {
        let byte = (squares.0 >> (8 * c)) as i16 & 0xff;
        for (j, (b, &k)) in best.iter_mut().zip(chunk).enumerate() {
            let on = byte & (1 << j) != 0;
            *b = (*b).max(if on { k ^ 63 } else { NONE });
        }
    }
    let k = best.into_iter().fold(NONE, i16::max);
    (k != NONE).then(|| (gain_of(k), Square::from_index((k & 63) as usize)))
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// Keys of random gains on random squares, [`NONE`] on the others.
    pub fn random_keys(rng: &mut crate::testing::Rng) -> Keys {
        let squares = Bitboard(rng.next() & rng.next());
        let mut keys = [NONE; 64];
        for s in squares {
            keys[s.index()] = pack(rng.below(127) as i32 - 63, s.index());
        }
        keys
    }

    #[test]
    fn keys_hold_their_gain_and_square() {
        for g in -63..64 {
            for s in Square::all() {
                let k = pack(g, s.index());
                assert_eq!((gain_of(k), square_of(k)), (g, s));
                assert!(k > NONE);
            }
        }
    }

    #[test]
    fn best_below_is_the_highest_key_below_the_bound() {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..2000 {
            let keys = random_keys(&mut rng);
            let bound = keys[rng.below(64)];
            let want = keys.iter().copied().filter(|&k| k < bound).max();
            assert_eq!(best_below(&keys, bound), want.unwrap_or(NONE));
        }
    }

    #[test]
    fn best_on_highest_is_the_best_gain_then_the_highest_square() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..2000 {
            let keys = random_keys(&mut rng);
            let filled = Bitboard(
                keys.iter()
                    .enumerate()
                    .fold(0, |b, (i, &k)| b | ((k != NONE) as u64) << i),
            );
            let squares = filled & Bitboard(rng.next());
            let want = squares.map(|s| (gain_of(keys[s.index()]), s)).fold(
                None,
                |b: Option<(i32, Square)>, x| match b {
                    Some(b) if b.0 > x.0 => Some(b),
                    _ => Some(x),
                },
            );
            assert_eq!(best_on_highest(&keys, squares), want);
        }
    }
}
