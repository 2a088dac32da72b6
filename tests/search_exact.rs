//! The search against an independent, exhaustive minimax: on random positions
//! with up to five plies left, in every variant, the reported score is the
//! game's exact value and the chosen move attains it.

use cheversi::search::{Control, Event, INFINITE, Limits, Options, Searcher};
use cheversi::{Color, Position, Variant};

/// Points counted from scratch at the end: independent of the incremental score.
fn final_diff(pos: &Position, us: Color) -> i32 {
    let p = pos.points_from_scratch();
    p[us.index()] - p[us.flip().index()]
}

/// Plain exhaustive minimax: every line to the end, no pruning, no table.
fn minimax(pos: &mut Position) -> i32 {
    if pos.is_over() {
        return final_diff(pos, pos.side_to_move());
    }
    let mut best = i32::MIN;
    for m in pos.legal_moves().to_vec() {
        let u = pos.play(m);
        best = best.max(-minimax(pos));
        pos.undo(m, u);
    }
    best
}

/// Counts the game tree's leaves, giving up (`None`) past `budget`.
fn leaves_within(pos: &mut Position, budget: &mut u64) -> Option<()> {
    if pos.is_over() {
        *budget = budget.checked_sub(1)?;
        return Some(());
    }
    let moves = pos.legal_moves();
    if pos.plies_left() == 1 {
        *budget = budget.checked_sub(moves.count())?;
        return Some(());
    }
    for m in moves.to_vec() {
        let u = pos.play(m);
        let r = leaves_within(pos, budget);
        pos.undo(m, u);
        r?;
    }
    Some(())
}

/// Plain fail-hard alpha-beta in generation order, no table: the reference
/// where the full minimax tree is too big (open, four plies left).
fn alphabeta(pos: &mut Position, mut alpha: i32, beta: i32) -> i32 {
    if pos.is_over() {
        return final_diff(pos, pos.side_to_move());
    }
    for m in pos.legal_moves().to_vec() {
        let u = pos.play(m);
        let v = -alphabeta(pos, -beta, -alpha);
        pos.undo(m, u);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// The exact value: minimax when the tree is small, alpha-beta otherwise.
fn reference(pos: &Position) -> i32 {
    let mut p = pos.clone();
    if leaves_within(&mut p, &mut 400_000).is_some() {
        minimax(&mut p)
    } else {
        alphabeta(&mut p, -1000, 1000)
    }
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A random position with `left` plies left; with five left, one whose game
/// tree is small enough for the minimax (at most `budget` leaves), `None`
/// after a few tries.
fn random_position(v: Variant, left: u8, budget: u64, rng: &mut Rng) -> Option<Position> {
    for _ in 0..20 {
        let mut pos = Position::new(v);
        while pos.plies_left() > left {
            let moves = pos.legal_moves().to_vec();
            pos.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        if left < 5 || leaves_within(&mut pos.clone(), &mut budget.clone()).is_some() {
            return Some(pos);
        }
    }
    None
}

fn check_variant(v: Variant, seed: u64) {
    let mut rng = Rng(seed);
    let mut searcher = Searcher::new(Options::default());
    let control = Control::default();
    let mut by_left = [0usize; 6];
    let mut tested = 0;
    while tested < 200 {
        let left = 1 + rng.below(5) as u8;
        let Some(pos) = random_position(v, left, 400_000, &mut rng) else {
            continue;
        };
        let want = reference(&pos);
        let limits = Limits {
            depth: Some(99),
            ..Limits::default()
        };
        let mut last = None;
        let out = searcher.go(&pos, &limits, &control, &mut |e| {
            if let Event::Info(i) = e {
                last = Some(i);
            }
        });
        let info = last.expect("the search reports at least one line");
        let fen = pos.fen();
        assert!(info.exact, "{v} {fen}: not marked exact");
        assert_eq!(info.score, want * 100, "{v} {fen}: wrong value");
        let best = out.best.expect("a move exists");
        assert!(
            pos.legal_moves().contains(best),
            "{v} {fen}: illegal {best}"
        );
        let mut after = pos.clone();
        after.play(best);
        assert_eq!(
            -reference(&after),
            want,
            "{v} {fen}: {best} misses the value"
        );
        by_left[left as usize] += 1;
        tested += 1;
        if tested % 50 == 0 {
            searcher.clear();
        }
    }
    eprintln!("{v}: positions by plies left {:?}", &by_left[1..]);
    assert!(by_left[4] + by_left[5] >= 40, "{v}: too few deep positions");
}

#[test]
fn standard_scores_are_exact() {
    check_variant(Variant::Standard, 0x1234_5678);
}

#[test]
fn open_scores_are_exact() {
    check_variant(Variant::Open, 0x2345_6789);
}

#[test]
fn original_scores_are_exact() {
    check_variant(Variant::Original, 0x3456_789a);
}

#[test]
fn windows_bound_the_exact_value() {
    let mut rng = Rng(77);
    let mut searcher = Searcher::new(Options::default());
    for _ in 0..60 {
        let pos = random_position(Variant::Standard, 4, 400_000, &mut rng).expect("small tree");
        let want = reference(&pos) * 100;
        let (v, _) = searcher.solve(&pos, -1, 1);
        assert_eq!(v.signum(), want.signum(), "{}", pos.fen());
        let (v, _) = searcher.solve(&pos, -INFINITE, INFINITE);
        assert_eq!(v, want, "{}", pos.fen());
        let (v, _) = searcher.solve(&pos, want - 1, want + 1);
        assert_eq!(v, want);
        let (hi, _) = searcher.solve(&pos, want, want + 1);
        assert!(hi <= want);
        let (lo, _) = searcher.solve(&pos, want - 1, want);
        assert!(lo >= want);
    }
}

/// Six and seven plies left, where nodes searched to the end look for a
/// transposition cutoff among their children's entries before searching
/// them: the same searcher searches each position two and three plies
/// deep, then solves it through several windows
/// (so the table holds the children's proofs from the earlier ones), and
/// every answer agrees with plain alpha-beta.
#[test]
fn deep_solves_through_a_kept_table_agree_with_plain_alpha_beta() {
    let mut rng = Rng(0x5EED_0006);
    for v in [Variant::Standard, Variant::Original] {
        let mut searcher = Searcher::new(Options::default());
        for i in 0..8 {
            let left = 6 + (i % 2) as u8;
            let mut pos = Position::new(v);
            while pos.plies_left() > left {
                let moves = pos.legal_moves().to_vec();
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            let want = alphabeta(&mut pos.clone(), -1000, 1000) * 100;
            // Shallow searches first: their entries (not to the end) must
            // never cut a search to the end.
            for depth in [2, 3] {
                let limits = Limits {
                    depth: Some(depth),
                    ..Limits::default()
                };
                searcher.go(&pos, &limits, &Control::default(), &mut |_| {});
            }
            for (alpha, beta) in [(want, want + 1), (want - 1, want), (-1, 1)] {
                let (got, _) = searcher.solve(&pos, alpha, beta);
                let ok = if want <= alpha {
                    got <= alpha && got >= want
                } else if want >= beta {
                    got >= beta && got <= want
                } else {
                    got == want
                };
                assert!(
                    ok,
                    "{v} {}: ({alpha}, {beta}) gave {got}, value {want}",
                    pos.fen()
                );
            }
            let (got, _) = searcher.solve(&pos, -INFINITE, INFINITE);
            assert_eq!(got, want, "{v} {}", pos.fen());
        }
    }
}
