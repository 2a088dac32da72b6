//! A small strength match until the match runner exists: game pairs from
//! random two-ply openings, colours swapped within each pair.
//!
//! `cargo run --release --example strength -- <A> <B> [pairs] [variant]`
//! where a player is `greedy` (best immediate gain), `dN` (search depth N,
//! fitted evaluation) or `plainN` (depth N, evaluation = current difference).

mod common;
use cheversi::search::{Control, Limits, Options, Searcher};
use cheversi::{Placement, Position, Variant};
use common::random_position;

enum Player {
    Greedy,
    Search(Searcher, u32),
}

impl Player {
    fn parse(s: &str) -> Option<Player> {
        if s == "greedy" {
            return Some(Player::Greedy);
        }
        let (tuned, depth) = match s.strip_prefix("plain") {
            Some(d) => (false, d),
            None => (true, s.strip_prefix('d')?),
        };
        let options = Options {
            tuned_eval: tuned,
            ..Options::default()
        };
        Some(Player::Search(Searcher::new(options), depth.parse().ok()?))
    }

    fn pick(&mut self, pos: &Position) -> Option<Placement> {
        match self {
            Player::Greedy => {
                let moves = pos.legal_moves().to_vec();
                let best = moves.iter().map(|&m| pos.gain(m)).max()?;
                moves.into_iter().find(|&m| pos.gain(m) == best)
            }
            Player::Search(s, depth) => {
                let limits = Limits {
                    depth: Some(*depth),
                    ..Limits::default()
                };
                s.go(pos, &limits, &Control::default(), &mut |_| {}).best
            }
        }
    }
}

/// Plays one game from `pos`; returns the final points difference White minus Black.
fn play(mut pos: Position, white: &mut Player, black: &mut Player) -> i32 {
    while !pos.is_over() {
        let p = if pos.ply().is_multiple_of(2) {
            &mut *white
        } else {
            &mut *black
        };
        let Some(m) = p.pick(&pos) else { break };
        pos.play(m);
    }
    pos.points(cheversi::Color::White) - pos.points(cheversi::Color::Black)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(mut a), Some(mut b)) = (
        args.first().and_then(|s| Player::parse(s)),
        args.get(1).and_then(|s| Player::parse(s)),
    ) else {
        eprintln!("usage: strength <greedy|dN|plainN> <greedy|dN|plainN> [pairs] [variant]");
        std::process::exit(2);
    };
    let pairs: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let v: Variant = args.get(3).and_then(|s| s.parse().ok()).unwrap_or_default();
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    let mut games = [0u32; 3];
    for seed in 1..=pairs {
        let pos = random_position(v, cheversi::GAME_PLIES - 2, seed);
        let d1 = play(pos.clone(), &mut a, &mut b);
        let d2 = -play(pos, &mut b, &mut a);
        let score: i32 = [d1, d2].iter().map(|d| d.signum() + 1).sum();
        for d in [d1, d2] {
            games[(1 - d.signum()) as usize] += 1;
        }
        match score.cmp(&2) {
            std::cmp::Ordering::Greater => won += 1,
            std::cmp::Ordering::Equal => drawn += 1,
            std::cmp::Ordering::Less => lost += 1,
        }
    }
    println!(
        "{} vs {} ({v}, {pairs} pairs): pairs won {won}, drawn {drawn}, lost {lost} ({:.1}% won); games W/D/L {}/{}/{}",
        args[0],
        args[1],
        100.0 * won as f64 / pairs as f64,
        games[0],
        games[1],
        games[2]
    );
}
