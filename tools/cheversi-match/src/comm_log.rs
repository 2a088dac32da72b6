//! `--log`: every line sent to or read from an engine, with a timestamp.

use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A shared log of engine traffic; `CommLog::none()` writes nothing.
#[derive(Clone, Debug)]
pub struct CommLog {
    file: Option<Arc<Mutex<File>>>,
    start: Instant,
}

impl CommLog {
    /// A log that discards everything.
    pub fn none() -> CommLog {
        CommLog {
            file: None,
            start: Instant::now(),
        }
    }

    /// A log appended to `path`.
    pub fn open(path: &str) -> std::io::Result<CommLog> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(CommLog {
            file: Some(Arc::new(Mutex::new(file))),
            start: Instant::now(),
        })
    }

    /// Records one line; `dir` is `<` (from the engine), `>` (to it) or `!` (a note).
    pub fn line(&self, engine: &str, dir: char, text: &str) {
        if let Some(f) = &self.file {
            let ms = self.start.elapsed().as_millis();
            if let Ok(mut f) = f.lock() {
                let _ = writeln!(f, "[{ms:>9}] {engine} {dir} {text}");
            }
        }
    }
}
