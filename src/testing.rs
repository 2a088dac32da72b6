//! What the unit tests share: one small random generator, and random games.

use crate::position::Position;
use crate::variant::Variant;

/// The unit tests' xorshift generator; each call steps it once.
pub struct Rng(pub u64);

impl Rng {
    /// The next value.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// The next value below `n`, as an index.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Plays one legal placement of `pos` chosen at random.
    pub fn play(&mut self, pos: &mut Position) {
        let moves = pos.legal_moves().to_vec();
        pos.play(moves[self.below(moves.len())]);
    }

    /// A `variant` game played at random until `left` plies are left.
    pub fn position(&mut self, variant: Variant, left: u8) -> Position {
        let mut pos = Position::new(variant);
        while pos.plies_left() > left {
            self.play(&mut pos);
        }
        pos
    }
}
