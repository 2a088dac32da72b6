//! The runner against the project's own engine, the contract between the
//! two: a short match at two depths must finish with every game normal.
//! `cargo test --workspace` builds `cheversi` next to this test's binary;
//! run alone (`-p cheversi-match`) the engine may be missing, and the test
//! says so and passes.

mod common;
use common::*;
use std::path::PathBuf;

/// `target/<profile>/cheversi`, beside the `deps/` folder of this test.
fn engine_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let path = profile_dir.join(format!("cheversi{}", std::env::consts::EXE_SUFFIX));
    path.is_file().then_some(path)
}

#[test]
fn the_real_engine_plays_a_short_match_at_two_depths() {
    let Some(engine) = engine_binary() else {
        eprintln!("cheversi not built; run `cargo test --workspace` to include this test");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cmd = format!("cmd={}", engine.display());
    let a = args(&[
        "--engine",
        &cmd,
        "name=deep",
        "depth=3",
        "--engine",
        &cmd,
        "name=shallow",
        "depth=1",
        "--games",
        "4",
        "--seed",
        "5",
        "--variant",
        "open",
        "--pgnout",
        "g.pgn",
        "--summary",
        "s.json",
    ]);
    let r = run(dir.path(), &a);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let s = json(dir.path().join("s.json"));
    assert_eq!(s["games"], 4, "{s}");
    assert_eq!(s["terminations"]["normal"], 4, "{s}");
    let pgn = std::fs::read_to_string(dir.path().join("g.pgn")).unwrap();
    assert_eq!(pgn.matches("[PlyCount \"16\"]").count(), 4);
}
