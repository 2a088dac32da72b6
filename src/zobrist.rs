//! Zobrist keys, generated at compile time from a fixed seed.

use crate::types::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 64]; 5]; 2],
    last: [u64; 64],
    queen_call: u64,
}

const fn make_keys() -> Keys {
    let mut k = Keys {
        pieces: [[[0; 64]; 5]; 2],
        last: [0; 64],
        queen_call: 0,
    };
    let mut state = 0x0005_EEDC_4E7E_1251_u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < 5 {
            let mut s = 0;
            while s < 64 {
                let (st, v) = splitmix(state);
                state = st;
                k.pieces[c][p][s] = v;
                s += 1;
            }
            p += 1;
        }
        c += 1;
    }
    let mut s = 0;
    while s < 64 {
        let (st, v) = splitmix(state);
        state = st;
        k.last[s] = v;
        s += 1;
    }
    k.queen_call = splitmix(state).1;
    k
}

static KEYS: Keys = make_keys();

/// The key of `piece` of `color` standing on `sq`.
#[inline]
pub fn piece(color: Color, piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[color.index()][piece.index()][sq.index()]
}

/// The key of "the last placement was on `sq`", for variants where it matters.
#[inline]
pub fn last(sq: Square) -> u64 {
    KEYS.last[sq.index()]
}

/// The key of a pending queen call.
#[inline]
pub fn queen_call() -> u64 {
    KEYS.queen_call
}
