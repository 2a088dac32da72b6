//! `cheversi-match`: parses the command line and dispatches.

use cheversi_match::cli::{Cli, Command};
use cheversi_match::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse_args(std::env::args_os()).unwrap_or_else(|e| e.exit());
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level)).init();
    let result = match &cli.command {
        Some(Command::Stats(a)) => commands::run_stats(a),
        Some(Command::Merge(a)) => commands::run_merge(a),
        None => commands::run_match(&cli.run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
