//! The book (`OwnBook`): every position of the committed solution data
//! answers `go movetime 100` at once with the move the data proves, and
//! the deepest entries' moves are checked against an exact search.

use cheversi::engine::{Engine, Report, Sink};
use cheversi::search::{Bound, Event, Limits, Options, SCALE, Searcher};
use cheversi::solve::book::{self, BookEntry};
use cheversi::solve::canon::Canonical;
use cheversi::{Position, Variant};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

fn book_positions() -> Vec<(Variant, &'static BookEntry, Position)> {
    let mut all: Vec<_> = book::entries()
        .map(|((v, _), e)| (*v, e, Position::from_fen(&e.fen, *v).unwrap()))
        .collect();
    all.sort_by_key(|(v, e, p)| (p.plies_left(), v.name(), e.fen.clone()));
    all
}

#[test]
fn every_book_position_answers_at_once_with_a_proven_move() {
    let all = book_positions();
    assert!(!all.is_empty(), "the committed data is compiled in");
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let sink: Sink = Arc::new(move |r| {
        let _ = tx.lock().unwrap().send(r);
    });
    let mut engine = Engine::new(Options::default(), sink);
    let movetime = Duration::from_millis(100);
    for (v, e, pos) in &all {
        let entry = book::answer(pos, &Canonical::of(pos), e).expect("a book entry settles");
        // What the engine plays from: the entry, bettered by its children's.
        let answer = book::probe(pos).expect("in the book");
        assert!(
            answer.score >= entry.score || answer.bound != entry.bound,
            "{v} {}: {answer:?} against the entry's {entry:?}",
            e.fen
        );
        let limits = Limits {
            movetime: Some(movetime),
            ..Limits::default()
        };
        engine.go(pos, limits).unwrap();
        let (mut said, mut info) = (Vec::new(), None);
        let finish = loop {
            match rx.recv_timeout(Duration::from_secs(10)).expect("a report") {
                Report::Event {
                    event: Event::Message(m),
                    ..
                } => said.push(m),
                Report::Event {
                    event: Event::Info(i),
                    ..
                } => info = Some(i),
                Report::Finished(f) => break f,
                _ => {}
            }
        };
        let best = finish.best.expect("a move");
        assert!(pos.legal_moves().contains(best), "{v} {}", e.fen);
        assert!(
            finish.elapsed <= movetime + Duration::from_millis(400),
            "{v} {}: {:?}",
            e.fen,
            finish.elapsed
        );
        assert!(said.contains(&answer.text()), "{v} {}: {said:?}", e.fen);
        assert!(answer.text().starts_with("book solved: "));
        match answer.mv {
            Some(mv) => {
                assert_eq!(best, mv, "{v} {}", e.fen);
                let info = info.expect("an info line");
                assert_eq!(info.score, answer.score * SCALE);
                assert_eq!(info.depth, pos.plies_left() as u32);
                assert!(info.exact && info.nodes == 0);
            }
            // A loss: every move loses, the search picks one in the time.
            None => assert_eq!(answer.outcome, "loss"),
        }
    }
}

/// The two deepest entries with a proven move of each variant in the
/// book: the position after the move, searched to the end, has the value
/// the entry claims (exactly, or no better for the other side than its
/// bound, through a null window).
#[test]
fn the_deepest_entries_hold_against_a_search_to_the_end() {
    let mut s = Searcher::new(Options {
        hash_mb: 256,
        ..Options::default()
    });
    let mut checked: HashMap<Variant, usize> = HashMap::new();
    for (v, e, pos) in book_positions() {
        let c = Canonical::of(&pos);
        let Some(answer) = book::answer(&pos, &c, e) else {
            continue;
        };
        let Some(mv) = answer.mv else { continue };
        let n = checked.entry(v).or_default();
        if *n == 2 {
            continue;
        }
        *n += 1;
        let mut child = pos.clone();
        child.play(mv);
        let inf = cheversi::search::INFINITE;
        let claim = -answer.score * SCALE;
        let solve = |s: &mut Searcher, alpha, beta| match child.is_over() {
            true => child.diff() * SCALE,
            false => s.solve(&child, alpha, beta).0,
        };
        match answer.bound {
            Bound::Exact => assert_eq!(solve(&mut s, -inf, inf), claim, "{v} {}", e.fen),
            Bound::Lower => {
                let value = solve(&mut s, claim, claim + 1);
                assert!(value <= claim, "{v} {}: {value}", e.fen);
            }
            Bound::Upper => panic!("{v} {}: an upper bound has no move", e.fen),
        }
    }
    for v in [Variant::Standard, Variant::Original] {
        assert_eq!(checked.get(&v), Some(&2), "{v}: the data has proven moves");
    }
}

/// Where the search takes over from the book: from this many plies left
/// the engine's own search reaches the end in seconds (SOLUTION.md: 12
/// plies left, 5-35 s on one thread), well inside a minute a move.
const SEARCH_FROM: u8 = 12;

/// Walks every line of `pos` down to [`SEARCH_FROM`] plies left in which
/// `keeper` plays the book's move and the other side anything: each of
/// `keeper`'s positions must be in the book with a move proven to keep at
/// least `target` points (`keeper`'s view). Returns how many of `keeper`'s
/// positions it saw.
fn walk(pos: &mut Position, keeper: cheversi::Color, target: i32) -> usize {
    if pos.plies_left() <= SEARCH_FROM || pos.is_over() {
        return 0;
    }
    if pos.side_to_move() == keeper {
        let answer = book::probe(pos).unwrap_or_else(|| panic!("not in the book: {}", pos.fen()));
        let mv = answer
            .mv
            .unwrap_or_else(|| panic!("no proven move: {}", pos.fen()));
        assert!(
            answer.bound != Bound::Upper && answer.score >= target,
            "{}",
            pos.fen()
        );
        let undo = pos.play(mv);
        if let Some(after) = book::probe(pos) {
            // What the other side can prove there cannot be more.
            assert!(after.score <= -target, "after {mv}: {}", pos.fen());
        }
        let seen = 1 + walk(pos, keeper, target);
        pos.undo(mv, undo);
        return seen;
    }
    let mut seen = 0;
    for m in pos.legal_moves().iter() {
        let undo = pos.play(m);
        seen += walk(pos, keeper, target);
        pos.undo(m, undo);
    }
    seen
}

/// The engine plays the solution: whatever the other side places, each
/// side finds a move in the book at every turn, proven to keep at least the
/// empty board's value, until the search can reach the end by itself.
#[test]
fn the_book_keeps_standards_value_for_either_side_whatever_the_other_plays() {
    let mut empty = Position::new(Variant::Standard);
    let root = book::probe(&empty).expect("the empty board is in the book");
    let value = root
        .exact
        .expect("the empty board's exact value is in the book");
    assert_eq!(root.outcome, "loss", "standard's empty board: White loses");
    for (keeper, target) in [
        (cheversi::Color::White, value),
        (cheversi::Color::Black, -value),
    ] {
        let seen = walk(&mut empty, keeper, target);
        eprintln!(
            "{keeper:?}: {seen} positions above {SEARCH_FROM} plies left, each with a move proven to keep {target:+}"
        );
        // The first move and a reply to each of the other side's moves
        // (White: 1 + 16 Black replies to K@b2; Black: 64 King squares).
        assert!(seen > 16, "{keeper:?}: {seen} positions");
    }
}

/// `original` is a win for Black by two: whatever White places, every
/// position where Black is to move with more than [`SEARCH_FROM`] plies
/// left is in the book with a move proven to win by at least two (the
/// game's value; one, a win, before the exact solve settled it).
#[test]
fn the_book_wins_originals_game_for_black_whatever_white_plays() {
    let mut empty = Position::new(Variant::Original);
    let seen = walk(&mut empty, cheversi::Color::Black, 2);
    eprintln!(
        "Black: {seen} positions above {SEARCH_FROM} plies left, each with a move proven to win by 2"
    );
    // A reply to each of White's 320 first moves, then to each second move.
    assert!(seen > 320, "{seen} positions");
}

/// `original` is solved exactly (-2): White's book opens with the move
/// that keeps it (`Q@d4`), and whatever Black places, every position where
/// White is to move with more than [`SEARCH_FROM`] plies left is in the
/// book with a move proven to lose by no more than two.
#[test]
fn the_book_keeps_originals_value_for_white_whatever_black_plays() {
    let mut empty = Position::new(Variant::Original);
    let root = book::probe(&empty).expect("the empty board is in the book");
    assert_eq!(root.exact, Some(-2), "original's empty board: -2");
    assert_eq!(root.mv, Some("Q@d4".parse().unwrap()));
    let seen = walk(&mut empty, cheversi::Color::White, -2);
    eprintln!(
        "White: {seen} positions above {SEARCH_FROM} plies left, each with a move proven to keep -2"
    );
    // The first move and a move after each of Black's replies to it.
    assert!(seen > 16, "{seen} positions");
}

/// `original`'s exact data (`solutions/original-exact.book`): after White's
/// `Q@d4` (lost by exactly 2) the book answers with the reply proven to win
/// by the most (`B@e4`, exactly +2), and after each of Black's replies whose margin the
/// store bounds, White has a move in the book proven to lose by no more
/// than that margin, whatever Black plays next, down to where the search
/// takes over.
#[test]
fn originals_exact_data_keeps_the_margin_for_white_after_q_d4() {
    let mut pos = Position::new(Variant::Original);
    pos.play("Q@d4".parse().unwrap());
    let black = book::probe(&pos).expect("Q@d4 is in the book");
    // B@e4 is worth exactly +2 and every other reply at most +2: Q@d4 is
    // lost by exactly 2.
    assert_eq!(black.mv, Some("B@e4".parse().unwrap()));
    assert_eq!((black.score, black.bound), (2, Bound::Exact));
    assert_eq!(black.text(), "book solved: win (exact 2)");
    let mut replies = 0;
    let mut seen = 0;
    for m in pos.legal_moves().iter() {
        let undo = pos.play(m);
        if let Some(a) = book::probe(&pos).filter(|a| a.mv.is_some()) {
            // White's view: the store proves White keeps at least -2.
            assert!(a.score >= -2, "after Q@d4 {m}: {}", a.score);
            replies += 1;
            seen += walk(&mut pos, cheversi::Color::White, a.score);
        }
        pos.undo(m, undo);
    }
    eprintln!(
        "White: {replies} replies to Q@d4 bounded, {seen} positions above {SEARCH_FROM} plies left"
    );
    // Symmetric replies count twice; the store bounds 16 up to symmetry.
    assert!(replies >= 16, "{replies} replies");
    assert_eq!(seen, replies);
}

/// `standard`'s first moves whose exact value the store proves (`K@b2`,
/// `K@c2`, `K@d2` and their symmetric twins): after each, the book answers
/// as Black with a move proven to keep exactly that value, and Black keeps
/// it whatever White plays next, down to where the search takes over; the
/// other first moves still get a move proven to win.
#[test]
fn after_each_first_move_of_standard_black_keeps_its_proven_value() {
    let mut pos = Position::new(Variant::Standard);
    let (mut exact, mut seen) = (Vec::new(), 0);
    for m in pos.legal_moves().iter() {
        let undo = pos.play(m);
        let a = book::probe(&pos).unwrap_or_else(|| panic!("K@.. {m} not in the book"));
        assert!(a.mv.is_some() && a.score >= 1, "after {m}: {a:?}");
        if let Some(v) = a.exact {
            assert_eq!((a.score, a.bound), (v, Bound::Exact), "after {m}");
            seen += walk(&mut pos, cheversi::Color::Black, v);
            exact.push(format!("{m} {v:+}"));
        }
        pos.undo(m, undo);
    }
    eprintln!(
        "exact first moves: {} ({seen} Black positions above {SEARCH_FROM} plies left keep them)",
        exact.join(", ")
    );
    // K@b2, K@c2 and K@d2, each with its twins (4 or 8 squares each).
    assert!(exact.len() >= 12, "{exact:?}");
    assert!(exact.iter().any(|e| e == "K@d2 +3"), "{exact:?}");
}
