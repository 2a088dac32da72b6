//! The ordered move picker: a node's legal moves handed out best first
//! (what orders them where: `move_order.rs`).

use super::history::{Scores, Tables};
use super::move_order::{Order, REPLY_WEIGHT, killer_first, order, queen_call_first, replies};
use crate::bitboard::Bitboard;
use crate::codes::{MAX_MOVES, NO_MOVE, decode, encode};
use crate::gains::keys::{Keys, gain_of};
use crate::gains::loss_map::loss_map;
use crate::gains::offers::Frame;
use crate::gains::points::{bishop_points, king_points, knight_points, queen_points, rook_points};
use crate::position::Position;
use crate::search::endgame::open::three_left::Three;
use crate::types::{Piece, Placement, Square};
use crate::variant::Moves;

/// Up to this many moves to score, each one's gain comes from a scan of
/// its square ([`Position::gain`], some 300 instructions) rather than from
/// one loss map of the whole board (some 1,100): callgrind, seeds 4 and 6
/// of solve 10 12 wdl, see the commit.
const FEW_TO_SCAN: u32 = 6;

/// How many moves ahead of the search the picker has their children's
/// table entries loaded.
const AHEAD: usize = 4;

/// The move code of a picker entry (`score << 9 | (511 - code)`).
#[inline]
fn code_of(entry: i32) -> u16 {
    511 - (entry & 511) as u16
}

/// The legal moves of a node with their ordering scores, handed out best
/// first by selection (most nodes cut on the first move, so a full sort wastes).
///
/// Staged: a legal table move is handed out before anything is scored, so a
/// node that cuts on it never pays the square scans of the others.
pub struct Picker {
    /// `score << 9 | (511 - code)`: one integer to compare (ties go to the
    /// lower code, as the square order gave) and half the bytes to clear.
    list: [i32; MAX_MOVES],
    len: usize,
    next: usize,
    moves: Moves,
    /// The moves handed out before scoring, in order: the table move, then
    /// the killer ([`NO_MOVE`] where there is none or it is not legal).
    early: [u16; 2],
    /// How many of `early` have been looked at.
    stage: usize,
    /// Is the rest of the list in order (done once the first scored move
    /// has not cut)?
    sorted: bool,
    /// The list's moves before this one have had their entries loaded.
    loaded: usize,
    /// By piece, the squares left out ([`Picker::leave_out`]).
    out: [Bitboard; 5],
    /// What orders the scored moves ([`order`]).
    order: Order,
    /// Do the queen moves go first ([`queen_call_first`])?
    queens_first: bool,
}

/// What lifts a queen move's entry above every other's where
/// [`queen_call_first`]: scores stay within ±2^17 (gains under 64 times
/// 1024, history within ±32768), entries within ±2^26.
const QUEEN_FIRST: i32 = 1 << 27;

impl Picker {
    /// A picker for `pos`, searched to the end or not (`to_end`): table
    /// move first, the killer next (only where [`killer_first`]), then by
    /// immediate gain, then history and continuation history.
    #[inline]
    pub fn new(
        pos: &Position,
        tt_move: Option<Placement>,
        killer: Option<Placement>,
        to_end: bool,
    ) -> Picker {
        Picker::with_killers(pos, tt_move, [killer, None, None, None], to_end)
    }

    /// [`Picker::new`] with the first of `killers` (the latest cuts first,
    /// [`Tables::cuts`]) that is legal here and not the table move as the
    /// killer.
    #[inline]
    pub fn with_killers(
        pos: &Position,
        tt_move: Option<Placement>,
        killers: [Option<Placement>; 4],
        to_end: bool,
    ) -> Picker {
        let moves = pos.legal_moves();
        let legal = |m: Option<Placement>| m.filter(|&m| moves.contains(m)).map_or(NO_MOVE, encode);
        let queens_first = queen_call_first(pos, to_end);
        // Where the queen moves go first, a table move that is not one
        // goes with the others.
        let tt = match tt_move {
            Some(m) if queens_first && m.piece != Piece::Queen => NO_MOVE,
            _ => legal(tt_move),
        };
        let order = order(pos, to_end);
        // Where the gains order the moves, the best of them is a better
        // first try than the killer (solve 12 1 wdl: 106 M nodes instead of
        // 176 M); where history alone does, the killer saves scoring them.
        // Never the table move: `early` would hand it out twice.
        let killer = if killer_first(pos, to_end, order) && !queens_first {
            let ok = |&m: &Placement| moves.contains(m) && Some(m) != tt_move;
            killers
                .into_iter()
                .flatten()
                .find(ok)
                .map_or(NO_MOVE, encode)
        } else {
            NO_MOVE
        };
        Picker {
            list: [0; MAX_MOVES],
            len: 0,
            next: 0,
            early: [tt, killer],
            moves,
            stage: 0,
            sorted: false,
            loaded: 0,
            out: [Bitboard::EMPTY; 5],
            order,
            queens_first,
        }
    }

    /// Scores every legal move not handed out already, with the gains of
    /// `frame` if it describes `pos`.
    fn score(&mut self, pos: &Position, tables: &Tables, frame: Option<&Frame>) {
        let start = self.len;
        self.score_all(pos, tables, frame);
        if self.queens_first {
            for e in &mut self.list[start..self.len] {
                if decode(code_of(*e)).is_some_and(|m| m.piece == Piece::Queen) {
                    *e += QUEEN_FIRST;
                }
            }
        }
    }

    /// [`Picker::score`] but for the queen moves' lift.
    fn score_all(&mut self, pos: &Position, tables: &Tables, frame: Option<&Frame>) {
        let stm = pos.side_to_move();
        let prev = pos.last_placement();
        let (groups, n) = self.to_score();
        let groups = &groups[..n];
        let by_gain = self.order == Order::Gain;
        if let Some(f) = frame.filter(|f| by_gain && f.describes(pos)) {
            let history = tables.scores(stm, prev);
            for &(piece, b) in groups {
                match f.held_keys(piece) {
                    Some(keys) => self.push_keyed(piece, b, keys, &history),
                    None => self.push_all(piece, b, &history, |s| f.gain(piece, s)),
                }
            }
            return;
        }
        let prev_scores = tables.scores(stm, prev);
        // A few moves left to score (most often those a 4-left ceiling
        // did not cover): each square scanned, not the whole board's map.
        if by_gain && groups.iter().map(|g| g.1.count()).sum::<u32>() <= FEW_TO_SCAN {
            for &(piece, b) in groups {
                self.push_all(piece, b, &prev_scores, |s| {
                    pos.gain(Placement::new(piece, s))
                });
            }
            return;
        }
        // One pass over the pieces gives every square's blocking losses,
        // where a square delta per target would scan its rays.
        let losses = by_gain.then(|| loss_map(pos, stm));
        let occ = pos.occupied();
        // Piece by piece: the keys are distinct, so the order they are
        // listed in does not change the order they are handed out in.
        for &(piece, b) in groups {
            let Some(l) = &losses else {
                match self.order {
                    Order::FewReplies => self.push_all(piece, b, &prev_scores, |s| {
                        -REPLY_WEIGHT * replies(occ, piece, s)
                    }),
                    _ => self.push_all(piece, b, &prev_scores, |_| 0),
                }
                continue;
            };
            // One loop per kind: the kind's points are not asked per square.
            let gain =
                |own: fn(Bitboard, Square) -> i32| move |s: Square| own(occ, s) + l[s.index()];
            match piece {
                Piece::King => self.push_all(piece, b, &prev_scores, gain(king_points)),
                Piece::Queen => self.push_all(piece, b, &prev_scores, gain(queen_points)),
                Piece::Rook => self.push_all(piece, b, &prev_scores, gain(rook_points)),
                Piece::Bishop => self.push_all(piece, b, &prev_scores, gain(bishop_points)),
                Piece::Knight => self.push_all(piece, b, &prev_scores, gain(knight_points)),
            }
        }
    }

    /// By piece (the first `n` of the five), the squares where it is still
    /// to be scored: not handed out before scoring, not left out.
    #[inline(always)]
    fn to_score(&self) -> ([(Piece, Bitboard); 5], usize) {
        let mut groups = [(Piece::King, Bitboard::EMPTY); 5];
        let mut n = 0;
        for ((piece, targets), g) in self.moves.groups().zip(&mut groups) {
            *g = (
                piece,
                targets & !self.early_squares(piece) & !self.out[piece.index()],
            );
            n += 1;
        }
        (groups, n)
    }

    /// The squares of `piece`'s moves handed out before scoring.
    #[inline(always)]
    fn early_squares(&self, piece: Piece) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for m in self.early.iter().filter_map(|&c| decode(c)) {
            if m.piece == piece {
                b |= Bitboard::from_square(m.square);
            }
        }
        b
    }

    /// Lists `piece` on each of `targets`, gaining `gain` there.
    #[inline(always)]
    fn push_all(
        &mut self,
        piece: Piece,
        targets: Bitboard,
        history: &Scores,
        gain: impl Fn(Square) -> i32,
    ) {
        // A local count: the field, stored and loaded again per move,
        // chained each iteration on the store.
        let mut len = self.len;
        for sq in targets {
            let code = encode(Placement::new(piece, sq));
            let score = gain(sq) * 1024 + history.score(code);
            self.list[len] = score << 9 | (511 - code as i32);
            len += 1;
        }
        self.len = len;
    }

    /// Lists `piece` on each of `targets`, its gains read from the frame's
    /// `keys`: every square's entry is made at once (a loop the compiler
    /// vectorises), then the targets' copied out.
    #[inline(always)]
    fn push_keyed(&mut self, piece: Piece, targets: Bitboard, keys: &Keys, history: &Scores) {
        let base = piece.index() * 64;
        let (by_side, after) = history.rows(base);
        let mut entries = [0i32; 64];
        for i in 0..64 {
            let score = gain_of(keys[i]) * 1024 + by_side[i] as i32 + after[i] as i32;
            entries[i] = score << 9 | (511 - (base + i) as i32);
        }
        let mut len = self.len;
        for sq in targets {
            self.list[len] = entries[sq.index()];
            len += 1;
        }
        self.len = len;
    }

    /// Leaves out the moves not handed out yet that `out` holds: they are
    /// neither scored nor sorted. True if it left out any.
    pub fn leave_out(&mut self, out: impl Fn(Placement) -> bool) -> bool {
        let mut any = false;
        let from = self.stage.min(self.early.len());
        for code in &mut self.early[from..] {
            if decode(*code).is_some_and(&out) {
                *code = NO_MOVE;
                any = true;
            }
        }
        if self.scored() {
            let (from, mut to) = (self.next, self.next);
            for i in from..self.len {
                let kept = decode(code_of(self.list[i])).is_some_and(|m| !out(m));
                self.list[to] = self.list[i];
                to += usize::from(kept);
            }
            any |= to < self.len;
            self.len = to;
            self.loaded = self.loaded.min(self.next);
            return any;
        }
        for (piece, b) in self.moves.groups() {
            let b = b & !self.early_squares(piece);
            let o = &mut self.out[piece.index()];
            for sq in b {
                if out(Placement::new(piece, sq)) {
                    *o |= Bitboard::from_square(sq);
                    any = true;
                }
            }
        }
        any
    }

    /// Have the moves beyond the table move and the killer been scored?
    pub fn scored(&self) -> bool {
        self.stage > self.early.len()
    }

    /// The moves whose children's table entries are worth loading now, each
    /// once: those up to [`AHEAD`] after the one handed out last, once the
    /// rest are sorted (the node most likely searches them all). Loading
    /// all at once stalled on the memory system (7% of bench's time at the
    /// one instruction after the prefetches).
    pub fn to_load(&mut self) -> impl Iterator<Item = Placement> + '_ {
        let (from, to) = if self.sorted {
            (
                self.loaded.max(self.next),
                (self.next + AHEAD).min(self.len),
            )
        } else {
            (0, 0)
        };
        self.loaded = self.loaded.max(to);
        self.list[from..to.max(from)]
            .iter()
            .filter_map(|&x| decode(code_of(x)))
    }

    /// The moves not handed out yet, in the order they would be.
    pub fn rest(&mut self, pos: &Position, tables: &Tables, three: &Three) -> Vec<Placement> {
        let mut rest = Vec::with_capacity(MAX_MOVES);
        while let Some(m) = self.pick_in(pos, tables, three) {
            rest.push(m);
        }
        rest
    }

    /// Hands out `moves` next, in this order, and nothing else.
    pub fn hand_out(&mut self, moves: &[Placement]) {
        let n = moves.len().min(MAX_MOVES);
        for (i, &m) in moves[..n].iter().enumerate() {
            self.list[i] = ((n - i) as i32) << 9 | (511 - i32::from(encode(m)));
        }
        (self.len, self.next, self.loaded) = (n, 0, 0);
        self.stage = self.early.len() + 1;
        self.sorted = true;
    }

    /// The next best move not yet handed out.
    #[inline]
    pub fn pick(&mut self, pos: &Position, tables: &Tables) -> Option<Placement> {
        self.pick_with(pos, tables, None)
    }

    /// [`Picker::pick`], scoring with the gains of `three`'s frame if it
    /// describes `pos` (its squares are valued already).
    #[inline]
    pub fn pick_in(&mut self, pos: &Position, tables: &Tables, three: &Three) -> Option<Placement> {
        self.pick_with(pos, tables, Some(three.frame()))
    }

    #[inline]
    fn pick_with(
        &mut self,
        pos: &Position,
        tables: &Tables,
        frame: Option<&Frame>,
    ) -> Option<Placement> {
        while self.stage < self.early.len() {
            self.stage += 1;
            if self.early[self.stage - 1] != NO_MOVE {
                return decode(self.early[self.stage - 1]);
            }
        }
        if self.stage == self.early.len() {
            self.stage += 1;
            self.score(pos, tables, frame);
        }
        if self.next >= self.len {
            return None;
        }
        if self.next > 0 && !self.sorted {
            // The first scored move did not cut: the node most likely
            // searches them all, and one sort beats selecting each in turn.
            // (The keys are distinct, so the order is the selection's.)
            self.list[self.next..self.len].sort_unstable_by(|a, b| b.cmp(a));
            self.sorted = true;
        } else if !self.sorted {
            // The highest entry, then where it is (the entries are
            // distinct): a vector maximum, where keeping the index of the
            // best so far chained every step on the one before.
            let list = &mut self.list[..self.len];
            let top = list.iter().copied().max().unwrap_or(0);
            let best = list.iter().position(|&x| x == top).unwrap_or(0);
            list.swap(0, best);
        }
        self.next += 1;
        decode(code_of(self.list[self.next - 1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn codes_round_trip() {
        for p in Piece::ALL {
            for s in Square::all() {
                let pl = Placement::new(p, s);
                assert_eq!(decode(encode(pl)), Some(pl));
            }
        }
        assert_eq!(decode(NO_MOVE), None);
    }

    #[test]
    fn picker_hands_out_every_move_once_table_move_then_killer_first() {
        // Moves ordered by history, so the killer goes second.
        let pos = three_left();
        let tables = Tables::default();
        let legal = pos.legal_moves().to_vec();
        let tt = legal[legal.len() / 2];
        let killer = legal[legal.len() / 3];
        let mut p = Picker::new(&pos, Some(tt), Some(killer), false);
        let mut got = Vec::new();
        while let Some(m) = p.pick(&pos, &tables) {
            got.push(m);
        }
        assert_eq!(got[0], tt);
        assert_eq!(got[1], killer);
        assert_eq!(got.len(), legal.len());
        got.sort_by_key(|m| encode(*m));
        let mut want = legal.clone();
        want.sort_by_key(|m| encode(*m));
        assert_eq!(got, want);
    }

    #[test]
    fn picker_hands_out_the_rest_in_the_order_it_is_given() {
        let pos = three_left();
        let tables = Tables::default();
        let three = Three::default();
        let mut p = Picker::new(&pos, None, None, true);
        let first = p.pick_in(&pos, &tables, &three).expect("a move");
        let mut rest = p.rest(&pos, &tables, &three);
        assert_eq!(rest.len() + 1, pos.legal_moves().to_vec().len());
        assert!(!rest.contains(&first));
        assert_eq!(p.pick_in(&pos, &tables, &three), None);
        rest.reverse();
        p.hand_out(&rest);
        let mut got = Vec::new();
        while let Some(m) = p.pick_in(&pos, &tables, &three) {
            got.push(m);
        }
        assert_eq!(got, rest);
    }

    /// A `standard` position with three plies left, where history alone
    /// orders the moves.
    fn three_left() -> Position {
        let mut pos = Position::new(Variant::Standard);
        while pos.plies_left() > 3 {
            let moves = pos.legal_moves().to_vec();
            pos.play(moves[moves.len() / 2]);
        }
        pos
    }

    /// Twenty random history updates of `pos`'s moves `legal`, so that
    /// history orders moves of equal gain.
    fn some_history(
        rng: &mut crate::testing::Rng,
        tables: &mut Tables,
        pos: &Position,
        legal: &[Placement],
    ) {
        for _ in 0..20 {
            let good = legal[rng.below(legal.len())];
            let bad = legal[rng.below(legal.len())];
            let prev = pos.last_placement();
            tables.update(pos.side_to_move(), prev, good, &[Some(bad), Some(good)], 5);
        }
    }

    #[test]
    fn picker_orders_alike_with_and_without_a_frame() {
        let mut rng = crate::testing::Rng(0x0F2A_3E5D_7788_9911);
        let mut tables = Tables::default();
        let mut three = Three::default();
        let mut framed = 0;
        for _ in 0..300 {
            let pos = rng.position(Variant::Open, 3);
            three.set(&pos);
            let legal = pos.legal_moves().to_vec();
            some_history(&mut rng, &mut tables, &pos, &legal);
            // A table move and a killer, which neither path may list again.
            let tt = Some(legal[rng.below(legal.len())]);
            let killer = Some(legal[rng.below(legal.len())]);
            let mut with = Picker::new(&pos, tt, killer, false);
            let mut without = Picker::new(&pos, tt, killer, false);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            while let Some(m) = with.pick_in(&pos, &tables, &three) {
                a.push(m);
            }
            while let Some(m) = without.pick(&pos, &tables) {
                b.push(m);
            }
            assert_eq!(a, b, "{}", pos.fen());
            assert_eq!(a.len(), legal.len());
            framed += usize::from(three.frame().describes(&pos));
        }
        assert_eq!(framed, 300);
    }

    #[test]
    fn leaving_moves_out_keeps_the_order_of_the_others() {
        // A random third left out; then all but a few, which are scored
        // square by square ([`FEW_TO_SCAN`]).
        let left_out = leave_out_and_compare(0x0C0F_FEE5_1EAF_0017, |code| code % 3 == 0);
        assert!(left_out > 1000, "{left_out}");
        let left_out = leave_out_and_compare(0x0C0F_FEE5_1EAF_0018, |code| code % 16 != 0);
        assert!(left_out > 5000, "{left_out}");
    }

    /// Pickers of random positions with the moves `out` (by salted code)
    /// left out after 0, 1 or 2 are handed out hand the others out in
    /// the order of a picker that leaves none out; returns how many were
    /// left out.
    fn leave_out_and_compare(seed: u64, out: fn(u64) -> bool) -> usize {
        let mut rng = crate::testing::Rng(seed);
        let mut tables = Tables::default();
        let mut left_out = 0;
        for i in 0..300 {
            let variant = [Variant::Standard, Variant::Open][i % 2];
            let left = 3 + rng.below(10) as u8;
            let pos = rng.position(variant, left);
            let legal = pos.legal_moves().to_vec();
            some_history(&mut rng, &mut tables, &pos, &legal);
            let tt = Some(legal[rng.below(legal.len())]).filter(|_| i % 3 != 0);
            let killer = Some(legal[rng.below(legal.len())]);
            let salt = rng.next();
            let out = |m: Placement| out(encode(m) as u64 ^ salt);
            let after = rng.below(3);
            let mut all = Vec::new();
            let mut p = Picker::new(&pos, tt, killer, false);
            while let Some(m) = p.pick(&pos, &tables) {
                all.push(m);
            }
            let mut got = Vec::new();
            let mut p = Picker::new(&pos, tt, killer, false);
            for _ in 0..after {
                got.extend(p.pick(&pos, &tables));
            }
            let any = p.leave_out(out);
            while let Some(m) = p.pick(&pos, &tables) {
                got.push(m);
            }
            let n = got.len().min(after);
            let mut want = all[..n].to_vec();
            want.extend(all[n..].iter().copied().filter(|&m| !out(m)));
            assert_eq!(got, want, "{} after {after}", pos.fen());
            assert_eq!(any, want.len() < all.len(), "{}", pos.fen());
            left_out += all.len() - want.len();
        }
        left_out
    }

    #[test]
    fn the_killer_goes_first_at_standard_nodes_searched_to_the_end() {
        let mut rng = crate::testing::Rng(0x5F1E_EC0D_E5A1_7777);
        let tables = Tables::default();
        for i in 0..180 {
            let left = 4 + (i % 9) as u8;
            let pos = rng.position(Variant::Standard, left);
            let legal = pos.legal_moves().to_vec();
            let killer = legal[rng.below(legal.len())];
            let first = |to_end| Picker::new(&pos, None, Some(killer), to_end).pick(&pos, &tables);
            let plain = Picker::new(&pos, None, None, false).pick(&pos, &tables);
            // Every node from 4 to 12 plies left, White's and Black's, but
            // where the queen calls go first.
            assert!((4..=12).contains(&left));
            if !queen_call_first(&pos, true) {
                assert_eq!(first(true), Some(killer), "{}", pos.fen());
            }
            assert_eq!(first(false), plain, "{}", pos.fen());
        }
    }

    #[test]
    fn picker_skips_an_illegal_killer() {
        let pos = three_left();
        let tables = Tables::default();
        // A King: Black may place it only last.
        let far = Placement::new(Piece::King, pos.empty().first().unwrap());
        let mut p = Picker::new(&pos, None, Some(far), false);
        let mut n = 0;
        while let Some(m) = p.pick(&pos, &tables) {
            assert_ne!(m, far);
            n += 1;
        }
        assert_eq!(n, pos.legal_moves().to_vec().len());
    }

    /// On 200 random positions of `variant` with some history, a picker
    /// (searched to the end or not: `to_end`) hands out the moves in the
    /// slow way's order: by `points` of each move, then history, then code.
    fn picker_orders_by(
        variant: Variant,
        seed: u64,
        to_end: bool,
        points: impl Fn(&Position, Placement) -> i32,
    ) {
        let mut rng = crate::testing::Rng(seed);
        let mut tables = Tables::default();
        for _ in 0..200 {
            let mut pos = Position::new(variant);
            let plies = 1 + rng.below(14) as u8;
            while pos.ply() < plies {
                rng.play(&mut pos);
            }
            let legal = pos.legal_moves().to_vec();
            some_history(&mut rng, &mut tables, &pos, &legal);
            let mut p = Picker::new(&pos, None, None, to_end);
            let mut got = Vec::new();
            while let Some(m) = p.pick(&pos, &tables) {
                got.push(m);
            }
            let key = |m: &Placement| {
                let h = tables.score(pos.side_to_move(), pos.last_placement(), encode(*m));
                (std::cmp::Reverse(points(&pos, *m) * 1024 + h), encode(*m))
            };
            let mut want = legal.clone();
            want.sort_by_key(key);
            assert_eq!(got, want, "{}", pos.fen());
        }
    }

    #[test]
    fn originals_picker_searched_to_the_end_leaves_the_fewest_replies_first() {
        // The slow way: the opponent's moves counted after each move.
        picker_orders_by(Variant::Original, 0x0F1E_2D3C_4B5A_6978, true, |pos, m| {
            let mut after = pos.clone();
            after.play(m);
            let n = match after.is_over() {
                true => 0,
                false => after.legal_moves().targets().count() as i32,
            };
            -REPLY_WEIGHT * n
        });
    }

    #[test]
    fn picker_orders_by_gain_then_history_then_code() {
        // The slow way: each move's gain played out.
        picker_orders_by(
            Variant::Standard,
            0x1234_5678_9ABC_DEF1,
            false,
            |pos, m| match order(pos, false) {
                Order::Gain => pos.gain(m),
                Order::History => 0,
                Order::FewReplies => unreachable!("only searched to the end"),
            },
        );
    }
}
