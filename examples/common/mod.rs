//! Code the example programs share: a reproducible xorshift generator and
//! random legal play from a seed.

use cheversi::{Position, Variant};

/// xorshift64: reproducible random numbers for the examples.
pub struct Rng(pub u64);

impl Rng {
    /// A generator whose stream depends on `seed` (any value).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// The position reached from the empty board of `v` by random legal
/// placements from `seed`, stopping with `left` plies left.
#[allow(dead_code)]
pub fn random_position(v: Variant, left: u8, seed: u64) -> Position {
    let mut rng = Rng::seeded(seed);
    let mut pos = Position::new(v);
    while pos.plies_left() > left {
        let moves = pos.legal_moves().to_vec();
        pos.play(moves[rng.below(moves.len() as u64) as usize]);
    }
    pos
}
