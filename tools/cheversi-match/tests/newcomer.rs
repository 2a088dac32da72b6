//! What a new user meets: logging with -v, how to resume after Ctrl-C, a
//! refusal that names the argument, labelled statistics a person can read.

mod common;
use common::*;
use std::time::{Duration, Instant};

#[test]
fn v_logs_what_the_runner_does_and_quiet_is_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), &slow_pair(0, &["--games", "2", "-v"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("INFO") && r.stderr.contains("started"),
        "{}",
        r.stderr
    );
    let r = run(
        dir.path(),
        &slow_pair(0, &["--games", "2", "--state", "b.json"]),
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("INFO"), "{}", r.stderr);
}

#[test]
fn ctrl_c_prints_the_command_that_resumes_and_it_does() {
    let dir = tempfile::tempdir().unwrap();
    let a = slow_pair(
        5,
        &["--games", "6", "--seed", "3", "--pgnout", "my games.pgn"],
    );
    let mut child = spawn(dir.path(), &a);
    let state = dir.path().join("cheversi-match.state.json");
    let deadline = Instant::now() + Duration::from_secs(30);
    while recorded(&state) < 1 {
        assert!(Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = child.id().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{status}");
    let err = std::fs::read_to_string(dir.path().join("err.txt")).unwrap();
    let command = err
        .lines()
        .skip_while(|l| !l.contains("To resume"))
        .nth(1)
        .unwrap_or_else(|| panic!("no resume command in: {err}"))
        .trim()
        .to_string();
    assert!(command.ends_with("--resume"), "{command}");
    assert!(command.contains("'my games.pgn'"), "{command}");
    let out = std::process::Command::new("sh")
        .args(["-c", &command])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(recorded(&state), 6);
}

#[test]
fn a_resume_refusal_names_the_argument_that_differs() {
    let dir = tempfile::tempdir().unwrap();
    kill_after(
        dir.path(),
        &slow_pair(5, &["--games", "6", "--seed", "4"]),
        "cheversi-match.state.json",
        1,
    );
    let r = run(
        dir.path(),
        &slow_pair(5, &["--games", "8", "--seed", "4", "--resume"]),
    );
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("--games: given 8, the saved match has 6"),
        "{}",
        r.stderr
    );
    let r = run(
        dir.path(),
        &slow_pair(5, &["--games", "6", "--seed", "5", "--resume"]),
    );
    assert!(
        r.stderr.contains("--seed: given 5, the saved match has 4"),
        "{}",
        r.stderr
    );
    let mut other = engine("alpha", "random", &["depth=2", "arg=--delay", "arg=5"]);
    other.extend(engine(
        "beta",
        "random",
        &["nodes=5", "arg=--delay", "arg=5"],
    ));
    other.extend(args(&["--games", "6", "--seed", "4", "--resume"]));
    let r = run(dir.path(), &other);
    assert!(r.stderr.contains("--engine 1"), "{}", r.stderr);
    assert!(
        r.stderr.contains("depth=2") && r.stderr.contains("depth=1"),
        "{}",
        r.stderr
    );
}

#[test]
fn stats_labels_its_order_and_writes_infinite_elo_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), &args(&["stats", "--wdl", "10,0,0"]));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("W-L-D 10 - 0 - 0 [1.000] 10 games"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Elo: +inf (all games won; no interval)"),
        "{}",
        r.stdout
    );
    assert!(!r.stdout.contains("NaN"), "{}", r.stdout);
}
