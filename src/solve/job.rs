//! One solve from the command line: its arguments, the progress display and
//! the result text (the only place the solver's output is written).

use super::mode::outcome;
use super::{Config, Event, Mode, Solution, Solver, Store};
use crate::position::Position;
use crate::types::Placement;
use crate::variant::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One solve.
#[derive(clap::Args, Debug, Clone)]
pub struct JobArgs {
    /// The variant.
    #[arg(long, default_value = "standard")]
    pub variant: Variant,
    /// Start from this position string instead of the empty board.
    #[arg(long)]
    pub fen: Option<String>,
    /// Placements played first.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<Placement>,
    /// Win, draw or loss only (default: the exact final point difference).
    #[arg(long)]
    pub wdl: bool,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The search's table in MiB (up to the machine's memory).
    #[arg(long, default_value_t = 1024)]
    pub hash: usize,
    /// Keep what is proven in this store (SQLite), and resume from it.
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Positions with this many plies left or fewer go to the search
    /// (default: 12, 8 in `open`; nearer the end, 3 plies below the root
    /// but not under 10, 7 in `open`).
    #[arg(long)]
    pub frontier: Option<u8>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

impl JobArgs {
    /// The position to solve.
    pub fn position(&self) -> Result<Position, String> {
        let mut pos = match &self.fen {
            Some(f) => Position::from_fen(f, self.variant).map_err(|e| e.to_string())?,
            None => Position::new(self.variant),
        };
        for &m in &self.moves {
            pos.play_checked(m).map_err(|e| e.to_string())?;
        }
        Ok(pos)
    }

    /// The mode asked for.
    pub fn mode(&self) -> Mode {
        if self.wdl { Mode::Wdl } else { Mode::Exact }
    }

    /// The solver's settings for `pos`, the table checked against the machine.
    pub fn config(&self, pos: &Position) -> Result<Config, String> {
        let max = crate::search::tt::max_mb();
        if self.hash == 0 || self.hash > max {
            return Err(format!(
                "--hash must be from 1 to {max} MiB (the machine's memory), not {}",
                self.hash
            ));
        }
        if self.threads == 0 || self.threads > 64 {
            return Err(format!(
                "--threads must be from 1 to 64, not {}",
                self.threads
            ));
        }
        Ok(Config {
            frontier: self
                .frontier
                .unwrap_or_else(|| Config::default_frontier(self.variant, pos.plies_left())),
            threads: self.threads,
            hash_mb: self.hash,
        })
    }
}

/// Solves one job and prints its result; returns it too.
pub fn solve(job: &JobArgs) -> Result<Solution, String> {
    let pos = job.position()?;
    if pos.is_over() {
        return Err("the game is over in this position: nothing to solve".into());
    }
    let mode = job.mode();
    let config = job.config(&pos)?;
    let store = match &job.store {
        Some(p) => Store::open(p, pos.variant(), mode)?,
        None => Store::memory(pos.variant(), mode)?,
    };
    let resumed = store.len();
    let mut progress = Progress::new(resumed);
    let start = Instant::now();
    let mut on_event = |e: &Event| progress.show(e);
    let mut solver = Solver::new(mode, config.clone(), store, &mut on_event);
    let sol = solver.solve(&pos)?;
    let secs = start.elapsed().as_secs_f64();
    let totals = solver.store().totals()?;
    let stored = solver.store().len();
    drop(solver);
    progress.finish();
    let text = if job.json {
        json(&pos, mode, &config, &sol, secs, stored, totals)
    } else {
        text(&pos, mode, &config, &sol, secs, stored, resumed, totals)
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the result: {e}"))?;
    Ok(sol)
}

/// A value in points as text: `+2`, `0`, `-1`; a bound as `>= +1`.
pub fn interval(mode: Mode, lo: i32, hi: i32) -> String {
    let p = |v: i32| format!("{v:+}").replace("+0", "0");
    match mode {
        Mode::Wdl if lo >= 1 => format!("win (>= {})", p(lo)),
        Mode::Wdl if hi <= -1 => format!("loss (<= {})", p(hi)),
        _ if lo == hi => p(lo),
        _ if lo <= -super::NO_BOUND && hi >= super::NO_BOUND => "unknown".into(),
        _ if lo <= -super::NO_BOUND => format!("<= {}", p(hi)),
        _ if hi >= super::NO_BOUND => format!(">= {}", p(lo)),
        _ => format!("{} .. {}", p(lo), p(hi)),
    }
}

#[allow(clippy::too_many_arguments)]
fn text(
    pos: &Position,
    mode: Mode,
    config: &Config,
    sol: &Solution,
    secs: f64,
    stored: usize,
    resumed: usize,
    totals: (u64, f64, u64),
) -> String {
    let mut s = format!(
        "position {} ({}, {} plies left, {} to move)\n",
        pos.fen(),
        pos.variant(),
        pos.plies_left(),
        pos.side_to_move().letter()
    );
    s += &format!(
        "value {} ({}, {})\n",
        interval(mode, sol.lo, sol.hi),
        outcome(sol.lo, sol.hi),
        if mode == Mode::Wdl {
            "win/draw/loss"
        } else {
            "exact"
        }
    );
    s += "moves (one of each symmetric set; value for the side to move):\n";
    const SHOWN: usize = 12;
    for r in sol.moves.iter().take(SHOWN) {
        s += &format!("  {:<6} {}\n", r.mv.to_string(), interval(mode, r.lo, r.hi));
    }
    if sol.moves.len() > SHOWN {
        s += &format!(
            "  ... {} more (--json lists them all)\n",
            sol.moves.len() - SHOWN
        );
    }
    let pv: Vec<String> = sol.pv.iter().map(|m| m.to_string()).collect();
    s += &format!("pv {}\n", pv.join(" "));
    s += &format!(
        "nodes {} time {:.1} s ({:.2} M nodes/s), {} threads, hash {} MiB, frontier {} plies left, {} frontier searches\n",
        sol.nodes,
        secs,
        sol.nodes as f64 / secs.max(1e-9) / 1e6,
        config.threads,
        config.hash_mb,
        config.frontier,
        sol.calls
    );
    s += &format!(
        "store {stored} positions ({resumed} when this run began); all runs: {} nodes, {:.1} s, {} runs\n",
        totals.0, totals.1, totals.2
    );
    s
}

fn json(
    pos: &Position,
    mode: Mode,
    config: &Config,
    sol: &Solution,
    secs: f64,
    stored: usize,
    totals: (u64, f64, u64),
) -> String {
    let moves: Vec<serde_json::Value> = sol
        .moves
        .iter()
        .map(|r| {
            serde_json::json!({"move": r.mv.to_string(), "lo": r.lo, "hi": r.hi,
            "result": outcome(r.lo, r.hi)})
        })
        .collect();
    let v = serde_json::json!({
        "fen": pos.fen(),
        "variant": pos.variant().name(),
        "mode": mode.name(),
        "plies_left": pos.plies_left(),
        "value": sol.value,
        "lo": sol.lo,
        "hi": sol.hi,
        "result": outcome(sol.lo, sol.hi),
        "moves": moves,
        "pv": sol.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "nodes": sol.nodes,
        "seconds": secs,
        "threads": config.threads,
        "hash_mb": config.hash_mb,
        "frontier": config.frontier,
        "frontier_searches": sol.calls,
        "store_positions": stored,
        "all_runs": {"nodes": totals.0, "seconds": totals.1, "runs": totals.2},
    });
    format!("{v}\n")
}

/// Progress on stderr: a live line on a terminal, else a plain line now and then.
struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    last_line: Instant,
    root: String,
    settled: usize,
    best: Option<(String, i32, i32)>,
    nodes: u64,
    calls: u64,
    stored: usize,
}

impl Progress {
    fn new(stored: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.enable_steady_tick(Duration::from_millis(250));
            b
        });
        Progress {
            bar,
            start: Instant::now(),
            last_line: Instant::now(),
            root: String::new(),
            settled: 0,
            best: None,
            nodes: 0,
            calls: 0,
            stored,
        }
    }

    fn line(&self) -> String {
        let secs = self.start.elapsed().as_secs_f64();
        let best = match &self.best {
            Some((m, lo, hi)) => format!(", best {m} {}", outcome_short(*lo, *hi)),
            None => String::new(),
        };
        format!(
            "nodes {} ({:.2} M/s), {} frontier searches, store {} | proving {} | settled {}{best}",
            self.nodes,
            self.nodes as f64 / secs.max(1e-9) / 1e6,
            self.calls,
            self.stored,
            self.root,
            self.settled,
        )
    }

    fn show(&mut self, e: &Event) {
        let mut now = false;
        match e {
            Event::RootMove { index, count, mv } => {
                self.root = format!("{mv} ({}/{count})", index + 1);
            }
            Event::RootSettled { mv, lo, hi } => {
                self.settled += 1;
                if self.best.as_ref().is_none_or(|b| *lo > b.1) {
                    self.best = Some((mv.to_string(), *lo, *hi));
                }
                now = true;
            }
            Event::Frontier {
                nodes,
                calls,
                stored,
            } => {
                (self.nodes, self.calls, self.stored) = (*nodes, *calls, *stored);
            }
        }
        match &self.bar {
            Some(b) => b.set_message(self.line()),
            None if now || self.last_line.elapsed() >= Duration::from_secs(10) => {
                self.last_line = Instant::now();
                eprintln!(
                    "[{:.0} s] {}",
                    self.start.elapsed().as_secs_f64(),
                    self.line()
                );
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

fn outcome_short(lo: i32, hi: i32) -> String {
    if lo == hi {
        format!("{lo:+}")
    } else if lo >= 1 {
        format!(">={lo:+}")
    } else if hi <= -1 || lo <= -super::NO_BOUND {
        format!("<={hi:+}")
    } else if hi >= super::NO_BOUND {
        format!(">={lo:+}")
    } else {
        format!("{lo:+}..{hi:+}")
    }
}
