//! A first, plain search: iterative deepening alpha-beta ordered by gain.
//! A placeholder for the real search (issue 5); it is exact at the end.

use super::{Bound, Control, Event, Info, Limits, Outcome};
use crate::position::Position;
use crate::types::Placement;
use std::time::{Duration, Instant};

struct State<'a> {
    control: &'a Control,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl State<'_> {
    fn should_stop(&mut self) -> bool {
        if !self.aborted
            && (self.nodes >= self.node_limit
                || self.nodes.is_multiple_of(1024) && self.out_of_time())
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn out_of_time(&self) -> bool {
        self.control.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

fn ordered(pos: &Position) -> Vec<Placement> {
    let mut moves: Vec<(i32, Placement)> =
        pos.legal_moves().iter().map(|m| (pos.gain(m), m)).collect();
    moves.sort_by_key(|m| -m.0);
    moves.into_iter().map(|m| m.1).collect()
}

fn negamax(
    pos: &mut Position,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    st: &mut State,
    pv: &mut Vec<Placement>,
) -> i32 {
    st.nodes += 1;
    pv.clear();
    if depth == 0 || pos.is_over() || st.should_stop() {
        return pos.diff();
    }
    let mut best = i32::MIN + 1;
    let mut child = Vec::new();
    for m in ordered(pos) {
        let u = pos.play(m);
        let v = -negamax(pos, depth - 1, -beta, -alpha, st, &mut child);
        pos.undo(m, u);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&child);
            }
            if v >= beta {
                break;
            }
        }
    }
    best
}

fn deadline(pos: &Position, limits: &Limits, start: Instant) -> Option<Instant> {
    if limits.infinite || limits.ponder {
        return None;
    }
    let us = pos.side_to_move().index();
    let budget = limits.movetime.or_else(|| {
        limits.time[us]
            .map(|t| t / (pos.plies_left() as u32 / 2 + 1) + limits.inc[us].unwrap_or_default() / 2)
    })?;
    Some(start + budget.max(Duration::from_millis(1)))
}

/// Runs the placeholder search.
pub fn search(
    pos: &Position,
    limits: &Limits,
    control: &Control,
    on_event: &mut dyn FnMut(Event),
) -> Outcome {
    let start = Instant::now();
    let mut pos = pos.clone();
    let mut st = State {
        control,
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        deadline: deadline(&pos, limits, start),
        aborted: false,
    };
    let root = ordered(&pos);
    let mut best = root.first().copied();
    let max_depth = limits
        .depth
        .unwrap_or(u32::MAX)
        .min(pos.plies_left() as u32)
        .max(1);
    let mut pv = Vec::new();
    for depth in 1..=max_depth {
        if best.is_none() {
            break;
        }
        let score = negamax(&mut pos, depth, -100_000, 100_000, &mut st, &mut pv);
        if st.aborted {
            break;
        }
        best = pv.first().copied().or(best);
        on_event(Event::Info(Info {
            depth,
            seldepth: depth,
            multipv: 1,
            score: score * 100,
            bound: Bound::Exact,
            exact: depth >= pos.plies_left() as u32,
            nodes: st.nodes,
            time: start.elapsed(),
            hashfull: 0,
            pv: pv.clone(),
        }));
    }
    Outcome {
        best,
        ponder: pv.get(1).copied(),
        nodes: st.nodes,
    }
}
