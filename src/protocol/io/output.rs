//! The output side: one writer shared by the session and the search thread.
//! Each response is written whole and flushed under the lock, so lines from
//! the two threads never mix. The `Debug Log File` copy of the conversation
//! is kept here too, so it sees the lines in the order they were written.

use std::fmt::Display;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::sync::{Arc, Mutex, PoisonError};

/// A shared, line-atomic writer of responses.
#[derive(Clone)]
pub struct Output {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
    log: Arc<Mutex<Option<File>>>,
}

impl Output {
    /// Writes to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output {
            w: Arc::new(Mutex::new(Box::new(w))),
            log: Arc::new(Mutex::new(None)),
        }
    }

    /// Writes the responses (of either protocol) in order, with nothing in
    /// between.
    pub fn send<T: Display>(&self, responses: &[T]) {
        let mut w = self.w.lock().unwrap_or_else(PoisonError::into_inner);
        for r in responses {
            let text = r.to_string();
            log::debug!("> {text}");
            // A closed output is not our problem to report: input decides when to end.
            if writeln!(w, "{text}").and_then(|()| w.flush()).is_err() {
                log::warn!("output closed");
            }
            self.copy(">> ", &text);
        }
    }

    /// Notes a line read from the input in the debug log.
    pub fn received(&self, line: &str) {
        self.copy("<< ", line);
    }

    /// Copies the conversation to `path` from now on (appended, as
    /// Stockfish's `Debug Log File`); `None` stops copying.
    pub fn set_log(&self, path: Option<&str>) -> io::Result<()> {
        let file = match path {
            Some(p) => Some(OpenOptions::new().create(true).append(true).open(p)?),
            None => None,
        };
        *self.log.lock().unwrap_or_else(PoisonError::into_inner) = file;
        Ok(())
    }

    fn copy(&self, prefix: &str, text: &str) {
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(file) = log.as_mut() else { return };
        let mut lines = String::new();
        for l in text.lines() {
            lines += prefix;
            lines += l;
            lines.push('\n');
        }
        if let Err(e) = file.write_all(lines.as_bytes()) {
            log::warn!("debug log file: {e}; no longer written");
            *log = None;
        }
    }
}
