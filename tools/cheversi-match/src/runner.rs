//! The match loop: worker threads play games from a shared queue, each with
//! its own engine processes; the main thread records every result (PGN,
//! state, output) in the order games finish and stops on an SPRT decision.

use crate::comm_log::CommLog;
use crate::config::MatchConfig;
use crate::engine_process::EngineProcess;
use crate::game::{self, GameContext, Played, Seat};
use crate::output::Output;
use crate::pgn::{self, PgnHeader};
use crate::pgn_mark::PgnMark;
use crate::record::{GameRecord, tally};
use crate::schedule::{GameSpec, OpeningBook};
use crate::sprt::Decision;
use crate::state::State;
use crate::summary::Summary;
use cheversi::Variant;
use std::collections::{HashSet, VecDeque};
use std::fs::File;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

/// How to run (not which games: that is the [`MatchConfig`]).
pub struct RunOptions {
    /// Games played at once.
    pub concurrency: usize,
    /// Time for `uciok` and `readyok`.
    pub startup: Duration,
    /// PGN file to append to.
    pub pgnout: Option<String>,
    /// Summary JSON file.
    pub summary: Option<String>,
    /// State file for `--resume`.
    pub state_path: String,
    /// Engine traffic log.
    pub log: CommLog,
    /// Games between rating lines.
    pub rating_interval: u64,
    /// PGN without move comments.
    pub pgn_min: bool,
}

/// Everything workers share.
struct Shared<'a> {
    config: &'a MatchConfig,
    variant: Variant,
    book: &'a OpeningBook,
    ctx: GameContext,
    queue: Mutex<VecDeque<u64>>,
    stop: AtomicBool,
}

/// Plays the games of `config.range` missing from `state`; returns the summary.
pub fn run(
    config: &MatchConfig,
    mut state: State,
    book: &OpeningBook,
    opts: &RunOptions,
) -> Result<Summary, String> {
    let variant: Variant = config.variant.parse().map_err(|e| format!("{e}"))?;
    let done: HashSet<u64> = state.records.iter().map(|r| r.index).collect();
    let pending: VecDeque<u64> = (config.range.0..config.range.1)
        .filter(|i| !done.contains(i))
        .collect();
    let mut pgn = open_pgn(opts.pgnout.as_deref(), &mut state)?;
    // Saved before the first game: the state file can be written, and it
    // names the PGN before anything is appended to it.
    state.save(&opts.state_path)?;
    let total = config.range.1 - config.range.0;
    let out = Output::new(total, total - pending.len() as u64, opts.rating_interval);
    out.note(&start_line(config, pending.len()));
    let shared = Shared {
        config,
        variant,
        book,
        ctx: GameContext {
            variant,
            startup: opts.startup,
            log: opts.log.clone(),
        },
        stop: AtomicBool::new(decided(config, &state)),
        queue: Mutex::new(pending),
    };
    let (tx, rx) = channel::<(GameSpec, Played)>();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..opts.concurrency.max(1) {
            let tx = tx.clone();
            let shared = &shared;
            scope.spawn(move || worker(shared, tx));
        }
        drop(tx);
        for (spec, played) in rx {
            let result = record_game(config, &mut state, &mut pgn, &out, opts, spec, &played);
            if result.is_err() || decided(config, &state) {
                shared.stop.store(true, Ordering::SeqCst);
            }
            result?;
        }
        Ok(())
    })?;
    out.finish();
    let complete = state.records.len() as u64 >= total;
    Ok(Summary::new(config, &tally(&state.records), complete))
}

/// Whether the SPRT has decided on the games so far.
pub fn decided(config: &MatchConfig, state: &State) -> bool {
    let summary = Summary::new(config, &tally(&state.records), false);
    summary
        .report
        .sprt
        .is_some_and(|s| s.decision != Decision::Continue)
}

fn start_line(config: &MatchConfig, pending: usize) -> String {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    format!(
        "Match {} ({}), games {}..{} ({pending} to play), seed {}",
        names.join(" vs "),
        config.variant,
        config.range.0,
        config.range.1,
        config.seed
    )
}

/// The PGN to append to: a new match's begins at the file's end; a resumed
/// one's is checked against the state (see [`PgnMark::reopen`]).
fn open_pgn(path: Option<&str>, state: &mut State) -> Result<Option<File>, String> {
    match (&state.pgn, path) {
        (None, None) => Ok(None),
        (Some(mark), _) => mark.reopen(state.records.len()).map(Some),
        (None, Some(path)) => {
            let (mark, file) = PgnMark::begin(path)?;
            state.pgn = Some(mark);
            Ok(Some(file))
        }
    }
}

fn worker(shared: &Shared<'_>, tx: Sender<(GameSpec, Played)>) {
    let mut engines: Vec<Option<EngineProcess>> =
        shared.config.engines.iter().map(|_| None).collect();
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let next = shared.queue.lock().ok().and_then(|mut q| q.pop_front());
        let Some(index) = next else { return };
        let spec = GameSpec::of(index, shared.config.engines.len() - 1);
        let played = play_one(shared, &mut engines, &spec);
        if tx.send((spec, played)).is_err() {
            return;
        }
    }
}

fn play_one(shared: &Shared<'_>, engines: &mut [Option<EngineProcess>], spec: &GameSpec) -> Played {
    let opening = shared
        .book
        .opening(shared.variant, shared.config.seed, spec.round);
    let (w, b) = if spec.first_is_white {
        (0, spec.opponent)
    } else {
        (spec.opponent, 0)
    };
    let (mut we, mut be) = (engines[w].take(), engines[b].take());
    let cfgs = &shared.config.engines;
    let played = game::play(
        &shared.ctx,
        &opening,
        [
            Seat {
                cfg: &cfgs[w],
                engine: &mut we,
            },
            Seat {
                cfg: &cfgs[b],
                engine: &mut be,
            },
        ],
    );
    engines[w] = we;
    engines[b] = be;
    played
}

fn record_game(
    config: &MatchConfig,
    state: &mut State,
    pgn: &mut Option<File>,
    out: &Output,
    opts: &RunOptions,
    spec: GameSpec,
    played: &Played,
) -> Result<(), String> {
    let names = |first_white: bool| {
        let (a, b) = (&config.engines[0].name, &config.engines[spec.opponent].name);
        if first_white {
            (a.as_str(), b.as_str())
        } else {
            (b.as_str(), a.as_str())
        }
    };
    let (white, black) = names(spec.first_is_white);
    let _recording = crate::signals::recording();
    if let Some(file) = pgn.as_mut() {
        let text = pgn_text(config, &spec, played, white, black, opts.pgn_min);
        let mark = state.pgn.as_mut().ok_or("a PGN without its mark")?;
        // Written ahead: a crash mid-write leaves a tail the state can prove.
        mark.pending = Some(text.clone());
        state.save(&opts.state_path)?;
        if let Some(mark) = state.pgn.as_mut() {
            mark.append(file, &text)?;
        }
    }
    state.records.push(GameRecord {
        index: spec.index,
        opponent: spec.opponent,
        first_is_white: spec.first_is_white,
        result: played.result,
        termination: played.termination,
        points: played.points,
        detail: played.detail.clone(),
    });
    state.save(&opts.state_path)?;
    log::info!(
        "game {} recorded in {} ({} of the range)",
        spec.index + 1,
        opts.state_path,
        state.records.len()
    );
    let summary = Summary::new(config, &tally(&state.records), false);
    let line = format!(
        "Finished game {} ({white} vs {black}): {} {{{}, points {}-{}}}",
        spec.index + 1,
        played.result.pgn(),
        played
            .detail
            .as_deref()
            .unwrap_or(played.termination.as_str()),
        played.points[0],
        played.points[1]
    );
    out.game(state.records.len() as u64, &line, &summary.rating_lines());
    Ok(())
}

fn pgn_text(
    config: &MatchConfig,
    spec: &GameSpec,
    played: &Played,
    white: &str,
    black: &str,
    min: bool,
) -> String {
    let limit = |name: &str| {
        config
            .engines
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.limit)
    };
    let header = PgnHeader {
        event: "cheversi-match",
        round: spec.index + 1,
        white,
        black,
        variant: &config.variant,
        limits: [limit(white), limit(black)],
    };
    pgn::game_pgn(&header, played, min)
}
