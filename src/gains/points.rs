//! The points a slider would earn on an empty square, from the empty segment
//! of each line through it: along one line a slider sees the whole segment
//! but its own square, whichever way it looks. Each line's occupancy is
//! gathered into a byte (a shift for ranks, a multiplication for files and
//! diagonals) and the segment read from a table: a few operations per
//! square, where scanning the eight rays takes some forty per line.

use crate::attacks::{self, RAYS};
use crate::bitboard::Bitboard;
use crate::types::{Piece, Square};

/// `SEGMENT[byte][i]`: the length of the run of zero bits of `byte` that
/// holds bit `i` (0 if bit `i` is set).
const SEGMENT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 0 {
                let (mut lo, mut hi) = (i, i);
                while lo > 0 && b >> (lo - 1) & 1 == 0 {
                    lo -= 1;
                }
                while hi < 7 && b >> (hi + 1) & 1 == 0 {
                    hi += 1;
                }
                t[b][i] = (hi - lo + 1) as u8;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// The diagonal (`[0]`, file and rank rising together) and anti-diagonal
/// (`[1]`) through each square: the two opposite rays and the square.
const DIAGONALS: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut s = 0;
    while s < 64 {
        t[0][s] = RAYS[2][s] | RAYS[6][s] | 1 << s;
        t[1][s] = RAYS[3][s] | RAYS[7][s] | 1 << s;
        s += 1;
    }
    t
};

/// The bits of a diagonal's byte for files it does not cross: set, so that
/// they end a segment as the board's edge does.
const OUTSIDE: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut k = 0;
    while k < 2 {
        let mut s = 0;
        while s < 64 {
            t[k][s] = !gather(DIAGONALS[k][s]);
            s += 1;
        }
        k += 1;
    }
    t
};

/// The occupancy of a set holding at most one square per file, as a byte
/// by file: the bytes summed into the top one, no two bits colliding.
#[inline(always)]
const fn gather(x: u64) -> u8 {
    (x.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
}

/// The empty squares a rook on the empty square `s` would attack, given
/// the occupied squares `occ`.
#[inline(always)]
pub fn rook_points(occ: Bitboard, s: Square) -> i32 {
    let occ = occ.0;
    let (f, r) = (s.file() as usize, s.rank() as usize);
    let rank = (occ >> (8 * r)) as u8;
    // The file's bits, rank by rank, shifted to distinct places of the top byte.
    let file = file_byte(occ, f);
    SEGMENT[rank as usize][f] as i32 + SEGMENT[file as usize][r] as i32 - 2
}

/// The empty squares a bishop on the empty square `s` would attack.
#[inline(always)]
pub fn bishop_points(occ: Bitboard, s: Square) -> i32 {
    let (occ, f, i) = (occ.0, s.file() as usize, s.index());
    let diag = gather(occ & DIAGONALS[0][i]) | OUTSIDE[0][i];
    let anti = gather(occ & DIAGONALS[1][i]) | OUTSIDE[1][i];
    SEGMENT[diag as usize][f] as i32 + SEGMENT[anti as usize][f] as i32 - 2
}

/// What a rook and a bishop would attack on each empty square, given the
/// occupied squares `occ` (no meaning on occupied squares): each line's
/// segments read once for all its squares, where [`rook_points`] and
/// [`bishop_points`] read two lines per square.
pub fn slider_points(occ: Bitboard) -> ([i8; 64], [i8; 64]) {
    let occ = occ.0;
    let mut rook = [0i8; 64];
    let mut bishop = [0i8; 64];
    let mut diag = [0u8; 15];
    let mut anti = [0u8; 15];
    for i in 0..8 {
        // The squares of the i-th file, and the first square of each
        // diagonal and anti-diagonal (those of rank 0 and of file 0 or 7).
        let rank = &SEGMENT[(occ >> (8 * i)) as u8 as usize];
        for f in 0..8 {
            rook[8 * i + f] = rank[f] as i8 - 2;
        }
        let (low, high) = (i, 8 * i);
        diag[7 + i] = gather(occ & DIAGONALS[0][low]) | OUTSIDE[0][low];
        diag[7 - i] = gather(occ & DIAGONALS[0][high]) | OUTSIDE[0][high];
        anti[i] = gather(occ & DIAGONALS[1][low]) | OUTSIDE[1][low];
        anti[7 + i] = gather(occ & DIAGONALS[1][high + 7]) | OUTSIDE[1][high + 7];
    }
    for f in 0..8 {
        let file = &SEGMENT[file_byte(occ, f) as usize];
        for r in 0..8 {
            rook[8 * r + f] += file[r] as i8;
            let (d, a) = (7 + f - r, f + r);
            bishop[8 * r + f] =
                (SEGMENT[diag[d] as usize][f] + SEGMENT[anti[a] as usize][f]) as i8 - 2;
        }
    }
    (rook, bishop)
}

/// The occupancy of file `f`, rank by rank.
#[inline(always)]
fn file_byte(occ: u64, f: usize) -> u8 {
    (((occ >> f) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// The points `piece` would earn on the empty square `s`.
#[inline(always)]
pub fn own_points(occ: Bitboard, piece: Piece, s: Square) -> i32 {
    match piece {
        Piece::King => king_points(occ, s),
        Piece::Queen => queen_points(occ, s),
        Piece::Rook => rook_points(occ, s),
        Piece::Bishop => bishop_points(occ, s),
        Piece::Knight => knight_points(occ, s),
    }
}

/// `$body` with `$p` a constant, the index of `$piece`: a loop over
/// squares in `$body` that values the piece ([`own_points`] of
/// `Piece::ALL[$p]`) is then compiled once per piece, with no branch on
/// the piece at each square.
macro_rules! with_piece_const {
    ($piece:expr, $p:ident => $body:expr) => {
        match $piece {
            crate::types::Piece::King => {
                const $p: usize = 0;
                $body
            }
            crate::types::Piece::Queen => {
                const $p: usize = 1;
                $body
            }
            crate::types::Piece::Rook => {
                const $p: usize = 2;
                $body
            }
            crate::types::Piece::Bishop => {
                const $p: usize = 3;
                $body
            }
            crate::types::Piece::Knight => {
                const $p: usize = 4;
                $body
            }
        }
    };
}
pub(crate) use with_piece_const;

/// The points a King would earn on the empty square `s`.
#[inline(always)]
pub fn king_points(occ: Bitboard, s: Square) -> i32 {
    (attacks::king(s) & !occ).count() as i32
}

/// The points a Knight would earn on the empty square `s`.
#[inline(always)]
pub fn knight_points(occ: Bitboard, s: Square) -> i32 {
    (attacks::knight(s) & !occ).count() as i32
}

/// The points a Queen would earn on the empty square `s`.
#[inline(always)]
pub fn queen_points(occ: Bitboard, s: Square) -> i32 {
    rook_points(occ, s) + bishop_points(occ, s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_points_match_attacks() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..2000 {
            let x = rng.next();
            let occ = Bitboard(x & x.rotate_left(17));
            for s in !occ {
                let points = |p| (attacks::attacks(p, s, occ) & !occ).count() as i32;
                assert_eq!(rook_points(occ, s), points(Piece::Rook));
                assert_eq!(bishop_points(occ, s), points(Piece::Bishop));
                for p in Piece::ALL {
                    assert_eq!(own_points(occ, p, s), points(p));
                }
                let (rook, bishop) = slider_points(occ);
                assert_eq!(rook[s.index()] as i32, points(Piece::Rook));
                assert_eq!(bishop[s.index()] as i32, points(Piece::Bishop));
            }
        }
    }
}
