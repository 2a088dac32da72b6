//! `cheversi solve`: the subcommand and its actions (`split`, `merge`,
//! `show`, `export`); one solve is `job`.

use super::Store;
use super::job::{JobArgs, interval};
use super::mode::outcome;
use std::io::Write;
use std::path::PathBuf;

/// `cheversi solve`: the value of a position with perfect play.
#[derive(clap::Args, Debug, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct SolveArgs {
    /// Split the solve into jobs, or merge the jobs' stores.
    #[command(subcommand)]
    pub action: Option<Action>,
    /// What to solve.
    #[command(flatten)]
    pub job: JobArgs,
}

/// `split` and `merge`.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Action {
    /// Write independent jobs (one `cheversi solve` command a line) for a
    /// job runner such as GNU parallel.
    Split(super::split::SplitArgs),
    /// Fold job stores into one and back the values up to the root.
    Merge(super::split::MergeArgs),
    /// Print what a store proves of a position and of each of its moves,
    /// without searching.
    Show(JobArgs),
    /// Print a store's settled positions as book text (`solutions/*.book`).
    Export {
        /// The store.
        #[arg(long)]
        store: PathBuf,
        /// Only positions with a proven move, the ones the engine plays
        /// from (a loss, where no move is better than another, is left out).
        #[arg(long)]
        moves_only: bool,
    },
}

/// Runs `cheversi solve`.
pub fn run(args: SolveArgs) -> Result<(), String> {
    match args.action {
        Some(Action::Split(s)) => super::split::split(&s),
        Some(Action::Merge(m)) => super::split::merge(&m),
        Some(Action::Show(job)) => show(&job),
        Some(Action::Export { store, moves_only }) => {
            let (s, variant, mode) = Store::open_read(&store)?;
            let text = super::book::export(&s, variant, mode, moves_only);
            std::io::stdout()
                .lock()
                .write_all(text.as_bytes())
                .map_err(|e| format!("cannot write the book: {e}"))
        }
        None => super::job::solve(&args.job).map(|_| ()),
    }
}

/// `solve show`: the store's intervals for the position and its moves.
fn show(job: &JobArgs) -> Result<(), String> {
    let pos = job.position()?;
    let Some(path) = &job.store else {
        return Err("show needs --store".into());
    };
    let (store, variant, mode) = Store::open_read(path)?;
    if variant != pos.variant() {
        return Err(format!("{} holds {variant} positions", path.display()));
    }
    let (lo, hi) = store
        .get(&super::canon::Canonical::of(&pos).key)
        .map_or((-super::NO_BOUND, super::NO_BOUND), |e| (e.lo, e.hi));
    let mut s = format!(
        "position {} ({variant}, {} store, {} positions)\nvalue {} ({})\n",
        pos.fen(),
        mode.name(),
        store.len(),
        interval(mode, lo, hi),
        outcome(lo, hi)
    );
    let moves = super::root_values(&store, &pos);
    s += &format!("moves the store knows ({}):\n", moves.len());
    for r in &moves {
        s += &format!("  {:<6} {}\n", r.mv.to_string(), interval(mode, r.lo, r.hi));
    }
    let pv: Vec<String> = super::principal_variation(&store, mode, &pos)
        .iter()
        .map(|m| m.to_string())
        .collect();
    s += &format!("pv {}\n", pv.join(" "));
    let (nodes, secs, runs) = store.totals()?;
    s += &format!("all runs: {nodes} nodes, {secs:.1} s, {runs} runs\n");
    std::io::stdout()
        .lock()
        .write_all(s.as_bytes())
        .map_err(|e| format!("cannot write: {e}"))
}
