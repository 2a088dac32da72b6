//! Attack sets, built at compile time: K and N from tables, sliders from rays.

use crate::bitboard::Bitboard;
use crate::types::{Piece, Square};

/// The eight ray directions as (file step, rank step). The first four point to
/// higher square indices, the last four to lower ones.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// Is direction `d` a rook direction (rank or file)?
#[inline]
pub const fn is_orthogonal(d: usize) -> bool {
    d % 4 < 2
}

/// The change of square index one step in direction `d` makes.
#[inline]
pub const fn step(d: usize) -> isize {
    let (f, r) = DIRECTIONS[d];
    f as isize + 8 * r as isize
}

/// The nearest of `blockers` (a non-empty set on one ray from a square in
/// direction `d`): the lowest index upwards, the highest downwards.
#[inline]
pub const fn nearest(d: usize, blockers: u64) -> usize {
    if d < 4 {
        blockers.trailing_zeros() as usize
    } else {
        63 - blockers.leading_zeros() as usize
    }
}

/// The direction opposite to `d`.
#[inline]
pub const fn opposite(d: usize) -> usize {
    (d + 4) % 8
}

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

const fn ray_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                t[d][sq] |= 1 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

const KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

const KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

const fn distance_table() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let df = (a % 8) as i32 - (b % 8) as i32;
            let dr = (a / 8) as i32 - (b / 8) as i32;
            let (df, dr) = (if df < 0 { -df } else { df }, if dr < 0 { -dr } else { dr });
            t[a][b] = if df > dr { df } else { dr } as u8;
            b += 1;
        }
        a += 1;
    }
    t
}

/// `DISTANCE[a][b]`: king steps between two squares (Chebyshev distance).
pub const DISTANCE: [[u8; 64]; 64] = distance_table();

/// `RAY_LEN[d][sq]`: how many squares the ray from `sq` in direction `d` holds.
pub const RAY_LEN: [[u8; 64]; 8] = {
    let mut t = [[0u8; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            t[d][sq] = RAYS[d][sq].count_ones() as u8;
            sq += 1;
        }
        d += 1;
    }
    t
};

/// `RAYS[d][sq]`: every square from `sq` (exclusive) to the edge in direction `d`.
pub const RAYS: [[u64; 64]; 8] = ray_table();

/// The squares a king on `sq` attacks.
#[inline]
pub const fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a knight on `sq` attacks.
#[inline]
pub const fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// The squares of the ray from `sq` in direction `d`, up to and including the
/// first occupied square.
#[inline]
pub const fn ray(d: usize, sq: Square, occ: Bitboard) -> Bitboard {
    let r = RAYS[d][sq.index()];
    let b = r & occ.0;
    // The ray is kept up to its nearest blocker, all of it if there is
    // none, by a mask made without a branch (the branch on a blocker was
    // often mispredicted) nor a second table read. Upwards: the lowest
    // blocker and every square below it. Downwards: the highest blocker
    // and every square above it, with a1 as a blocker that cuts nothing
    // (no downward ray holds a square below a1).
    let keep = if d < 4 {
        b ^ b.wrapping_sub(1)
    } else {
        !((u64::MAX >> 1) >> (b | 1).leading_zeros())
    };
    Bitboard(r & keep)
}

/// The union of [`ray`] from every square of `sliders` in direction `D`,
/// `empty` the squares not occupied: a fill that doubles its step three
/// times, some twenty operations for all the sliders at once where each
/// ray takes ten.
#[inline(always)]
pub const fn fill<const D: usize>(sliders: u64, empty: u64) -> u64 {
    let d = D;
    // The squares a step in direction `d` may land on: not across the edge.
    let within = match DIRECTIONS[d].0 {
        1 => 0xFEFE_FEFE_FEFE_FEFE,
        -1 => 0x7F7F_7F7F_7F7F_7F7F,
        _ => u64::MAX,
    };
    let (mut reached, mut open) = (sliders, empty & within);
    reached |= open & shift(d, reached, 1);
    open &= shift(d, open, 1);
    reached |= open & shift(d, reached, 2);
    open &= shift(d, open, 2);
    reached |= open & shift(d, reached, 4);
    shift(d, reached, 1) & within
}

/// `b` moved `n` steps in direction `d`, what leaves the board dropped
/// (not what wraps round an edge: [`fill`] masks that).
#[inline(always)]
const fn shift(d: usize, b: u64, n: u32) -> u64 {
    let s = step(d);
    if s > 0 {
        b << (s as u32 * n)
    } else {
        b >> ((-s) as u32 * n)
    }
}

/// The first occupied square from `sq` in direction `d`, if any.
#[inline]
pub const fn first_blocker(d: usize, sq: Square, occ: Bitboard) -> Option<Square> {
    let blockers = RAYS[d][sq.index()] & occ.0;
    if blockers == 0 {
        None
    } else {
        Some(Square::from_index(nearest(d, blockers)))
    }
}

/// Rook attacks from `sq` with blockers `occ`.
#[inline]
pub const fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ray(0, sq, occ).0 | ray(1, sq, occ).0 | ray(4, sq, occ).0 | ray(5, sq, occ).0)
}

/// Bishop attacks from `sq` with blockers `occ`.
#[inline]
pub const fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ray(2, sq, occ).0 | ray(3, sq, occ).0 | ray(6, sq, occ).0 | ray(7, sq, occ).0)
}

/// The squares `piece` on `sq` attacks, sliders stopping at the first blocker.
#[inline]
pub fn attacks(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    match piece {
        Piece::King => king(sq),
        Piece::Knight => knight(sq),
        Piece::Rook => rook(sq, occ),
        Piece::Bishop => bishop(sq, occ),
        Piece::Queen => rook(sq, occ) | bishop(sq, occ),
    }
}

/// Does `piece` attack along direction `d` (a slider of the right kind)?
#[inline]
pub const fn slides_along(piece: Piece, d: usize) -> bool {
    match piece {
        Piece::Queen => true,
        Piece::Rook => is_orthogonal(d),
        Piece::Bishop => !is_orthogonal(d),
        _ => false,
    }
}

/// Slow reference: attacks by stepping square by square. For tests.
pub fn attacks_reference(piece: Piece, sq: Square, occ: Bitboard) -> Bitboard {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let mut out = Bitboard::EMPTY;
    let on = |f: i32, r: i32| Square::from_coords(f as u8, r as u8).filter(|_| f >= 0 && r >= 0);
    let jumps: &[(i32, i32)] = match piece {
        Piece::King => &[
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ],
        Piece::Knight => &[
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ],
        _ => &[],
    };
    for &(df, dr) in jumps {
        if let Some(t) = on(f + df, r + dr) {
            out |= Bitboard::from_square(t);
        }
    }
    for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
        if !slides_along(piece, d) {
            continue;
        }
        let (df, dr) = (df as i32, dr as i32);
        let (mut nf, mut nr) = (f + df, r + dr);
        while let Some(t) = on(nf, nr) {
            out |= Bitboard::from_square(t);
            if occ.has(t) {
                break;
            }
            nf += df;
            nr += dr;
        }
    }
    out
}

/// `TOWARDS[(k - t) & 31]`: the direction (of [`DIRECTIONS`])
/// from a square `k` to its neighbour `t`, by the step `k - t` in -9..=9
/// (masked, so that the index needs no bounds check).
const TOWARDS: [u8; 32] = {
    let mut t = [0u8; 32];
    let mut d = 0;
    while d < 8 {
        t[(step(d) as usize).wrapping_neg() & 31] = d as u8;
        d += 1;
    }
    t
};

/// The direction from `k` to its neighbour `t`.
#[inline(always)]
pub fn towards(k: Square, t: Square) -> usize {
    TOWARDS[k.index().wrapping_sub(t.index()) & 31] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn towards_points_from_each_square_to_its_neighbour() {
        for t in Square::all() {
            for k in king(t) {
                let d = towards(k, t);
                let first = RAYS[d][k.index()] & king(k).0;
                assert_eq!(first, Bitboard::from_square(t).0, "{k} -> {t}");
            }
        }
    }

    #[test]
    fn fills_are_unions_of_rays() {
        let mut rng = crate::testing::Rng(0x51ED_2701_9E1B_3C55);
        for occ in occupancies() {
            let sliders = occ.0 & rng.next() & rng.next();
            for d in 0..8 {
                let mut want = 0;
                for s in Bitboard(sliders) {
                    want |= ray(d, s, occ).0;
                }
                let filled = [
                    fill::<0>, fill::<1>, fill::<2>, fill::<3>, fill::<4>, fill::<5>, fill::<6>,
                    fill::<7>,
                ][d](sliders, !occ.0);
                assert_eq!(filled, want, "{d} {:x} {sliders:x}", occ.0);
            }
        }
    }

    fn occupancies() -> impl Iterator<Item = Bitboard> {
        let mut rng = crate::testing::Rng(0x9E37_79B9_7F4A_7C15);
        (0..300).map(move |i| {
            let x = rng.next();
            // Vary the density: sparse, medium and dense boards.
            Bitboard(match i % 3 {
                0 => x & x.rotate_left(17) & x.rotate_left(31),
                1 => x & x.rotate_left(23),
                _ => x,
            })
        })
    }

    #[test]
    fn tables_match_the_reference() {
        for occ in occupancies() {
            for sq in Square::all() {
                for p in Piece::ALL {
                    assert_eq!(
                        attacks(p, sq, occ),
                        attacks_reference(p, sq, occ),
                        "{p:?} {sq}"
                    );
                }
            }
        }
    }

    #[test]
    fn first_blocker_is_the_end_of_the_ray() {
        for occ in occupancies() {
            for sq in Square::all() {
                for d in 0..8 {
                    let r = ray(d, sq, occ);
                    match first_blocker(d, sq, occ) {
                        Some(b) => assert!(r.has(b) && occ.has(b)),
                        None => assert!((r & occ).is_empty()),
                    }
                }
            }
        }
    }

    #[test]
    fn distances_and_ray_lengths() {
        for a in Square::all() {
            for d in 0..8 {
                let r = Bitboard(RAYS[d][a.index()]);
                assert_eq!(RAY_LEN[d][a.index()] as u32, r.count());
                for b in r {
                    let steps = Bitboard(RAYS[d][a.index()] & !RAYS[d][b.index()]).count();
                    assert_eq!(DISTANCE[a.index()][b.index()] as u32, steps);
                }
            }
        }
    }

    #[test]
    fn opposite_directions() {
        for d in 0..8 {
            let (a, b) = (DIRECTIONS[d], DIRECTIONS[opposite(d)]);
            assert_eq!((a.0 + b.0, a.1 + b.1), (0, 0));
            assert_eq!(is_orthogonal(d), a.0 == 0 || a.1 == 0);
        }
    }
}
