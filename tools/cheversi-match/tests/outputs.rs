//! R12: output paths that cannot be used are refused before the first game.

mod common;
use common::*;

fn refused_at_start(extra: &[&str], word: &str) {
    let dir = tempfile::tempdir().unwrap();
    let mut a = vec!["--games", "2", "--seed", "1", "--pgnout", "g.pgn"];
    a.extend(extra);
    let r = run(dir.path(), &slow_pair(0, &a));
    assert_eq!(
        r.code, 1,
        "{extra:?}: stdout:\n{}\nstderr:\n{}",
        r.stdout, r.stderr
    );
    assert!(r.stderr.contains(word), "{extra:?}: {}", r.stderr);
    assert!(
        !r.stdout.contains("Finished game"),
        "{extra:?}: {}",
        r.stdout
    );
    let pgn = std::fs::read(dir.path().join("g.pgn")).unwrap_or_default();
    assert!(pgn.is_empty(), "{extra:?}: a game was written");
}

#[test]
fn r12_unusable_outputs_are_refused_before_the_first_game() {
    refused_at_start(&["--state", "missing/s.json"], "--state");
    refused_at_start(&["--summary", "missing/s.json"], "--summary");
    refused_at_start(&["--log", "missing/log.txt"], "--log");
    refused_at_start(&["--summary", "."], "--summary");
}

#[test]
fn r12_dev_null_as_pgn_is_refused_at_start_with_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &slow_pair(0, &["--games", "2", "--seed", "1", "--pgnout", "/dev/null"]),
    );
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("--pgnout"), "{}", r.stderr);
    assert!(!r.stdout.contains("Finished game"), "{}", r.stdout);
}
