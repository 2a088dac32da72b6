//! Records read from a state file (on `--resume` and in `merge`) are checked:
//! a wrong one is an error naming the file, never a panic or a wrong count.

mod common;
use common::*;
use serde_json::Value;
use std::path::Path;

fn finished(dir: &Path, state: &str, range: Option<&str>) {
    let mut extra = vec!["--games", "10", "--seed", "8", "--state", state];
    if let Some(r) = range {
        extra.extend(["--range", r]);
    }
    let r = run(dir, &slow_pair(0, &extra));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

fn edit(path: &Path, f: impl FnOnce(&mut Vec<Value>)) {
    let mut state: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    f(state["records"].as_array_mut().unwrap());
    std::fs::write(path, state.to_string()).unwrap();
}

/// `merge` of `state` fails with an error that names it.
fn merge_refuses(dir: &Path, state: &str) {
    let r = run(dir, &args(&["merge", state, "--summary", "m.json"]));
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(state), "{}", r.stderr);
    assert!(!dir.join("m.json").exists());
}

/// `--resume` over `state` fails the same way.
fn resume_refuses(dir: &Path, state: &str, range: Option<&str>) {
    let mut extra = vec!["--games", "10", "--seed", "8", "--state", state, "--resume"];
    if let Some(r) = range {
        extra.extend(["--range", r]);
    }
    let r = run(dir, &slow_pair(0, &extra));
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.stderr.contains(state), "{}", r.stderr);
}

#[test]
fn r4_an_opponent_out_of_range_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    finished(dir.path(), "s.json", None);
    edit(&dir.path().join("s.json"), |r| {
        r[3]["opponent"] = 7.into();
        r.truncate(6);
    });
    merge_refuses(dir.path(), "s.json");
    resume_refuses(dir.path(), "s.json", None);
}

#[test]
fn r5_duplicates_and_indexes_past_the_match_or_shard_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    finished(dir.path(), "dup.json", None);
    edit(&dir.path().join("dup.json"), |r| {
        let copies: Vec<Value> = r[..4].to_vec();
        r.extend(copies);
    });
    merge_refuses(dir.path(), "dup.json");
    resume_refuses(dir.path(), "dup.json", None);

    finished(dir.path(), "past.json", None);
    edit(&dir.path().join("past.json"), |r| {
        r[9]["index"] = 50.into();
    });
    merge_refuses(dir.path(), "past.json");
    resume_refuses(dir.path(), "past.json", None);

    finished(dir.path(), "shard.json", Some("0..4"));
    edit(&dir.path().join("shard.json"), |r| {
        let mut extra = r[0].clone();
        extra["index"] = 6.into();
        extra["first_is_white"] = true.into();
        r.push(extra);
    });
    merge_refuses(dir.path(), "shard.json");
    resume_refuses(dir.path(), "shard.json", Some("0..4"));
}
