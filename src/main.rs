//! The `cheversi` binary: the protocol on stdin/stdout, or a subcommand.

use cheversi::perft::divide;
use cheversi::search::bench;
use cheversi::{Placement, Position, Variant};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Cheversi engine.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Cli {
    /// More log output on stderr (-v info, -vv debug, -vvv trace).
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Count the positions N placements ahead, split by first placement.
    Perft {
        /// Plies to count.
        #[arg(long, short)]
        depth: u32,
        /// The variant.
        #[arg(long, default_value = "standard")]
        variant: Variant,
        /// Start from this position string instead of the empty board.
        #[arg(long)]
        fen: Option<String>,
        /// Placements played first.
        #[arg(long, num_args = 1..)]
        moves: Vec<Placement>,
    },
    /// Search a fixed position set; prints a deterministic node count.
    Bench {
        /// Depth per position.
        #[arg(default_value_t = 5)]
        depth: u32,
    },
    /// Solve a position: its value with perfect play (see `solve --help`).
    Solve(cheversi::solve::cli::SolveArgs),
}

/// Writes a subcommand's result to stdout; a reader that went away (a
/// closed pipe) is an error message, not a panic.
fn report(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the result: {e}"))
}

fn perft(
    depth: u32,
    variant: Variant,
    fen: Option<String>,
    moves: Vec<Placement>,
) -> Result<(), String> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(&f, variant).map_err(|e| e.to_string())?,
        None => Position::new(variant),
    };
    for m in moves {
        pos.play_checked(m).map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    let split = divide(&mut pos, depth);
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|x| x.1).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    let mut text = String::new();
    for (m, n) in &split {
        text += &format!("{m}: {n}\n");
    }
    text += &format!(
        "\nNodes searched: {total}\nTime: {:.3} s ({:.1} M leaves/s)\n",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    report(&text)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let level = ["warn", "info", "debug", "trace"][cli.verbose.min(3) as usize];
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level)).init();
    let result = match cli.command {
        Some(Cmd::Perft {
            depth,
            variant,
            fen,
            moves,
        }) => perft(depth, variant, fen, moves),
        Some(Cmd::Bench { depth }) => {
            let r = bench::run(depth);
            let nps = (r.nodes as f64 / r.elapsed.as_secs_f64().max(1e-9)) as u64;
            report(&format!(
                "Nodes searched: {}\nNodes/second: {nps}\n",
                r.nodes
            ))
        }
        Some(Cmd::Solve(args)) => cheversi::solve::cli::run(args),
        None => {
            cheversi::protocol::run(std::io::stdin(), std::io::stdout());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
