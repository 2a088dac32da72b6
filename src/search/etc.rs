//! Enhanced transposition cutoffs: before a `standard` null-window node
//! searched to the end tries its children one by one, the table entries
//! of all of them are looked at. Placements transpose everywhere (the
//! same pieces in another order), so a child searched under another
//! parent may already be known to fail low for the opponent: the node then
//! cuts on it without a search. A cut node's first child mostly cuts too,
//! but when it does not, each next one costs a whole subtree.

use super::Value;
use super::tt::TtBound;
use super::worker::Worker;
use crate::position::Position;
use crate::types::{Piece, Placement};
use crate::variant::Variant;
use crate::zobrist;

/// The plies left from which the children are looked at: below, a child's
/// subtree costs little more than the probes (solve 10 12 wdl, nodes:
/// 454.8 M without, 436.9 M from 5 left).
pub const MIN_LEFT: u8 = 5;

/// A child whose table entry proves its value, from this node's view, at
/// least `beta`, searched to the end like this node (`depth`): that value
/// and the placement. `None` outside `standard` (its child keys alone are
/// known without playing).
pub fn cutoff(w: &Worker, depth: u8, beta: Value) -> Option<(Value, Placement)> {
    if w.pos.variant() != Variant::Standard {
        return None;
    }
    let moves = w.pos.legal_moves();
    for m in moves.iter() {
        let Some(h) = w.shared.tt.probe(child_key(&w.pos, m)) else {
            continue;
        };
        // The child's value at most -beta: this node's at least beta.
        let proven = h.depth + 1 >= depth && h.bound != TtBound::Lower && h.value <= -beta;
        if proven && !h.reduced {
            return Some((-h.value, m));
        }
    }
    None
}

/// The table key of the `standard` position after `m`, with at least
/// three plies left before it: the last square then only counts through a
/// queen call (rule 6).
#[inline]
fn child_key(pos: &Position, m: Placement) -> u64 {
    let side = pos.side_to_move();
    let key = pos.piece_hash() ^ zobrist::piece(side, m.piece, m.square);
    let call = m.piece == Piece::Queen && pos.in_hand(side.flip(), Piece::Queen) > 0;
    if call {
        key ^ zobrist::queen_call()
    } else {
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::history::Tables;
    use crate::search::test_worker::with_worker;
    use crate::search::{INFINITE, SCALE};
    use crate::testing::Rng;

    /// Plain alpha-beta to the end: no table, no ordering.
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

    #[test]
    fn child_keys_are_the_keys_of_the_children() {
        let mut rng = Rng(0xE7C0_5EED_0000_0001);
        for _ in 0..300 {
            let mut pos = Position::new(Variant::Standard);
            let plies = 1 + rng.below(13) as u8;
            while pos.ply() < plies {
                rng.play(&mut pos);
            }
            for m in pos.legal_moves().to_vec() {
                let mut child = pos.clone();
                child.play(m);
                assert_eq!(child_key(&pos, m), child.key(), "{} {m}", pos.fen());
            }
        }
    }

    #[test]
    fn cutoffs_hold_against_plain_alpha_beta() {
        let mut rng = Rng(0xE7C0_5EED_0000_0002);
        let mut tables = Tables::default();
        let mut hits = 0;
        for _ in 0..60 {
            let mut pos = Position::new(Variant::Standard);
            while pos.plies_left() > 6 {
                rng.play(&mut pos);
            }
            hits += with_worker(&pos, &mut tables, |w| {
                // Fills the table with the entries of null-window searches.
                let d = pos.diff() * SCALE;
                for b in [d - 200, d, d + 200] {
                    w.search(6, b - 1, b, 0, false);
                }
                let mut hits = 0;
                for c in pos.legal_moves().to_vec() {
                    w.pos.play(c);
                    for beta in [d - 300, d - 100, d, d + 100, d + 300] {
                        let Some((v, m)) = cutoff(w, 5, beta) else {
                            continue;
                        };
                        let mut child = w.pos.clone();
                        assert!(child.legal_moves().contains(m));
                        let want = alpha_beta(&mut child, v - 1, v);
                        assert!(v >= beta && want >= v, "{} {m}: {v} {want}", child.fen());
                        hits += 1;
                    }
                    w.pos = pos.clone();
                }
                hits
            });
        }
        assert!(hits > 400, "{hits}");
    }
}
