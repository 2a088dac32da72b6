//! The canonical (symmetry-reduced) form of a position: the key of the
//! solution store and the book.
//!
//! The key is the position string of the image, among the board's eight
//! symmetries, whose string comes first; its last square is written `-`
//! wherever the variant's rules ignore it (the position key then has no
//! part from it), so that move orders reaching one board meet.

use crate::position::Position;
use crate::symmetry::transform;
use crate::types::{Color, Placement, Square};

/// A position's canonical key and the symmetry that maps it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The key: the image's board, side and last square (`-` where it
    /// does not matter).
    pub key: String,
    /// The image's full position string (its real last square): a
    /// position that `Position::from_fen` reads back.
    pub fen: String,
    /// The symmetry (see [`transform`]) that maps the position onto the image.
    pub sym: usize,
}

impl Canonical {
    /// The canonical form of `pos`.
    pub fn of(pos: &Position) -> Canonical {
        let last_matters = pos.key() != pos.piece_hash();
        let mut best: Option<Canonical> = None;
        for g in 0..8 {
            let board = image_board(pos, g);
            let side = pos.side_to_move().letter();
            let last = pos.last().map(|s| transform(g, s).to_string());
            let last = last.as_deref().unwrap_or("-");
            let key_last = if last_matters { last } else { "-" };
            let key = format!("{board} {side} {key_last}");
            if best.as_ref().is_none_or(|b| key < b.key) {
                let fen = format!("{board} {side} {last}");
                best = Some(Canonical { key, fen, sym: g });
            }
        }
        best.expect("eight symmetries")
    }

    /// `m` of the position, as a placement of the image.
    pub fn to_image(&self, m: Placement) -> Placement {
        Placement::new(m.piece, transform(self.sym, m.square))
    }

    /// `m` of the image, as a placement of the position.
    pub fn from_image(&self, m: Placement) -> Placement {
        Placement::new(m.piece, transform(inverse(self.sym), m.square))
    }
}

/// The symmetry that undoes `g`.
pub fn inverse(g: usize) -> usize {
    (0..8)
        .find(|&h| Square::all().all(|s| transform(h, transform(g, s)) == s))
        .expect("the symmetries form a group")
}

/// The board field of the image of `pos` under `g`.
fn image_board(pos: &Position, g: usize) -> String {
    let back = inverse(g);
    let mut s = String::with_capacity(40);
    for rank in (0..8).rev() {
        let mut run = 0u8;
        for file in 0..8 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            match pos.piece_at(transform(back, sq)) {
                None => run += 1,
                Some((c, p)) => {
                    if run > 0 {
                        s.push(char::from(b'0' + run));
                        run = 0;
                    }
                    let l = p.letter();
                    s.push(if c == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
        if run > 0 {
            s.push(char::from(b'0' + run));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn identity_image_is_the_position_string() {
        let fen = "8/8/8/4q3/3K4/8/8/8 w e5";
        let pos = Position::from_fen(fen, Variant::Original).unwrap();
        let c = Canonical::of(&pos);
        let back = Position::from_fen(&c.fen, Variant::Original).unwrap();
        assert_eq!(Canonical::of(&back).key, c.key);
        assert_eq!(image_board(&pos, 0), fen.split(' ').next().unwrap());
    }

    #[test]
    fn symmetric_images_share_one_key_and_moves_map_back() {
        for v in Variant::ALL {
            let mut a = Position::new(v);
            let mut b = Position::new(v);
            let king: Placement = "K@b1".parse().unwrap();
            a.play(king);
            // b1 mirrored across the a1-h8 diagonal is a2.
            b.play("K@a2".parse().unwrap());
            let (ca, cb) = (Canonical::of(&a), Canonical::of(&b));
            assert_eq!(ca.key, cb.key, "{v}");
            let m = a.legal_moves().iter().next().unwrap();
            assert_eq!(ca.from_image(ca.to_image(m)), m);
            let image = Position::from_fen(&ca.fen, v).unwrap();
            assert!(image.legal_moves().contains(ca.to_image(m)), "{v}");
        }
    }
}
