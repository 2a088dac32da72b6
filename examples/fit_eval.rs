//! Fits the evaluation weights (`src/eval/weights.rs`) by least squares.
//!
//! Games are played by a noisy greedy player; every position gets as its
//! target the exact value of the game from the first position with `SOLVE`
//! plies left reached in that game (solved by the search), seen from the
//! position's side to move; positions nearer the end get their own exact value.
//! One linear model per variant and plies left.
//!
//! `cargo run --release --example fit_eval -- [games per variant] > src/eval/weights.rs`
//!
//! The games per variant are one count for all, or three (`standard`,
//! `open`, `original`) joined by commas, as the committed weights were
//! made: `300,2000,2000`.

mod common;
use cheversi::eval::{FEATURES, features, variant_index};
use cheversi::search::{Options, Searcher};
use cheversi::{Position, Variant};
use common::Rng;

/// Plies left at which games are solved exactly, per variant (the free
/// variants branch more, so they are solved later).
fn solve_at(v: Variant) -> u8 {
    match v {
        Variant::Standard => 7,
        _ => 5,
    }
}

/// A greedy move (highest gain) three times in four, else a random one.
fn noisy_greedy(pos: &Position, rng: &mut Rng) -> cheversi::Placement {
    let moves = pos.legal_moves().to_vec();
    if rng.below(4) == 0 {
        return moves[rng.below(moves.len() as u64) as usize];
    }
    let best = moves.iter().map(|&m| pos.gain(m)).max().unwrap_or(0);
    let top: Vec<_> = moves.into_iter().filter(|&m| pos.gain(m) == best).collect();
    top[rng.below(top.len() as u64) as usize]
}

/// Samples (plies left, features, target in points) from one game.
fn game(v: Variant, s: &mut Searcher, rng: &mut Rng, out: &mut Vec<(u8, [i32; FEATURES], f64)>) {
    let mut pos = Position::new(v);
    let mut early = Vec::new();
    while pos.plies_left() > solve_at(v) {
        early.push((pos.plies_left(), features(&pos)));
        let m = noisy_greedy(&pos, rng);
        pos.play(m);
    }
    let (value, _) = s.solve(
        &pos,
        -cheversi::search::INFINITE,
        cheversi::search::INFINITE,
    );
    let at = pos.plies_left();
    for (left, f) in early {
        // Same side to move when the plies differ by an even number.
        let sign = if (left - at).is_multiple_of(2) {
            1.0
        } else {
            -1.0
        };
        out.push((left, f, sign * value as f64 / 100.0));
    }
    while pos.plies_left() > 2 {
        let (value, _) = s.solve(
            &pos,
            -cheversi::search::INFINITE,
            cheversi::search::INFINITE,
        );
        out.push((pos.plies_left(), features(&pos), value as f64 / 100.0));
        let m = noisy_greedy(&pos, rng);
        pos.play(m);
    }
}

/// Is feature `i` fitted in variant `v`? The last one, the squares the
/// piece placed last attacks, is what the side to move may take in
/// `original` and means nothing of the kind in `standard`, where every
/// placement touches the board; `standard` keeps its earlier model
/// (its 12-left win/draw/loss solves turned on the guess search's first
/// root move: see the commit).
fn fitted(v: Variant, i: usize) -> bool {
    i + 1 < FEATURES || v != Variant::Standard
}

/// Least squares by the normal equations with a little ridge, solved by
/// Gaussian elimination; the features not `fitted` stay at zero.
fn least_squares(v: Variant, rows: &[([i32; FEATURES], f64)]) -> [f64; FEATURES] {
    let mut a = [[0.0f64; FEATURES + 1]; FEATURES];
    for (f, y) in rows {
        let f: [i32; FEATURES] = std::array::from_fn(|i| if fitted(v, i) { f[i] } else { 0 });
        for i in 0..FEATURES {
            for j in 0..FEATURES {
                a[i][j] += f[i] as f64 * f[j] as f64;
            }
            a[i][FEATURES] += f[i] as f64 * y;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-3 * rows.len().max(1) as f64;
    }
    for c in 0..FEATURES {
        let p = (c..FEATURES)
            .max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        if a[c][c].abs() < 1e-12 {
            continue;
        }
        let pivot = a[c];
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let k = row[c] / pivot[c];
                for (x, p) in row.iter_mut().zip(pivot.iter()).skip(c) {
                    *x -= k * p;
                }
            }
        }
    }
    let mut w = [0.0; FEATURES];
    for i in 0..FEATURES {
        if a[i][i].abs() >= 1e-12 {
            w[i] = a[i][FEATURES] / a[i][i];
        }
    }
    w
}

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "300".into());
    let counts: Vec<u64> = arg.split(',').filter_map(|c| c.parse().ok()).collect();
    let games = |v: Variant| match counts.as_slice() {
        [all] => *all,
        [a, b, c] => [*a, *b, *c][variant_index(v)],
        _ => {
            eprintln!("games: one count, or three joined by commas");
            std::process::exit(2);
        }
    };
    let mut table = [[[0i32; FEATURES]; 17]; 3];
    for v in Variant::ALL {
        let mut s = Searcher::new(Options {
            hash_mb: 32,
            ..Options::default()
        });
        let mut rng = Rng(0x0F17_E7A1 + variant_index(v) as u64);
        let mut data = Vec::new();
        for _ in 0..games(v) {
            game(v, &mut s, &mut rng, &mut data);
        }
        for left in 0..=16u8 {
            let rows: Vec<_> = data
                .iter()
                .filter(|r| r.0 == left)
                .map(|r| (r.1, r.2))
                .collect();
            let w = if rows.len() < 2 * FEATURES {
                let mut d = [0.0; FEATURES];
                d[0] = 1.0;
                d
            } else {
                least_squares(v, &rows)
            };
            let err: f64 = rows
                .iter()
                .map(|(f, y)| {
                    let p: f64 = (0..FEATURES).map(|i| w[i] * f[i] as f64).sum();
                    (p - y) * (p - y)
                })
                .sum::<f64>()
                / rows.len().max(1) as f64;
            let plain: f64 = rows
                .iter()
                .map(|(f, y)| (f[0] as f64 - y) * (f[0] as f64 - y))
                .sum::<f64>()
                / rows.len().max(1) as f64;
            eprintln!(
                "{v} left {left}: {} samples, rms error {:.2} points (diff alone {:.2})",
                rows.len(),
                err.sqrt(),
                plain.sqrt()
            );
            for i in 0..FEATURES {
                table[variant_index(v)][left as usize][i] = (w[i] * 100.0).round() as i32;
            }
        }
    }
    println!("//! Evaluation weights in centipoints, `[variant][plies left][feature]`.");
    println!("//! Written by `cargo run --release --example fit_eval`; do not edit by hand.");
    println!();
    println!(
        "/// The fitted weights (the evaluation checks that a row holds its {FEATURES} features)."
    );
    println!("pub const WEIGHTS: [[[i32; {FEATURES}]; 17]; 3] = [");
    for v in &table {
        println!("    [");
        for row in v {
            let cells: Vec<String> = row.iter().map(|x| x.to_string()).collect();
            println!("        [{}],", cells.join(", "));
        }
        println!("    ],");
    }
    println!("];");
}
