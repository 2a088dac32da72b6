//! The state and the PGN it wrote: a resume never cuts a file the state
//! cannot prove it wrote, and refuses (with what to do) wherever they disagree.

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

const STATE: &str = "cheversi-match.state.json";

fn base(extra: &[&str]) -> Vec<String> {
    let mut a = vec!["--games", "8", "--seed", "3", "--pgnout", "g.pgn"];
    a.extend(extra);
    slow_pair(4, &a)
}

/// A match of 8 games killed after 2 or more were recorded.
fn partial() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    kill_after(dir.path(), &base(&[]), STATE, 2);
    dir
}

fn refused(r: &Run, word: &str) {
    assert_ne!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(r.stderr.contains(word), "'{word}' not in: {}", r.stderr);
    assert!(!r.stdout.contains("Finished game"), "{}", r.stdout);
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn r1_resume_with_another_pgnout_refuses_and_leaves_that_file_alone() {
    let dir = partial();
    let other = "[Event \"someone else's game\"]\n\n1. K@d4 *\n\n".repeat(200);
    std::fs::write(dir.path().join("other.pgn"), &other).unwrap();
    let mut a = base(&["--resume"]);
    let i = a.iter().position(|w| w == "g.pgn").unwrap();
    a[i] = "other.pgn".into();
    let r = run(dir.path(), &a);
    refused(&r, "--pgnout");
    assert_eq!(read(dir.path(), "other.pgn"), other.as_bytes());
    // Without any --pgnout the state's games would be missing from the PGN too.
    let mut a = base(&["--resume"]);
    let i = a.iter().position(|w| w == "--pgnout").unwrap();
    a.drain(i..i + 2);
    refused(&run(dir.path(), &a), "--pgnout");
}

#[test]
fn r2_a_rerun_over_a_partial_state_without_resume_is_refused() {
    let dir = partial();
    let (state, pgn) = (read(dir.path(), STATE), read(dir.path(), "g.pgn"));
    let r = run(dir.path(), &base(&[]));
    refused(&r, "--resume");
    assert_eq!(read(dir.path(), STATE), state);
    assert_eq!(read(dir.path(), "g.pgn"), pgn);
}

#[test]
fn r3_a_pgn_deleted_or_cut_before_resume_is_noticed() {
    let dir = partial();
    let pgn = read(dir.path(), "g.pgn");
    let first_game_end = String::from_utf8_lossy(&pgn)
        .match_indices("[Event ")
        .nth(1)
        .unwrap()
        .0;
    std::fs::write(dir.path().join("g.pgn"), &pgn[..first_game_end]).unwrap();
    refused(&run(dir.path(), &base(&["--resume"])), "g.pgn");
    assert_eq!(read(dir.path(), "g.pgn"), &pgn[..first_game_end]);
    std::fs::remove_file(dir.path().join("g.pgn")).unwrap();
    refused(&run(dir.path(), &base(&["--resume"])), "g.pgn");
    assert!(!dir.path().join("g.pgn").exists());
}

/// Sets the PGN end the state claims, in whichever form the state keeps it.
fn claim_pgn_end(dir: &Path, f: impl Fn(u64) -> u64) {
    let path = dir.join(STATE);
    let mut state: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let field = if state.get("pgn_bytes").is_some() {
        &mut state["pgn_bytes"]
    } else {
        &mut state["pgn"]["end"]
    };
    *field = f(field.as_u64().unwrap()).into();
    std::fs::write(&path, state.to_string()).unwrap();
}

#[test]
fn r6_a_wrong_pgn_length_in_the_state_is_refused_not_obeyed() {
    type Claim = fn(u64) -> u64;
    let cases: [(&str, Claim); 3] = [
        ("too small", |n| n - 100),
        ("zero", |_| 0),
        ("too large", |n| n + 1000),
    ];
    for (what, f) in cases {
        let dir = partial();
        let pgn = read(dir.path(), "g.pgn");
        claim_pgn_end(dir.path(), f);
        let r = run(dir.path(), &base(&["--resume"]));
        refused(&r, "g.pgn");
        assert_eq!(read(dir.path(), "g.pgn"), pgn, "{what}");
    }
}
