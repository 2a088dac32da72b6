//! The `cheversi` binary: the protocol on stdin/stdout, or a subcommand.

use cheversi::perft::divide;
use cheversi::protocol::response::Response;
use cheversi::search::bench;
use cheversi::{Placement, Position, Variant};
use clap::{CommandFactory, Parser, Subcommand};
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
    /// `bench suite` solves the solving benchmark suite instead.
    #[command(args_conflicts_with_subcommands = true)]
    Bench {
        /// Depth per position.
        #[arg(default_value_t = 5)]
        depth: u32,
        #[command(subcommand)]
        suite: Option<BenchCmd>,
    },
    /// Print a shell completion script, e.g. `cheversi completions bash >
    /// ~/.local/share/bash-completion/completions/cheversi`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `cheversi man > cheversi.1`.
    Man,
    /// Solve a position: its value with perfect play (see `solve --help`).
    Solve(cheversi::solve::cli::SolveArgs),
}

#[derive(Subcommand, Debug)]
enum BenchCmd {
    /// Solve the solving benchmark suite (tests/data/suite.txt, compiled
    /// in): one row per position, the totals by variant and plies left;
    /// exits non-zero if a value or a move is wrong.
    Suite {
        /// A suite file instead of the committed one.
        file: Option<std::path::PathBuf>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 1024)]
        hash: usize,
        /// Only this variant's positions.
        #[arg(long)]
        variant: Option<Variant>,
        /// Only positions with at most this many plies left.
        #[arg(long)]
        max_left: Option<u8>,
    },
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
        Some(f) => Position::from_fen(&f, variant).map_err(|e| format!("--fen: {e}"))?,
        None => Position::new(variant),
    };
    for (i, &m) in moves.iter().enumerate() {
        pos.play_checked(m)
            .map_err(|e| format!("--moves: move {} ({m}): {e}", i + 1))?;
    }
    let start = Instant::now();
    let split = divide(&mut pos, depth);
    let total: u64 = if depth == 0 {
        1
    } else {
        split.iter().map(|x| x.1).sum()
    };
    // The lines of the protocol's `go perft`.
    let mut lines: Vec<Response> = split
        .into_iter()
        .map(|(m, n)| Response::PerftMove(m, n))
        .collect();
    lines.push(Response::PerftTotal {
        nodes: total,
        elapsed: start.elapsed(),
        complete: true,
    });
    let text: String = lines.iter().map(|r| format!("{r}\n")).collect();
    report(&text)
}

/// `bench suite`: the rows as they are solved, then the totals; an error
/// if any value or move is wrong.
fn suite(
    file: Option<std::path::PathBuf>,
    threads: usize,
    hash: usize,
    variant: Option<Variant>,
    max_left: Option<u8>,
) -> Result<(), String> {
    use cheversi::suite::{self, table};
    let text = match &file {
        Some(f) => std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?,
        None => suite::DEFAULT.to_string(),
    };
    let entries = suite::parse(&text).map_err(|e| match &file {
        Some(f) => format!("{}: {e}", f.display()),
        None => e,
    })?;
    let settings = suite::Settings {
        threads,
        hash_mb: hash,
        variant,
        max_left,
    };
    if !entries.iter().any(|e| settings.wants(e)) {
        return Err("no suite position matches --variant and --max-left".to_string());
    }
    report(&format!("{}\n", table::header()))?;
    let mut failed = None;
    let rows = suite::run(&entries, &settings, &mut |r| {
        if let Err(e) = report(&format!("{}\n", table::row(r))) {
            failed.get_or_insert(e);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    report(&table::totals(&rows))?;
    match rows.iter().filter(|r| !r.ok()).count() {
        0 => Ok(()),
        n => Err(format!("{n} of {} suite positions wrong", rows.len())),
    }
}

/// The man page, from the same definitions as `--help`.
fn man() -> Result<(), String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| e.to_string())?;
    report(&String::from_utf8_lossy(&page))
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
        Some(Cmd::Bench {
            suite:
                Some(BenchCmd::Suite {
                    file,
                    threads,
                    hash,
                    variant,
                    max_left,
                }),
            ..
        }) => suite(file, threads, hash, variant, max_left),
        Some(Cmd::Bench { depth, .. }) => {
            let r = bench::run(depth);
            let (nodes, elapsed) = (r.nodes, r.elapsed);
            report(&format!("{}\n", Response::Bench { nodes, elapsed }))
        }
        Some(Cmd::Completions { shell }) => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "cheversi", &mut script);
            report(&String::from_utf8_lossy(&script))
        }
        Some(Cmd::Man) => man(),
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
