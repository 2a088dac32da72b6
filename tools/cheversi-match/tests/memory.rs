//! R8: an engine's burst of output is held in bounded memory. Alone in its
//! own test binary, so the peak memory of this process's children is the
//! runner's (or the fake engine's, which stays small).

mod common;
use common::*;

/// Peak resident memory, in MB, of the children this process has waited for.
fn children_peak_mb() -> u64 {
    // SAFETY: getrusage only writes into the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0);
    usage.ru_maxrss as u64 / 1024
}

#[test]
fn r8_a_300_mb_burst_of_output_is_held_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    // The burst follows the loud engine's placement at ply 13, while the
    // runner waits 1.5 s for the other engine: nobody reads the loud one.
    let mut a = engine("good", "random", &["depth=1", "arg=--delay", "arg=1500"]);
    a.extend(engine(
        "loud",
        "burst",
        &["depth=1", "timeout=60000", "arg=--burst-mb", "arg=300"],
    ));
    a.extend(args(&[
        "--games",
        "2",
        "--seed",
        "2",
        "--summary",
        "s.json",
        "--opening-plies",
        "13",
    ]));
    let r = run(dir.path(), &a);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let peak = children_peak_mb();
    assert!(peak < 64, "runner peaked at {peak} MB");
    assert_eq!(json(dir.path().join("s.json"))["games"], 2);
}
