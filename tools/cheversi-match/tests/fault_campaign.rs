//! The fault campaign: a match is killed (SIGKILL) 20 times at seeded random
//! moments and resumed after each; the PGN it ends with is byte for byte the
//! PGN of the same match played without a break, and no engine outlives
//! the runner that started it.

mod common;
use cheversi_match::rng::SplitMix64;
use common::*;
use std::path::Path;
use std::time::{Duration, Instant};

const STATE: &str = "cheversi-match.state.json";

fn match_args(resume: bool, pidfile: &Path) -> Vec<String> {
    // One game at a time, so games finish in index order; no move comments,
    // whose times differ from run to run.
    let mut extra = vec![
        "--games",
        "24",
        "--seed",
        "5",
        "--pgnout",
        "g.pgn",
        "--pgn-min",
    ];
    if resume {
        extra.extend(["--resume", "-v"]);
    }
    let pids = format!("arg={}", pidfile.display());
    let mut a = engine(
        "alpha",
        "random",
        &["depth=1", "arg=--delay", "arg=2", "arg=--pidfile", &pids],
    );
    a.extend(engine(
        "beta",
        "random",
        &["nodes=5", "arg=--delay", "arg=2", "arg=--pidfile", &pids],
    ));
    a.extend(args(&extra));
    a
}

#[test]
fn twenty_kills_and_resumes_end_in_the_uninterrupted_pgn() {
    let whole = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let r = run(
        whole.path(),
        &match_args(false, &whole.path().join("pids.txt")),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let span = started.elapsed().as_millis() as u64;
    let expected = std::fs::read(whole.path().join("g.pgn")).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids.txt");
    let mut rng = SplitMix64::new(20_231);
    let (mut kills, mut tries, mut cuts) = (0, 0, 0);
    let mut progress = Vec::new();
    while kills < 20 {
        tries += 1;
        assert!(tries < 200, "the match kept finishing before the kill");
        let mut child = spawn(dir.path(), &match_args(true, &pidfile));
        std::thread::sleep(Duration::from_millis(rng.below(span / 8 + 1)));
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            kills += 1;
        }
        let status = child.wait().unwrap();
        let err = std::fs::read_to_string(dir.path().join("err.txt")).unwrap();
        cuts += err.matches("cut back").count();
        progress.push(recorded(&dir.path().join(STATE)));
        assert!(
            status.code().is_none() || status.success(),
            "run {tries}: {status}: {err}"
        );
    }
    let r = run(dir.path(), &match_args(true, &pidfile));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(recorded(&dir.path().join(STATE)), 24);
    // No engine outlived the runner that started it.
    let engines = pids(&pidfile);
    let ended = all_end(&engines, 5);
    kill_all(&engines);
    assert!(ended, "engines left running: {engines:?}");
    eprintln!(
        "{} engines started, none left; {kills} kills in {tries} runs; games recorded after each: {progress:?}; \
         {cuts} resumes cut an unrecorded game's tail; {} bytes of PGN",
        engines.len(),
        expected.len()
    );
    let got = std::fs::read(dir.path().join("g.pgn")).unwrap();
    assert!(
        got == expected,
        "after {kills} kills the PGN differs:\n{}\n---\n{}",
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&expected)
    );
}
