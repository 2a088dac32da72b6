//! `cheversi solve split`, the jobs run by GNU parallel on two local slots,
//! and `merge` (or `merge --fold-only`, then a solve): the same value as one
//! process. And `merge` from a
//! win/draw/loss store into an exact one (how SOLUTION.md's exact `standard`
//! solve started): the same exact value as a solve from nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_cheversi");
/// 9 plies left, Black to move (`examples/solve_driver standard 9`, seed 1).
const FEN: &str = "4Q3/5bq1/2Rb1K2/4N3/8/8/8/8 b c6";

fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cheversi-split-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `cmd`, which must succeed; its output.
fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{cmd:?}: {stderr}");
    out
}

/// Runs `cheversi solve <args> --json` on [`FEN`] in `dir`, which must
/// succeed; its output.
fn cheversi_solve(dir: &Path, args: &[&str]) -> Output {
    run(Command::new(BIN)
        .current_dir(dir)
        .arg("solve")
        .args(args)
        .args(["--fen", FEN, "--hash", "64", "--json"]))
}

/// [`cheversi_solve`]'s JSON answer.
fn solve(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = cheversi_solve(dir, args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("solve {args:?}: {e}"))
}

/// The arguments of a `merge` of `stores` into `into`, `flags` first.
fn merge<'a>(flags: &[&'a str], into: &'a str, stores: &'a [String]) -> Vec<&'a str> {
    let mut args = vec!["merge"];
    args.extend(flags);
    args.extend(["--store", into, "--from"]);
    args.extend(stores.iter().map(String::as_str));
    args
}

fn value(v: &serde_json::Value) -> (i64, i64, i64) {
    let n = |k: &str| v[k].as_i64().unwrap_or_else(|| panic!("no {k} in {v}"));
    (n("value"), n("lo"), n("hi"))
}

fn have_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn split_jobs_run_by_gnu_parallel_merge_into_the_one_process_value() {
    if !have_parallel() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "GNU parallel is missing on CI (apt-get install -y parallel)"
        );
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let dir = folder("parallel");
    let one = value(&solve(&dir, &[]));
    assert_eq!(one.0, one.1, "one process settles the value");
    assert_eq!(one.1, one.2);

    run(Command::new(BIN)
        .current_dir(&dir)
        .args(["solve", "split", "--fen", FEN, "--hash", "64"])
        .args(["--plies", "1", "--out", "jobs"]));
    let jobs = std::fs::read_to_string(dir.join("jobs/jobs.txt")).unwrap();
    assert!(jobs.lines().count() > 1, "{jobs}");
    run(Command::new("parallel")
        .current_dir(&dir)
        .args(["-j", "2"])
        .stdin(std::fs::File::open(dir.join("jobs/jobs.txt")).unwrap()));

    let stores: Vec<String> = (0..jobs.lines().count())
        .map(|i| format!("jobs/job{i}.db"))
        .collect();
    let merged = solve(&dir, &merge(&[], "all.db", &stores));
    assert_eq!(value(&merged), one);
    // The jobs proved everything: the merge only backs the values up.
    assert_eq!(merged["frontier_searches"].as_u64(), Some(0), "{merged}");

    // Folded only, the store answers nothing yet; a solve with it then
    // backs the values up without a search.
    let out = cheversi_solve(&dir, &merge(&["--fold-only"], "folded.db", &stores));
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let folded = solve(&dir, &["--store", "folded.db"]);
    assert_eq!(value(&folded), one);
    assert_eq!(folded["frontier_searches"].as_u64(), Some(0), "{folded}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_exact_solve_can_start_from_a_win_draw_loss_store() {
    let dir = folder("modes");
    let exact = value(&solve(&dir, &[]));
    let wdl = value(&solve(&dir, &["--wdl", "--store", "wdl.db"]));
    assert_eq!(wdl.0.signum(), exact.0.signum());
    let merged = value(&solve(
        &dir,
        &["merge", "--store", "exact.db", "--from", "wdl.db"],
    ));
    assert_eq!(merged, exact);
    // And the other way: the exact store settles a win/draw/loss solve.
    let back = solve(
        &dir,
        &["merge", "--wdl", "--store", "wdl2.db", "--from", "exact.db"],
    );
    assert_eq!(value(&back).0.signum(), exact.0.signum());
    assert_eq!(back["frontier_searches"].as_u64(), Some(0), "{back}");
    let _ = std::fs::remove_dir_all(&dir);
}
