//! What each command does: play a match (or resume it), compute statistics
//! from counts, merge shards.

use crate::cli::{MergeArgs, RunArgs, StatsArgs, parse_sprt, stats_counts};
use crate::comm_log::CommLog;
use crate::config::{MatchConfig, OpeningOrder};
use crate::openings;
use crate::output::say;
use crate::record::tally;
use crate::report::Report;
use crate::runner::{self, RunOptions};
use crate::schedule::OpeningBook;
use crate::state::{self, State};
use crate::summary::Summary;
use std::collections::HashSet;
use std::time::Duration;

/// Plays (or resumes) a match; prints its result and writes the summary.
pub fn run_match(args: &RunArgs) -> Result<(), String> {
    let saved = if args.resume && state::exists(&args.state) {
        Some(State::load(&args.state)?)
    } else {
        None
    };
    let config = args.config(saved.as_ref().map(|s| s.config.seed))?;
    let state = match saved {
        Some(s) if s.config != config => {
            return Err(format!(
                "{} holds a different match; resume with the same arguments",
                args.state
            ));
        }
        Some(s) => s,
        None => State::new(config.clone()),
    };
    check_engines(&config)?;
    let book = opening_book(&config)?;
    let log = match &args.log {
        Some(path) => CommLog::open(path).map_err(|e| format!("cannot open {path}: {e}"))?,
        None => CommLog::none(),
    };
    let opts = RunOptions {
        concurrency: args.concurrency,
        startup: Duration::from_millis(args.startup_timeout),
        pgnout: args.pgnout.clone(),
        summary: args.summary.clone(),
        state_path: args.state.clone(),
        log,
        rating_interval: args.rating_interval,
    };
    let summary = runner::run(&config, state, &book, &opts)?;
    finish(&summary, opts.summary.as_deref())
}

/// Refuses a match whose engine programs cannot be found at all; engines that
/// start but misbehave lose games instead.
fn check_engines(config: &MatchConfig) -> Result<(), String> {
    for e in &config.engines {
        let path = std::path::Path::new(&e.cmd);
        let found = if e.cmd.contains('/') {
            path.is_file()
        } else {
            in_path(&e.cmd)
        };
        if !found {
            return Err(format!("engine {}: program '{}' not found", e.name, e.cmd));
        }
    }
    Ok(())
}

fn in_path(cmd: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
}

fn opening_book(config: &MatchConfig) -> Result<OpeningBook, String> {
    let variant = config.variant.parse().map_err(|e| format!("{e}"))?;
    Ok(match &config.openings {
        None => OpeningBook::Random {
            plies: config.opening_plies,
        },
        Some(path) => {
            let list = openings::read_file(path, variant)?;
            match config.opening_order {
                OpeningOrder::Random => OpeningBook::shuffled(list, config.seed),
                OpeningOrder::Sequential => OpeningBook::List(list),
            }
        }
    })
}

/// Prints the closing lines and writes the summary file.
fn finish(summary: &Summary, path: Option<&str>) -> Result<(), String> {
    say(&summary.rating_lines());
    say(&summary.terminations_line());
    if let Some(s) = &summary.report.sprt {
        say(&format!("SPRT: {:?}", s.decision));
    }
    match path {
        Some(p) => summary.write(p),
        None => Ok(()),
    }
}

/// `stats`: the figures of given counts.
pub fn run_stats(args: &StatsArgs) -> Result<(), String> {
    let counts = stats_counts(args)?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let report = if args.wdl.is_some() {
        Report::trinomial(&counts, sprt.as_ref())
    } else {
        Report::pentanomial(&counts, sprt.as_ref(), false)
    };
    if args.json {
        say(&serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
    } else {
        say(&report.line());
    }
    Ok(())
}

/// `merge`: one summary from the state files of shards of one match.
pub fn run_merge(args: &MergeArgs) -> Result<(), String> {
    let states = args
        .states
        .iter()
        .map(|p| State::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut config = states[0].config.clone();
    let mut records = Vec::new();
    let mut seen = HashSet::new();
    for (s, path) in states.iter().zip(&args.states) {
        if !s.config.same_match(&config) {
            return Err(format!("{path} is a shard of a different match"));
        }
        for r in &s.records {
            if !seen.insert(r.index) {
                return Err(format!("game {} is in more than one shard", r.index + 1));
            }
            records.push(r.clone());
        }
        config.range = (
            config.range.0.min(s.config.range.0),
            config.range.1.max(s.config.range.1),
        );
    }
    let complete = (config.range.0..config.range.1).all(|i| seen.contains(&i));
    let summary = Summary::new(&config, &tally(&records), complete);
    finish(&summary, args.summary.as_deref())
}
