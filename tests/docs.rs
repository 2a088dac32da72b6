//! The examples of README.md and protocol.md, run against the binary, so
//! they cannot go stale.
//!
//! Two kinds of fenced blocks are checked:
//! - ```` ```transcript ````: a session. `> line` is sent to `cheversi`,
//!   `< line` is what it must answer (`<` alone: an empty line); lines
//!   before the first `>` are the banner.
//! - ```` ```console ````: `$ cheversi ARGS` runs the binary with ARGS (in
//!   double quotes a word may hold spaces); the lines up to the next `$` are
//!   its output (stdout, then stderr).
//!
//! In both, ` # ` starts a comment and a line that starts with `#` is one.
//! Figures that vary from run to run (`nps`, `time` (of `info` and `explored` lines), `Total time (ms)`,
//! `Nodes/second`, and `Hash`'s max: the machine's memory) are masked on
//! both sides. An expected line `...` stands for any lines; a line ending in ` ...` for any line that starts so.
//!
//! When the engine's output changes on purpose, rewrite the blocks with
//! `UPDATE_DOCS=1 cargo test --release --test docs` and read the diff;
//! steps with `...` are left alone (edit them by hand).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::Duration;

const PATIENCE: Duration = Duration::from_secs(30);
const BIN: &str = env!("CARGO_BIN_EXE_cheversi");

/// One input (a protocol line or a command line) and the lines it must give.
#[derive(Debug)]
struct Step {
    /// `None`: the lines before the first input (the banner).
    input: Option<String>,
    /// The doc's line of the input, 0-based.
    input_at: usize,
    expected: Vec<String>,
    /// The doc's line of each expected line, 0-based, and its comment.
    at: Vec<(usize, String)>,
}

#[derive(Debug, PartialEq)]
enum Kind {
    Transcript,
    Console,
}

#[derive(Debug)]
struct Block {
    kind: Kind,
    steps: Vec<Step>,
}

/// Splits off a ` # comment` (kept with its leading spaces for rewriting).
fn comment(line: &str) -> (&str, &str) {
    match line.find(" # ") {
        Some(i) => {
            let text = line[..i].trim_end();
            (text, &line[text.len()..])
        }
        None => (line.trim_end(), ""),
    }
}

fn parse_block(kind: Kind, lines: &[(usize, &str)]) -> Block {
    let (input_mark, output_mark) = match kind {
        Kind::Transcript => ("> ", Some("<")),
        Kind::Console => ("$ ", None),
    };
    let mut steps = vec![Step {
        input: None,
        input_at: 0,
        expected: vec![],
        at: vec![],
    }];
    for &(n, raw) in lines {
        // A console's output may hold empty lines; a transcript writes `<`.
        let blank = raw.trim().is_empty() && kind == Kind::Transcript;
        if raw.trim_start().starts_with('#') || blank {
            continue;
        }
        let (text, note) = comment(raw);
        if let Some(cmd) = text.strip_prefix(input_mark) {
            steps.push(Step {
                input: Some(cmd.to_string()),
                input_at: n,
                expected: vec![],
                at: vec![],
            });
            continue;
        }
        let out = match output_mark {
            Some(mark) => match text.strip_prefix(mark) {
                Some(rest) => rest.strip_prefix(' ').unwrap_or(rest),
                None => panic!("line {}: neither input nor output: {raw:?}", n + 1),
            },
            None => text,
        };
        let step = steps.last_mut().expect("a step");
        step.expected.push(out.to_string());
        step.at.push((n, note.to_string()));
    }
    Block { kind, steps }
}

/// The checked blocks of a Markdown text, with the lines they span.
fn blocks(text: &str) -> Vec<(std::ops::Range<usize>, Block)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let kind = match lines[i].trim() {
            "```transcript" => Some(Kind::Transcript),
            "```console" => Some(Kind::Console),
            _ => None,
        };
        i += 1;
        let Some(kind) = kind else { continue };
        let start = i;
        while i < lines.len() && lines[i].trim() != "```" {
            i += 1;
        }
        let body: Vec<(usize, &str)> = (start..i).map(|n| (n, lines[n])).collect();
        found.push((start..i, parse_block(kind, &body)));
    }
    found
}

/// The line with its varying figures replaced by `*` (and no trailing
/// spaces, which a document does not keep).
fn mask(line: &str) -> String {
    let line = line.trim_end();
    for key in ["Total time (ms): ", "Nodes/second: "] {
        if line.starts_with(key) {
            return format!("{key}*");
        }
    }
    // The table's ceiling is this machine's physical memory.
    if let Some(head) = line.strip_prefix("option name Hash ")
        && let Some((head, _)) = head.rsplit_once(" max ")
    {
        return format!("option name Hash {head} max *");
    }
    // CECP thinking: ply score centiseconds nodes pv; the time varies.
    let w: Vec<&str> = line.split(' ').collect();
    if w.len() >= 4 && w[..4].iter().all(|x| x.parse::<i64>().is_ok()) {
        let mut w = w;
        w[2] = "*";
        return w.join(" ");
    }
    let mut out = Vec::new();
    let mut hide = false;
    for w in line.split(' ') {
        out.push(if hide { "*" } else { w });
        hide = matches!(w, "nps" | "time")
            && ["info depth", "info explore", "explored"]
                .iter()
                .any(|p| line.starts_with(p));
    }
    out.join(" ")
}

/// Do the actual lines fit the expected ones (with `...`)?
fn fits(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == "..." => (0..=actual.len()).any(|k| fits(rest, &actual[k..])),
        Some((e, rest)) => {
            let Some((a, tail)) = actual.split_first() else {
                return false;
            };
            let same = match e.strip_suffix(" ...") {
                Some(prefix) => a.starts_with(prefix),
                None => mask(e) == mask(a),
            };
            same && fits(rest, tail)
        }
    }
}

/// A running engine fed one step at a time.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// A `go infinite`/`go ponder` search runs: its progress lines are
    /// dropped from the other steps' output.
    searching: bool,
    /// The session speaks CECP (its first input was `xboard`): each step
    /// ends with `ping`/`pong` instead of `isready`/`readyok`.
    cecp: bool,
}

/// Does a CECP line end a game (`0-1 {White 43 : 44 Black}`)?
fn cecp_result(l: &str) -> bool {
    ["1-0 {", "0-1 {", "1/2-1/2 {"]
        .iter()
        .any(|r| l.starts_with(r))
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Session {
            child,
            stdin,
            lines,
            searching: false,
            cecp: false,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").expect("the engine reads");
    }

    /// The next line, `None` at the end of output.
    fn next(&mut self) -> Option<String> {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => panic!("no output within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines until (and with) the first for which `last` holds.
    fn until(&mut self, keep_progress: bool, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut got = Vec::new();
        while let Some(l) = self.next() {
            let end = last(&l);
            if keep_progress || !self.searching || !l.starts_with("info depth ") {
                got.push(l);
            }
            if end {
                break;
            }
        }
        got
    }

    /// Sends the step's input and collects what it answers.
    fn run(&mut self, input: Option<&str>, expected: &[String]) -> Vec<String> {
        let Some(input) = input else {
            return self.next().into_iter().collect();
        };
        if input == "xboard" {
            self.cecp = true;
        }
        if self.cecp && input != "quit" {
            return self.run_cecp(input, expected);
        }
        self.send(input);
        let word = input.split_whitespace().next().unwrap_or("");
        let background = word == "go" && (input.contains("infinite") || input.contains("ponder"));
        let error = |l: &str| l.starts_with("info string error");
        match word {
            "quit" => {
                self.stdin.take();
                let rest = self.until(true, |_| false);
                let status = self.child.wait().expect("exit");
                assert!(status.success(), "quit: {status}");
                rest
            }
            "go" | "bench" if input.contains("perft") || word == "bench" => {
                self.until(false, |l| l.starts_with("Nodes/second") || error(l))
            }
            "go" if background => {
                // Accepted (nothing but progress) or refused: ask to find out.
                self.searching = true;
                let got = self.ready();
                self.searching = !got.iter().any(|l| error(l));
                got
            }
            "go" => self.until(false, |l| l.starts_with("bestmove") || error(l)),
            "explore" => self.until(true, |l| l.starts_with("explored") || error(l)),
            "stop" | "ponderhit" if self.searching => {
                self.searching = false;
                self.until(true, |l| l.starts_with("bestmove"))
            }
            "isready" => self.until(false, |l| l == "readyok"),
            _ => self.ready(),
        }
    }

    /// A CECP step: the lines before `pong`, and the engine's move and the
    /// end of the game where the document expects them (a search runs on
    /// after the `pong`).
    fn run_cecp(&mut self, input: &str, expected: &[String]) -> Vec<String> {
        self.send(input);
        self.send("ping 1000");
        let mut got = self.until(true, |l| l == "pong 1000");
        got.pop();
        let wants = |f: &dyn Fn(&str) -> bool| expected.iter().any(|l| f(l));
        let is_move = |l: &str| l.starts_with("move ");
        if wants(&is_move) && !got.iter().any(|l| is_move(l)) {
            got.extend(self.until(true, is_move));
        }
        if wants(&cecp_result) && !got.iter().any(|l| cecp_result(l)) {
            got.extend(self.until(true, cecp_result));
        }
        got
    }

    /// `isready`, and the lines before its `readyok`.
    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.until(false, |l| l == "readyok");
        got.pop();
        got
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits a command line into words; double quotes group.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, part) in line.split('"').enumerate() {
        if i % 2 == 1 {
            out.push(part.to_string());
        } else {
            out.extend(part.split_whitespace().map(str::to_string));
        }
    }
    out
}

fn run_console(cmd: &str) -> Vec<String> {
    let args = words(cmd);
    assert_eq!(
        args[0], "cheversi",
        "only cheversi commands are checked: {cmd}"
    );
    let out = Command::new(BIN)
        .args(&args[1..])
        .env_remove("RUST_LOG")
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    text.lines().map(str::to_string).collect()
}

/// Runs one block; the actual lines per step.
fn run_block(b: &Block) -> Vec<Vec<String>> {
    match b.kind {
        Kind::Transcript => {
            let mut s = Session::start();
            b.steps
                .iter()
                .map(|st| s.run(st.input.as_deref(), &st.expected))
                .collect()
        }
        Kind::Console => b
            .steps
            .iter()
            .map(|st| st.input.as_deref().map(run_console).unwrap_or_default())
            .collect(),
    }
}

/// Checks (or with `update`, rewrites) one document; the failures.
fn check(file: &str, update: bool) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("the document");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut failures = Vec::new();
    let found = blocks(&text);
    assert!(!found.is_empty(), "{file} has no checked block");
    // From the last block up, so the line numbers of earlier ones hold.
    for (range, block) in found.into_iter().rev() {
        let actual = run_block(&block);
        let mut rewritten = Vec::new();
        let mut stale = false;
        for (step, got) in block.steps.iter().zip(&actual) {
            if step.input.is_some() {
                rewritten.push(lines[step.input_at].clone());
            }
            if fits(&step.expected, got) {
                for (n, _) in &step.at {
                    rewritten.push(lines[*n].clone());
                }
                continue;
            }
            stale = true;
            let first = step.at.first().map_or(range.start, |a| a.0) + 1;
            failures.push(format!(
                "{file}:{first}: after {:?}\n  expected: {:#?}\n  got:      {got:#?}",
                step.input.as_deref().unwrap_or("(start)"),
                step.expected
            ));
            let wild = step
                .expected
                .iter()
                .any(|e| e == "..." || e.ends_with(" ..."));
            let lines_now = if wild { &step.expected } else { got };
            for (i, l) in lines_now.iter().enumerate() {
                let note = match step.at.get(i) {
                    Some((_, note)) if step.at.len() == lines_now.len() => note.as_str(),
                    _ => "",
                };
                let l = l.trim_end();
                let out = match block.kind {
                    Kind::Transcript if l.is_empty() => "<".to_string(),
                    Kind::Transcript => format!("< {l}"),
                    Kind::Console => l.to_string(),
                };
                rewritten.push(format!("{out}{note}"));
            }
        }
        if update && stale {
            // Comments between lines are dropped only in rewritten steps.
            let kept: Vec<String> = keep_comments(&block.kind, &lines[range.clone()], rewritten);
            lines.splice(range, kept);
        }
    }
    if update {
        std::fs::write(&path, lines.join("\n") + "\n").expect("rewrite the document");
    }
    failures
}

/// Puts the block's comment lines back before the input they preceded.
fn keep_comments(kind: &Kind, old: &[String], new: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending: Vec<&String> = Vec::new();
    let mut notes: Vec<(String, Vec<&String>)> = Vec::new();
    for l in old {
        let blank = l.trim().is_empty() && *kind == Kind::Transcript;
        if l.trim_start().starts_with('#') || blank {
            pending.push(l);
        } else if l.starts_with("> ") || l.starts_with("$ ") {
            notes.push((l.clone(), std::mem::take(&mut pending)));
        }
    }
    for l in new {
        if let Some(i) = notes.iter().position(|(input, _)| *input == l) {
            out.extend(notes[i].1.iter().map(|c| (*c).clone()));
            notes.remove(i);
        }
        out.push(l);
    }
    out.extend(pending.into_iter().cloned());
    out
}

#[test]
fn documents_show_what_the_engine_does() {
    let update = std::env::var_os("UPDATE_DOCS").is_some();
    let mut failures = Vec::new();
    for file in ["README.md", "protocol.md"] {
        failures.extend(check(file, update));
    }
    let how = if update {
        "the documents were rewritten: read the diff"
    } else {
        "if the change is meant, run UPDATE_DOCS=1 cargo test --release --test docs"
    };
    assert!(failures.is_empty(), "{}\n{how}", failures.join("\n"));
}

#[test]
fn masks_and_wildcards() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let info = "info depth 1 seldepth 1 score cp 7 nodes 13 nps 691268 hashfull 0 time 3 pv Q@f5";
    let other = "info depth 1 seldepth 1 score cp 7 nodes 13 nps 1 hashfull 0 time 0 pv Q@f5";
    assert!(fits(&s(&[info]), &s(&[other])));
    assert!(!fits(&s(&[info]), &s(&[&other.replace("cp 7", "cp 8")])));
    assert!(!fits(
        &s(&[info]),
        &s(&[&other.replace("nodes 13", "nodes 14")])
    ));
    assert!(fits(
        &s(&["...", "bestmove ..."]),
        &s(&[info, "bestmove K@a1"])
    ));
    assert!(!fits(
        &s(&["bestmove K@a1"]),
        &s(&["bestmove K@a1", "extra"])
    ));
    assert_eq!(mask("Nodes/second: 12"), "Nodes/second: *");
    assert_eq!(
        mask("option name Hash type spin default 16 min 1 max 24105"),
        "option name Hash type spin default 16 min 1 max *"
    );
    assert_eq!(
        words("cheversi perft --fen \"8/8 w -\" x"),
        ["cheversi", "perft", "--fen", "8/8 w -", "x"]
    );
    let b = parse_block(
        Kind::Transcript,
        &[
            (0, "< banner"),
            (1, "> d   # show"),
            (2, "<"),
            (3, "< x # note"),
        ],
    );
    assert_eq!(b.steps.len(), 2);
    assert_eq!(b.steps[1].expected, ["", "x"]);
}
