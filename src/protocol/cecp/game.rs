//! What a CECP session remembers of the game: where it started, the
//! placements since (so `undo` and `remove` replay), and the clock XBoard
//! set (`level`, `st`, `sd`, `time`, `otim`), turned into search limits.

use super::command::Level;
use crate::position::Position;
use crate::search::Limits;
use crate::types::{Color, Placement};
use crate::variant::IllegalPlacement;
use std::time::Duration;

/// The game: its start and the placements played.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    moves: Vec<Placement>,
    pos: Position,
}

impl Game {
    /// A game from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn pos(&self) -> &Position {
        &self.pos
    }

    /// Plays `pl` if it is legal; otherwise changes nothing.
    pub fn play(&mut self, pl: Placement) -> Result<(), IllegalPlacement> {
        self.pos.play_checked(pl)?;
        self.moves.push(pl);
        Ok(())
    }

    /// Takes back the last `n` placements; false (and nothing changed) if
    /// fewer were played.
    pub fn take_back(&mut self, n: usize) -> bool {
        let Some(keep) = self.moves.len().checked_sub(n) else {
            return false;
        };
        self.moves.truncate(keep);
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play(m);
        }
        self.pos = pos;
        true
    }
}

/// The time control and clocks XBoard sent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `level`, if any.
    pub level: Option<Level>,
    /// `st`: a fixed time per move (wins over `level`).
    pub per_move: Option<Duration>,
    /// `sd`: a depth limit.
    pub depth: Option<u32>,
    /// `time`: the engine's clock.
    pub own: Option<Duration>,
    /// `otim`: the opponent's clock.
    pub opponent: Option<Duration>,
}

impl Clock {
    /// A clock reading in centiseconds (negative: a late GUI, counted 0).
    pub fn centis(n: i64) -> Duration {
        Duration::from_millis(n.max(0) as u64 * 10)
    }

    /// The limits of a search for `us` in `pos`. With neither `st` nor
    /// `level`, only `sd` limits it (the search's own choice otherwise).
    pub fn limits(&self, pos: &Position, us: Color) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            ..Limits::default()
        };
        if let Some(t) = self.per_move {
            limits.movetime = Some(t);
        } else if let Some(level) = self.level {
            let base = Some(level.base);
            limits.time[us.index()] = self.own.or(base);
            limits.time[us.flip().index()] = self.opponent.or(base);
            limits.inc = [Some(level.inc); 2];
            // Our placements so far: White has made ceil(ply / 2), Black floor.
            let ours = (u32::from(pos.ply()) + u32::from(us == Color::White)) / 2;
            limits.movestogo = (level.moves > 0).then(|| level.moves - ours % level.moves);
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Variant;

    #[test]
    fn take_back_replays_from_the_start() {
        let mut g = Game::new(Position::new(Variant::Standard));
        for m in ["K@d4", "Q@e5", "Q@e4"] {
            g.play(m.parse().unwrap()).unwrap();
        }
        let after_two = {
            let mut p = Position::new(Variant::Standard);
            p.play("K@d4".parse().unwrap());
            p.play("Q@e5".parse().unwrap());
            p.fen()
        };
        assert!(g.take_back(1));
        assert_eq!(g.pos().fen(), after_two);
        assert!(!g.take_back(3), "only two placements left");
        assert_eq!(g.pos().fen(), after_two);
        assert!(g.play("K@a1".parse().unwrap()).is_err());
        assert_eq!(g.pos().fen(), after_two, "an illegal move changes nothing");
    }

    #[test]
    fn clocks_become_limits() {
        let pos = Position::new(Variant::Standard);
        let mut c = Clock {
            level: Some(Level {
                moves: 40,
                base: Duration::from_secs(60),
                inc: Duration::from_secs(1),
            }),
            own: Some(Clock::centis(500)),
            ..Clock::default()
        };
        let l = c.limits(&pos, Color::White);
        assert_eq!(
            l.time,
            [Some(Duration::from_secs(5)), Some(Duration::from_secs(60))]
        );
        assert_eq!(l.movestogo, Some(40));
        assert_eq!(l.movetime, None);
        c.per_move = Some(Duration::from_secs(2));
        c.depth = Some(4);
        let l = c.limits(&pos, Color::Black);
        assert_eq!(
            (l.movetime, l.depth, l.time),
            (Some(Duration::from_secs(2)), Some(4), [None, None])
        );
        assert_eq!(Clock::centis(-3), Duration::ZERO);
    }
}
