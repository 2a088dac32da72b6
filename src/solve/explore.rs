//! The explorer: the proven value of every legal move of a position, as a
//! tablebase explorer shows it. Each move's value is an interval of the
//! final point difference (the mover's view) that only narrows: first
//! what the compiled-in book settles, then the exact search, in three
//! passes, each move reported as soon as its interval narrows:
//!
//! 1. the most promising move's exact value, the best value so far;
//! 2. every other move against the best (null windows: does it reach it,
//!    does it pass it?), which proves the best move(s) and bounds the rest;
//! 3. the exact margin of every move still bounded, best first: one
//!    search with the move's interval as the window (MTD(f) from a shallow
//!    guess steps there one null window at a time when the guess is points
//!    off, as in `open`).
//!
//! Moves that a symmetry of the position maps onto each other are proven
//! once. The searches run through [`Searcher::solve_within_until`], so a
//! stop (the engine's `stop`, a time budget) ends the exploration at once
//! with what is proven so far.
//!
//! Architecture invariant: nothing here prints; the explorer reports
//! typed [`Event`]s and a [`Summary`], which the protocol renders.

use super::{NO_BOUND, book, ceil_points, floor_points, search_window};
use crate::position::Position;
use crate::search::{Control, Event as SearchEvent, Limits, Options, SCALE, Searcher};
use crate::symmetry::{self, transform};
use crate::types::Placement;
use std::cmp::Reverse;
use std::time::{Duration, Instant};

/// What proved a move's interval last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Nothing yet.
    Open,
    /// The compiled-in solution data.
    Book,
    /// The exact search (or the end of the game).
    Search,
}

impl Proof {
    /// The word the protocol and the web page show.
    pub fn name(self) -> &'static str {
        match self {
            Proof::Open => "none",
            Proof::Book => "book",
            Proof::Search => "search",
        }
    }
}

/// One move's proven value: the final point difference from the mover's
/// view lies in `lo..=hi` (`None`: nothing proven on that side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Placement,
    /// The value is at least this.
    pub lo: Option<i32>,
    /// The value is at most this.
    pub hi: Option<i32>,
    /// What proved the interval last.
    pub proof: Proof,
}

impl MoveValue {
    /// The exact value, once both ends meet.
    pub fn exact(&self) -> Option<i32> {
        self.lo.filter(|&l| Some(l) == self.hi)
    }
}

/// How far the exploration has got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Legal moves with an exact value.
    pub exact: usize,
    /// Legal moves.
    pub moves: usize,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the exploration began.
    pub elapsed: Duration,
}

/// What the explorer reports while it works.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move's interval, first as the book leaves it, then each time it
    /// narrows.
    Move(MoveValue, Progress),
}

/// What the exploration proved.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Every legal move, best first (by lower end, then upper end).
    pub moves: Vec<MoveValue>,
    /// The moves proven best: no other move can be worth more.
    pub best: Vec<Placement>,
    /// Every move exact.
    pub complete: bool,
    /// The final counts.
    pub progress: Progress,
}

/// One move of each symmetric set, with its interval (whole points;
/// ±[`NO_BOUND`] where open) and its twins.
#[derive(Clone, Debug)]
struct Slot {
    mv: Placement,
    twins: Vec<Placement>,
    lo: i32,
    hi: i32,
    proof: Proof,
    /// The shallow search's guess at the value, for the order and MTD(f).
    guess: i32,
}

impl Slot {
    fn exact(&self) -> bool {
        self.lo >= self.hi
    }
}

/// The search stopped: what is proven stays, the rest stays open.
struct Stopped;

struct Explorer<'a> {
    searcher: &'a mut Searcher,
    control: &'a Control,
    pos: Position,
    slots: Vec<Slot>,
    nodes: u64,
    start: Instant,
    on_event: &'a mut dyn FnMut(&Event),
}

/// Proves the value of every legal move of `pos` with `searcher` (from the
/// compiled-in book first when `use_book`), until all are exact or
/// `control` says stop; reports each move through `on_event`.
pub fn explore(
    searcher: &mut Searcher,
    pos: &Position,
    use_book: bool,
    control: &Control,
    on_event: &mut dyn FnMut(&Event),
) -> Summary {
    let mut x = Explorer {
        searcher,
        control,
        pos: pos.clone(),
        slots: slots(pos),
        nodes: 0,
        start: Instant::now(),
        on_event,
    };
    x.first_bounds(use_book);
    for i in 0..x.slots.len() {
        x.report(i);
    }
    // A stop leaves what is proven; the summary says what is not.
    let _ = x.prove();
    x.summary()
}

/// The legal moves, one slot per symmetric set.
fn slots(pos: &Position) -> Vec<Slot> {
    let sym = symmetry::of(pos);
    let mut slots: Vec<Slot> = Vec::new();
    for m in pos.legal_moves().iter() {
        // The set's representative: its image on the lowest square.
        let rep = (0..8)
            .filter(|&g| g == 0 || sym & (1 << g) != 0)
            .map(|g| Placement::new(m.piece, transform(g, m.square)))
            .min_by_key(|p| p.square.index())
            .unwrap_or(m);
        match slots.iter_mut().find(|s| s.mv == rep) {
            Some(s) if rep != m => s.twins.push(m),
            Some(_) => {}
            None => slots.push(Slot {
                mv: rep,
                twins: if rep == m { vec![] } else { vec![m] },
                lo: -NO_BOUND,
                hi: NO_BOUND,
                proof: Proof::Open,
                guess: 0,
            }),
        }
    }
    slots
}

impl Explorer<'_> {
    /// What the end of the game and the book prove before any search.
    fn first_bounds(&mut self, use_book: bool) {
        let parent = use_book.then(|| book::interval(&self.pos)).flatten();
        let mut child = self.pos.clone();
        for s in &mut self.slots {
            let undo = child.play(s.mv);
            if child.is_over() {
                (s.lo, s.hi, s.proof) = (-child.diff(), -child.diff(), Proof::Search);
            } else if use_book {
                // No move is worth more than the position; the move that
                // proves its lower end is worth that much.
                if let Some((lo, hi, best)) = parent {
                    narrow(s, (best == Some(s.mv)).then_some(lo), Some(hi), Proof::Book);
                }
                if let Some((lo, hi, _)) = book::interval(&child) {
                    narrow(s, Some(-hi), Some(-lo), Proof::Book);
                }
            }
            child.undo(s.mv, undo);
        }
    }

    /// The three passes of the module's doc.
    fn prove(&mut self) -> Result<(), Stopped> {
        if self.slots.iter().all(Slot::exact) {
            return Ok(());
        }
        if self.control.stopped() {
            return Err(Stopped);
        }
        self.guesses();
        let order = self.order();
        let Some(&first) = order.first() else {
            return Ok(());
        };
        self.mtdf(first)?;
        let mut best = self.slots.iter().map(|s| s.lo).max().unwrap_or(-NO_BOUND);
        for &i in &order {
            // Does it reach the best value? Does it pass it?
            if self.slots[i].hi >= best && self.slots[i].lo < best {
                self.test(i, best)?;
            }
            if self.slots[i].lo >= best && self.slots[i].hi > best {
                self.test(i, best + 1)?;
                if self.slots[i].lo > best {
                    self.mtdf(i)?;
                    best = self.slots[i].lo;
                }
            }
        }
        let mut rest = order;
        rest.sort_by_key(|&i| Reverse(self.slots[i].hi));
        for i in rest {
            self.window(i)?;
        }
        Ok(())
    }

    /// A shallow search's guess at every open move's value (its own small
    /// table: the guesses' moves come from an evaluation and would order
    /// the exact searches' table worse).
    fn guesses(&mut self) {
        let mut orderer = Searcher::new(Options {
            hash_mb: 1,
            ..Options::default()
        });
        let mut child = self.pos.clone();
        for s in self.slots.iter_mut().filter(|s| !s.exact()) {
            let undo = child.play(s.mv);
            let depth = 3.min(child.plies_left()) as u32;
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let mut score = child.diff() * SCALE;
            let out = orderer.go(&child, &limits, &Control::default(), &mut |e| {
                if let SearchEvent::Info(i) = e {
                    score = i.score;
                }
            });
            self.nodes += out.nodes;
            let mine = -score;
            let points = (mine + mine.signum() * SCALE / 2) / SCALE;
            s.guess = points.clamp(s.lo, s.hi);
            child.undo(s.mv, undo);
        }
    }

    /// The open slots, most promising first.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.slots.len())
            .filter(|&i| !self.slots[i].exact())
            .collect();
        order.sort_by_key(|&i| Reverse((self.slots[i].guess, self.slots[i].hi)));
        order
    }

    /// Slot `i`'s exact value: null windows from its guess (MTD(f)).
    fn mtdf(&mut self, i: usize) -> Result<(), Stopped> {
        let mut guess = self.slots[i].guess;
        while !self.slots[i].exact() {
            let s = &self.slots[i];
            let gamma = guess.clamp(s.lo + 1, s.hi);
            self.test(i, gamma)?;
            let s = &self.slots[i];
            guess = if s.lo >= gamma { s.lo } else { s.hi };
        }
        Ok(())
    }

    /// Slot `i`'s exact value by one search with its interval as the
    /// window (a bounded move's margin: its guess is often points away, and
    /// MTD(f) would step down to it one null window at a time).
    fn window(&mut self, i: usize) -> Result<(), Stopped> {
        while !self.slots[i].exact() {
            let (lo, hi) = (self.slots[i].lo, self.slots[i].hi);
            // The child's value lies in [-hi, -lo]: a window just around it.
            let (a, b) = search_window(-hi - 1, -lo + 1);
            let value = self.search(i, a, b)?;
            let s = &mut self.slots[i];
            if value <= a {
                narrow(s, Some(-floor_points(value)), None, Proof::Search);
            } else if value >= b {
                narrow(s, None, Some(-ceil_points(value)), Proof::Search);
            } else {
                let v = -floor_points(value);
                narrow(s, Some(v), Some(v), Proof::Search);
            }
            self.report(i);
        }
        Ok(())
    }

    /// One search of the position after slot `i`'s move within (a, b)
    /// (the child's view, the search's units).
    fn search(&mut self, i: usize, a: i32, b: i32) -> Result<i32, Stopped> {
        let mut child = self.pos.clone();
        child.play(self.slots[i].mv);
        let solved = self
            .searcher
            .solve_within_until(&child, a, b, self.control)
            .ok_or(Stopped)?;
        self.nodes += solved.nodes;
        Ok(solved.value)
    }

    /// Is slot `i`'s move worth at least `gamma`? One null-window search
    /// of the position after it; its fail-soft value narrows the slot.
    fn test(&mut self, i: usize, gamma: i32) -> Result<(), Stopped> {
        // The child's view: the move reaches gamma iff the child is worth
        // at most -gamma.
        let (a, b) = search_window(-gamma, -gamma + 1);
        let value = self.search(i, a, b)?;
        let s = &mut self.slots[i];
        if value <= a {
            narrow(s, Some(-floor_points(value)), None, Proof::Search);
        } else {
            narrow(s, None, Some(-ceil_points(value)), Proof::Search);
        }
        self.report(i);
        Ok(())
    }

    fn progress(&self) -> Progress {
        let exact = self.slots.iter().filter(|s| s.exact());
        Progress {
            exact: exact.map(|s| 1 + s.twins.len()).sum(),
            moves: self.slots.iter().map(|s| 1 + s.twins.len()).sum(),
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    /// Reports slot `i`'s move and its twins.
    fn report(&mut self, i: usize) {
        let progress = self.progress();
        let s = &self.slots[i];
        for &mv in std::iter::once(&s.mv).chain(&s.twins) {
            (self.on_event)(&Event::Move(value(s, mv), progress));
        }
    }

    fn summary(&self) -> Summary {
        let mut moves: Vec<MoveValue> = self
            .slots
            .iter()
            .flat_map(|s| {
                std::iter::once(s.mv)
                    .chain(s.twins.iter().copied())
                    .map(|m| value(s, m))
            })
            .collect();
        let key = |v: &MoveValue| (v.lo.unwrap_or(-NO_BOUND), v.hi.unwrap_or(NO_BOUND));
        moves.sort_by_key(|v| (Reverse(key(v)), v.mv.square.index()));
        let top = self.slots.iter().map(|s| s.hi).max().unwrap_or(-NO_BOUND);
        // Proven best: worth at least what any move can be worth.
        let best = moves
            .iter()
            .filter(|v| v.lo.is_some_and(|l| l >= top))
            .map(|v| v.mv)
            .collect();
        let progress = self.progress();
        Summary {
            complete: progress.exact == progress.moves,
            moves,
            best,
            progress,
        }
    }
}

/// Narrows `s` to what `lo` and `hi` add, crediting `proof` if they do.
fn narrow(s: &mut Slot, lo: Option<i32>, hi: Option<i32>, proof: Proof) {
    let (old_lo, old_hi) = (s.lo, s.hi);
    s.lo = s.lo.max(lo.unwrap_or(-NO_BOUND).max(-NO_BOUND));
    s.hi = s.hi.min(hi.unwrap_or(NO_BOUND).min(NO_BOUND));
    if (s.lo, s.hi) != (old_lo, old_hi) {
        s.proof = proof;
    }
    s.guess = s.guess.clamp(s.lo.min(s.hi), s.hi);
}

fn value(s: &Slot, mv: Placement) -> MoveValue {
    MoveValue {
        mv,
        lo: (s.lo > -NO_BOUND).then_some(s.lo),
        hi: (s.hi < NO_BOUND).then_some(s.hi),
        proof: s.proof,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    fn play(variant: Variant, moves: &str) -> Position {
        let mut pos = Position::new(variant);
        for m in moves.split_whitespace() {
            pos.play_checked(m.parse().unwrap()).unwrap();
        }
        pos
    }

    fn run(pos: &Position, use_book: bool) -> (Summary, Vec<Event>) {
        let mut events = Vec::new();
        let mut searcher = Searcher::default();
        let s = explore(
            &mut searcher,
            pos,
            use_book,
            &Control::default(),
            &mut |e| events.push(e.clone()),
        );
        (s, events)
    }

    /// Every move's exact value by a plain full-window solve of the
    /// position after it.
    fn by_solve(pos: &Position) -> Vec<(Placement, i32)> {
        let mut searcher = Searcher::default();
        pos.legal_moves()
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play(m);
                let (v, _) =
                    searcher.solve(&child, -crate::search::INFINITE, crate::search::INFINITE);
                (m, -v / SCALE)
            })
            .collect()
    }

    #[test]
    fn every_move_is_exact_and_agrees_with_a_plain_solve() {
        let mut rng = crate::testing::Rng(7);
        for variant in [Variant::Standard, Variant::Open, Variant::Original] {
            let pos = rng.position(variant, 6);
            let (s, events) = run(&pos, false);
            assert!(s.complete, "{variant:?}: {s:?}");
            assert!(!events.is_empty());
            let want = by_solve(&pos);
            assert_eq!(s.moves.len(), want.len());
            for (m, v) in want {
                let got = s.moves.iter().find(|x| x.mv == m).unwrap();
                assert_eq!(got.exact(), Some(v), "{variant:?} {m}");
            }
            let top = s.moves[0].exact().unwrap();
            assert!(s.moves.windows(2).all(|w| w[0].exact() >= w[1].exact()));
            let best: Vec<_> = s
                .moves
                .iter()
                .filter(|v| v.exact() == Some(top))
                .map(|v| v.mv)
                .collect();
            assert_eq!(s.best, best);
        }
    }

    #[test]
    fn the_empty_board_comes_from_the_book_and_twins_share_a_value() {
        let pos = Position::new(Variant::Standard);
        let control = Control::default();
        control.stop();
        let mut searcher = Searcher::default();
        let s = explore(&mut searcher, &pos, true, &control, &mut |_| {});
        assert_eq!(s.moves.len(), 64);
        // Complete exactly when the book settles every first move (it does
        // since the solution table holds all ten up to symmetry).
        assert_eq!(s.complete, s.moves.iter().all(|v| v.exact().is_some()));
        // Every first move loses; K@b2 and K@c2 (and their twins) by one.
        assert!(
            s.moves.iter().all(|v| v.hi.is_some_and(|h| h <= -1)),
            "{s:?}"
        );
        let exact: Vec<String> = s
            .moves
            .iter()
            .filter(|v| v.exact() == Some(-1))
            .map(|v| v.mv.to_string())
            .collect();
        // 12 squares (K@b2, K@c2 and twins), 24 since K@c3 and K@d3 were solved.
        assert!(exact.len() >= 12, "{exact:?}");
        for m in ["K@b2", "K@g7", "K@c2", "K@b3", "K@f7"] {
            assert!(exact.contains(&m.to_string()), "{m}: {exact:?}");
        }
        assert_eq!(s.best.len(), exact.len());
        assert!(s.moves.iter().all(|v| v.proof == Proof::Book));
    }

    #[test]
    fn a_stop_leaves_what_the_book_proves_and_nothing_else() {
        let pos = play(Variant::Standard, "K@b2");
        let control = Control::default();
        control.stop();
        let mut searcher = Searcher::default();
        let s = explore(&mut searcher, &pos, true, &control, &mut |_| {});
        let r = s.moves.iter().find(|v| v.mv.to_string() == "R@a1").unwrap();
        assert_eq!(r.exact(), Some(1));
        assert_eq!(s.moves[0].exact(), Some(1));
        assert!(s.moves.iter().all(|v| v.hi.is_some_and(|h| h <= 1)));
        assert_eq!(s.progress.nodes, 0, "a stop before any search");
    }

    #[test]
    fn a_finished_game_has_no_moves_and_is_complete() {
        let pos = play(
            Variant::Standard,
            "K@b2 R@a1 R@c1 Q@c3 Q@d3 B@d1 R@b4 N@e4 B@a2 B@e3 B@e5 R@f6 N@c5 N@c4 N@f5 K@g4",
        );
        let (s, events) = run(&pos, true);
        assert!(s.complete && s.moves.is_empty() && s.best.is_empty() && events.is_empty());
    }
}
