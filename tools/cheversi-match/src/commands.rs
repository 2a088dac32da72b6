//! What each command does: play a match (or resume it), compute statistics
//! from counts, merge shards.

use crate::cli::{MergeArgs, RunArgs, StatsArgs, parse_sprt, stats_counts};
use crate::comm_log::CommLog;
use crate::config::{MatchConfig, OpeningOrder};
use crate::openings;
use crate::output::say;
use crate::pgn_mark;
use crate::record::tally;
use crate::report::Report;
use crate::runner::{self, RunOptions};
use crate::schedule::OpeningBook;
use crate::signals;
use crate::state::{self, State};
use crate::summary::Summary;
use std::collections::HashMap;
use std::time::Duration;

/// Plays (or resumes) a match; prints its result and writes the summary.
pub fn run_match(args: &RunArgs) -> Result<(), String> {
    check_outputs(args)?;
    let state = starting_state(args)?;
    let config = state.config.clone();
    check_engines(&config)?;
    let book = opening_book(&config)?;
    let log = match &args.log {
        Some(path) => CommLog::open(path).map_err(|e| format!("cannot open --log {path}: {e}"))?,
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
        pgn_min: args.pgn_min,
    };
    signals::on_interrupt(resume_command(), args.state.clone());
    let summary = runner::run(&config, state, &book, &opts)?;
    finish(&summary, opts.summary.as_deref())
}

/// The state to continue: the saved one with `--resume` (checked against
/// the arguments and the PGN), else a new one; a match in progress is never
/// started over by accident.
fn starting_state(args: &RunArgs) -> Result<State, String> {
    let path = &args.state;
    let saved = if state::exists(path) {
        Some(State::load(path).map_err(|e| {
            if args.resume {
                e
            } else {
                format!("{e}\n--state {path} exists and is not a state this run can replace; give another --state")
            }
        })?)
    } else {
        None
    };
    let config = args.config(saved.as_ref().map(|s| s.config.seed))?;
    match saved {
        Some(s) if args.resume => {
            if let Some(diff) = s.config.difference(&config) {
                return Err(format!(
                    "{path} holds a different match ({diff}); resume with the arguments it was started with, or give another --state to start a new match"
                ));
            }
            check_resumed_pgn(&s, args.pgnout.as_deref())?;
            Ok(s)
        }
        Some(s) if !s.complete() && !runner::decided(&s.config, &s) => Err(format!(
            "{path} holds a match in progress ({} of {} games played); to continue it, run the same command with --resume; to start over, delete it or give another --state",
            s.records.len(),
            s.config.range.1 - s.config.range.0
        )),
        _ => {
            if args.resume {
                log::info!("{path} does not exist: nothing to resume, starting the match");
            }
            Ok(State::new(config))
        }
    }
}

/// On `--resume`, `--pgnout` must name the file the state wrote (or be absent for both).
fn check_resumed_pgn(s: &State, pgnout: Option<&str>) -> Result<(), String> {
    match (&s.pgn, pgnout) {
        (None, None) => Ok(()),
        (Some(mark), None) => Err(format!(
            "the match wrote its games to {}; resume with --pgnout {0}",
            mark.path
        )),
        (None, Some(p)) => Err(format!(
            "--pgnout {p}: the match was started without --pgnout, so its games are in no PGN; resume without --pgnout, or start a new match with another --state"
        )),
        (Some(mark), Some(p)) => {
            let given = pgn_mark::absolute(p)?;
            if given.display().to_string() != mark.path {
                return Err(format!(
                    "--pgnout {p} is not the PGN the match wrote its games to ({}); resume with --pgnout {0}",
                    mark.path
                ));
            }
            Ok(())
        }
    }
}

/// Every output file can be written, before the first game is played.
fn check_outputs(args: &RunArgs) -> Result<(), String> {
    if let Some(p) = &args.pgnout {
        let meta = std::fs::metadata(p);
        if meta.as_ref().is_ok_and(|m| !m.is_file()) {
            return Err(format!(
                "--pgnout {p}: not a regular file; the runner reads its PGN back to resume a match, so give a file (or leave out --pgnout to write no PGN)"
            ));
        }
        writable("--pgnout", p)?;
    }
    writable("--state", &args.state)?;
    if let Some(p) = &args.summary {
        writable("--summary", p)?;
    }
    if let Some(p) = &args.log {
        writable("--log", p)?;
    }
    Ok(())
}

/// `path` is a writable file, or can be created: its folder exists and takes a new file.
fn writable(arg: &str, path: &str) -> Result<(), String> {
    let p = std::path::Path::new(path);
    if p.is_dir() {
        return Err(format!("{arg} {path}: is a folder; give a file name"));
    }
    if p.exists() {
        return std::fs::OpenOptions::new()
            .append(true)
            .open(p)
            .map(drop)
            .map_err(|e| format!("{arg} {path}: cannot write it: {e}"));
    }
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!(
            "{arg} {path}: folder {} does not exist; create it first",
            dir.display()
        ));
    }
    let probe = dir.join(format!(".cheversi-match-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| {
            format!(
                "{arg} {path}: cannot create a file in {}: {e}",
                dir.display()
            )
        })?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// This run's command line with `--resume`, quoted for a POSIX shell.
fn resume_command() -> String {
    let mut words: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
    if !words.iter().any(|w| w == "--resume") {
        words.push("--resume".into());
    }
    words.join(" ")
}

fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:@,+%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
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
    let mut seen: HashMap<u64, &str> = HashMap::new();
    for (s, path) in states.iter().zip(&args.states) {
        if !s.config.same_match(&config) {
            let diff = states[0].config.difference(&s.config).unwrap_or_default();
            return Err(format!(
                "{path} is a shard of a different match than {} ({diff})",
                args.states[0]
            ));
        }
        for r in &s.records {
            if let Some(other) = seen.insert(r.index, path) {
                return Err(format!(
                    "game {} is in both {other} and {path}: give each shard once",
                    r.index + 1
                ));
            }
            records.push(r.clone());
        }
        config.range = (
            config.range.0.min(s.config.range.0),
            config.range.1.max(s.config.range.1),
        );
    }
    let complete = (config.range.0..config.range.1).all(|i| seen.contains_key(&i));
    let summary = Summary::new(&config, &tally(&records), complete);
    finish(&summary, args.summary.as_deref())
}
