//! Searching the suite: each position to the end with `go depth <left>`
//! (what a GUI asking for the game's value gets), one searcher cleared
//! before each so each row is that of a new game, judged against the file.

use super::entry::Entry;
use crate::search::{Control, Event, Limits, Options, SCALE, Searcher};
use crate::types::Placement;
use crate::variant::Variant;
use std::time::{Duration, Instant};

/// How the suite is searched and which of its rows.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB.
    pub hash_mb: usize,
    /// Only this variant's rows.
    pub variant: Option<Variant>,
    /// Only rows with at most this many plies left.
    pub max_left: Option<u8>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            hash_mb: 1024,
            variant: None,
            max_left: None,
        }
    }
}

impl Settings {
    /// Is `e` one of the rows asked for?
    pub fn wants(&self, e: &Entry) -> bool {
        self.variant.is_none_or(|v| v == e.variant()) && self.max_left.is_none_or(|m| e.left() <= m)
    }
}

/// What the search found for one suite position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The entry's id.
    pub id: String,
    /// Its variant.
    pub variant: Variant,
    /// Plies left.
    pub left: u8,
    /// The value the file gives.
    pub expected: i32,
    /// The value found (points), `None` if the search ended without one.
    pub found: Option<i32>,
    /// The move the search chose.
    pub mv: Option<Placement>,
    /// Is that move among the file's optimal ones?
    pub optimal: bool,
    /// Nodes visited.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

impl Row {
    /// The value and the move are right.
    pub fn ok(&self) -> bool {
        self.found == Some(self.expected) && self.optimal
    }
}

/// Searches one entry with `s` (cleared first, off the clock).
pub fn search(s: &mut Searcher, e: &Entry) -> Row {
    s.clear();
    let limits = Limits {
        depth: Some(u32::from(e.left())),
        ..Limits::default()
    };
    let mut last = None;
    let start = Instant::now();
    let out = s.go(&e.pos, &limits, &Control::default(), &mut |ev| {
        if let Event::Info(i) = ev {
            last = Some(i);
        }
    });
    let elapsed = start.elapsed();
    let found = last
        .filter(|i| i.exact && i.bound == crate::search::Bound::Exact && i.score % SCALE == 0)
        .map(|i| i.score / SCALE);
    Row {
        id: e.id.clone(),
        variant: e.variant(),
        left: e.left(),
        expected: e.value,
        found,
        mv: out.best,
        optimal: out.best.is_some_and(|m| e.best.contains(&m)),
        nodes: out.nodes,
        elapsed,
    }
}

/// Searches every entry `settings` asks for, in file order, handing each
/// row to `on_row` as it is done; returns them all.
pub fn run(entries: &[Entry], settings: &Settings, on_row: &mut dyn FnMut(&Row)) -> Vec<Row> {
    let mut s = Searcher::new(Options {
        threads: settings.threads.max(1),
        hash_mb: settings.hash_mb.max(1),
        own_book: false,
        ..Options::default()
    });
    let mut rows = Vec::new();
    for e in entries.iter().filter(|e| settings.wants(e)) {
        let row = search(&mut s, e);
        on_row(&row);
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::parse;

    #[test]
    fn a_right_entry_passes_and_a_wrong_value_or_move_fails() {
        // 5 plies left: small enough to search here.
        let pos = crate::testing::Rng(7).position(Variant::Standard, 5);
        let line = |value: i32, moves: &str| format!("t standard {} {value} {moves}", pos.fen());
        let any = pos.legal_moves().iter().next().unwrap().to_string();
        let mut s = Searcher::new(Options::default());
        let probe = parse(&line(0, &any)).unwrap();
        let row = search(&mut s, &probe[0]);
        let (v, m) = (row.found.unwrap(), row.mv.unwrap());
        let right = parse(&line(v, &m.to_string())).unwrap();
        assert!(search(&mut s, &right[0]).ok());
        let wrong_value = parse(&line(v + 1, &m.to_string())).unwrap();
        assert!(!search(&mut s, &wrong_value[0]).ok());
        let other = pos.legal_moves().iter().find(|&x| x != m).unwrap();
        let wrong_move = parse(&line(v, &other.to_string())).unwrap();
        assert!(!search(&mut s, &wrong_move[0]).ok());
    }

    #[test]
    fn settings_pick_rows_by_variant_and_plies_left() {
        let e = &parse("a open 8/8/8/8/8/8/8/8 w - 0 K@a1").unwrap()[0];
        let all = Settings::default();
        assert!(all.wants(e));
        let other = Settings {
            variant: Some(Variant::Standard),
            ..Settings::default()
        };
        assert!(!other.wants(e));
        let short = Settings {
            max_left: Some(10),
            ..Settings::default()
        };
        assert!(!short.wants(e));
    }
}
