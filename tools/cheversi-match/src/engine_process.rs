//! One running engine: a child process started without a shell in its own
//! process group, a reader thread turning its stdout into lines on a
//! bounded channel, and deadlines on every wait so a silent engine can never
//! stall the match. The process itself is watched too (`try_wait`), so an
//! engine that exits is a crash at once, even if a child it forked still
//! holds the pipe; ending an engine ends its whole group.

use crate::comm_log::CommLog;
use crate::engine_config::EngineConfig;
use crate::signals;
use cheversi::Variant;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

/// Longest line kept from an engine; a longer one is dropped whole (never
/// split: its tail could read as a command).
const MAX_LINE: u64 = 64 * 1024;
/// Lines waiting to be read; then the reader (and the engine) block, so an
/// engine's output holds at most `MAX_LINE * QUEUED_LINES` bytes in memory.
const QUEUED_LINES: usize = 64;
/// How often a wait for a line checks that the engine is still running.
const POLL: Duration = Duration::from_millis(20);
/// How long lines written just before an engine exited may still arrive.
const LAST_WORDS: Duration = Duration::from_millis(50);

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
    /// The `depth` of the last line with a score (a line without one, such
    /// as `info depth D nodes N ... time T`, reports the depth under way).
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
        let mut cmd = Command::new(&cfg.cmd);
        cmd.args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        own_group(&mut cmd);
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("cannot start {}: {e}", cfg.cmd)))?;
        signals::register(child.id());
        let stdin = child.stdin.take().ok_or(EngineError::Closed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Closed)?;
        let (tx, lines) = sync_channel(QUEUED_LINES);
        let name = cfg.name.clone();
        std::thread::spawn(move || read_lines(stdout, &tx, &name));
        log.line(&cfg.name, '!', &format!("started {}", cfg.cmd));
        log::info!("{}: started {} (pid {})", cfg.name, cfg.cmd, child.id());
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
        log::trace!("{} > {line}", self.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineError::Closed)
    }

    /// The next line, or why there is none before `deadline`.
    fn read_line(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            // A flood of lines must not outlive the deadline.
            if wait.is_zero() {
                self.log.line(&self.name, '!', "timeout");
                log::debug!("{}: no answer in time", self.name);
                return Err(EngineError::Timeout);
            }
            match self.lines.recv_timeout(wait.min(POLL)) {
                Ok(line) => return Ok(self.got(line)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.closed()),
                Err(RecvTimeoutError::Timeout) if self.exited() => {
                    return match self.lines.recv_timeout(LAST_WORDS) {
                        Ok(line) => Ok(self.got(line)),
                        Err(_) => Err(self.closed()),
                    };
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn got(&self, line: String) -> String {
        self.log.line(&self.name, '<', &line);
        log::trace!("{} < {line}", self.name);
        line
    }

    fn closed(&self) -> EngineError {
        self.log.line(&self.name, '!', "closed");
        log::debug!("{}: exited or closed its output", self.name);
        EngineError::Closed
    }

    /// Whether the engine's process has ended.
    fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Reads lines until one whose first word is `token`.
    fn wait_for(&mut self, token: &str, deadline: Instant) -> Result<(), EngineError> {
        while self.read_line(deadline)?.split_whitespace().next() != Some(token) {}
        Ok(())
    }
}

/// Starts the engine as the leader of a new process group, so ending the
/// group ends whatever it forked; on Linux the kernel kills it if the runner
/// dies (a SIGKILL leaves no time to end it).
fn own_group(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let runner = std::process::id();
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only prctl and getppid, which are async-signal-safe.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The runner died before prctl: someone else adopted us.
                if u32::try_from(libc::getppid()).ok() != Some(runner) {
                    return Err(std::io::Error::other("the runner is gone"));
                }
                Ok(())
            });
        }
    }
}

/// Sends each line of `stdout` to `tx`; a line longer than [`MAX_LINE`] is
/// dropped whole. Blocks when [`QUEUED_LINES`] are waiting.
fn read_lines(stdout: ChildStdout, tx: &SyncSender<String>, name: &str) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    let mut in_long_line = false;
    loop {
        buf.clear();
        match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let ends = buf.ends_with(b"\n");
                if in_long_line || (!ends && buf.len() as u64 == MAX_LINE) {
                    if !in_long_line {
                        log::warn!("{name}: dropped an output line longer than {MAX_LINE} bytes");
                    }
                    in_long_line = !ends;
                    continue;
                }
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                if tx.send(line).is_err() {
                    return;
                }
            }
        }
    }
}

fn read_info<'a>(mut words: impl Iterator<Item = &'a str>, reply: &mut SearchReply) {
    let (mut depth, mut score) = (None, None);
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next().and_then(|d| d.parse().ok()),
            "score" if words.next() == Some("cp") => {
                score = words.next().and_then(|s| s.parse().ok());
            }
            _ => {}
        }
    }
    if score.is_some() {
        reply.score_cp = score;
        reply.depth = depth.or(reply.depth);
    }
}

impl Drop for EngineProcess {
    /// Asks the engine to quit, gives it a moment, then kills its process
    /// group (what it forked too).
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(200);
        while Instant::now() < until && !self.exited() {
            std::thread::sleep(Duration::from_millis(5));
        }
        signals::kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        signals::unregister(self.child.id());
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
        // The live figures between depths: the depth under way, no score.
        read_info(
            "depth 6 nodes 2590000 nps 1295000 hashfull 12 time 2000".split_whitespace(),
            &mut r,
        );
        assert_eq!((r.depth, r.score_cp), (Some(5), Some(-35)));
    }
}
