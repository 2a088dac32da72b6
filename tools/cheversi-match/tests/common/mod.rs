//! Helpers for running `cheversi-match` against the fake engine.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The fake engine binary.
pub fn fake() -> &'static str {
    env!("CARGO_BIN_EXE_fake-engine")
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
