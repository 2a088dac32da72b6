//! One running engine: a child process started without a shell, a reader
//! thread turning its stdout into lines on a channel, and deadlines on every
//! wait so a silent engine can never stall the match.

use crate::comm_log::CommLog;
use crate::engine_config::EngineConfig;
use cheversi::Variant;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Longest line kept from an engine; longer ones are split, so a runaway
/// engine cannot exhaust memory.
const MAX_LINE: u64 = 64 * 1024;

/// Why talking to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// It exited or closed a pipe.
    Closed,
    /// It did not answer before the deadline.
    Timeout,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchReply {
    /// The word after `bestmove`, if any.
    pub bestmove: Option<String>,
    /// The last `score cp` seen.
    pub score_cp: Option<i32>,
    /// The last `depth` seen.
    pub depth: Option<u32>,
    /// Time from `go` to `bestmove`.
    pub elapsed: Duration,
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: CommLog,
}

impl EngineProcess {
    /// Starts the program; its stderr is discarded.
    pub fn spawn(cfg: &EngineConfig, log: CommLog) -> Result<EngineProcess, EngineError> {
        let mut child = Command::new(&cfg.cmd)
            .args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("cannot start {}: {e}", cfg.cmd)))?;
        let stdin = child.stdin.take().ok_or(EngineError::Closed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Closed)?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        log.line(&cfg.name, '!', &format!("started {}", cfg.cmd));
        Ok(EngineProcess {
            name: cfg.name.clone(),
            child,
            stdin,
            lines,
            log,
        })
    }

    /// Spawns, then `uci`/`uciok`, variant and options, `isready`/`readyok`.
    pub fn start(
        cfg: &EngineConfig,
        variant: Variant,
        log: CommLog,
        timeout: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let mut e = EngineProcess::spawn(cfg, log)?;
        let deadline = Instant::now() + timeout;
        e.send("uci")?;
        e.wait_for("uciok", deadline)?;
        e.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.name()
        ))?;
        for (name, value) in &cfg.options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.sync(timeout)?;
        Ok(e)
    }

    /// `ucinewgame` then `isready`/`readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync(timeout)
    }

    /// `isready`, waiting for `readyok`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + timeout)
    }

    /// Sends a position and a go command; waits for `bestmove` until `limit`.
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        limit: Duration,
    ) -> Result<SearchReply, EngineError> {
        self.send(position)?;
        self.send(go)?;
        let start = Instant::now();
        let deadline = start + limit;
        let mut reply = SearchReply::default();
        loop {
            let line = self.read_line(deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => read_info(words, &mut reply),
                Some("bestmove") => {
                    reply.bestmove = words.next().map(str::to_string);
                    reply.elapsed = start.elapsed();
                    return Ok(reply);
                }
                _ => {}
            }
        }
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.log.line(&self.name, '>', line);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Closed)
    }

    /// The next line, or why there is none before `deadline`.
    fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        // A flood of lines must not outlive the deadline.
        let next = if wait.is_zero() {
            Err(RecvTimeoutError::Timeout)
        } else {
            self.lines.recv_timeout(wait)
        };
        match next {
            Ok(line) => {
                self.log.line(&self.name, '<', &line);
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => {
                self.log.line(&self.name, '!', "timeout");
                Err(EngineError::Timeout)
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.log.line(&self.name, '!', "closed");
                Err(EngineError::Closed)
            }
        }
    }

    /// Reads lines until one whose first word is `token`.
    fn wait_for(&mut self, token: &str, deadline: Instant) -> Result<(), EngineError> {
        while self.read_line(deadline)?.split_whitespace().next() != Some(token) {}
        Ok(())
    }
}

fn read_info<'a>(mut words: impl Iterator<Item = &'a str>, reply: &mut SearchReply) {
    while let Some(w) = words.next() {
        match w {
            "depth" => reply.depth = words.next().and_then(|d| d.parse().ok()).or(reply.depth),
            "score" if words.next() == Some("cp") => {
                reply.score_cp = words.next().and_then(|s| s.parse().ok()).or(reply.score_cp);
            }
            _ => {}
        }
    }
}

impl Drop for EngineProcess {
    /// Asks the engine to quit, gives it a moment, then kills it.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read() {
        let mut r = SearchReply::default();
        read_info(
            "depth 5 seldepth 7 score cp -35 nodes 100 pv K@d4".split_whitespace(),
            &mut r,
        );
        assert_eq!((r.depth, r.score_cp), (Some(5), Some(-35)));
        read_info("depth x score mate 3".split_whitespace(), &mut r);
        assert_eq!((r.depth, r.score_cp), (Some(5), Some(-35)));
    }
}
