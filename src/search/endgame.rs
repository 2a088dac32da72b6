//! The last two plies, solved without the general machinery: the final
//! placement's value is the running difference plus its gain, so the last
//! ply needs no play/undo at all, and stops at the first move reaching beta.
//!
//! Both plies go square by square: one `square_delta` serves every piece
//! that may land on the square (and, on the second to last ply, the `play`).

use super::moves::{MAX_MOVES, decode, encode};
use super::worker::Worker;
use super::{INFINITE, SCALE, Value};
use crate::attacks::{self, RAYS, is_orthogonal};
use crate::bitboard::Bitboard;
use crate::position::SquareDelta;
use crate::types::{Piece, Placement, Square};
use crate::variant::{Moves, Variant};

const NO_DELTA: SquareDelta = SquareDelta {
    own: [0; 5],
    loss: [0; 2],
};

/// The exact value of a position with at most two plies left.
#[inline]
pub fn solve(w: &mut Worker, alpha: Value, beta: Value, ply: usize) -> Value {
    match w.pos.plies_left() {
        0 => w.pos.diff() * SCALE,
        1 => last(w, beta, ply).0,
        _ => two(w, alpha, beta, ply),
    }
}

/// The best final placement's value and the placement, stopping early once
/// the value reaches `beta`. Every final placement whose value is computed
/// counts as a node (Edax's convention), though none is played.
fn last(w: &mut Worker, beta: Value, ply: usize) -> (Value, Option<Placement>) {
    let base = w.pos.diff();
    let us = w.pos.side_to_move().index();
    let moves = w.pos.legal_moves();
    let mut best = -INFINITE;
    let mut best_move = None;
    let mut seen = 0;
    'squares: for sq in moves.targets() {
        let sd = w.pos.square_delta(sq);
        for (piece, b) in moves.groups() {
            if !b.has(sq) {
                continue;
            }
            seen += 1;
            let v = (base + sd.gain(piece, us)) * SCALE;
            if v > best {
                best = v;
                best_move = Some(Placement::new(piece, sq));
                if v >= beta {
                    break 'squares;
                }
            }
        }
    }
    w.count(seen);
    match best_move {
        Some(m) => {
            w.leaf_line(ply, m);
            (best, best_move)
        }
        None => (base * SCALE, None),
    }
}

/// Two plies left: each placement answered by the best final one, placements
/// tried by decreasing gain.
fn two(w: &mut Worker, alpha: Value, beta: Value, ply: usize) -> Value {
    let moves = w.pos.legal_moves();
    let mut groups = moves.groups();
    match (w.pos.variant(), groups.next(), groups.next()) {
        (Variant::Standard, Some((piece, targets)), None) => {
            two_standard(w, piece, targets, alpha, beta, ply)
        }
        _ => two_generic(w, moves, alpha, beta, ply),
    }
}

/// What Black's King on an empty square `k` would gain (`gain`), and how
/// that changes (`adj[d]`) once White's last piece stands on the neighbour
/// of `k` in direction `d`.
#[derive(Clone, Copy)]
struct KingReply {
    gain: i32,
    adj: [i32; 8],
}

impl KingReply {
    /// `piece` is White's last piece. Its square `t`, next to `k` in
    /// direction `d`, was empty: the King loses it; the line through `k` and
    /// `t` now ends at `t` on that side (so the slider beyond `t` no longer
    /// reaches `k`, and the one on the other side only loses `k` itself);
    /// White's piece loses `k` and beyond if it slides along that line, and
    /// `k` itself if it is a King.
    #[inline]
    fn new(w: &Worker, k: Square, piece: Piece) -> KingReply {
        let (sd, rays) = w.pos.square_rays(k);
        let gain = sd.gain(Piece::King, 1);
        let mut adj = [0; 8];
        for (d, a) in adj.iter_mut().enumerate() {
            let o = d ^ 4;
            let signed = |c: u8, n: i32| match c {
                1 => -n,
                2 => n,
                _ => 0,
            };
            let along = match piece {
                Piece::Queen => true,
                Piece::Rook => is_orthogonal(d),
                Piece::Bishop => !is_orthogonal(d),
                _ => false,
            };
            *a = -1
                + signed(rays.slider[d], 1 + rays.run[o])
                + signed(rays.slider[o], rays.run[d])
                + if along { 1 + rays.run[o] } else { 0 }
                + (piece == Piece::King) as i32;
        }
        KingReply { gain, adj }
    }
}

/// `standard` with two plies left: White places its one remaining piece,
/// then Black's King must touch it. The King's reply is valued from a scan
/// of its square before White's placement (shared by every White placement
/// next to it), so nothing is played.
fn two_standard(
    w: &mut Worker,
    piece: Piece,
    targets: Bitboard,
    mut alpha: Value,
    beta: Value,
    ply: usize,
) -> Value {
    let base = w.pos.diff();
    let empty = w.pos.empty();
    let mut list = [(0i32, 0u8); 64];
    let mut n = 0;
    for t in targets {
        list[n] = (w.pos.square_delta(t).gain(piece, 0), t.index() as u8);
        n += 1;
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut replies = [KingReply {
        gain: 0,
        adj: [0; 8],
    }; 64];
    let mut known = Bitboard::EMPTY;
    let mut best = -INFINITE;
    let mut seen = 0;
    for &(g, ti) in list.iter() {
        let t = Square::from_index(ti as usize);
        seen += 1;
        let mut worst = INFINITE;
        let mut worst_k = None;
        for (e, ray) in RAYS.iter().enumerate() {
            let nb = Bitboard(ray[ti as usize]) & attacks::king(t) & empty;
            let Some(k) = nb.first() else { continue };
            if !known.has(k) {
                replies[k.index()] = KingReply::new(w, k, piece);
                known |= nb;
            }
            seen += 1;
            let r = &replies[k.index()];
            let v = (base + g - r.gain - r.adj[e ^ 4]) * SCALE;
            if v < worst {
                worst = v;
                worst_k = Some(k);
                if v <= alpha {
                    break;
                }
            }
        }
        let Some(k) = worst_k else {
            // Rule 4 leaves every White placement a neighbour for the King.
            continue;
        };
        if worst > best {
            best = worst;
            if worst > alpha {
                alpha = worst;
                w.leaf_line(ply + 1, Placement::new(Piece::King, k));
                w.best_line(ply, Placement::new(piece, t));
                if worst >= beta {
                    break;
                }
            }
        }
    }
    w.count(seen);
    if best == -INFINITE {
        return base * SCALE;
    }
    best
}

/// Two plies left in any variant: every placement played, answered by `last`.
fn two_generic(w: &mut Worker, moves: Moves, mut alpha: Value, beta: Value, ply: usize) -> Value {
    let us = w.pos.side_to_move().index();
    let mut deltas = [NO_DELTA; 64];
    let mut list = [(0, 0u16); MAX_MOVES];
    let mut n = 0;
    for sq in moves.targets() {
        let sd = w.pos.square_delta(sq);
        deltas[sq.index()] = sd;
        for (piece, b) in moves.groups() {
            if b.has(sq) {
                list[n] = (sd.gain(piece, us), encode(Placement::new(piece, sq)));
                n += 1;
            }
        }
    }
    let list = &mut list[..n];
    list.sort_unstable_by_key(|x| -x.0);
    let mut best = -INFINITE;
    for &(_, code) in list.iter() {
        let Some(m) = decode(code) else { continue };
        let sd = deltas[m.square.index()];
        let u = w.pos.play_with(m, &sd);
        w.count(1);
        let v = -last(w, -alpha, ply + 1).0;
        w.pos.undo(m, u);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                w.best_line(ply, m);
                if v >= beta {
                    break;
                }
            }
        }
    }
    if best == -INFINITE {
        return w.pos.diff() * SCALE;
    }
    best
}
