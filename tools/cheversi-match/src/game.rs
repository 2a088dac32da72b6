//! One game between two engines: prepare both, ask each in turn for a
//! placement, check it with the rules library, and turn every fault into a
//! loss for the engine at fault with its `Termination`.

use crate::comm_log::CommLog;
use crate::engine_config::EngineConfig;
use crate::engine_process::{EngineError, EngineProcess, SearchReply};
use crate::limit::{Clocks, Limit};
use crate::openings::Opening;
use crate::termination::{GameResult, Termination};
use cheversi::{Color, Placement, Position, Variant};
use std::time::Duration;

/// One side of a game: its config and the engine slot (empty = start it).
pub struct Seat<'a> {
    /// How to run the engine.
    pub cfg: &'a EngineConfig,
    /// The running engine, kept between games; emptied after a fault.
    pub engine: &'a mut Option<EngineProcess>,
}

/// What every game shares.
#[derive(Clone, Debug)]
pub struct GameContext {
    /// The rules.
    pub variant: Variant,
    /// Time allowed for `uciok` and each `readyok`.
    pub startup: Duration,
    /// Engine traffic log.
    pub log: CommLog,
}

/// A placement of the game and the engine's comment on it (none for book moves).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// The placement.
    pub placement: Placement,
    /// `+0.35/6 0.120s` style comment.
    pub comment: Option<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The start position string, when not the empty board.
    pub start_fen: Option<String>,
    /// The ply of the start position.
    pub start_ply: u8,
    /// Every placement from the start position, book moves included.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Final points [white, black] of the position reached.
    pub points: [i32; 2],
    /// What went wrong, for faults.
    pub detail: Option<String>,
}

/// A fault: the side that loses, why, and a description.
type Fault = (usize, Termination, String);

/// Plays `opening` with `seats[0]` as White and `seats[1]` as Black.
pub fn play(ctx: &GameContext, opening: &Opening, mut seats: [Seat<'_>; 2]) -> Played {
    // Openings are checked when loaded; the empty board is only a fallback.
    let mut pos = opening
        .position(ctx.variant)
        .unwrap_or_else(|_| Position::new(ctx.variant));
    let mut moves: Vec<PlayedMove> = opening
        .moves
        .iter()
        .map(|&placement| PlayedMove {
            placement,
            comment: None,
        })
        .collect();
    let fault = prepare(ctx, &mut seats)
        .and_then(|()| play_out(opening, &mut pos, &mut moves, &mut seats))
        .err();
    let points = [pos.points(Color::White), pos.points(Color::Black)];
    let (result, termination, detail) = match fault {
        None => (GameResult::from_points(points), Termination::Normal, None),
        Some((loser, termination, detail)) => {
            // A faulty engine is restarted for the next game.
            *seats[loser].engine = None;
            (GameResult::loss_for(loser), termination, Some(detail))
        }
    };
    Played {
        start_fen: opening.fen.clone(),
        start_ply: opening.start(ctx.variant).map_or(0, |p| p.ply()),
        moves,
        result,
        termination,
        points,
        detail,
    }
}

/// Asks the engines for placements until the game is over or one faults.
fn play_out(
    opening: &Opening,
    pos: &mut Position,
    moves: &mut Vec<PlayedMove>,
    seats: &mut [Seat<'_>; 2],
) -> Result<(), Fault> {
    let mut clocks = initial_clocks(seats);
    while !pos.is_over() {
        one_move(opening, pos, moves, seats, &mut clocks)?;
    }
    Ok(())
}

/// Starts engines that are not running and sends `ucinewgame` to both.
fn prepare(ctx: &GameContext, seats: &mut [Seat<'_>; 2]) -> Result<(), Fault> {
    for (side, seat) in seats.iter_mut().enumerate() {
        let name = &seat.cfg.name;
        let blame = |e: EngineError, what: &str| engine_fault(side, e, &format!("{name} {what}"));
        if seat.engine.is_none() {
            let e = EngineProcess::start(seat.cfg, ctx.variant, ctx.log.clone(), ctx.startup);
            *seat.engine = Some(e.map_err(|e| blame(e, "failed to start"))?);
        }
        if let Some(engine) = seat.engine.as_mut() {
            engine
                .new_game(ctx.startup)
                .map_err(|e| blame(e, "did not get ready"))?;
        }
    }
    Ok(())
}

fn engine_fault(side: usize, e: EngineError, what: &str) -> Fault {
    match e {
        EngineError::Spawn(msg) => (side, Termination::Crash, format!("{what}: {msg}")),
        EngineError::Closed => (
            side,
            Termination::Crash,
            format!("{what}: the engine exited"),
        ),
        EngineError::Timeout => (
            side,
            Termination::Stall,
            format!("{what}: no answer in time"),
        ),
    }
}

fn initial_clocks(seats: &[Seat<'_>; 2]) -> Clocks {
    let clock = |s: &Seat<'_>| match s.cfg.limit {
        Limit::Clock { base_ms, inc_ms } => (base_ms, inc_ms),
        _ => (0, 0),
    };
    let (w, b) = (clock(&seats[0]), clock(&seats[1]));
    Clocks {
        left_ms: [w.0 as i64, b.0 as i64],
        inc_ms: [w.1, b.1],
        margin_ms: [seats[0].cfg.timemargin_ms, seats[1].cfg.timemargin_ms],
    }
}

/// The `go` command and how long to wait for its `bestmove`.
fn go_command(cfg: &EngineConfig, clocks: &Clocks, side: usize) -> (String, Duration) {
    let margin = cfg.timemargin_ms;
    let (go, ms) = match cfg.limit {
        Limit::Depth(d) => (format!("go depth {d}"), cfg.timeout_ms),
        Limit::Nodes(n) => (format!("go nodes {n}"), cfg.timeout_ms),
        Limit::Movetime(t) => (format!("go movetime {t}"), t + margin),
        Limit::Clock { .. } => (format!("go {}", clocks.go_args()), clocks.allowed_ms(side)),
    };
    (go, Duration::from_millis(ms))
}

fn one_move(
    opening: &Opening,
    pos: &mut Position,
    moves: &mut Vec<PlayedMove>,
    seats: &mut [Seat<'_>; 2],
    clocks: &mut Clocks,
) -> Result<(), Fault> {
    let side = pos.side_to_move() as usize;
    let seat = &mut seats[side];
    let name = seat.cfg.name.clone();
    let played: Vec<Placement> = moves[opening.moves.len()..]
        .iter()
        .map(|m| m.placement)
        .collect();
    let (go, wait) = go_command(seat.cfg, clocks, side);
    let engine =
        seat.engine
            .as_mut()
            .ok_or((side, Termination::Crash, format!("{name} is not running")))?;
    let reply = engine
        .search(&opening.position_command(&played), &go, wait)
        .map_err(|e| search_fault(side, e, &name))?;
    if matches!(seat.cfg.limit, Limit::Clock { .. }) {
        clocks
            .charge(side, reply.elapsed.as_millis() as u64)
            .map_err(|f| {
                let why = format!("{name} lost on time ({} ms over)", f.overdraft_ms);
                (side, Termination::TimeForfeit, why)
            })?;
    }
    let placement = check_bestmove(pos, &reply)
        .map_err(|why| (side, Termination::IllegalMove, format!("{name}: {why}")))?;
    moves.push(PlayedMove {
        placement,
        comment: Some(comment(&reply)),
    });
    Ok(())
}

fn search_fault(side: usize, e: EngineError, name: &str) -> Fault {
    match e {
        EngineError::Timeout => (
            side,
            Termination::TimeForfeit,
            format!("{name} lost on time"),
        ),
        other => engine_fault(side, other, &format!("{name} during search")),
    }
}

/// Parses the engine's move and plays it if the rules allow it.
fn check_bestmove(pos: &mut Position, reply: &SearchReply) -> Result<Placement, String> {
    let text = reply.bestmove.as_deref().ok_or("empty bestmove")?;
    let pl: Placement = text
        .parse()
        .map_err(|_| format!("unreadable bestmove '{text}'"))?;
    pos.play_checked(pl)
        .map_err(|e| format!("illegal bestmove {pl}: {e}"))?;
    Ok(pl)
}

/// cutechess-style move comment: score in hundredths from the mover's view, depth, time.
fn comment(reply: &SearchReply) -> String {
    let score = reply
        .score_cp
        .map_or("?".to_string(), |cp| format!("{:+.2}", cp as f64 / 100.0));
    let depth = reply.depth.map_or("?".to_string(), |d| d.to_string());
    format!("{score}/{depth} {:.3}s", reply.elapsed.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bestmoves_are_checked_by_the_rules() {
        let mut pos = Position::new(Variant::Standard);
        let reply = |m: &str| SearchReply {
            bestmove: Some(m.into()),
            ..SearchReply::default()
        };
        assert!(check_bestmove(&mut pos, &reply("Q@d4")).is_err());
        assert!(check_bestmove(&mut pos, &reply("zz")).is_err());
        assert!(check_bestmove(&mut pos, &reply("(none)")).is_err());
        assert!(check_bestmove(&mut pos, &SearchReply::default()).is_err());
        assert_eq!(
            check_bestmove(&mut pos, &reply("K@d4")),
            Ok("K@d4".parse().unwrap())
        );
        assert_eq!(pos.ply(), 1);
    }

    #[test]
    fn comments_look_like_cutechess() {
        let r = SearchReply {
            bestmove: None,
            score_cp: Some(35),
            depth: Some(6),
            elapsed: Duration::from_millis(120),
        };
        assert_eq!(comment(&r), "+0.35/6 0.120s");
    }
}
