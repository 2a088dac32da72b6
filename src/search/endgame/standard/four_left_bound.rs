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

use crate::attacks::{self, ray, slides_along, towards};
use crate::bitboard::Bitboard;
use crate::gains::kept_loss_map::KeptLosses;
use crate::gains::points::own_points;
use crate::position::Position;
use crate::search::endgame::standard::replies::{Replies, king_value, room_on};
use crate::types::{Color, Piece, Placement, Square};
use crate::value::{SCALE, Value};
use crate::variant::Variant;

/// The plies left at these nodes.
pub const LEFT: u8 = 4;

/// The squares of each of White's pieces (by piece index) that a ceiling
/// proves cannot raise alpha, and the highest of their ceilings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Covered {
    squares: [Bitboard; 5],
    /// A ceiling on every covered placement (at most alpha): the highest
    /// of their bounds, or a point under alpha's ([`slack`]).
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

    /// Is `m` covered?
    #[inline]
    pub fn has(&self, m: Placement) -> bool {
        self.squares[m.piece.index()].has(m.square)
    }
}

/// White's last piece on a square `t` of R and Black's King replies.
#[derive(Clone, Copy)]
struct Answer {
    t: Square,
    /// White's points less Black's on R + `t`, before the King.
    g: i32,
    /// The King's squares, and the final value for White of R + `t` + the
    /// King there, in points (16 bits: half the bytes to write). Found
    /// only once a bound reaches the answer ([`Ceiling::settle`]).
    kings: [(Square, i16); 8],
    len: u8,
    /// Are `kings` and `low` found?
    settled: bool,
    /// The lowest of those values: Black's best reply.
    low: i32,
    /// `t` and the King's squares, and every square next to them: a piece
    /// of White's outside, not cut off by them from a slider's ray, leaves
    /// every reply's ceiling as it is. Found with the King replies: the
    /// answers no bound reaches never need them.
    zone: Bitboard,
    reach: Bitboard,
    /// At least the second lowest of those values (the lowest if alone):
    /// whichever square White's 7th piece takes, a King reply stays that
    /// gives at most this, the two terms of that piece added. Found from
    /// floors of the King's replies ([`Replies::king_floor`]).
    top: i32,
}

/// The board R (Black's reply `s` on the board), what both of White's
/// pieces share: its loss map and what White's sliders would lose to a
/// blocker on each square.
struct Board {
    r: Position,
    /// R's loss map ([`crate::gains::loss_map::loss_map`], White's view) on its empty squares,
    /// from the search's kept map ([`KeptLosses`]): R and the nodes with
    /// two plies left around it differ by a piece or two, where a fresh
    /// map costs one scan per piece (callgrind in the commit).
    map: [i32; 64],
    /// Black's square `s` (never covered: Black's reply would not exist).
    s: Square,
    /// By square: the rays of White's sliders through it, and what they
    /// would lose to a blocker there.
    shadow: [Bitboard; 64],
    slider_loss: [i32; 64],
    /// By empty square: Black's King's empty neighbours there less the
    /// map's loss, its floor but White's last piece's terms
    /// ([`Replies::least_base`]); found once for both of White's pieces.
    room: [i32; 64],
}

impl Board {
    /// Makes this R for Black's `reply` to `pos`, which [`black_may`]
    /// allows (the caller chose it so). Filled in place: the search keeps
    /// one ([`Scratch`]).
    fn fill(&mut self, pos: &Position, reply: Placement, kept: &mut KeptLosses) {
        debug_assert!(black_may(pos, reply));
        self.r = pos.with_added(Color::Black, reply);
        let r = &self.r;
        self.map = kept.update(r).map(i32::from);
        white_shadows(r, &mut self.shadow, &mut self.slider_loss);
        self.room = [0; 64];
        let empty = r.empty();
        for k in empty {
            self.room[k.index()] = room_on(empty, self.map[k.index()], k);
        }
        self.s = reply.square;
    }

    /// R for Black's `reply` to `pos`, or `None` if [`black_may`] does not
    /// allow it ([`Board::fill`]).
    #[cfg(test)]
    fn new(pos: &Position, reply: Placement) -> Option<Board> {
        let mut b = Board::empty();
        black_may(pos, reply).then(|| {
            b.fill(pos, reply, &mut KeptLosses::default());
            b
        })
    }

    /// A board to fill.
    fn empty() -> Board {
        Board {
            r: Position::new(Variant::Standard),
            map: [0; 64],
            s: Square::from_index(0),
            shadow: [Bitboard::EMPTY; 64],
            slider_loss: [0; 64],
            room: [0; 64],
        }
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

/// What bounds White's 7th piece on each square: White's last piece's
/// answers on R with their King replies.
struct Ceiling {
    piece: Piece,
    /// Its squares.
    targets: Bitboard,
    answers: [Answer; 64],
    /// The indices of the answers, highest `top` first.
    order: [u8; 64],
    len: usize,
    /// White's last piece's gains and King replies on R.
    replies: Option<Replies>,
}

impl Ceiling {
    /// A ceiling with no answers yet.
    fn empty() -> Ceiling {
        let s = Square::from_index(0);
        let none = Answer {
            t: s,
            g: 0,
            kings: [(s, 0); 8],
            len: 0,
            settled: false,
            low: 0,
            zone: Bitboard::EMPTY,
            reach: Bitboard::EMPTY,
            top: 0,
        };
        Ceiling {
            piece: Piece::King,
            targets: Bitboard::EMPTY,
            answers: [none; 64],
            order: [0; 64],
            len: 0,
            replies: None,
        }
    }

    /// Makes this the ceiling of White's `piece` (one of the two it holds)
    /// on each of `targets` when Black answers on `b`; false if White's
    /// last piece might go beyond the answers looked at. White's last
    /// piece may answer next to the board or to its 7th piece. The King
    /// replies wait for a bound to reach their answer: most answers are
    /// never reached (solve 10 5 wdl, counted on a first version of these
    /// floors: 0.83 M reached of 4.0 M).
    #[cfg(test)]
    fn set(&mut self, pos: &Position, b: &Board, piece: Piece, targets: Bitboard) -> bool {
        self.replies = None;
        self.prepare(pos, b, piece, targets);
        let Some(parts) = self.parts() else {
            return false;
        };
        fill_answers([parts], b);
        self.sort();
        true
    }

    /// [`Ceiling::set`] but the answers ([`fill_answers`], one pass for
    /// both of White's pieces) and their order: `replies` stays `None`
    /// where White's last piece might go beyond the answers looked at.
    fn prepare(&mut self, pos: &Position, b: &Board, piece: Piece, targets: Bitboard) {
        let Some(last) = other_piece(pos, piece) else {
            return;
        };
        let r = &b.r;
        if !always_touches(r, last) {
            return;
        }
        self.piece = piece;
        self.targets = targets;
        self.replies = Some(Replies::new(r, last, &b.map.map(|v| v as i8)));
    }

    /// What [`fill_answers`] works on, if prepared.
    fn parts(&mut self) -> Option<Parts<'_>> {
        let Ceiling {
            targets,
            answers,
            len,
            replies,
            ..
        } = self;
        Some(Parts {
            replies: replies.as_ref()?,
            answers,
            len,
            targets: *targets,
        })
    }

    /// Orders the answers, highest `top` first.
    fn sort(&mut self) {
        let mut tops = [0; 64];
        for (top, a) in tops[..self.len].iter_mut().zip(&self.answers) {
            *top = a.top;
        }
        highest_first(&tops[..self.len], &mut self.order[..self.len]);
    }

    /// Finds the King replies of answer `i` and their lowest value, and
    /// returns the second lowest (the lowest if alone).
    fn settle(&mut self, i: usize) -> i32 {
        let a = &mut self.answers[i];
        let Some(replies) = &self.replies else {
            return a.top;
        };
        a.len = 0;
        a.zone = Bitboard::from_square(a.t);
        let (mut low, mut second) = (i32::MAX, i32::MAX);
        replies.kings(a.t, |k, king| {
            let v = a.g - king;
            a.kings[a.len as usize] = (k, v as i16);
            a.len += 1;
            a.zone |= Bitboard::from_square(k);
            (low, second) = if v < low {
                (v, low)
            } else {
                (low, second.min(v))
            };
        });
        a.low = low;
        a.reach = a.zone.adjacent();
        a.settled = true;
        if second == i32::MAX { low } else { second }
    }

    /// A ceiling, in points, on White's piece on the empty square `u` of
    /// `b` (not Black's), or one above `limit` once that is sure: `None`
    /// if no answer of White's stands against it. Once the ceiling is sure
    /// to be at most `floor` (which is at most `limit`), one at most
    /// `floor`, not necessarily the lowest: the caller keeps only the
    /// highest of several, and that is at least `floor`.
    ///
    /// Left out, measured: the points White's two pieces take from each
    /// other (the 7th piece attacking `t` or a King square, `t` attacking
    /// `u`), a point each. They cover more (solve 12 12 wdl: 1160 M nodes
    /// -> 1060 M) but cost the ceiling as much as they spare (8.206 s ->
    /// 8.187 s side by side); the 7th piece's share alone visited more
    /// nodes at 12 plies left (1289 M, 9.98 s): a placement covered is a
    /// refutation the next ceilings' reply does not learn.
    fn bound(&mut self, b: &Board, u: Square, limit: i32, floor: i32) -> Option<i32> {
        let gain = own_points(b.r.occupied(), self.piece, u) + b.map[u.index()];
        let (shadow, loss) = (b.shadow[u.index()], b.slider_loss[u.index()]);
        let near = attacks::king(u);
        // No answer gives more than the highest top: at most `floor`, the
        // loop need not look (the same bounds, callgrind on solve 10 12
        // wdl, seeds 4 and 6: 5.90 G instructions before, 5.78 G with it).
        // Some answer always stands ([`always_touches`]).
        if let Some(&first) = self.order[..self.len].first() {
            let most = gain + self.answers[first as usize].top + 1 + loss;
            if most <= floor {
                return Some(most);
            }
        }
        let mut best = None;
        for o in 0..self.len {
            let i = self.order[o] as usize;
            let a = &self.answers[i];
            if best.is_some_and(|b: i32| b.max(floor) >= gain + a.top + 1 + loss) {
                // The answers left give no more, or not above `floor`.
                break;
            }
            if a.t == u {
                continue;
            }
            if !a.settled {
                self.settle(i);
            }
            let a = &self.answers[i];
            if !a.reach.has(u) && (shadow & a.zone).is_empty() {
                // Far from every reply: each keeps its value.
                let v = gain + a.low;
                if v > limit {
                    return Some(v);
                }
                best = best.max(Some(v));
                continue;
            }
            let cut_t = shadow.has(a.t);
            let worst = a.kings[..a.len as usize]
                .iter()
                .filter(|&&(k, _)| k != u)
                .map(|&(k, v)| {
                    let cut = if cut_t || shadow.has(k) { loss } else { 0 };
                    i32::from(v) + i32::from(near.has(k)) + cut
                })
                .min();
            // No King reply: rule 4 forbids `t` once `u` stands.
            let Some(v) = worst else { continue };
            let v = gain + v;
            if v > limit {
                return Some(v);
            }
            best = best.max(Some(v));
        }
        best
    }

    /// The squares of `targets` that it holds at most `alpha`, and a
    /// ceiling on all of them and on `best` (a ceiling already found, or
    /// `Value::MIN`): the highest of their bounds, of `best` and of
    /// [`slack`] under alpha, so that bounds at most that need not be
    /// exact.
    fn cover(
        &mut self,
        b: &Board,
        targets: Bitboard,
        alpha: Value,
        mut best: Value,
    ) -> (Value, Bitboard) {
        let limit = alpha.div_euclid(SCALE);
        let low = slack(limit);
        let mut covered = Bitboard::EMPTY;
        for u in targets {
            if u == b.s {
                continue;
            }
            let floor = best.div_euclid(SCALE).max(low);
            if let Some(v) = self.bound(b, u, limit, floor)
                && v * SCALE <= alpha
            {
                best = best.max(v.max(floor) * SCALE);
                covered |= Bitboard::from_square(u);
            }
        }
        (best, covered)
    }
}

/// How low, in points, a covered placement's ceiling must be proved when
/// the node's alpha is `limit` points: one point under it. The node then
/// fails low with a value its table entry keeps as an upper bound, and
/// one point under alpha is all that the two null windows of a
/// win/draw/loss search, (-1, 0) and (0, 1), ever ask of that entry: an
/// exact bound per placement cost most of the ceiling's instructions for
/// nothing there (callgrind and times in the commit; solve 12 12 wdl
/// visits the same nodes, an exact solve a few more).
fn slack(limit: i32) -> i32 {
    limit - 1
}

/// The indices of `tops` (at most 64), highest first, into `order`. The
/// tops of a ceiling's answers span a few dozen points: counted, they are
/// ordered in some 1,000 instructions with their gathering (1,700 with the
/// bounds checks that the masks spare: callgrind, solve 10 12 wdl, seeds 4
/// and 6), where a comparison sort of their keys took some 2,100 (ties,
/// whose order no bound depends on, go either way).
fn highest_first(tops: &[i32], order: &mut [u8]) {
    const SPAN: usize = 64;
    let n = tops.len().min(64);
    let (tops, order) = (&tops[..n], &mut order[..n]);
    let (low, high) = tops
        .iter()
        .fold((i32::MAX, i32::MIN), |(l, h), &t| (l.min(t), h.max(t)));
    if n == 0 {
        return;
    }
    if (high - low) as usize >= SPAN {
        // `top` then index in one key.
        let mut keys = [0i64; 64];
        for (i, (key, &top)) in keys.iter_mut().zip(tops).enumerate() {
            *key = (i64::from(top) << 6) | i as i64;
        }
        keys[..n].sort_unstable_by(|a, b| b.cmp(a));
        for (o, k) in order.iter_mut().zip(&keys) {
            *o = (k & 63) as u8;
        }
        return;
    }
    // By top, from the highest down: how many before it, then where each
    // goes. Indices masked into the arrays' bounds (they are within them):
    // no bounds checks in the loops.
    let span = (high - low) as usize;
    let mut at = [0u8; 2 * SPAN];
    for &top in tops {
        at[((high - top) as usize + 1) & (2 * SPAN - 1)] += 1;
    }
    for i in 1..=span {
        at[i] += at[i - 1];
    }
    let mut placed = [0u8; 64];
    for (i, &top) in tops.iter().enumerate().rev() {
        let slot = &mut at[(high - top) as usize & (2 * SPAN - 1)];
        placed[*slot as usize & 63] = i as u8;
        *slot += 1;
    }
    order.copy_from_slice(&placed[..n]);
}

/// One ceiling's share of [`fill_answers`].
struct Parts<'a> {
    replies: &'a Replies,
    answers: &'a mut [Answer; 64],
    len: &'a mut usize,
    targets: Bitboard,
}

/// Fills each ceiling's answers (White's last piece, `replies` its gains,
/// on R next to the board or to White's 7th piece on `targets`), each
/// with a ceiling on its `top` but no King replies yet, and their count.
/// One pass for both of White's pieces: the squares, the King's squares
/// and the lines through them are the same (callgrind, seeds 4 and 6 of
/// solve 10 12 wdl: see the commit).
fn fill_answers<const N: usize>(mut sets: [Parts; N], b: &Board) {
    let r = &b.r;
    // The lines of the board, the same whichever piece's replies give them.
    let Some(lines) = sets.first().map(|s| s.replies) else {
        return;
    };
    let white_lines = lines.white_lines();
    let bases: [[i32; 9]; N] = std::array::from_fn(|i| *sets[i].replies.bases());
    let least: [i32; N] = std::array::from_fn(|i| sets[i].replies.least_base());
    let empty = r.empty();
    let ranges: [Bitboard; N] =
        std::array::from_fn(|i| empty & (r.occupied() | sets[i].targets).adjacent());
    let base = r.points(Color::White) - r.points(Color::Black);
    for set in sets.iter_mut() {
        *set.len = 0;
    }
    let all = ranges.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
    for t in all {
        let kings = attacks::king(t) & empty;
        if kings.is_empty() {
            // Rule 4: never a legal answer.
            continue;
        }
        let seconds = second_floors(lines, t, kings, &white_lines, &b.room, &bases, least);
        for (i, set) in sets.iter_mut().enumerate() {
            if !ranges[i].has(t) {
                continue;
            }
            let a = &mut set.answers[*set.len];
            a.t = t;
            a.g = base + set.replies.gain(t);
            a.settled = false;
            a.top = a.g - seconds[i];
            *set.len += 1;
        }
    }
}

/// For each of White's last pieces (`bases`, `least`: their
/// [`Replies`] terms): the second highest of Black's King's gains on the
/// squares `kings` next to `t` (the highest if alone), or less: the exact
/// gain on White's lines through `t` ([`Replies::king`]), elsewhere a
/// floor ([`Replies::king_floor`], or the King's [`Board::room`] and the
/// least base if no line of White's passes `t`). `r` gives the lines,
/// the same for every piece.
fn second_floors<const N: usize>(
    r: &Replies,
    t: Square,
    kings: Bitboard,
    white_lines: &[u64; 4],
    room: &[i32; 64],
    bases: &[[i32; 9]; N],
    least: [i32; N],
) -> [i32; N] {
    if white_lines.iter().all(|l| l >> t.index() & 1 == 0) {
        let s = second_highest(kings.into_iter().map(|k| room[k.index()]));
        return least.map(|l| s + l);
    }
    let (mut high, mut second) = ([i32::MIN; N], [i32::MIN; N]);
    for k in kings {
        let e = towards(t, k);
        // The King's empty neighbours less the map's loss.
        let own = room[k.index()];
        let on_line = white_lines[e & 3] >> t.index() & 1 != 0;
        let line = if on_line { r.line_terms(t, e) } else { (0, 0) };
        for i in 0..N {
            let b = &bases[i];
            let v = if on_line {
                king_value(b, own, e, line)
            } else {
                own + b[e & 7]
            };
            second[i] = second[i].max(high[i].min(v));
            high[i] = high[i].max(v);
        }
    }
    std::array::from_fn(|i| {
        if second[i] == i32::MIN {
            high[i]
        } else {
            second[i]
        }
    })
}

/// The second highest of `values` (the highest if alone, `i32::MIN` if
/// none), without branches.
#[inline(always)]
fn second_highest(values: impl Iterator<Item = i32>) -> i32 {
    let (mut high, mut second) = (i32::MIN, i32::MIN);
    for v in values {
        second = second.max(high.min(v));
        high = high.max(v);
    }
    if second == i32::MIN { high } else { second }
}

/// White's piece other than `piece`, of the two it holds.
fn other_piece(pos: &Position, piece: Piece) -> Option<Piece> {
    Piece::ALL.into_iter().find(|&p| {
        let held = pos.in_hand(Color::White, p) - u8::from(p == piece);
        held > 0 && p != Piece::King
    })
}

/// May Black place `reply` after any placement of White's but one on its
/// square? Its piece in hand (not the King), its square empty, touching
/// the board now, and of its Bishop's colour (rule 5).
fn black_may(pos: &Position, reply: Placement) -> bool {
    let (p, s) = (reply.piece, reply.square);
    if p == Piece::King || pos.in_hand(Color::Black, p) == 0 || !pos.empty().has(s) {
        return false;
    }
    if !pos.occupied().adjacent().has(s) {
        return false;
    }
    let bishops = pos.pieces_of(Color::Black, Piece::Bishop);
    let dark = !(bishops & Bitboard::DARK).is_empty();
    let light = !(bishops & Bitboard::LIGHT).is_empty();
    p != Piece::Bishop || !(dark && s.is_dark() || light && !s.is_dark())
}

/// Does White's last piece keep a legal square touching the board of `r`
/// whatever White's 7th piece does? Else rule 7 might let it go anywhere,
/// beyond the answers the ceiling looks at. Two squares of each colour
/// it may take (a Bishop's colour follows White's other Bishop, on the
/// board or placed as its 7th piece), each with two empty neighbours:
/// the 7th piece takes at most one of them, or one neighbour of each.
fn always_touches(r: &Position, last: Piece) -> bool {
    let empty = r.empty();
    let ok = empty & r.occupied().adjacent();
    let roomy = |b: Bitboard| {
        b.into_iter()
            .filter(|&t| (attacks::king(t) & empty).count() >= 2)
            .count()
            >= 2
    };
    if last != Piece::Bishop {
        return roomy(ok);
    }
    let placed = r.pieces_of(Color::White, Piece::Bishop);
    [Bitboard::DARK, Bitboard::LIGHT]
        .into_iter()
        .filter(|&c| (placed & c).is_empty())
        .all(|c| roomy(ok & c))
}

/// By empty square of `r`: the rays of White's sliders that reach it
/// (`shadow`), and the squares those sliders would lose to a blocker there
/// (`loss`).
fn white_shadows(r: &Position, shadow: &mut [Bitboard; 64], loss: &mut [i32; 64]) {
    *shadow = [Bitboard::EMPTY; 64];
    *loss = [0; 64];
    let (occ, empty) = (r.occupied(), r.empty());
    for l in r.pieces(Color::White) {
        let Some((_, p)) = r.piece_at(l) else {
            continue;
        };
        for d in (0..8).filter(|&d| slides_along(p, d)) {
            let squares = ray(d, l, occ) & empty;
            let len = squares.count() as i32;
            // A blocker `j` steps out takes the rest of the ray, itself included.
            let mut x = l.index() as isize;
            for left in (1..=len).rev() {
                x += attacks::step(d);
                shadow[x as usize] |= squares;
                loss[x as usize] += left;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::{agrees, with_worker};
    use crate::search::worker::Worker;
    use crate::testing::Rng;
    use crate::value::INFINITE;

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

    /// Plain alpha-beta to the end: no table, no ordering, no ceiling.
    fn alpha_beta(pos: &mut Position, mut alpha: Value, beta: Value) -> Value {
        if pos.is_over() {
            return pos.diff() * SCALE;
        }
        let mut best = -INFINITE;
        for m in pos.legal_moves().to_vec() {
            let u = pos.play(m);
            let v = -alpha_beta(pos, -beta, -alpha);
            pos.undo(m, u);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
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

    /// A random 4-left position, one of White's pieces with its squares,
    /// and Black's reply after that piece on the first of them: mostly one
    /// that touches, now and then any.
    fn random_reply(rng: &mut Rng) -> (Position, Piece, Bitboard, Placement) {
        let pos = rng.position(Variant::Standard, LEFT);
        let groups: Vec<_> = pos.legal_moves().groups().collect();
        let (piece, targets) = groups[rng.below(groups.len())];
        let mut after = pos.clone();
        after.play(Placement::new(piece, targets.first().unwrap()));
        let replies = after.legal_moves().to_vec();
        let reply = replies[rng.below(replies.len())];
        (pos, piece, targets, reply)
    }

    /// An alpha from -10 to +10 points and a fraction of a point.
    fn random_alpha(rng: &mut Rng) -> Value {
        (rng.below(21) as Value - 10) * SCALE + rng.below(SCALE as usize) as Value
    }

    /// [`Ceiling::cover`] the slow way: every square's exact bound.
    fn cover_exactly(
        c: &mut Ceiling,
        b: &Board,
        targets: Bitboard,
        alpha: Value,
    ) -> (Value, Bitboard) {
        let (mut best, mut covered) = (Value::MIN, Bitboard::EMPTY);
        for u in targets & !Bitboard::from_square(b.s) {
            if let Some(v) = c.bound(b, u, i32::MAX, i32::MIN)
                && v * SCALE <= alpha
            {
                best = best.max(v * SCALE);
                covered |= Bitboard::from_square(u);
            }
        }
        (best, covered)
    }

    #[test]
    fn covers_match_exact_bounds() {
        let mut rng = Rng(0xF0C3_1196_0000_C0FE);
        let (mut checked, mut covered) = (0, 0);
        for _ in 0..400 {
            let (pos, piece, targets, reply) = random_reply(&mut rng);
            let Some(b) = Board::new(&pos, reply) else {
                continue;
            };
            let mut c = Ceiling::empty();
            if !c.set(&pos, &b, piece, targets) {
                continue;
            }
            let alpha = random_alpha(&mut rng);
            let (best, squares) = cover_exactly(&mut c, &b, targets, alpha);
            // A ceiling found before (at most `alpha`), or none.
            let before = match rng.below(3) {
                0 => Value::MIN,
                _ => (alpha.div_euclid(SCALE) - rng.below(4) as Value) * SCALE,
            };
            let got = c.cover(&b, targets, alpha, before);
            // A point under alpha's, at least, once any square is covered.
            let least = slack(alpha.div_euclid(SCALE)) * SCALE;
            let value = if squares.is_empty() {
                before
            } else {
                best.max(before).max(least)
            };
            assert_eq!(
                got,
                (value, squares),
                "{} {piece:?} {alpha} {before}",
                pos.fen()
            );
            checked += 1;
            covered += squares.count();
        }
        assert!(checked > 300 && covered > 1000, "{checked} {covered}");
    }

    /// Every answer's King replies found at once, the answers ordered by
    /// their exact `top`: the ceiling as it was before it found them lazily.
    fn settle_all(c: &mut Ceiling) {
        for i in 0..c.len {
            c.answers[i].top = c.settle(i);
        }
        c.sort();
    }

    #[test]
    fn lazy_covers_match_eager_ones() {
        let mut rng = Rng(0xF0C3_1196_0000_1A2E);
        let mut tables = Tables::default();
        let (mut checked, mut covered) = (0, 0);
        for _ in 0..300 {
            let pos = rng.position(Variant::Standard, LEFT);
            let want = with_worker(&pos, &mut tables, |w| {
                // Black's 3-left killer, as the search leaves it.
                w.search(LEFT, -INFINITE, INFINITE, 0, false);
                w.tables.cut[3]
            });
            let Some(b) = want.and_then(|reply| Board::new(&pos, reply)) else {
                continue;
            };
            let alpha = random_alpha(&mut rng);
            let (mut lazy, mut eager) = (Ceiling::empty(), Ceiling::empty());
            let mut best = Value::MIN;
            for (piece, targets) in pos.legal_moves().groups() {
                if !lazy.set(&pos, &b, piece, targets) {
                    continue;
                }
                assert!(eager.set(&pos, &b, piece, targets));
                settle_all(&mut eager);
                let got = lazy.cover(&b, targets, alpha, best);
                let (value, squares) = eager.cover(&b, targets, alpha, best);
                assert_eq!(got, (value, squares), "{} {piece:?} {alpha}", pos.fen());
                best = value;
                checked += 1;
                covered += squares.count();
            }
        }
        assert!(checked > 200 && covered > 1000, "{checked} {covered}");
    }

    /// The answers of both of White's pieces filled in one pass are those
    /// filled one piece at a time.
    #[test]
    fn answers_filled_together_match_one_piece_at_a_time() {
        let mut rng = Rng(0xF0C3_1196_0000_2B07);
        let mut both = 0;
        for _ in 0..300 {
            let pos = rng.position(Variant::Standard, LEFT);
            let replies = pos
                .empty()
                .into_iter()
                .flat_map(|s| Piece::ALL.into_iter().map(move |p| Placement::new(p, s)));
            let Some(b) = replies.filter_map(|r| Board::new(&pos, r)).next() else {
                continue;
            };
            let groups: Vec<_> = pos.legal_moves().groups().collect();
            let [(p1, t1), (p2, t2)] = groups[..] else {
                continue;
            };
            let (mut one, mut two) = (Ceiling::empty(), Ceiling::empty());
            one.prepare(&pos, &b, p1, t1);
            two.prepare(&pos, &b, p2, t2);
            let (Some(x), Some(y)) = (one.parts(), two.parts()) else {
                continue;
            };
            fill_answers([x, y], &b);
            for (c, (piece, targets)) in [(&one, (p1, t1)), (&two, (p2, t2))] {
                let mut alone = Ceiling::empty();
                assert!(alone.set(&pos, &b, piece, targets));
                let fields = |c: &Ceiling| -> Vec<_> {
                    c.answers[..c.len]
                        .iter()
                        .map(|a| (a.t, a.g, a.top))
                        .collect()
                };
                assert_eq!(fields(c), fields(&alone), "{} {piece:?}", pos.fen());
            }
            both += 1;
        }
        assert!(both > 100, "{both}");
    }

    #[test]
    fn highest_first_orders_like_a_sort() {
        let mut rng = Rng(0xF0C3_1196_0000_50F7);
        for round in 0..2000 {
            let len = rng.below(65);
            // Mostly a narrow span, now and then one too wide to count.
            let span = if round % 10 == 0 { 200 } else { 40 };
            let tops: Vec<i32> = (0..len).map(|_| rng.below(span) as i32 - 20).collect();
            let mut order = [0u8; 64];
            highest_first(&tops, &mut order[..len]);
            let got: Vec<i32> = order[..len].iter().map(|&i| tops[i as usize]).collect();
            let mut want = tops.clone();
            want.sort_unstable_by(|a, b| b.cmp(a));
            assert_eq!(got, want, "{tops:?}");
            let mut seen = order[..len].to_vec();
            seen.sort_unstable();
            assert!(seen.iter().enumerate().all(|(i, &o)| o as usize == i));
        }
    }

    /// White's best value, in points, after `u` then `reply`, every answer
    /// and King reply played; `None` if `reply` is not legal after `u`.
    fn played(pos: &Position, u: Placement, reply: Placement) -> Option<i32> {
        let mut p = pos.clone();
        p.play(u);
        if !p.legal_moves().contains(reply) {
            return None;
        }
        p.play(reply);
        let mut best = i32::MIN;
        for t in p.legal_moves().to_vec() {
            let mut q = p.clone();
            q.play(t);
            let worst = q
                .legal_moves()
                .iter()
                .map(|k| {
                    let mut end = q.clone();
                    end.play(k);
                    end.points(Color::White) - end.points(Color::Black)
                })
                .min()
                .unwrap();
            best = best.max(worst);
        }
        Some(best)
    }

    #[test]
    fn ceilings_hold_every_placement_and_reply() {
        let mut rng = Rng(0xF0C3_1196_0000_5EED);
        let (mut checked, mut tight, mut slack) = (0, 0, 0);
        for _ in 0..400 {
            let (pos, piece, targets, reply) = random_reply(&mut rng);
            let Some(b) = Board::new(&pos, reply) else {
                continue;
            };
            let mut c = Ceiling::empty();
            if !c.set(&pos, &b, piece, targets) {
                continue;
            }
            for u in targets {
                let Some(bound) = c.bound(&b, u, i32::MAX, i32::MIN) else {
                    continue;
                };
                if u == reply.square {
                    continue;
                }
                let m = Placement::new(piece, u);
                let want = played(&pos, m, reply);
                let want = want.unwrap_or_else(|| panic!("{} {m} {reply}: illegal", pos.fen()));
                assert!(want <= bound, "{} {m} {reply}: {want} {bound}", pos.fen());
                checked += 1;
                tight += usize::from(want == bound);
                slack += bound - want;
            }
        }
        // Bounds that hold but are rarely reached would prove little.
        // Measured: 6121 checked, 2532 reached, 1.9 points above on average.
        assert!(checked > 5000 && tight * 3 > checked, "{checked} {tight}");
        assert!(slack < 3 * checked as i32, "{slack} {checked}");
    }
}
