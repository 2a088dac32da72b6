//! `standard`'s last two plies without a scan per square: White's gain on
//! each target from one loss map of the whole board, and Black's King reply
//! next to a target from the same map and the one line through the target
//! and the King. A scan of the eight rays costs some 300 instructions; a
//! node that tries every target (most do: upper-bound proofs) scans about
//! twenty squares, where the map, kept from node to node, costs about one
//! scan per piece that differs (`kept_losses.rs`).

use crate::attacks::{DISTANCE, RAY_LEN, RAYS, fill, is_orthogonal, nearest, slides_along};
use crate::bitboard::Bitboard;
use crate::gains::kept_loss_map::{KeptLosses, Placed};
use crate::gains::points::own_points;
use crate::position::Position;
use crate::types::{Color, Piece, Square};

/// One end of the empty run from a square in one direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct End {
    /// Empty squares before the first occupied one or the edge.
    run: i32,
    /// -1 if that piece is a White slider moving along this line, 1 if a
    /// Black one, else 0: the sign of what the King gains when a blocker
    /// between them stops it reaching the King's square.
    sign: i32,
}

/// What the last two plies of a `standard` node need of its position, White
/// to place `piece`.
pub struct Replies {
    /// By empty square: White's points taken from Black minus its own
    /// points lost by a blocker there ([`crate::gains::kept_loss_map::KeptLosses`]).
    loss: [i8; 64],
    occupied: Bitboard,
    empty: Bitboard,
    white: u64,
    /// Sliders along ranks and files, along diagonals (both colours).
    lines: [u64; 2],
    piece: Piece,
    /// By direction `e` from White's piece to the King: the terms of
    /// [`Replies::king`] that depend on the piece alone (the King's square
    /// taken, White's King's share of it, a slider's share along `e`);
    /// `base[8]` the part of them without the slider's share.
    base: [i32; 9],
    /// A piece `loss` does not count yet, and the empty squares whose
    /// entries it is still missing from ([`Replies::freshen`]).
    placed: Option<Placed>,
    stale: u64,
}

impl Replies {
    /// The current position, White to place `piece` (its last), and its
    /// loss map.
    pub fn new(pos: &Position, piece: Piece, loss: &[i8; 64]) -> Replies {
        Replies::near(pos, piece, loss, None)
    }

    /// As [`Replies::new`], but the map may miss one piece, `placed`
    /// ([`crate::gains::kept_loss_map::KeptLosses::near`]): then only the squares
    /// that [`Replies::freshen`] brought up to date may be asked about.
    pub fn near(pos: &Position, piece: Piece, loss: &[i8; 64], placed: Option<Placed>) -> Replies {
        let empty = pos.empty();
        Replies {
            loss: *loss,
            occupied: pos.occupied(),
            empty,
            white: pos.pieces(Color::White).0,
            lines: pos.line_sliders().map(|b| b.0),
            piece,
            base: Replies::base(piece),
            placed,
            stale: if placed.is_some() { empty.0 } else { 0 },
        }
    }

    /// [`Replies::base`] for White's `piece`.
    fn base(piece: Piece) -> [i32; 9] {
        let fixed = (piece == Piece::King) as i32 - 1;
        let mut base = [fixed; 9];
        for (e, b) in base.iter_mut().take(8).enumerate() {
            *b += slides_along(piece, e) as i32;
        }
        base
    }

    /// Brings the map up to date on `t` and its neighbours: all that
    /// [`Replies::gain`] and [`Replies::king`] need there.
    #[inline]
    pub fn freshen(&mut self, t: Square) {
        let Some(p) = self.placed else { return };
        let todo = (crate::attacks::king(t).0 | 1 << t.index()) & self.stale;
        self.stale &= !todo;
        for s in Bitboard(todo & p.reach()) {
            let m = &mut self.loss[s.index()];
            *m = (*m as i32 + p.delta(s.index())) as i8;
        }
    }

    /// Takes the whole map, up to date, if the map was missing a piece
    /// ([`Replies::near`]).
    pub fn settle(&mut self, kept: &mut KeptLosses) {
        if let Some(p) = self.placed.take() {
            self.loss = *kept.settle(&p);
            self.stale = 0;
        }
    }

    /// White's gain (its points won minus Black's) for its piece on the
    /// empty square `t`.
    #[inline]
    pub fn gain(&self, t: Square) -> i32 {
        own_points(self.occupied, self.piece, t) + self.loss[t.index()] as i32
    }

    /// [`Replies::gain`], White's piece `Piece::ALL[P]` fixed at compile
    /// time ([`crate::gains::points::with_piece_const`]).
    #[inline(always)]
    pub fn gain_as<const P: usize>(&self, t: Square) -> i32 {
        own_points(self.occupied, Piece::ALL[P], t) + self.loss[t.index()] as i32
    }

    /// The run from the empty square `s` in direction `d` and the slider
    /// that ends it.
    #[inline(always)]
    fn end(&self, s: Square, d: usize) -> End {
        let si = s.index();
        let blockers = RAYS[d][si] & self.occupied.0;
        if blockers == 0 {
            return End {
                run: RAY_LEN[d][si] as i32,
                sign: 0,
            };
        }
        let b = nearest(d, blockers);
        let slider = self.lines[usize::from(!is_orthogonal(d))] >> b & 1;
        let black = (self.white >> b & 1) ^ 1;
        End {
            run: DISTANCE[si][b] as i32 - 1,
            sign: slider as i32 * (2 * black as i32 - 1),
        }
    }

    /// By line (`e & 3` of a direction `e`): the empty squares whose line
    /// that way ends, on one side or the other, at a White slider moving
    /// along it. Elsewhere [`Replies::king_floor`] holds.
    /// Each direction is filled for all of White's sliders along it at
    /// once ([`fill`]): 207 instructions a node by rays, some 85 fewer so
    /// (solve 9 6).
    pub fn white_lines(&self) -> [u64; 4] {
        let [straight, diagonal] = self.lines.map(|l| l & self.white);
        let e = self.empty.0;
        [
            fill::<0>(straight, e) | fill::<4>(straight, e),
            fill::<1>(straight, e) | fill::<5>(straight, e),
            fill::<2>(diagonal, e) | fill::<6>(diagonal, e),
            fill::<3>(diagonal, e) | fill::<7>(diagonal, e),
        ]
    }

    /// A floor of [`Replies::king`] (`t` and `e` as there) when the line
    /// through `t` and `k` is not in [`Replies::white_lines`]: the line's
    /// terms of `king` are then at least what White's piece sliding along
    /// it takes from the one square `k`. Ten instructions where `king`
    /// takes some eighty, and in `solve 9 2` it refutes 98% of the targets
    /// of nodes that fail low.
    #[inline(always)]
    pub fn king_floor(&self, k: Square, e: usize) -> i32 {
        self.king_room(k) + self.base[e & 7]
    }

    /// The King's empty neighbours on `k` less the map's loss there: the
    /// part of [`Replies::king`] and [`Replies::king_floor`] that the
    /// square alone gives.
    #[inline(always)]
    fn king_room(&self, k: Square) -> i32 {
        room_on(self.empty, i32::from(self.loss[k.index()]), k)
    }

    /// The least, over the directions, of the terms of
    /// [`Replies::king_floor`] that depend on White's piece alone: with
    /// the King's empty neighbours less the map's loss, a floor in any
    /// direction off White's lines.
    pub fn least_base(&self) -> i32 {
        self.base[..8].iter().fold(i32::MAX, |a, &b| a.min(b))
    }

    /// By direction `d`: the empty squares whose run that way ends at a
    /// Black slider moving along it; `[8]` their union, off which
    /// [`Replies::black_block`] is zero. All of a direction's sliders are
    /// filled at once ([`fill`]), once for every King reply, where each
    /// reply followed its eight rays (solve 10 5 wdl: 8256 M instructions
    /// so, 8206 M filled, with [`Replies::king`] inlined always).
    pub fn black_lines(&self) -> [u64; 9] {
        let [straight, diagonal] = self.lines.map(|l| l & !self.white);
        let e = self.empty.0;
        // The run from `k` that way ends at a slider whose ray the other
        // way reaches `k`.
        let mut lines = [
            fill::<4>(straight, e),
            fill::<5>(straight, e),
            fill::<6>(diagonal, e),
            fill::<7>(diagonal, e),
            fill::<0>(straight, e),
            fill::<1>(straight, e),
            fill::<2>(diagonal, e),
            fill::<3>(diagonal, e),
            0,
        ];
        lines[8] = lines[..8].iter().fold(0, |a, l| a | l);
        lines
    }

    /// The points Black's sliders would lose to a blocker on the empty
    /// square `k` next to `t`, once White's piece stands on `t` (`e` the
    /// direction from `t` to `k`): on each line through `k`, a Black slider
    /// ending the run one way loses `k` and the run the other way, which
    /// towards `t` is empty. `lines` are the node's [`Replies::black_lines`].
    #[inline]
    pub fn black_block(&self, lines: &[u64; 9], k: Square, e: usize) -> i32 {
        let ki = k.index();
        if lines[8] >> ki & 1 == 0 {
            return 0;
        }
        let mut loss = 0;
        for (d, line) in lines[..8].iter().enumerate() {
            if d != e ^ 4 && line >> ki & 1 != 0 {
                loss += 1 + if d == e { 0 } else { self.end(k, d ^ 4).run };
            }
        }
        loss
    }

    /// Black's King's gain on the empty square `k` next to `t`, once White's
    /// piece stands on `t` (`e` the direction from `t` to `k`). Before it,
    /// the King there gains its empty neighbours less the map's loss; the
    /// piece on `t` then takes one neighbour and changes only the line
    /// through `t` and `k`: the slider beyond `t` no longer reaches `k` (nor
    /// the run beyond `k`), the one beyond `k` now stops at `t`, and White's
    /// piece, if it slides along that line, loses `k` and the run beyond.
    /// Inlined always: out of line, `Two::try_exact` cost 270 M instructions
    /// in solve 10 5 wdl, inlined 230 M.
    #[inline(always)]
    pub fn king(&self, t: Square, k: Square, e: usize) -> i32 {
        king_value(&self.base, self.king_room(k), e, self.line_terms(t, e))
    }

    /// The terms of [`Replies::king`] on the line from `t` in direction
    /// `e` that do not depend on White's piece (the sliders' shares beyond
    /// `t` and beyond the King), and the run from `t` that way, which
    /// White's piece sliding along it would lose.
    #[inline(always)]
    pub fn line_terms(&self, t: Square, e: usize) -> (i32, i32) {
        let far = self.end(t, e ^ 4);
        // From `t` through `k`: the run beyond `k` is one shorter.
        line_share(self.end(t, e), far)
    }

    /// The terms of [`Replies::king`] and [`Replies::king_floor`] that
    /// depend on White's piece alone, by direction (`[8]`: without the
    /// slider's share).
    pub fn bases(&self) -> &[i32; 9] {
        &self.base
    }
}

/// The King's empty neighbours on `k` (`empty` the board's empty
/// squares) less `loss`, the map's loss there: [`Replies::king_room`],
/// and the ceiling's room for every square at once.
#[inline(always)]
pub fn room_on(empty: Bitboard, loss: i32, k: Square) -> i32 {
    (crate::attacks::king(k) & empty).count() as i32 - loss
}

/// [`Replies::line_terms`] from the runs from `t` towards the King
/// (`near`) and away from it (`far`).
#[inline(always)]
fn line_share(near: End, far: End) -> (i32, i32) {
    (far.sign * near.run + near.sign * (1 + far.run), near.run)
}

/// [`Replies::king`] from its parts: `own` the King's empty neighbours
/// less the map's loss, `base` White's piece's terms ([`Replies::bases`]),
/// `e` the direction from `t` to the King, and the line's terms
/// ([`Replies::line_terms`]).
#[inline(always)]
pub fn king_value(base: &[i32; 9], own: i32, e: usize, (shared, run): (i32, i32)) -> i32 {
    own + base[8] + shared + (base[e & 7] - base[8]) * run
}

impl Replies {
    /// [`Replies::king`] for each empty square `k` next to `t`, handed to
    /// `f` with `k`: the eight runs from `t` are found once, where `king`
    /// finds two for each reply.
    #[inline]
    pub fn kings(&self, t: Square, mut f: impl FnMut(Square, i32)) {
        let ends: [End; 8] = std::array::from_fn(|d| self.end(t, d));
        for (e, &near) in ends.iter().enumerate() {
            if near.run == 0 {
                // The next square that way is occupied or off the board.
                continue;
            }
            let k = Square::from_index((t.index() as isize + crate::attacks::step(e)) as usize);
            let own = self.king_room(k);
            f(
                k,
                king_value(&self.base, own, e, line_share(near, ends[e ^ 4])),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Placement;
    use crate::variant::Variant;

    /// 300 random `standard` positions with two plies left (from `seed`),
    /// each with White's one piece, its targets and their [`Replies`]; the
    /// few where White has no placement are skipped.
    fn two_left_nodes(seed: u64) -> impl Iterator<Item = (Position, Piece, Bitboard, Replies)> {
        let mut rng = crate::testing::Rng(seed);
        (0..300).filter_map(move |_| {
            let pos = rng.position(Variant::Standard, 2);
            let (piece, targets) = pos.legal_moves().groups().next()?;
            let r = Replies::new(&pos, piece, KeptLosses::default().update(&pos));
            Some((pos, piece, targets, r))
        })
    }

    /// The mover's gain for `pl`, played.
    fn played_gain(pos: &Position, pl: Placement) -> i32 {
        let mut p = pos.clone();
        let before = p.diff();
        p.play(pl);
        -p.diff() - before
    }

    #[test]
    fn gains_and_king_replies_match_play() {
        let mut checked = 0;
        for (pos, piece, targets, r) in two_left_nodes(0x9E37_79B9_7F4A_7C15) {
            for t in targets {
                let pl = Placement::new(piece, t);
                assert_eq!(r.gain(t), played_gain(&pos, pl), "{} {pl}", pos.fen());
                let mut after = pos.clone();
                after.play(pl);
                for k in crate::attacks::king(t) & pos.empty() {
                    let e = (0..8)
                        .find(|&e| {
                            RAYS[e][t.index()] & crate::attacks::king(t).0 & 1 << k.index() != 0
                        })
                        .unwrap();
                    let reply = Placement::new(Piece::King, k);
                    assert_eq!(
                        r.king(t, k, e),
                        played_gain(&after, reply),
                        "{} {pl} {reply}",
                        pos.fen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn kings_match_king_one_by_one() {
        let mut checked = 0;
        for (pos, _, targets, r) in two_left_nodes(0x2B99_2DDF_A232_49D6) {
            for t in targets {
                let mut seen = Bitboard::EMPTY;
                r.kings(t, |k, v| {
                    let e = crate::attacks::towards(t, k);
                    assert_eq!(v, r.king(t, k, e), "{} {t} {k}", pos.fen());
                    seen |= Bitboard::from_square(k);
                    checked += 1;
                });
                assert_eq!(
                    seen,
                    crate::attacks::king(t) & pos.empty(),
                    "{} {t}",
                    pos.fen()
                );
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// [`Replies::black_block`] the slow way: a loop over the directions.
    fn black_block_by_loop(r: &Replies, k: Square, e: usize) -> i32 {
        let black = r.lines.map(|l| l & !r.white);
        let mut loss = 0;
        for d in 0..8 {
            let sliders = black[usize::from(!is_orthogonal(d))];
            if d == e ^ 4 || RAYS[d][k.index()] & sliders == 0 || r.end(k, d).sign <= 0 {
                continue;
            }
            loss += 1 + if d == e { 0 } else { r.end(k, d ^ 4).run };
        }
        loss
    }

    #[test]
    fn black_blocks_match_a_loop_over_directions() {
        let (mut checked, mut blocked) = (0, 0);
        for (pos, _, targets, r) in two_left_nodes(0x5DEE_CE66_D1CE_4E5B) {
            let lines = r.black_lines();
            for t in targets {
                for k in crate::attacks::king(t) & pos.empty() {
                    let e = crate::attacks::towards(t, k);
                    let want = black_block_by_loop(&r, k, e);
                    assert_eq!(r.black_block(&lines, k, e), want, "{} {t} {k}", pos.fen());
                    (checked, blocked) = (checked + 1, blocked + usize::from(want != 0));
                }
            }
        }
        assert!(checked > 10_000 && blocked > 1_000, "{checked} {blocked}");
    }

    /// Does the line from `t` that way end at a White slider moving along it?
    fn ends_at_white_slider(pos: &Position, t: Square, e: usize) -> bool {
        let (df, dr) = crate::attacks::DIRECTIONS[e];
        let (mut f, mut r) = (t.file() as i8 + df, t.rank() as i8 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = Square::from_coords(f as u8, r as u8).unwrap();
            if let Some((color, piece)) = pos.piece_at(s) {
                return color == Color::White && slides_along(piece, e);
            }
            (f, r) = (f + df, r + dr);
        }
        false
    }

    #[test]
    fn king_floors_hold_off_white_lines() {
        let (mut floored, mut off) = (0, 0);
        for (pos, _, targets, r) in two_left_nodes(0x0DDB_A11C_0FFE_E123) {
            let lines = r.white_lines();
            for t in targets {
                for e in 0..8 {
                    let k = t.index() as isize + crate::attacks::step(e);
                    if !(0..64).contains(&k) {
                        // Off the board: no King's step that way.
                        continue;
                    }
                    let k = Square::from_index(k as usize);
                    if RAYS[e][t.index()] & crate::attacks::king(t).0 & 1 << k.index() == 0
                        || !pos.empty().has(k)
                    {
                        continue;
                    }
                    let white =
                        ends_at_white_slider(&pos, t, e) || ends_at_white_slider(&pos, t, e ^ 4);
                    assert_eq!(
                        lines[e & 3] >> t.index() & 1 != 0,
                        white,
                        "{} {t} {e}",
                        pos.fen()
                    );
                    if white {
                        off += 1;
                        continue;
                    }
                    let floor = r.king_floor(k, e);
                    assert!(floor <= r.king(t, k, e), "{} {t} {k}", pos.fen());
                    floored += 1;
                }
            }
        }
        assert!(floored > 10_000 && off > 1_000, "{floored} {off}");
    }
}
