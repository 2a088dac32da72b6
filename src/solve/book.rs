//! The book: the committed solution data (`solutions/*.book`, compiled in),
//! so that `go` in a position it settles plays a proven move at once.
//!
//! A book file is the export of a store (`cheversi solve export`): one
//! settled position a line, `variant mode board side last lo hi best`
//! (the canonical image's position string; `best` is a move of that image,
//! `-` when no move is proven, as in a loss), `#` comments.

use super::canon::Canonical;
use super::mode::{Mode, outcome};
use crate::position::Position;
use crate::types::Placement;
use crate::variant::Variant;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The committed data.
const DATA: &[&str] = &[include_str!("../../solutions/standard.book")];

/// One settled position of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position (the canonical image) as written in the book.
    pub fen: String,
    /// What its store solved.
    pub mode: Mode,
    /// The value is at least this (points).
    pub lo: i32,
    /// The value is at most this.
    pub hi: i32,
    /// The proven move, canonical image.
    pub best: Option<Placement>,
}

/// What the book says of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move to play (of the position asked about), if one is proven
    /// (in a loss known as a loss only, none: every move loses).
    pub mv: Option<Placement>,
    /// `win`, `draw` or `loss` for the side to move.
    pub outcome: &'static str,
    /// The exact final point difference, if known.
    pub exact: Option<i32>,
    /// The value's bound nearest zero, in points (the exact value when known).
    pub score: i32,
}

impl Answer {
    /// The `info string` text: `book solved: win (exact 2)` or `(wdl)`.
    pub fn text(&self) -> String {
        match self.exact {
            Some(v) => format!("book solved: {} (exact {v})", self.outcome),
            None => format!("book solved: {} (wdl)", self.outcome),
        }
    }
}

type Book = HashMap<(Variant, String), BookEntry>;

/// Reads book text; the better-known of two entries for one key wins (an
/// exact one over a win/draw/loss one).
pub fn parse(text: &str, into: &mut Book) -> Result<(), String> {
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("book line {}: '{line}'", n + 1);
        let [variant, mode, board, side, last, lo, hi, best] = f[..] else {
            return Err(bad());
        };
        let variant: Variant = variant.parse().map_err(|_| bad())?;
        let mode = Mode::from_name(mode).ok_or_else(bad)?;
        let fen = format!("{board} {side} {last}");
        let pos = Position::from_fen(&fen, variant).map_err(|e| format!("{}: {e}", bad()))?;
        let key = (variant, Canonical::of(&pos).key);
        let e = BookEntry {
            fen: fen.clone(),
            mode,
            lo: lo.parse().map_err(|_| bad())?,
            hi: hi.parse().map_err(|_| bad())?,
            best: match best {
                "-" => None,
                m => Some(m.parse().map_err(|_| bad())?),
            },
        };

        let keep = into
            .get(&key)
            .is_some_and(|old| old.hi - old.lo < e.hi - e.lo);
        if !keep {
            into.insert(key, e);
        }
    }
    Ok(())
}

fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        let mut b = Book::new();
        for text in DATA {
            if let Err(e) = parse(text, &mut b) {
                log::error!("the compiled-in book is damaged: {e}");
            }
        }
        b
    })
}

/// Every entry of the compiled-in book, with its key.
pub fn entries() -> impl Iterator<Item = (&'static (Variant, String), &'static BookEntry)> {
    book().iter()
}

/// What the compiled-in book settles of `pos`, if anything.
pub fn probe(pos: &Position) -> Option<Answer> {
    let c = Canonical::of(pos);
    let e = book().get(&(pos.variant(), c.key.clone()))?;
    answer(pos, &c, e)
}

/// `e`'s answer for `pos` (canonical form `c`).
pub fn answer(pos: &Position, c: &Canonical, e: &BookEntry) -> Option<Answer> {
    let outcome = outcome(e.lo, e.hi);
    let exact = (e.mode == Mode::Exact && e.lo == e.hi).then_some(e.lo);
    let mv = e
        .best
        .map(|m| c.from_image(m))
        .filter(|&m| pos.legal_moves().contains(m));
    let decided = exact.is_some() || outcome != "unknown";
    if !decided {
        return None;
    }
    let score = if e.lo >= 1 {
        e.lo
    } else if e.hi <= -1 {
        e.hi
    } else {
        0
    };
    Some(Answer {
        // In a loss no move is better than another: no move is proven.
        mv: mv.filter(|_| outcome != "loss" || exact.is_some()),
        outcome,
        exact,
        score: exact.unwrap_or(score),
    })
}

/// The book text of a store: its settled entries, sorted by key.
pub fn export(store: &super::store::Store, variant: Variant, mode: Mode) -> String {
    let mut lines: Vec<String> = store
        .entries()
        .filter(|(_, e)| super::settled(e, mode))
        .filter_map(|(key, e)| {
            let best = e.best.map_or("-".to_string(), |m| m.to_string());
            let fen = store.fen(key)?;
            Some(format!(
                "{variant} {} {fen} {} {} {best}",
                mode.name(),
                e.lo,
                e.hi
            ))
        })
        .collect();
    lines.sort();
    let mut s = format!(
        "# cheversi book: {variant} {}, {} settled positions (cheversi solve export)\n",
        mode.name(),
        lines.len()
    );
    for l in lines {
        s += &l;
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_moves_map_back_to_the_position() {
        let mut b = Book::new();
        parse(
            "# test\nstandard wdl 8/8/8/8/8/8/8/8 w - 0 0 K@a1\n",
            &mut b,
        )
        .unwrap();
        let pos = Position::new(Variant::Standard);
        let c = Canonical::of(&pos);
        let e = b[&(Variant::Standard, c.key.clone())].clone();
        let a = answer(&pos, &c, &e).unwrap();
        assert_eq!(a.outcome, "draw");
        assert_eq!(a.text(), "book solved: draw (wdl)");
        assert!(pos.legal_moves().contains(a.mv.unwrap()));
        assert!(parse("standard wdl 8/8 w", &mut b).is_err());
    }
}
