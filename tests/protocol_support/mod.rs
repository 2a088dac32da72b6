//! Drives the `cheversi` binary over pipes, line by line, with timeouts.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

/// Long enough for a slow, shared CI machine; a hang still fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    /// Starts the binary with logging off.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cheversi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env_remove("RUST_LOG")
            .spawn()
            .expect("the engine starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut e = Engine {
            child,
            stdin,
            lines,
        };
        let banner = e.next();
        assert!(
            banner.starts_with("Cheversi ") && banner.ends_with(" by the Cheversi developers"),
            "{banner}"
        );
        e
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// The next output line; panics after [`PATIENCE`].
    pub fn next(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no output within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = self.next();
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }

    /// Sends `line`, then `isready`; returns the lines before `readyok`,
    /// without the progress lines of a search that may be running.
    pub fn ask(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("isready");
        let mut got = self.until("readyok");
        got.pop();
        // A running search's lines, its book line among them (the empty
        // board is in the book: a proven loss), may come at any time.
        got.retain(|l| {
            !l.starts_with("info depth ")
                && !l.starts_with("info string book ")
                && !l.starts_with("info explore ")
        });
        got
    }

    /// Sends `line` and expects exactly one error line in reply.
    pub fn expect_error(&mut self, line: &str, contains: &str) {
        let got = self.ask(line);
        assert_eq!(got.len(), 1, "{line:?} gave {got:?}");
        assert!(
            got[0].starts_with("info string error: ") && got[0].contains(contains),
            "{line:?} gave {got:?}, wanted an error with {contains:?}"
        );
    }

    /// The output lines that arrive within `wait`.
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(l) => got.push(l),
                Err(_) => break,
            }
        }
        got
    }

    /// The `Position:` line of `d`.
    pub fn fen(&mut self) -> String {
        let d = self.ask("d");
        let line = d
            .iter()
            .find(|l| l.starts_with("Position: "))
            .expect("d shows the position");
        line["Position: ".len()..].to_string()
    }

    /// Closes the input and waits for the exit, collecting the rest of the output.
    pub fn close(mut self) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let status = wait(&mut self.child);
        (status, self.rest())
    }

    /// Sends `quit` and waits for the exit.
    pub fn quit(mut self) -> (ExitStatus, Vec<String>) {
        self.send("quit");
        let status = wait(&mut self.child);
        (status, self.rest())
    }
}

impl Engine {
    /// Every line until the engine's output closes.
    fn rest(&self) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(PATIENCE) {
            got.push(l);
        }
        got
    }
}

fn wait(child: &mut Child) -> ExitStatus {
    let end = Instant::now() + PATIENCE;
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return s;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("the engine did not exit");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
