//! What the runner prints: a progress bar on a terminal; otherwise one
//! stable line per finished game and a rating line every few games.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};

/// Prints a line on stdout; a closed pipe (`| head`) is not worth a panic.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

/// The progress bar: games, time so far and the estimated time left.
const BAR: &str = "{bar:30} {pos}/{len} games {elapsed_precise} ETA {eta_precise} {msg}";

/// Prints match progress.
pub struct Output {
    bar: Option<ProgressBar>,
    rating_interval: u64,
}

impl Output {
    /// A bar when stdout is a terminal, plain lines otherwise.
    pub fn new(total: u64, done: u64, rating_interval: u64) -> Output {
        let bar = std::io::stdout().is_terminal().then(|| {
            let style =
                ProgressStyle::with_template(BAR).unwrap_or_else(|_| ProgressStyle::default_bar());
            let bar = ProgressBar::new(total).with_style(style);
            bar.set_position(done);
            bar
        });
        Output {
            bar,
            rating_interval: rating_interval.max(1),
        }
    }

    /// A line that always shows (start, end, errors), above the bar if any.
    pub fn note(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => say(line),
        }
    }

    /// One finished game; `rating` is the current rating line.
    pub fn game(&self, finished: u64, game_line: &str, rating: &str) {
        match &self.bar {
            Some(bar) => {
                bar.inc(1);
                bar.set_message(short(rating));
            }
            None => {
                say(game_line);
                if finished.is_multiple_of(self.rating_interval) {
                    say(rating);
                }
            }
        }
    }

    /// Removes the bar before the final lines.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The first three fields of a rating line (score, games, Elo) for the bar.
fn short(rating: &str) -> String {
    rating.split(" | ").take(2).collect::<Vec<_>>().join(" | ")
}
