//! `cheversi solve split` and `merge`: one solve as independent jobs.
//!
//! The decomposition: every position `--plies` placements below the root
//! (one of each symmetric set, transpositions once) is a job, solved with
//! the mode's full window (exact, or win/draw/loss), so no job waits for
//! another's value. That gives up the alpha-beta cuts between the jobs: a
//! job whose sibling already refuted its parent is solved all the same
//! (the cost is measured in `SOLUTION.md`). `merge` copies the job stores'
//! entries into one store and runs the driver from the root over it: every
//! job's value is there, so it only backs them up. `merge` also takes a
//! store of the other mode: an exact solve can start from what a
//! win/draw/loss solve proved (`SOLUTION.md` does this for `standard`).

use super::canon::Canonical;
use super::job::JobArgs;
use super::store::{Entry, Store, higher_lo};
use crate::position::Position;
use crate::symmetry;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

/// `cheversi solve split`.
#[derive(clap::Args, Debug, Clone)]
pub struct SplitArgs {
    /// The position and settings every job inherits (`--store` is ignored:
    /// each job has its own).
    #[command(flatten)]
    pub job: JobArgs,
    /// Placements below the root where the jobs start.
    #[arg(long, default_value_t = 1)]
    pub plies: u8,
    /// Folder for the job list (`jobs.txt`) and the jobs' stores and results.
    #[arg(long)]
    pub out: PathBuf,
}

/// `cheversi solve merge`.
#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// The root position and settings (`--store`: the merged store, created
    /// if absent).
    #[command(flatten)]
    pub job: JobArgs,
    /// The job stores to fold in (of either mode: their intervals of the
    /// exact value hold for both).
    #[arg(long = "from", num_args = 1.., required = true)]
    pub from: Vec<PathBuf>,
    /// Fold the stores in and stop, without backing the values up: for
    /// stores of solves still under way (the next solve with the merged
    /// store backs them up as it passes).
    #[arg(long)]
    pub fold_only: bool,
}

/// The canonical positions `plies` placements below `pos`, each once.
fn frontier(pos: &Position, plies: u8) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut p = pos.clone();
    walk(&mut p, plies, &mut out);
    out
}

fn walk(p: &mut Position, plies: u8, out: &mut BTreeMap<String, String>) {
    if plies == 0 || p.is_over() {
        if !p.is_over() {
            let c = Canonical::of(p);
            out.entry(c.key).or_insert(c.fen);
        }
        return;
    }
    let sym = symmetry::of(p);
    for m in p
        .legal_moves()
        .iter()
        .filter(|&m| !symmetry::redundant(sym, m))
    {
        let undo = p.play(m);
        walk(p, plies - 1, out);
        p.undo(m, undo);
    }
}

/// Shell-quotes `s` for a job line.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Writes `out/jobs.txt`: one `cheversi solve` command a line.
pub fn split(args: &SplitArgs) -> Result<(), String> {
    let pos = args.job.position()?;
    args.job.config(&pos)?;
    if args.plies == 0 || args.plies >= pos.plies_left() {
        return Err(format!(
            "--plies must be from 1 to {} (the plies left less one)",
            pos.plies_left().saturating_sub(1)
        ));
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot make {}: {e}", args.out.display()))?;
    let list = args.out.join("jobs.txt");
    if list.exists() {
        return Err(format!(
            "{} exists: split into a new folder (nothing was written)",
            list.display()
        ));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let exe = quote(&exe.to_string_lossy());
    let mut text = String::new();
    for (i, fen) in frontier(&pos, args.plies).values().enumerate() {
        let dir = args.out.to_string_lossy();
        let mut line = format!(
            "{exe} solve --variant {} --fen {} --hash {} --threads {} --store {} --json",
            args.job.variant,
            quote(fen),
            args.job.hash,
            args.job.threads,
            quote(&format!("{dir}/job{i}.db"))
        );
        if args.job.wdl {
            line += " --wdl";
        }
        if let Some(f) = args.job.frontier {
            line += &format!(" --frontier {f}");
        }
        line += &format!(" > {}\n", quote(&format!("{dir}/job{i}.json")));
        text += &line;
    }
    let count = text.lines().count();
    std::fs::File::create_new(&list)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", list.display()))?;
    println!(
        "{count} jobs in {} (run them with e.g. `parallel -j 2 < {}`), then `cheversi solve merge --store ALL.db --from {}/job*.db` with the same position",
        list.display(),
        list.display(),
        args.out.display()
    );
    Ok(())
}

/// Folds the job stores into `--store` and backs the values up to the root
/// (unless `--fold-only`).
pub fn merge(args: &MergeArgs) -> Result<(), String> {
    let pos = args.job.position()?;
    let Some(target) = &args.job.store else {
        return Err("merge needs --store: the store to fold the jobs into".into());
    };
    let mut into = Store::open(target, pos.variant(), args.job.mode())?;
    let mut folded = 0;
    for path in &args.from {
        // Another mode's store is welcome: its entries are intervals of the
        // exact value in points whatever the window that proved them, so a
        // win/draw/loss store narrows an exact solve (and the other way).
        let (job, variant, _) = Store::open_read(path)?;
        if variant != pos.variant() {
            return Err(format!(
                "{} holds {variant} solutions, not {}",
                path.display(),
                pos.variant(),
            ));
        }
        for (key, e) in job.entries() {
            let merged = match into.get(key) {
                Some(old) => narrow(old, e),
                None => *e,
            };
            let fen = job.fen(key).unwrap_or_default().to_string();
            into.put(key, &fen, merged);
            folded += 1;
        }
    }
    into.flush(0, 0.0)?;
    drop(into);
    eprintln!(
        "merge: {folded} entries from {} stores into {}",
        args.from.len(),
        target.display()
    );
    if args.fold_only {
        return Ok(());
    }
    super::job::solve(&args.job).map(|_| ())
}

/// What two stores know of one position together.
fn narrow(a: &Entry, b: &Entry) -> Entry {
    let (lo, best) = higher_lo((a.lo, a.best), (b.lo, b.best));
    Entry {
        left: a.left,
        lo,
        hi: a.hi.min(b.hi),
        best,
        nodes: a.nodes + b.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn the_empty_board_splits_into_its_ten_king_squares() {
        let pos = Position::new(Variant::Standard);
        assert_eq!(frontier(&pos, 1).len(), 10);
        // Transpositions and symmetric lines meet: fewer jobs than lines.
        let lines: usize = frontier(&pos, 1)
            .values()
            .map(|f| {
                let p = Position::from_fen(f, Variant::Standard).unwrap();
                p.legal_moves().count() as usize
            })
            .sum();
        assert!(frontier(&pos, 2).len() < lines);
    }

    #[test]
    fn narrowing_keeps_the_tighter_bounds() {
        let a = Entry {
            left: 10,
            lo: 0,
            hi: 5,
            best: None,
            nodes: 1,
        };
        let b = Entry {
            left: 10,
            lo: 2,
            hi: 9,
            best: Some("Q@e5".parse().unwrap()),
            nodes: 2,
        };
        let n = narrow(&a, &b);
        assert_eq!((n.lo, n.hi, n.best, n.nodes), (2, 5, b.best, 3));
    }
}
