//! The board R of a 4-left ceiling: the node's position with Black's
//! reply `s` on it, and what both of White's pieces share there (R's loss
//! map, what White's sliders would lose to a blocker on each square, the
//! King's room), with the rule that says which replies may make one.

use crate::attacks::{self, ray, slides_along};
use crate::bitboard::Bitboard;
use crate::gains::kept_loss_map::KeptLosses;
use crate::position::Position;
use crate::search::endgame::standard::replies::room_on;
use crate::types::{Color, Piece, Placement, Square};
use crate::variant::Variant;

/// The board R (Black's reply `s` on the board), what both of White's
/// pieces share: its loss map and what White's sliders would lose to a
/// blocker on each square.
pub(super) struct Board {
    pub(super) r: Position,
    /// R's loss map ([`crate::gains::loss_map::loss_map`], White's view) on its empty squares,
    /// from the search's kept map ([`KeptLosses`]): R and the nodes with
    /// two plies left around it differ by a piece or two, where a fresh
    /// map costs one scan per piece (callgrind in the commit).
    pub(super) map: [i32; 64],
    /// Black's square `s` (never covered: Black's reply would not exist).
    pub(super) s: Square,
    /// By square: the rays of White's sliders through it, and what they
    /// would lose to a blocker there.
    pub(super) shadow: [Bitboard; 64],
    pub(super) slider_loss: [i32; 64],
    /// By empty square: Black's King's empty neighbours there less the
    /// map's loss, its floor but White's last piece's terms
    /// ([`Replies::least_base`](crate::search::endgame::standard::replies::Replies::least_base)); found once for both of White's pieces.
    pub(super) room: [i32; 64],
}

impl Board {
    /// Makes this R for Black's `reply` to `pos`, which [`black_may`]
    /// allows (the caller chose it so). Filled in place: the search keeps
    /// one ([`Scratch`](super::Scratch)).
    pub(super) fn fill(&mut self, pos: &Position, reply: Placement, kept: &mut KeptLosses) {
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
    pub(super) fn new(pos: &Position, reply: Placement) -> Option<Board> {
        let mut b = Board::empty();
        black_may(pos, reply).then(|| {
            b.fill(pos, reply, &mut KeptLosses::default());
            b
        })
    }

    /// A board to fill.
    pub(super) fn empty() -> Board {
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

/// May Black place `reply` after any placement of White's but one on its
/// square? Its piece in hand (not the King), its square empty, touching
/// the board now, and of its Bishop's colour (rule 5).
pub(super) fn black_may(pos: &Position, reply: Placement) -> bool {
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

/// By empty square of `r`: the rays of White's sliders that reach it
/// (`shadow`), and the squares those sliders would lose to a blocker there
/// (`loss`).
pub(super) fn white_shadows(r: &Position, shadow: &mut [Bitboard; 64], loss: &mut [i32; 64]) {
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
