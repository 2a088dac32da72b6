//! The output side: one writer shared by the session and the search thread.
//! Each response is written whole and flushed under the lock, so lines from
//! the two threads never mix.

use super::response::Response;
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

/// A shared, line-atomic writer of responses.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Writes to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes the responses in order, with nothing in between.
    pub fn send(&self, responses: &[Response]) {
        let mut w = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        for r in responses {
            let text = r.to_string();
            log::debug!("> {text}");
            // A closed output is not our problem to report: input decides when to end.
            if writeln!(w, "{text}").and_then(|()| w.flush()).is_err() {
                log::warn!("output closed");
            }
        }
    }
}
