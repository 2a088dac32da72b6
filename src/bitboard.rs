//! A set of squares as a 64-bit word.

use crate::types::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares; bit `i` is the square with index `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The 32 dark squares (a1 is dark).
    pub const DARK: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);
    /// The 32 light squares.
    pub const LIGHT: Bitboard = Bitboard(!0xAA55_AA55_AA55_AA55);

    /// The set holding one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// How many squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Is the set empty?
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Does it hold `sq`?
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros() as usize))
        }
    }

    /// Every square one king step from some square of the set (it may hold
    /// squares of the set itself).
    #[inline]
    pub const fn adjacent(self) -> Bitboard {
        const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
        const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let b = self.0;
        let side = (b << 1 & NOT_A) | (b >> 1 & NOT_H);
        let row = b | side;
        Bitboard(side | row << 8 | row >> 8)
    }

    /// The squares outside the set that touch it.
    #[inline]
    pub const fn neighbours(self) -> Bitboard {
        Bitboard(self.adjacent().0 & !self.0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

macro_rules! bit_op {
    ($t:ident, $f:ident, $ta:ident, $fa:ident, $op:tt) => {
        impl $t for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $ta for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_match_squares() {
        for sq in Square::all() {
            assert_eq!(Bitboard::DARK.has(sq), sq.is_dark());
            assert_eq!(Bitboard::LIGHT.has(sq), !sq.is_dark());
        }
    }

    #[test]
    fn neighbours_match_king_steps() {
        for sq in Square::all() {
            let n = Bitboard::from_square(sq).neighbours();
            for t in Square::all() {
                let df = (sq.file() as i32 - t.file() as i32).abs();
                let dr = (sq.rank() as i32 - t.rank() as i32).abs();
                assert_eq!(n.has(t), df.max(dr) == 1, "{sq} {t}");
            }
        }
    }

    #[test]
    fn adjacent_is_the_union_of_king_steps() {
        let mut rng = crate::testing::Rng(88172645463325252);
        for _ in 0..200 {
            let x = rng.next();
            let b = Bitboard(x & x.rotate_left(11));
            let mut want = Bitboard::EMPTY;
            for sq in b {
                want |= crate::attacks::king(sq);
            }
            assert_eq!(b.adjacent(), want);
        }
    }

    #[test]
    fn iterates_in_order() {
        let b = Bitboard(0b1010_0001);
        let v: Vec<usize> = b.map(|s| s.index()).collect();
        assert_eq!(v, vec![0, 5, 7]);
    }
}
