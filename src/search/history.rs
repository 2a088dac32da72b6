//! History tables: how often a placement caused a cutoff, by side and by the
//! previous placement (continuation history). Kept per thread.

use super::moves::{CODES, encode};
use crate::types::{Color, Placement, Square};

const LIMIT: i32 = 16384;

/// History and continuation history of one thread.
pub struct Tables {
    by_side: [[i16; CODES]; 2],
    after: Vec<[i16; CODES]>,
    /// The squares of White's last placement that last refuted `standard`
    /// nodes with two plies left, the latest first: a node's siblings differ
    /// by one Black piece and nearly always fall to the same placement
    /// (99.8% in `solve 12 1 wdl`).
    pub killers: [Option<Square>; 2],
    /// The placement that last cut a node, by plies left: siblings often
    /// fall to the same refutation. Kept at every depth, but tried first
    /// only where history alone orders the moves and at `standard`'s Black
    /// nodes with five, seven, nine or eleven plies left searched to the end (see
    /// `moves::killer_first`); elsewhere the best gain goes first.
    pub cut: [Option<Placement>; 17],
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            by_side: [[0; CODES]; 2],
            after: vec![[0; CODES]; CODES + 1],
            killers: [None; 2],
            cut: [None; 17],
        }
    }
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables")
    }
}

/// One side's history rows after one previous placement ([`Tables::scores`]).
pub struct Scores<'a> {
    by_side: &'a [i16; CODES],
    after: &'a [i16; CODES],
}

impl Scores<'_> {
    /// The two rows' entries of the 64 codes from `base` (one piece's).
    #[inline(always)]
    pub fn rows(&self, base: usize) -> (&[i16; 64], &[i16; 64]) {
        (piece_row(self.by_side, base), piece_row(self.after, base))
    }

    /// [`Tables::score`] of move `code`.
    #[inline]
    pub fn score(&self, code: u16) -> i32 {
        self.by_side[code as usize] as i32 + self.after[code as usize] as i32
    }
}

/// The 64 entries of `row` from `base`, a piece's first code.
#[inline(always)]
fn piece_row(row: &[i16; CODES], base: usize) -> &[i16; 64] {
    row[base..base + 64]
        .try_into()
        .expect("a piece's codes lie within the row")
}

fn prev_index(prev: Option<Placement>) -> usize {
    prev.map_or(CODES, |p| encode(p) as usize)
}

fn nudge(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    *h = (v + bonus - v * bonus.abs() / LIMIT) as i16;
}

impl Tables {
    /// The ordering score of move `code` for `side` after `prev`.
    #[inline]
    pub fn score(&self, side: Color, prev: Option<Placement>, code: u16) -> i32 {
        self.by_side[side.index()][code as usize] as i32
            + self.after[prev_index(prev)][code as usize] as i32
    }

    /// The ordering scores of `side`'s moves after `prev`, the two rows
    /// looked up once for a whole move list.
    #[inline]
    pub fn scores(&self, side: Color, prev: Option<Placement>) -> Scores<'_> {
        Scores {
            by_side: &self.by_side[side.index()],
            after: &self.after[prev_index(prev)],
        }
    }

    /// Rewards `good` (it cut at `depth`) and punishes the moves tried before it.
    pub fn update(
        &mut self,
        side: Color,
        prev: Option<Placement>,
        good: Placement,
        tried: &[Option<Placement>],
        depth: u8,
    ) {
        let bonus = (depth as i32 * depth as i32 * 32).min(LIMIT / 4);
        let pi = prev_index(prev);
        for &m in tried.iter().flatten() {
            let sign = if m == good { 1 } else { -1 };
            let c = encode(m) as usize;
            nudge(&mut self.by_side[side.index()][c], sign * bonus);
            nudge(&mut self.after[pi][c], sign * bonus);
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Tables::default();
    }
}
