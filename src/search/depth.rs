//! How deep a node is searched: the plies a depth really reaches near the
//! end of the game, and the late-move reductions of the searches that do
//! not reach it.

/// The depth a search of `depth` plies really has with `left` plies left:
/// the whole rest of the game once it is within two plies of the end, as
/// the last two plies are always solved exactly. The table then keeps the
/// result as exact, and iterative deepening needs no iteration past it.
#[inline]
pub fn reach(depth: u8, left: u8) -> u8 {
    if depth.saturating_add(2) >= left {
        left
    } else {
        depth
    }
}

/// Late-move reduction of the `n`-th move (from 0) of a node searched
/// `depth` plies deep with `left` plies left: none where the search is
/// exact (it must stay complete) or shallow, one ply from the third move,
/// two from the fifth (4 plies deep or more) and three from the eleventh
/// (5 or more); one less in PV nodes. Matches at equal time chose it (see the commit).
#[inline]
pub fn reduction(depth: u8, left: u8, n: usize, pv_node: bool) -> u8 {
    if depth >= left || depth < 3 || n < 2 {
        return 0;
    }
    let r = 1 + u8::from(n >= 4 && depth >= 4) + u8::from(n >= 10 && depth >= 5);
    r - u8::from(pv_node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_stay_out_of_exact_searches_and_leave_a_ply() {
        for left in 0..=16u8 {
            for depth in 1..=16u8 {
                let depth = reach(depth, left);
                for n in 0..64 {
                    for pv in [false, true] {
                        let r = reduction(depth, left, n, pv);
                        if depth >= left || n < 2 {
                            assert_eq!(r, 0, "depth {depth} left {left} move {n}");
                        }
                        assert!(r < depth.max(1), "depth {depth} move {n}: r {r}");
                    }
                }
            }
        }
        assert_eq!(reduction(8, 16, 20, false), 3);
        assert_eq!(reduction(8, 16, 20, true), 2);
    }
}
