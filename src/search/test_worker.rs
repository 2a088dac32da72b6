//! What the search's unit tests share: a worker of one thread over a small
//! table, how a search's result may bound a value, and killer squares.

use super::Value;
use super::history::Tables;
use super::time::Budget;
use super::tt::Tt;
use super::worker::{Shared, Worker};
use super::{Control, Limits, Options};
use crate::position::Position;
use crate::testing::Rng;
use crate::types::Square;

/// Runs `f` with a one-thread worker on `pos`, its histories in `tables`,
/// over a new 1 MiB table.
pub fn with_worker<T>(pos: &Position, tables: &mut Tables, f: impl FnOnce(&mut Worker) -> T) -> T {
    let tt = Tt::new(1);
    let control = Control::default();
    let now = std::time::Instant::now();
    let budget = Budget::new(pos, &Limits::default(), &Options::default(), now);
    let shared = Shared::new(&tt, &control, budget, 1, false);
    let mut w = Worker::new(pos.clone(), &shared, tables, 0);
    f(&mut w)
}

/// The value of `pos` within (alpha, beta), fail-soft, every placement
/// played: plain alpha-beta to the end of the game (no table, no
/// ordering, no ceiling), what the exact code's tests compare against.
pub fn alpha_beta(pos: &mut Position, mut alpha: Value, beta: Value) -> Value {
    if pos.is_over() {
        return pos.diff() * super::SCALE;
    }
    let mut best = -super::INFINITE;
    for m in pos.legal_moves().to_vec() {
        let u = pos.play(m);
        let v = -alpha_beta(pos, -beta, -alpha);
        pos.undo(m, u);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// Windows around the exact value `want`, mostly above it: those of the
/// nodes that fail low, where a ceiling spares children.
pub fn windows_above(want: Value) -> [(Value, Value); 6] {
    [
        (want, want + 1),
        (want + 99, want + 100),
        (want + 200, want + 400),
        (want + 500, want + 501),
        (want - 100, want + 300),
        (want - 1, want),
    ]
}

/// Searches a random `variant` position with `left` plies left as the
/// node at `ply`, in a window drawn from [`windows_above`] its value and
/// the full window, `prepare` run on the worker first; asserts the result
/// agrees with plain alpha-beta and the position is given back as it was.
/// Returns the position, its value and the window.
pub fn search_agrees(
    rng: &mut Rng,
    tables: &mut Tables,
    (variant, left, ply): (crate::variant::Variant, u8, usize),
    prepare: impl FnOnce(&mut Worker),
) -> (Position, Value, (Value, Value)) {
    let mut pos = rng.position(variant, left);
    let want = alpha_beta(&mut pos, -super::INFINITE, super::INFINITE);
    let mut windows = windows_above(want).to_vec();
    windows.push((-super::INFINITE, super::INFINITE));
    let window = windows[rng.below(windows.len())];
    let got = with_worker(&pos, tables, |w| {
        prepare(w);
        let pv = window.1 - window.0 > 1;
        let v = w.search(left, window.0, window.1, ply, pv);
        assert_eq!(w.pos, pos);
        v
    });
    assert!(
        agrees(got, want, window),
        "{} {window:?}: {got} {want}",
        pos.fen()
    );
    (pos, want, window)
}

/// Is `got` what a search of the window (alpha, beta) may return for the
/// exact value `want` (fail-soft bounds outside the window)?
pub fn agrees(got: Value, want: Value, (alpha, beta): (Value, Value)) -> bool {
    if want <= alpha {
        got <= alpha && got >= want
    } else if want >= beta {
        got >= beta && got <= want
    } else {
        got == want
    }
}

/// Two killer squares for a `standard` node with three plies left: mostly
/// squares where White's last piece may answer, now and then any empty one.
pub fn killers(rng: &mut Rng, pos: &Position) -> [Option<Square>; 2] {
    let answers = crate::variant::white_reply(pos).map_or(pos.empty(), |(_, b)| b);
    let squares: Vec<_> = if rng.below(4) == 0 {
        pos.empty()
    } else {
        answers
    }
    .collect();
    let mut pick = || squares.get(rng.below(squares.len().max(1))).copied();
    [pick(), pick()]
}
