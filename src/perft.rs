//! Perft: counting the leaves of the game tree, the contract of move generation.

use crate::position::Position;
use crate::types::Placement;

/// The number of positions `depth` placements ahead (bulk-counted at the
/// last ply). A finished game counts as one leaf at any depth.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 || pos.is_over() {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.count();
    }
    let mut total = 0;
    for pl in moves.iter() {
        let u = pos.play(pl);
        total += perft(pos, depth - 1);
        pos.undo(pl, u);
    }
    total
}

/// Perft split by the first placement, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Placement, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .to_vec()
        .into_iter()
        .map(|pl| {
            let u = pos.play(pl);
            let n = perft(pos, depth - 1);
            pos.undo(pl, u);
            (pl, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn start_counts_of_rules_md() {
        let mut p = Position::new(Variant::Standard);
        assert_eq!([1, 2, 3].map(|d| perft(&mut p, d)), [64, 1680, 50232]);
        let mut p = Position::new(Variant::Open);
        assert_eq!([1, 2].map(|d| perft(&mut p, d)), [64, 4032]);
        let mut p = Position::new(Variant::Original);
        assert_eq!([1, 2].map(|d| perft(&mut p, d)), [320, 18340]);
    }

    #[test]
    fn divide_sums_to_perft() {
        let mut p = Position::new(Variant::Standard);
        let d = divide(&mut p, 2);
        assert_eq!(d.len(), 64);
        assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 1680);
    }
}
