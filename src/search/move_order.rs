//! What orders a node's moves after the table move: the immediate gain,
//! history alone, or `original`'s fewest replies, and where the killer goes
//! before them.

use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Piece, Square};
use crate::variant::{Variant, original, standard};

/// What orders a node's scored moves, after history's tie-breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// The immediate gain first.
    Gain,
    /// History alone.
    History,
    /// Fewest replies first: the opponent's targets after the move.
    FewReplies,
}

/// How the moves of `pos`, searched to the end or not (`to_end`), are
/// ordered. By gain but for two kinds of node:
/// - Black's last piece before White's last one in `standard`: history
///   alone. Its gain says little about White's reply, and the scans cost
///   more than they save (measured: solve 10 1 visits 93 M nodes by
///   history alone, 127 M with the gains first).
/// - `original`'s nodes searched to the end: fewest replies first. The
///   next placement must go on an empty square the piece attacks (any
///   empty square if there is none), so the move that leaves the opponent
///   the fewest squares also leaves the smallest tree to refute, and most
///   nodes here are cut nodes with several refutations. Win/draw/loss
///   searches of three positions of the running solve, 12 plies left, one
///   thread: 165.8 M nodes, 25.3 s by history alone (which had halved the
///   gains' nodes: 8 random positions 10 plies left, 80.9 M with the gains
///   first, 39.1 M by history alone), 27.2 M, 4.2 s by fewest replies.
///
/// Not `standard`: there the fewest replies (the fewest empty squares
/// touching the board after the move) from 5 plies left on gave the
/// suite's `standard` positions 10 and 11 plies left 50.5 M and 191.4 M
/// nodes against 48.5 M and 162.4 M by gain, from 7 plies left 50.0 M and
/// 170.1 M: every placement there leaves the opponent most of the board's
/// rim, so the count says little about the tree behind the move.
pub(super) fn order(pos: &Position, to_end: bool) -> Order {
    match pos.variant() {
        Variant::Standard if pos.plies_left() == 3 => Order::History,
        Variant::Original if to_end => Order::FewReplies,
        _ => Order::Gain,
    }
}

/// The fewest plies left at a node that tries its queen calls first
/// ([`queen_call_first`]).
pub(super) const QUEEN_CALL_LEFT: u8 = 9;

/// Does a node of `pos`, searched to the end or not (`to_end`), try its
/// queen moves before any other, the table move and the killer included
/// (unless the table move is one)? In `standard`'s exact searches with at
/// least [`QUEEN_CALL_LEFT`] plies left, where the side to move and its
/// opponent both hold their Queens: placing it is a queen call, and the
/// opponent's next piece must be its Queen, so the subtree to refute
/// behind it is a fraction of any other's (in std14-1, after White's
/// `R@e5`, Black's `Q@f8` leaves White 13 moves, other replies a median
/// of 60). Most such nodes are near the root, where the product of the
/// branching below is largest; see the commit for the suite's figures.
pub(super) fn queen_call_first(pos: &Position, to_end: bool) -> bool {
    to_end
        && pos.variant() == Variant::Standard
        && pos.plies_left() >= QUEEN_CALL_LEFT
        && standard::may_call_queen(pos)
}

/// The weight of one reply square against history (whose scores stay
/// within ±32768): 1024 to 8192 measured alike (27-29 M nodes on the
/// three positions of [`order`]), 512 and 16384 worse (43 M, 39 M).
pub(super) const REPLY_WEIGHT: i32 = 4;

/// How many squares the opponent may answer `piece` on `s` on, in
/// `original`: the empty squares it attacks, or every empty one if none.
#[inline(always)]
pub(super) fn replies(occ: Bitboard, piece: Piece, s: Square) -> i32 {
    original::targets(piece, s, occ | Bitboard::from_square(s)).count() as i32
}

/// Is the killer tried before the moves are scored, at a node searched to
/// the end or not (`to_end`) whose moves are in `order`? Where history
/// alone orders them, and at `standard`'s nodes searched to the end with
/// 4 to 12 plies left. At Black's (5, 7, 9, 11 left) the reply that
/// refuted a sibling leaves White a smaller tree than the best gain (see
/// the commits for the nodes). At White's (4, 6, 8, 10, 12) the killer
/// cuts about as often as the best gain (nodes of the suite's `standard`
/// positions 10 / 11 / 12 plies left: 48.1 M / 155.1 M / 562.7 M against
/// 48.5 M / 162.4 M / 560.0 M), and a node that cuts on it never pays for
/// the loss map and the scores of every move: CPU time 0.83 of what it was
/// at 10 and 11 plies left, 0.93 at 12 (median of alternating pairs; at 4
/// plies left alone, 0.875). Not before the fewest replies: on the first
/// of the three positions of [`order`], 12.8 M nodes with the killer
/// first, 9.5 M without. In `open`, at 4 plies left only: the suite's
/// open9-* (one thread, 512 MiB, alternating) 50.6 and 53.2 s without,
/// 46.7 and 43.6 s with it (687.7 M -> 694.0 M nodes); from 4 to 12
/// plies left 46.5 and 43.8 s, but 721.1 M nodes.
pub(super) fn killer_first(pos: &Position, to_end: bool, order: Order) -> bool {
    let left = pos.plies_left();
    order == Order::History
        || to_end
            && match pos.variant() {
                Variant::Standard => (4..=12).contains(&left),
                Variant::Open => left == 4,
                Variant::Original => false,
            }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::moves::Picker;

    /// Where the queen calls go first, a picker given a table move and a
    /// killer that are not queen moves hands out every queen move, then
    /// the rest, each legal move once; elsewhere the table move first.
    #[test]
    fn queen_calls_go_first_near_the_root_of_standard_exact_searches() {
        let mut rng = crate::testing::Rng(0x0C0A_11F1_0000_7E57);
        let tables = Tables::default();
        let mut calls = 0;
        for i in 0..300 {
            let pos = rng.position(Variant::Standard, 6 + (i % 9) as u8);
            let legal = pos.legal_moves().to_vec();
            let others: Vec<_> = legal.iter().filter(|m| m.piece != Piece::Queen).collect();
            let (Some(&&tt), Some(&&killer)) = (others.first(), others.last()) else {
                continue;
            };
            for to_end in [false, true] {
                let mut p = Picker::new(&pos, Some(tt), Some(killer), to_end);
                let mut got = Vec::new();
                while let Some(m) = p.pick(&pos, &tables) {
                    got.push(m);
                }
                let mut sorted = got.clone();
                sorted.sort_by_key(|m| crate::codes::encode(*m));
                let mut want = legal.clone();
                want.sort_by_key(|m| crate::codes::encode(*m));
                assert_eq!(sorted, want, "{}", pos.fen());
                let queens = legal.len() - others.len();
                if queen_call_first(&pos, to_end) {
                    assert!(pos.plies_left() >= QUEEN_CALL_LEFT && to_end);
                    assert!(got[..queens].iter().all(|m| m.piece == Piece::Queen));
                    calls += usize::from(queens > 0);
                } else {
                    assert_eq!(got[0], tt, "{}", pos.fen());
                }
            }
        }
        assert!(calls > 20, "{calls}");
    }
}
