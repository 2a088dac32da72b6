//! A ceiling on a `standard` node with four plies left (White places its
//! 7th piece, Black its 7th, White its last, Black its King) that spares
//! searching its children one by one. In a win/draw/loss search most of
//! these nodes fail low, each child refuted by the same Black reply, the
//! 3-left killer `s` (solve 10 12 wdl: 454 thousand such nodes, 32
//! children each, 96% of the nodes under them).
//!
//! With Black's piece on `s` for every White placement `u`, the final
//! board is R (the board with Black's piece on `s`) plus White's `u`,
//! White's last piece on `t` and Black's King on `k`. Its value is that of
//! R + `t` + `k`, which the node with two plies left on R gives for each
//! `t` and `k` (as if White's 7th piece did not exist), plus the gain of
//! White's piece on `u` on that board. That gain is at most its gain on R
//! (more pieces earn it fewer squares and take fewer from Black's sliders)
//! but for two terms: Black's King next to `u` loses a square to it, and
//! White's sliders already cut off by `t` or `k` lose less to it. Each
//! `t` against one King reply (any reply bounds White's value) then
//! bounds every `u` alone.
//!
//! Not one level up, measured: a ceiling at Black's 5-left nodes that
//! fail low (White's 4-left killer and 2-left killer fixed, Black's
//! later pieces bounded by their best gains alone) covered 42% of their
//! children on the suite's `std12-1`, but skipping them outright (unsound,
//! to measure the most it could save) saved no time: 228.1 M nodes, 12.0 s
//! against 239.8 M, 11.8 s. The children it covers are mostly the ones
//! the table cuts at once (4-left table cuts 3.46 M -> 1.74 M); the time
//! goes to the 4-left nodes that fail low, which this ceiling already
//! spares most of their children. A sound one, built later (branch
//! `exp/five-left`: White's killers fixed, Black's 7th piece and King
//! bounded by their best gains with their own sliders' losses added back,
//! a second answer for a 7th piece on the last answer's square), where at
//! 13 plies left these nodes hold 72% of the tree: std13 rows 394.9 s,
//! 5.25 G nodes -> 363.9 s, 4.33 G (one thread, side by side). Left out
//! for its 14-left figures (below: std14-1 lost, std14-5 won).
//!
//! Where the searched children come from (the suite's `std12-5`, 118.7 M
//! nodes, counted by a throwaway build): these nodes that fail low
//! searched 2.09 M children, 1.24 M of them White's 7th piece on the
//! killer's own square `s`, never covered since the killer cannot stand
//! there. Bounding those with a second killer's board (their square
//! alone) made the nodes 118.7/257.1/223.0 M -> 80.1/171.5/121.6 M on
//! `std12-5`/`-1`/`-2`, but no faster (side by side, 6.8/8.2 s ->
//! 6.7/6.8 s, 15.1/14.4 s -> 16.0/17.0 s, 12.8/13.7 s -> 15.2/15.3 s): a
//! second board costs about what the one child it spares does.
//!
//! Nor two levels up, measured: a ceiling at White's 6-left nodes (Black's
//! 5-left and 3-left killers fixed, White's 6th piece set apart and added
//! back with its gain on R and what the later pieces might spare it)
//! covered 43% of their children on `std12-5` (the exact values, sampled,
//! lay 6 or more points under alpha for 48% of them) and cut the nodes by
//! 12-16%, but its three boards per node cost more than they spared
//! (branch `exp/six-left`, with the measurements; it also leaves out the
//! 7th piece on the 3-left killer's square, which a second reply would
//! have to bound). On `std14-1`, side by side with main (one thread,
//! 1 GiB): 7.29 G nodes, 585.5 s against 6.97 G, 448.7 s.
//!
//! What `std14-1` is made of (`go depth 14`, counted by a throwaway
//! build, by plies left; White is to move at the root and the value is
//! 2): a first pass in (19, 139) proves at least 2 (1.34 G nodes), the
//! second, in (19, 260), the value (5.63 G). In the second, White's
//! nodes fail low and Black's cut: 1.50 M of White's 6-left nodes with
//! 69.1 M children (46 each), 47.6 M of Black's 5-left nodes cutting on
//! their first move (1.006 children each), 47.2 M of White's 4-left nodes
//! with 111.6 M children (2.36 each, this ceiling covering the rest). The
//! tree is the product of White's branching at 10, 8 and 6 plies left.
//! With the 5-left ceiling (`exp/five-left`) the first pass shrank (1.20
//! G nodes, 86 s against 102 s: Black's 5-left nodes failing low
//! searched 32.6 M children instead of 59.1 M), but Black picked other
//! refutations at 13 plies left, and the second pass met 1,764 of White's
//! 10-left nodes instead of 1,183: 8.30 G nodes (9.50 G in all, 544.4 s
//! against 417.2 s side by side). One row at 14 plies left
//! cannot tell such a change from its luck: on the second, std14-5 (one
//! thread, 1 GiB, main then the ceiling on one core, a make_suite on the
//! other), the ceiling visited 4.49 G nodes in 321.5 s against 5.26 G in
//! 371.8 s, fewer in both passes (1.49 G and 3.00 G against 1.98 G and
//! 3.28 G). With the queen calls first (b89ab31) the two rows still
//! split (one run each, one thread, 1 GiB, the other core busy): std14-1
//! 233.1 s, 5.68 G nodes with the ceiling against 187.6 s, 5.44 G
//! without; std14-5 157.0 s, 3.85 G against 165.2 s, 4.41 G.
//!
//! The pieces: R and what both of White's pieces share (`board.rs`), the
//! ceiling of one of White's pieces over White's last piece's answers
//! (`ceiling.rs`), and those answers filled and ordered (`answers.rs`).

mod answers;
mod board;
mod ceiling;

use crate::bitboard::Bitboard;
use crate::gains::kept_loss_map::KeptLosses;
use crate::position::Position;
use crate::types::Placement;
use crate::value::Value;
use crate::variant::Variant;
use answers::fill_answers;
use board::{Board, black_may};
use ceiling::Ceiling;

/// The plies left at these nodes.
pub const LEFT: u8 = 4;

/// The squares of each of White's pieces (by piece index) that a ceiling
/// proves cannot raise alpha, and the highest of their ceilings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Covered {
    squares: [Bitboard; 5],
    /// A ceiling on every covered placement (at most alpha): the highest
    /// of their bounds, or a point under alpha's ([`slack`](ceiling::slack)).
    pub value: Value,
}

impl Covered {
    /// The placements of the current position that Black's 3-left killer
    /// holds at most `alpha`: none but in `standard` with four plies left.
    /// A killer that may not stand here gives way to the latest earlier
    /// cut that may. Counted on two draws of solve 10 12 (Black's proof),
    /// 15% of these nodes had no ceiling, most because the killer touched
    /// only a piece of White's placed in a sibling's line, and each had
    /// all its 31 children searched: with the fallback, 10 12 wdl visits
    /// 59.3 M nodes instead of 107.6 M. `cuts` are the latest cuts with
    /// three plies left, the killer first; worked out in `scratch`, R's
    /// loss map from `kept`.
    pub fn at(
        pos: &Position,
        cuts: [Option<Placement>; 4],
        scratch: &mut Scratch,
        kept: &mut KeptLosses,
        alpha: Value,
    ) -> Covered {
        let reply = cuts.into_iter().flatten().find(|&r| black_may(pos, r));
        Covered::new(pos, scratch, reply, alpha, kept).unwrap_or_default()
    }

    /// The placements of `pos` (four plies left, White to move) that
    /// Black's reply `reply` (one [`black_may`] allows) holds at most
    /// `alpha`, or `None`; worked out in `scratch`, R's loss map from `kept`.
    fn new(
        pos: &Position,
        scratch: &mut Scratch,
        reply: Option<Placement>,
        alpha: Value,
        kept: &mut KeptLosses,
    ) -> Option<Covered> {
        if pos.variant() != Variant::Standard || pos.plies_left() != LEFT {
            return None;
        }
        let Scratch { board, ceilings } = scratch;
        board.fill(pos, reply?, kept);
        let mut c = Covered {
            squares: [Bitboard::EMPTY; 5],
            value: Value::MIN,
        };
        // One for both pieces (White holds two): a third group, if there
        // were one, would simply not be covered.
        let moves = pos.legal_moves();
        let mut groups = moves.groups();
        for ceiling in ceilings.iter_mut() {
            ceiling.replies = None;
            if let Some((piece, targets)) = groups.next() {
                ceiling.prepare(pos, board, piece, targets);
            }
        }
        let [first, second] = &mut *ceilings;
        match (first.parts(), second.parts()) {
            (Some(a), Some(b)) => fill_answers([a, b], board),
            (Some(a), None) | (None, Some(a)) => fill_answers([a], board),
            (None, None) => {}
        }
        for ceiling in ceilings.iter_mut().filter(|c| c.replies.is_some()) {
            ceiling.sort();
            let (piece, targets) = (ceiling.piece, ceiling.targets);
            let (value, squares) = ceiling.cover(board, targets, alpha, c.value);
            c.squares[piece.index()] = squares;
            c.value = value;
        }
        (c.value > Value::MIN).then_some(c)
    }

    /// The placements of `squares` (by piece) held at most `value`, a
    /// ceiling another node kind worked out.
    pub fn of(squares: [Bitboard; 5], value: Value) -> Covered {
        Covered { squares, value }
    }

    /// Is `m` covered?
    #[inline]
    pub fn has(&self, m: Placement) -> bool {
        self.squares[m.piece.index()].has(m.square)
    }
}

/// What a ceiling works in, kept by each search thread from one node to
/// the next: its board and answers (1.5 and 4.4 KB) were built and moved
/// at every call, and the copies cost (perf, seed 6 of solve 12 12 wdl:
/// memmove 10.0% of the time, Covered::at 27.8%).
pub struct Scratch {
    board: Board,
    ceilings: [Ceiling; 2],
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            board: Board::empty(),
            ceilings: [Ceiling::empty(), Ceiling::empty()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::{agrees, alpha_beta, with_worker};
    use crate::search::worker::Worker;
    use crate::testing::Rng;
    use crate::value::{INFINITE, SCALE};

    /// [`Covered::at`] on the worker's position and state.
    fn at(w: &mut Worker, alpha: Value) -> Covered {
        Covered::at(
            &w.pos,
            w.tables.cuts(3),
            &mut w.ceiling,
            &mut w.losses,
            alpha,
        )
    }

    /// From six plies left, where a 4-left node under a later move takes
    /// its ceiling before its first child (`worker::expected_all`).
    #[test]
    fn six_left_searches_keep_the_values_of_plain_alpha_beta() {
        let mut rng = Rng(0xF0C3_1196_0000_0006);
        let mut tables = Tables::default();
        let mut lows = 0;
        for _ in 0..24 {
            let pos = rng.position(Variant::Standard, 6);
            let want = alpha_beta(&mut pos.clone(), -INFINITE, INFINITE);
            for window in [(want, want + 1), (want - 1, want), (want + 99, want + 100)] {
                let got = with_worker(&pos, &mut tables, |w| {
                    w.search(6, window.0, window.1, 0, false)
                });
                assert!(
                    agrees(got, want, window),
                    "{} {window:?} {got} {want}",
                    pos.fen()
                );
                lows += usize::from(want <= window.0);
            }
        }
        assert!(lows >= 48, "{lows}");
    }

    #[test]
    fn nodes_keep_the_values_of_plain_alpha_beta() {
        let mut rng = Rng(0xF0C3_1196_0000_0A1B);
        let mut tables = Tables::default();
        let (mut lows, mut spared) = (0, 0);
        for _ in 0..300 {
            let pos = rng.position(Variant::Standard, LEFT);
            let want = alpha_beta(&mut pos.clone(), -INFINITE, INFINITE);
            // Mostly windows above the value: the nodes that fail low.
            let windows = [
                (want, want + 1),
                (want + 99, want + 100),
                (want + 200, want + 400),
                (want - 1, want),
                (want - 100, want + 300),
            ];
            let window = windows[rng.below(windows.len())];
            let got = with_worker(&pos, &mut tables, |w| {
                // A killer from a search of another window, as in a real search.
                w.search(LEFT, want - 301, want - 300, 0, false);
                let v = w.search(LEFT, window.0, window.1, 0, false);
                spared += usize::from(at(w, window.0).squares != [Bitboard::EMPTY; 5]);
                v
            });
            assert!(
                agrees(got, want, window),
                "{} {window:?} {got} {want}",
                pos.fen()
            );
            lows += usize::from(want <= window.0);
        }
        assert!(lows > 100 && spared > 50, "{lows} {spared}");
    }

    #[test]
    fn a_killer_that_may_not_stand_gives_way_to_an_earlier_cut() {
        let mut rng = Rng(0xF0C3_1196_0000_FA11);
        let mut tables = Tables::default();
        let (mut fell_back, mut none) = (0, 0);
        for _ in 0..600 {
            let pos = rng.position(Variant::Standard, LEFT);
            let replies: Vec<Placement> = {
                let mut after = pos.clone();
                let m = pos.legal_moves().to_vec()[0];
                after.play(m);
                after.legal_moves().to_vec()
            };
            let pick = |rng: &mut Rng| replies[rng.below(replies.len())];
            // Replies after one of White's placements: some touch only
            // that piece, so may not stand before it.
            let (killer, earlier) = (pick(&mut rng), [pick(&mut rng), pick(&mut rng)]);
            let alpha = random_alpha(&mut rng);
            with_worker(&pos, &mut tables, |w| {
                w.tables.cut[3] = Some(killer);
                w.tables.recent[3] = [None, Some(earlier[0]), Some(earlier[1])];
                let want = [killer, earlier[0], earlier[1]]
                    .into_iter()
                    .find(|&r| black_may(&w.pos, r));
                let got = at(w, alpha);
                let mut scratch = Scratch::default();
                let want = Covered::new(
                    &w.pos,
                    &mut scratch,
                    want,
                    alpha,
                    &mut KeptLosses::default(),
                )
                .unwrap_or_default();
                assert_eq!(
                    (got.squares, got.value),
                    (want.squares, want.value),
                    "{}",
                    pos.fen()
                );
                fell_back +=
                    usize::from(!black_may(&w.pos, killer) && got.squares != [Bitboard::EMPTY; 5]);
                none += usize::from(got.squares == [Bitboard::EMPTY; 5]);
            });
        }
        assert!(fell_back > 20 && none > 5, "{fell_back} {none}");
    }

    /// An alpha from -10 to +10 points and a fraction of a point.
    pub(super) fn random_alpha(rng: &mut Rng) -> Value {
        (rng.below(21) as Value - 10) * SCALE + rng.below(SCALE as usize) as Value
    }
}
