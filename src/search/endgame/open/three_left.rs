//! An `open` node with three plies left values its squares once for all its
//! children. After its placement on `t`, a child's squares keep their
//! values except those `t` touches ([`crate::gains::offers::Sides::touched`]): the
//! child's mover (the opponent here, with one piece left) gains on an
//! untouched square what it would gain there now, and the reply (the piece
//! the side to move keeps) what it would gain now. So each child patches a
//! few dozen squares where it valued every square again (and the 1.75 M
//! nodes of bench's `open` position cost 482 M instructions instead of
//! 670 M).

use crate::bitboard::Bitboard;
use crate::gains::keys::{Keys, NONE};
use crate::gains::offers::Frame;
use crate::position::Position;
use crate::search::endgame::open::last_two::Node;
use crate::types::{Piece, Placement};

/// What a node with three plies left knows for its children.
pub struct Three {
    /// The node's squares, with the side to move's gains.
    frame: Frame,
    /// Are `their_keys` those of `frame`?
    ready: bool,
    /// Does the position have the hands of three plies left (the opponent
    /// one piece, the side to move two)?
    usable: bool,
    /// The opponent's piece.
    theirs: Piece,
    /// The opponent's gains for its piece (as if it moved now).
    their_keys: Keys,
    /// A two-left node's room, lent to each child in turn.
    pub spare: Option<Box<Node>>,
}

impl Default for Three {
    fn default() -> Three {
        Three {
            frame: Frame::default(),
            ready: false,
            usable: false,
            theirs: Piece::King,
            their_keys: [NONE; 64],
            spare: None,
        }
    }
}

impl Three {
    /// Prepares for the children of `pos` (three plies left); the
    /// opponent's gains wait for the first child that asks.
    pub fn set(&mut self, pos: &Position) {
        self.frame.set(pos);
        self.ready = false;
        let us = pos.side_to_move();
        let held = |c| {
            Piece::ALL
                .into_iter()
                .filter(move |&p| pos.in_hand(c, p) > 0)
        };
        let theirs: u8 = Piece::ALL.iter().map(|&p| pos.in_hand(us.flip(), p)).sum();
        self.usable = theirs == 1 && (1..=2).contains(&held(us).count());
        if let Some(p) = held(us.flip()).next() {
            self.theirs = p;
        }
    }

    /// Starts loading the table entries of the children of `pos` (three
    /// plies left) likely searched first: the table move's before the
    /// node is prepared, then (once it is) the best gain of each kind the
    /// side to move holds, which the move picker's gains put first unless
    /// history outweighs them. Each child probes its entry soon after it
    /// is entered, and those probes waited on memory. `load` starts
    /// loading one key's entry (the search's table is the caller's).
    pub fn prefetch(
        &self,
        pos: &Position,
        moves: impl IntoIterator<Item = Placement>,
        load: impl Fn(u64),
    ) {
        for m in moves {
            load(pos.key_after(m));
        }
    }

    /// The best-gain placement of each of the first two kinds the side to
    /// move holds, in the node prepared last.
    pub fn best_gains(&self) -> impl Iterator<Item = Placement> + '_ {
        self.frame.held_best()
    }

    /// The squares of the node prepared last.
    pub fn frame(&self) -> &Frame {
        &self.frame
    }

    /// The node of `pos` (two plies left, its mover placing `piece` on
    /// `squares`, the reply `reply`) with its mover's gains: patched from
    /// the prepared node's squares if `pos` is a child of it, else valued
    /// afresh. The room is this frame's, lent out and back
    /// ([`Three::give_back`]), as copying it cost more than filling it.
    #[inline(always)]
    pub fn lend(
        &mut self,
        pos: &Position,
        piece: Piece,
        reply: Piece,
        squares: Bitboard,
    ) -> Box<Node> {
        let mut node = self.spare.take().unwrap_or_default();
        if squares != pos.empty() || !self.child(pos, piece, reply, &mut node) {
            node.scratch(pos, reply, piece, squares);
        }
        node
    }

    /// Takes back the room [`Three::lend`] lent.
    #[inline(always)]
    pub fn give_back(&mut self, node: Box<Node>) {
        self.spare = Some(node);
    }

    /// Makes `node` the node of `pos` (two plies left, its mover placing
    /// `piece` on any empty square, the reply `reply`), with its mover's
    /// gains, if `pos` is a child of the prepared node; else false.
    pub fn child(&mut self, pos: &Position, piece: Piece, reply: Piece, node: &mut Node) -> bool {
        if !self.usable || piece != self.theirs || self.frame.held_keys(reply).is_none() {
            return false;
        }
        let Some(m) = self.frame.describes_parent_of(pos) else {
            return false;
        };
        if !self.ready {
            // The opponent's gain: the map from its side.
            self.their_keys = self.frame.keys_of(self.theirs, -1);
            self.ready = true;
        }
        let Some(ours) = self.frame.held_keys(reply) else {
            return false;
        };
        let theirs = &self.their_keys;
        node.keys = *ours;
        node.gains = *theirs;
        let (keys, gains) = (&mut node.keys, &mut node.gains);
        // A change of gain moves a key by 64 per point.
        self.frame.sides.touched(m, [reply, piece], |s, loss, cut| {
            keys[s] = ours[s] - ((cut[0] + loss) * 64) as i16;
            gains[s] = theirs[s] + ((loss - cut[1]) * 64) as i16;
        });
        keys[m.square.index()] = NONE;
        gains[m.square.index()] = NONE;
        node.set(self.frame.sides.after(m), pos.diff(), reply);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Square;
    use crate::variant::Variant;

    /// Each child's node and placements in order, patched from the
    /// prepared node, equal those valued from scratch.
    #[test]
    fn children_equal_their_scratch_nodes() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..100 {
            let pos = rng.position(Variant::Open, 3);
            let mut three = Three::default();
            three.set(&pos);
            for m in pos.legal_moves().iter() {
                let mut child = pos.clone();
                child.play(m);
                let us = child.side_to_move();
                let piece = Piece::ALL
                    .into_iter()
                    .find(|&p| child.in_hand(us, p) > 0)
                    .unwrap();
                let reply = Piece::ALL
                    .into_iter()
                    .find(|&p| child.in_hand(us.flip(), p) > 0)
                    .unwrap();
                assert_eq!(pos.key_after(m), child.key());
                let mut node = Node::default();
                assert!(three.child(&child, piece, reply, &mut node));
                let mut want = Node::default();
                want.scratch(&child, reply, piece, child.empty());
                assert!(node.same(&want), "{m}");
            }
        }
    }

    /// The best gains are those of a scan of every empty square, the lower
    /// square first among equal gains, one per kind held.
    #[test]
    fn best_gains_are_those_of_a_scan() {
        let mut rng = crate::testing::Rng(0x5DEE_CE66_D1CE_4E5B);
        for _ in 0..200 {
            let pos = rng.position(Variant::Open, 3);
            let mut three = Three::default();
            three.set(&pos);
            let us = pos.side_to_move();
            let us_index = us.index();
            let want: Vec<Placement> = Piece::ALL
                .into_iter()
                .filter(|&p| pos.in_hand(us, p) > 0)
                .take(2)
                .map(|p| {
                    let gain = |s: Square| pos.square_delta(s).gain(p, us_index);
                    let best = pos.empty().max_by_key(|&s| (gain(s), -(s.index() as i32)));
                    Placement::new(p, best.unwrap())
                })
                .collect();
            assert_eq!(
                three.best_gains().collect::<Vec<_>>(),
                want,
                "{}",
                pos.fen()
            );
        }
    }
}
