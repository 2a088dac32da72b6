//! The searcher: the state kept between searches (the table, each
//! thread's histories) and the options it was made with. Searching is
//! `go.rs`'s, which adds `Searcher::go` and the solves to it.

use super::history::Tables;
use super::limits::Options;
use super::tt::Tt;

/// A searcher: the state kept between searches (tables, histories).
#[derive(Debug)]
pub struct Searcher {
    pub(super) options: Options,
    pub(super) tt: Tt,
    pub(super) tables: Vec<Tables>,
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(Options::default())
    }
}

impl Searcher {
    /// A searcher with these options.
    pub fn new(options: Options) -> Searcher {
        let mut s = Searcher {
            tt: Tt::new(options.hash_mb),
            tables: Vec::new(),
            options,
        };
        s.fit_threads();
        s
    }

    fn fit_threads(&mut self) {
        let n = self.options.threads.max(1);
        self.tables.truncate(n);
        while self.tables.len() < n {
            self.tables.push(Tables::default());
        }
    }

    /// Changes the options (resizes tables as needed).
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Tt::new(options.hash_mb);
        }
        self.options = options;
        self.fit_threads();
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.tables {
            t.clear();
        }
    }
}
