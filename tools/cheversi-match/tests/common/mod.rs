//! Helpers for running `cheversi-match` against the fake engine.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The fake engine: the crate's example, which `cargo test` builds into
/// `target/<profile>/examples/`; built here when a single `--test` skipped it.
pub fn fake() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        let profile_dir = exe.parent().and_then(Path::parent).expect("target dir");
        let path = profile_dir.join(format!(
            "examples/fake-engine{}",
            std::env::consts::EXE_SUFFIX
        ));
        if !path.is_file() {
            build_fake(profile_dir);
        }
        assert!(path.is_file(), "{} missing", path.display());
        path.display().to_string()
    })
}

fn build_fake(profile_dir: &Path) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-p", "cheversi-match", "--example", "fake-engine"]);
    if profile_dir.ends_with("release") {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("cargo runs");
    assert!(status.success(), "cannot build the fake engine");
}

/// `--engine` arguments for a fake engine with a name, mode and extra keys.
pub fn engine(name: &str, mode: &str, keys: &[&str]) -> Vec<String> {
    let mut v = vec![
        "--engine".to_string(),
        format!("cmd={}", fake()),
        format!("name={name}"),
        "arg=--mode".into(),
        format!("arg={mode}"),
        "arg=--seed".into(),
        format!("arg={}", name.len() * 7 + name.as_bytes()[0] as usize),
    ];
    v.extend(keys.iter().map(|k| k.to_string()));
    v
}

/// The result of one run.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cheversi-match` with `args` in `dir`.
pub fn run(dir: &Path, args: &[String]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_cheversi-match"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cheversi-match runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Reads a JSON file.
pub fn json(path: PathBuf) -> Value {
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

/// Strings to a vector of owned strings.
pub fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// Two random movers that think `delay_ms` per move, then `extra`.
pub fn slow_pair(delay_ms: u64, extra: &[&str]) -> Vec<String> {
    let delay = format!("arg={delay_ms}");
    let mut a = engine("alpha", "random", &["depth=1", "arg=--delay", &delay]);
    a.extend(engine(
        "beta",
        "random",
        &["nodes=5", "arg=--delay", &delay],
    ));
    a.extend(args(extra));
    a
}

/// Starts `cheversi-match` in `dir`, its output going to `out.txt` and `err.txt`.
pub fn spawn(dir: &Path, args: &[String]) -> std::process::Child {
    let file = |name: &str| std::fs::File::create(dir.join(name)).unwrap();
    Command::new(env!("CARGO_BIN_EXE_cheversi-match"))
        .args(args)
        .current_dir(dir)
        .stdout(file("out.txt"))
        .stderr(file("err.txt"))
        .spawn()
        .expect("cheversi-match starts")
}

/// Games recorded in the state file at `path` (0 if it is missing or half written).
pub fn recorded(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["records"].as_array().map(Vec::len))
        .unwrap_or(0)
}

/// Runs the match in `dir` and kills it (SIGKILL) once the state `state`
/// holds at least `games` games, as a crash or power cut would.
pub fn kill_after(dir: &Path, args: &[String], state: &str, games: usize) {
    let mut child = spawn(dir, args);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while recorded(&dir.join(state)) < games {
        assert!(std::time::Instant::now() < deadline, "no progress");
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "finished before the kill ({status}): {}",
                std::fs::read_to_string(dir.join("err.txt")).unwrap_or_default()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Whether process `pid` is running (a zombie is not).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit(')')
                .next()
                .map(|rest| rest.trim_start().to_string())
        })
        .is_some_and(|rest| !rest.starts_with('Z') && !rest.starts_with('X'))
}

/// The process ids in a fake engine's pidfile.
pub fn pids(path: &Path) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Waits up to `secs` seconds for every process of `pids` to end.
pub fn all_end(pids: &[u32], secs: u64) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while pids.iter().any(|&p| alive(p)) {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    true
}

/// Ends processes a failed test left behind.
pub fn kill_all(pids: &[u32]) {
    for &p in pids {
        let _ = Command::new("kill")
            .args(["-9", &p.to_string()])
            .stderr(std::process::Stdio::null())
            .status();
    }
}
