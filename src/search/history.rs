//! History tables: how often a placement caused a cutoff, by side and by the
//! previous placement (continuation history). Kept per thread.

use crate::codes::{CODES, encode};
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
    /// By plies left, the three placements that cut a node before the
    /// last one (`cut`), the latest first, all different from it: where
    /// that one may not stand, a 4-left ceiling takes the first of these
    /// that may for Black's reply, and a picker for its killer
    /// ([`Tables::cuts`]).
    pub recent: [[Option<Placement>; 3]; 17],
}

impl Default for Tables {
    fn default() -> Tables {
        Tables {
            by_side: [[0; CODES]; 2],
            after: vec![[0; CODES]; CODES + 1],
            killers: [None; 2],
            cut: [None; 17],
            recent: [[None; 3]; 17],
        }
    }
}

impl Tables {
    /// Records `m` as the placement that last cut a node with `left`
    /// plies left.
    #[inline]
    pub fn set_cut(&mut self, left: usize, m: Placement) {
        if self.cut[left] != Some(m) {
            let old = self.cut[left];
            let recent = &mut self.recent[left];
            if let Some(i) = recent.iter().position(|&r| r == Some(m)) {
                // Already there: it leaves its slot, the older ones stay.
                recent.copy_within(0..i, 1);
            } else {
                recent.rotate_right(1);
            }
            recent[0] = old;
        }
        self.cut[left] = Some(m);
    }

    /// The placements that last cut nodes with `left` plies left, the
    /// latest first.
    #[inline]
    pub fn cuts(&self, left: usize) -> [Option<Placement>; 4] {
        let r = self.recent[left];
        [self.cut[left], r[0], r[1], r[2]]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Piece;

    #[test]
    fn earlier_cuts_stay_distinct_latest_first() {
        let mut t = Tables::default();
        let at = |i: u8| Placement::new(Piece::Rook, Square::from_index(i as usize));
        // (the cut, recent[3] after it)
        let steps = [
            (0, [None, None, None]),
            (0, [None, None, None]),
            (1, [Some(0), None, None]),
            (2, [Some(1), Some(0), None]),
            (3, [Some(2), Some(1), Some(0)]),
            (4, [Some(3), Some(2), Some(1)]),
            // One already kept moves up: the others keep their order.
            (2, [Some(4), Some(3), Some(1)]),
            (1, [Some(2), Some(4), Some(3)]),
            (1, [Some(2), Some(4), Some(3)]),
        ];
        for (i, (cut, want)) in steps.into_iter().enumerate() {
            t.set_cut(3, at(cut));
            assert_eq!(t.cut[3], Some(at(cut)), "step {i}");
            assert_eq!(t.recent[3], want.map(|w| w.map(at)), "step {i}");
        }
        // Other depths keep their own.
        t.set_cut(5, at(9));
        t.set_cut(5, at(8));
        let cuts = |c: [Option<u8>; 4]| c.map(|w| w.map(at));
        assert_eq!(t.cuts(5), cuts([Some(8), Some(9), None, None]));
        assert_eq!(t.cuts(3), cuts([Some(1), Some(2), Some(4), Some(3)]));
    }
}
