//! One engine process for one page: started without a shell from the
//! command line's program and arguments, its stdout read into a bounded
//! channel of lines, killed when dropped.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// Longest engine line kept; the rest of a longer line is read as more lines.
const MAX_LINE: u64 = 16 * 1024;
/// Lines waiting for the session; a flooding engine waits on its pipe.
const LINE_QUEUE: usize = 256;
/// A write the engine does not take in this time counts as a hang.
const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// The program to run, fixed by the server's command line.
#[derive(Clone, Debug)]
pub struct EngineCommand {
    /// The executable.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Engine {
    /// Starts the program; its stderr is discarded.
    pub fn spawn(cmd: &EngineCommand) -> std::io::Result<Engine> {
        let mut child = Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| std::io::Error::other("no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("no stdout"))?;
        let (tx, lines) = mpsc::channel(LINE_QUEUE);
        tokio::spawn(async move {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut reader)
                    .take(MAX_LINE)
                    .read_until(b'\n', &mut buf)
                    .await
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).await.is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    /// Writes one line; an error if the pipe is closed or the engine does not read.
    pub async fn send(&mut self, line: &str) -> Result<(), String> {
        log::debug!("> {line}");
        let data = format!("{line}\n");
        let write = async {
            self.stdin.write_all(data.as_bytes()).await?;
            self.stdin.flush().await
        };
        match tokio::time::timeout(WRITE_TIMEOUT, write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("cannot write to the engine: {e}")),
            Err(_) => Err("the engine does not read its input".into()),
        }
    }

    /// The next line, `None` once the engine closed its output.
    pub async fn recv(&mut self) -> Option<String> {
        let line = self.lines.recv().await;
        if let Some(l) = &line {
            log::debug!("< {l}");
        }
        line
    }

    /// Kills the engine and says how it ended (if it had ended by itself
    /// within a moment, its own exit status).
    pub async fn kill(mut self) -> Option<ExitStatus> {
        let wait = tokio::time::timeout(Duration::from_millis(300), self.child.wait());
        if let Ok(Ok(status)) = wait.await {
            return Some(status);
        }
        let _ = self.child.start_kill();
        let _ = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
        None
    }

    /// Asks the engine to quit, and kills it if it does not.
    pub async fn quit(mut self) {
        let _ = self.send("quit").await;
        let wait = tokio::time::timeout(Duration::from_millis(500), self.child.wait());
        if wait.await.is_err() {
            let _ = self.child.start_kill();
            let _ = tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await;
        }
    }
}
