//! The README's recipe for one match over many machines, run with GNU
//! parallel on local slots: the merged shards give the unsharded summary.

mod common;
use common::*;
use std::process::Command;

fn have_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn gnu_parallel_shards_merge_into_the_unsharded_summary() {
    if !have_parallel() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "GNU parallel is missing on CI (apt-get install -y parallel)"
        );
        eprintln!("skipped: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let match_args = slow_pair(0, &["--games", "16", "--seed", "12"]);
    let whole = tempfile::tempdir().unwrap();
    let mut a = match_args.clone();
    a.extend(args(&["--summary", "s.json"]));
    assert_eq!(run(whole.path(), &a).code, 0);

    // As in the README, with this machine (':') as the only login, 2 slots.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nodes.txt"), "2/:\n").unwrap();
    let ranges: String = (0..16)
        .step_by(4)
        .map(|s| format!("{s}..{}\n", s + 4))
        .collect();
    std::fs::write(dir.path().join("ranges.txt"), ranges).unwrap();
    let out = Command::new("parallel")
        .current_dir(dir.path())
        .args(["--will-cite", "--sshloginfile", "nodes.txt"])
        .args(["--return", "shard-{#}.json", "--return", "shard-{#}.pgn"])
        .arg(env!("CARGO_BIN_EXE_cheversi-match"))
        .args(&match_args)
        .args(["--range", "{}", "--state", "shard-{#}.json"])
        .args(["--pgnout", "shard-{#}.pgn", "::::", "ranges.txt"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut merge = args(&["merge"]);
    merge.extend((1..=4).map(|i| format!("shard-{i}.json")));
    merge.extend(args(&["--summary", "m.json"]));
    let r = run(dir.path(), &merge);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (w, m) = (
        json(whole.path().join("s.json")),
        json(dir.path().join("m.json")),
    );
    for key in [
        "games",
        "wins",
        "draws",
        "losses",
        "penta",
        "elo",
        "complete",
        "terminations",
    ] {
        assert_eq!(w[key], m[key], "{key}");
    }
    assert_eq!(m["games"], 16);
}
