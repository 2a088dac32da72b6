//! The opponent's best replies in an `open` node with two plies left,
//! before the mover's placement: the few best kept in order, found one at
//! a time from the gains' [`Keys`] as the node asks for them.

use crate::gains::keys::{Keys, NONE, best_below, gain_of, pack, square_of};
use crate::types::Square;

/// How many of the opponent's best replies are kept in order.
pub const KEPT: usize = 6;

/// The opponent's best replies (gain, square) before the mover's
/// placement, best first: by gain, then by square. Found one at a time,
/// as asked: most nodes need the first alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replies {
    top: [(i32, Square); KEPT],
    /// How many are found.
    len: usize,
    /// Are there no more?
    all: bool,
}

impl Default for Replies {
    fn default() -> Replies {
        Replies {
            top: [(0, Square::from_index(0)); KEPT],
            len: 0,
            all: false,
        }
    }
}

impl Replies {
    /// The `i`-th best reply (from 0) on the squares of `keys`, if any.
    /// Those found already are read in place; the search for more stays
    /// out of line.
    #[inline(always)]
    pub fn get(&mut self, keys: &Keys, i: usize) -> Option<(i32, Square)> {
        if i < self.len {
            return Some(self.top[i]);
        }
        self.find(keys, i)
    }

    /// [`Replies::get`] once the `i`-th is not found yet.
    #[inline(never)]
    fn find(&mut self, keys: &Keys, i: usize) -> Option<(i32, Square)> {
        while self.len <= i && !self.all {
            let bound = match self.len {
                0 => i16::MAX,
                n => pack(self.top[n - 1].0, self.top[n - 1].1.index()),
            };
            let k = best_below(keys, bound);
            if k == NONE {
                self.all = true;
            } else {
                self.top[self.len] = (gain_of(k), square_of(k));
                self.len += 1;
            }
        }
        (i < self.len).then(|| self.top[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_the_best_gains_then_the_lowest_squares() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..500 {
            let keys = crate::gains::keys::tests::random_keys(&mut rng);
            let mut want: Vec<_> = (0..64)
                .filter(|&s| keys[s] != NONE)
                .map(|s| (-gain_of(keys[s]), s))
                .collect();
            want.sort();
            let mut r = Replies::default();
            for (i, w) in want.iter().take(KEPT).enumerate() {
                let got = r.get(&keys, i).unwrap();
                assert_eq!((-got.0, got.1.index()), *w);
            }
            if want.len() < KEPT {
                assert_eq!(r.get(&keys, want.len()), None);
            }
            // Asked again, from those found.
            for (i, w) in want.iter().take(KEPT).enumerate().rev() {
                let got = r.get(&keys, i).unwrap();
                assert_eq!((-got.0, got.1.index()), *w);
            }
        }
    }
}
