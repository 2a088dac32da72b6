//! The book: the committed solution data (`solutions/*.book`, compiled in),
//! so that `go` in a position it settles plays a proven move at once.
//!
//! A book file is the export of a store (`cheversi solve export`): one
//! settled position a line, `variant mode board side last lo hi best`
//! (the canonical image's position string; `best` is a move of that image,
//! `-` when no move is proven, as in a loss), `#` comments.

use super::canon::Canonical;
use super::mode::{Mode, NO_BOUND, outcome};
use super::store::higher_lo;
use crate::position::Position;
use crate::search::Bound;
use crate::types::Placement;
use crate::variant::Variant;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The committed data.
const DATA: &[&str] = &[
    include_str!("../../solutions/standard.book"),
    include_str!("../../solutions/original.book"),
    include_str!("../../solutions/original-exact.book"),
];

/// One settled position of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position (the canonical image) as written in the book.
    pub fen: String,
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
    /// The move to play (of the position asked about): the one that proves
    /// `score`, if the data has it. None in a loss known only as a loss (no
    /// move is better than another there).
    pub mv: Option<Placement>,
    /// `win`, `draw` or `loss` for the side to move; `draw or win` where
    /// the data proves at least a draw; `unknown` where it proves a bound
    /// on the points only.
    pub outcome: &'static str,
    /// The exact final point difference, if known.
    pub exact: Option<i32>,
    /// The score the answer stands on, in points, the side to move's view:
    /// the exact value, else the bound that `bound` names.
    pub score: i32,
    /// How `score` holds the value.
    pub bound: Bound,
}

impl Answer {
    /// The `info string` text: `book solved: win (exact 2)`, or the bound
    /// the data proves: `(at least +1)`, `(at most -1)`.
    pub fn text(&self) -> String {
        let v = self.score;
        let how = match self.bound {
            Bound::Exact => format!("exact {v}"),
            Bound::Lower => format!("at least {v:+}"),
            Bound::Upper => format!("at most {v:+}"),
        };
        format!("book solved: {} ({how})", self.outcome)
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
        Mode::from_name(mode).ok_or_else(bad)?;
        let fen = format!("{board} {side} {last}");
        let pos = Position::from_fen(&fen, variant).map_err(|e| format!("{}: {e}", bad()))?;
        let key = (variant, Canonical::of(&pos).key);
        let e = BookEntry {
            fen: fen.clone(),
            lo: lo.parse().map_err(|_| bad())?,
            hi: hi.parse().map_err(|_| bad())?,
            best: match best {
                "-" => None,
                m => Some(m.parse().map_err(|_| bad())?),
            },
        };
        let e = match into.remove(&key) {
            Some(old) => together(old, e),
            None => e,
        };
        into.insert(key, e);
    }
    Ok(())
}

/// What two entries of one position prove together: the better lower end
/// with its move, the lower upper bound.
fn together(a: BookEntry, b: BookEntry) -> BookEntry {
    let (lo, best) = higher_lo((a.lo, a.best), (b.lo, b.best));
    BookEntry {
        lo,
        best,
        hi: a.hi.min(b.hi),
        ..a
    }
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
    let (c, e) = lookup(pos)?;
    answer(pos, &c, &e)
}

/// `pos`'s canonical form and what the book proves of it: its entry, the
/// lower end raised (with its move) by any child the book holds at most
/// `-v`, which makes that move worth at least `v`. A store does not always
/// hold a parent's best bound (the solver proves a reply's exact margin
/// before it returns to the parent, and a session may end in between), so
/// the children can prove more than the entry; a position without an
/// entry whose children prove a bound is answered too.
fn lookup(pos: &Position) -> Option<(Canonical, BookEntry)> {
    let c = Canonical::of(pos);
    let mut e = book().get(&(pos.variant(), c.key.clone())).cloned();
    let mut child = pos.clone();
    // The highest any move is proven worth at most, while every move so far
    // is bounded: then the position is worth at most that.
    let moves = pos.legal_moves();
    let mut ceiling = (!moves.is_empty()).then_some(-NO_BOUND);
    for m in moves.iter() {
        let undo = child.play(m);
        let below = book().get(&(pos.variant(), Canonical::of(&child).key));
        child.undo(m, undo);
        ceiling = match below {
            Some(b) if b.lo > -NO_BOUND => ceiling.map(|h| h.max(-b.lo)),
            _ => None,
        };
        let Some(below) = below.filter(|b| b.hi < NO_BOUND) else {
            continue;
        };
        let by_move = BookEntry {
            fen: c.fen.clone(),
            lo: -below.hi,
            hi: NO_BOUND,
            best: Some(c.to_image(m)),
        };
        e = Some(match e {
            Some(old) => together(old, by_move),
            None => by_move,
        });
    }
    if let (Some(e), Some(h)) = (&mut e, ceiling) {
        e.hi = e.hi.min(h);
    }
    e.map(|e| (c, e))
}

/// The compiled-in book's interval of `pos`'s value (points, the side to
/// move's view; [`NO_BOUND`] where an end is open) and the move proving
/// its lower end, as a move of `pos`.
pub fn interval(pos: &Position) -> Option<(i32, i32, Option<Placement>)> {
    let (c, e) = lookup(pos)?;
    let best = e
        .best
        .map(|m| c.from_image(m))
        .filter(|&m| e.lo > -NO_BOUND && pos.legal_moves().contains(m));
    Some((e.lo, e.hi, best))
}

/// `e`'s answer for `pos` (canonical form `c`): its exact value, its
/// win/draw/loss, or the lower bound its move proves; None if it proves
/// nothing of either.
pub fn answer(pos: &Position, c: &Canonical, e: &BookEntry) -> Option<Answer> {
    // Every store's interval is one of the point difference, whatever the
    // window that proved it: a win/draw/loss draw [0, 0] is exact too.
    let exact = (e.lo == e.hi).then_some(e.lo);
    let mv = e
        .best
        .map(|m| c.from_image(m))
        .filter(|&m| pos.legal_moves().contains(m))
        .filter(|_| e.lo > -NO_BOUND);
    let outcome = match outcome(e.lo, e.hi) {
        "unknown" if e.lo == 0 => "draw or win",
        o => o,
    };
    let (score, bound) = match exact {
        Some(v) => (v, Bound::Exact),
        // A move that proves its lower bound: stand on it.
        None if mv.is_some() => (e.lo, Bound::Lower),
        None if e.hi <= -1 => (e.hi, Bound::Upper),
        None => return None,
    };
    Some(Answer {
        mv,
        outcome,
        exact,
        score,
        bound,
    })
}

/// The book text of a store: its settled entries and those whose move
/// proves a lower bound, sorted by key; with `moves_only`, those with a
/// proven move alone.
pub fn export(
    store: &super::store::Store,
    variant: Variant,
    mode: Mode,
    moves_only: bool,
) -> String {
    let proves_move = |e: &super::Entry| e.best.is_some() && e.lo > -NO_BOUND;
    let mut lines: Vec<String> = store
        .entries()
        .filter(|(_, e)| proves_move(e) || !moves_only && super::settled(e, mode))
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
    let (which, flag) = match moves_only {
        true => ("with a proven move", " --moves-only"),
        false => ("settled or with a proven move", ""),
    };
    let mut s = format!(
        "# cheversi book: {variant} {}, {} positions {which} (cheversi solve export{flag})\n",
        mode.name(),
        lines.len(),
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
        assert_eq!(a.text(), "book solved: draw (exact 0)");
        assert!(pos.legal_moves().contains(a.mv.unwrap()));
        assert!(parse("standard wdl 8/8 w", &mut b).is_err());
    }

    fn answer_to(lines: &str) -> Answer {
        let mut b = Book::new();
        parse(lines, &mut b).unwrap();
        let pos = Position::new(Variant::Standard);
        let c = Canonical::of(&pos);
        answer(&pos, &c, &b[&(Variant::Standard, c.key.clone())]).unwrap()
    }

    #[test]
    fn a_proven_bound_plays_its_move_and_a_bare_loss_none() {
        let a = answer_to("standard exact 8/8/8/8/8/8/8/8 w - -3 1000 K@a1\n");
        assert_eq!((a.score, a.bound, a.exact), (-3, Bound::Lower, None));
        assert_eq!(a.text(), "book solved: unknown (at least -3)");
        assert!(a.mv.is_some());
        let a = answer_to("standard wdl 8/8/8/8/8/8/8/8 w - -1000 -1 -\n");
        assert_eq!((a.score, a.bound, a.mv), (-1, Bound::Upper, None));
        assert_eq!(a.text(), "book solved: loss (at most -1)");
        let a = answer_to("standard wdl 8/8/8/8/8/8/8/8 w - 0 1000 K@b1\n");
        assert_eq!(a.text(), "book solved: draw or win (at least +0)");
    }

    #[test]
    fn an_export_for_play_leaves_out_the_losses_and_reads_back() {
        let mut store = crate::solve::Store::memory(Variant::Original, Mode::Wdl).unwrap();
        let mut put = |moves: &[&str], lo, hi, best: Option<&str>| {
            let mut pos = Position::new(Variant::Original);
            for m in moves {
                pos.play(m.parse().unwrap());
            }
            let c = Canonical::of(&pos);
            let best = best.map(|m| c.to_image(m.parse().unwrap()));
            let e = crate::solve::Entry {
                lo,
                hi,
                best,
                ..crate::solve::Entry::unknown(pos.plies_left())
            };
            store.put(&c.key, &c.fen, e);
        };
        put(&["Q@d4"], 1, NO_BOUND, Some("B@e4"));
        put(&["Q@d4", "B@e4"], -NO_BOUND, -1, None);
        let all = export(&store, Variant::Original, Mode::Wdl, false);
        let play = export(&store, Variant::Original, Mode::Wdl, true);
        assert_eq!(all.lines().count(), 3, "{all}");
        assert_eq!(play.lines().count(), 2, "{play}");
        let mut b = Book::new();
        parse(&play, &mut b).unwrap();
        let mut pos = Position::new(Variant::Original);
        pos.play("Q@d4".parse().unwrap());
        let c = Canonical::of(&pos);
        let a = answer(&pos, &c, &b[&(Variant::Original, c.key.clone())]).unwrap();
        assert_eq!(a.mv, Some("B@e4".parse().unwrap()));
        assert_eq!(a.text(), "book solved: win (at least +1)");
    }

    #[test]
    fn two_entries_of_one_position_prove_together() {
        // A win/draw/loss win and an exact solve's bound and upper bound.
        let a = answer_to(
            "standard wdl 8/8/8/8/8/8/8/8 w - 1 1000 K@a1\n\
             standard exact 8/8/8/8/8/8/8/8 w - 3 1000 K@b1\n\
             standard exact 8/8/8/8/8/8/8/8 w - -1000 3 -\n",
        );
        assert_eq!((a.exact, a.outcome), (Some(3), "win"));
        assert_eq!(a.mv, Some("K@b1".parse().unwrap()));
        assert_eq!(a.text(), "book solved: win (exact 3)");
    }
}
