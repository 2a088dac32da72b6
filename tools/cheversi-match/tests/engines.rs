//! Engine processes under faults: a crash is seen at once even when a child
//! holds the pipe, no line is split into commands, overdrafts add up, and
//! nothing the runner started outlives it.

mod common;
use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

fn play(dir: &Path, bad: Vec<String>, games: &str) -> serde_json::Value {
    let mut a = engine("good", "random", &["depth=1"]);
    a.extend(bad);
    a.extend(args(&[
        "--games",
        games,
        "--seed",
        "2",
        "--summary",
        "s.json",
        "--pgnout",
        "g.pgn",
    ]));
    let r = run(dir, &a);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    json(dir.join("s.json"))
}

#[test]
fn r7_an_engine_that_exits_while_its_child_holds_the_pipe_is_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids.txt");
    let pidfile_arg = format!("arg={}", pidfile.display());
    let bad = engine(
        "forker",
        "fork-exit",
        &["depth=1", "timeout=3000", "arg=--pidfile", &pidfile_arg],
    );
    let s = play(dir.path(), bad, "2");
    let pids = pids(&pidfile);
    let ended = all_end(&pids, 5);
    kill_all(&pids);
    assert_eq!(s["terminations"]["crash"], 2, "{s}");
    assert_eq!(s["wins"], 2, "{s}");
    // The engines and the children they forked: four processes, all gone.
    assert_eq!(pids.len(), 4, "{pids:?}");
    assert!(ended, "left running: {pids:?}");
}

#[test]
fn r9_an_over_long_line_is_dropped_whole_not_read_as_a_command() {
    let dir = tempfile::tempdir().unwrap();
    let s = play(dir.path(), engine("long", "long-line", &["depth=1"]), "2");
    assert_eq!(s["terminations"]["normal"], 2, "{s}");
}

#[test]
fn r10_overdrafts_add_up_over_the_game() {
    // 80 ms a move on 100 ms + 0 with a 100 ms margin: 1.1 s of moves cannot
    // fit in 0.2 s, however the overdraft is spread over the moves.
    let dir = tempfile::tempdir().unwrap();
    let slow = engine(
        "slow",
        "random",
        &["tc=0.1+0", "timemargin=100", "arg=--delay", "arg=80"],
    );
    let s = play(dir.path(), slow, "2");
    assert_eq!(s["terminations"]["time forfeit"], 2, "{s}");
    assert_eq!(s["wins"], 2, "{s}");
}

/// Starts a match whose second engine hangs in its first search and ignores
/// the end of its input; returns the runner and the engines' pids once the
/// hanging one is searching.
fn hanging_match(dir: &Path) -> (std::process::Child, Vec<u32>) {
    let pidfile = dir.join("pids.txt");
    let pidfile_arg = format!("arg={}", pidfile.display());
    let mut a = engine(
        "good",
        "random",
        &["depth=1", "arg=--pidfile", &pidfile_arg],
    );
    a.extend(engine(
        "deaf",
        "deaf",
        &["depth=1", "timeout=60000", "arg=--pidfile", &pidfile_arg],
    ));
    a.extend(args(&["--games", "2", "--seed", "2", "--pgnout", "g.pgn"]));
    let child = spawn(dir, &a);
    let deadline = Instant::now() + Duration::from_secs(30);
    while pids(&pidfile).len() < 2 {
        assert!(Instant::now() < deadline, "engines did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Long enough for the first placement and the deaf engine's `go`.
    std::thread::sleep(Duration::from_millis(300));
    (child, pids(&pidfile))
}

fn ends_with_its_engines(signal: &str) {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, pids) = hanging_match(dir.path());
    let status = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the runner ignored {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let ended = all_end(&pids, 5);
    kill_all(&pids);
    assert!(ended, "after {signal}, engines left running: {pids:?}");
}

#[test]
fn r11_sigterm_of_the_runner_ends_its_engines() {
    ends_with_its_engines("-TERM");
}

#[test]
fn r11_sigint_of_the_runner_ends_its_engines() {
    ends_with_its_engines("-INT");
}

#[test]
fn r11_sigkill_of_the_runner_ends_its_engines() {
    ends_with_its_engines("-KILL");
}
