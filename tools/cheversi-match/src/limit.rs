//! Search limits given to an engine for each move, and the clock.

use serde::{Deserialize, Serialize};
use std::fmt;

/// What an engine is told to search for each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Limit {
    /// `go depth N`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
    /// A clock: `base_ms` for the game plus `inc_ms` per move.
    Clock {
        /// Time for the whole game, in ms.
        base_ms: u64,
        /// Increment per move, in ms.
        inc_ms: u64,
    },
}

impl Limit {
    /// Parses a `KEY=VALUE` limit: depth, nodes, movetime or tc (`SECONDS+INC`).
    pub fn parse(key: &str, value: &str) -> Result<Option<Limit>, String> {
        let int = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("{key}={v}: not a whole number"))
        };
        Ok(Some(match key {
            "depth" => Limit::Depth(u32::try_from(int(value)?).map_err(|_| "depth too large")?),
            "nodes" => Limit::Nodes(int(value)?),
            "movetime" => Limit::Movetime(int(value)?),
            "tc" => parse_tc(value)?,
            _ => return Ok(None),
        }))
    }
}

/// Seconds with up to three decimals, as milliseconds.
fn seconds_to_ms(text: &str) -> Result<u64, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(secs.is_finite() && (0.0..1e9).contains(&secs)) {
        return Err(format!("'{text}' is not a valid number of seconds"));
    }
    Ok((secs * 1000.0).round() as u64)
}

fn parse_tc(value: &str) -> Result<Limit, String> {
    let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
    let limit = Limit::Clock {
        base_ms: seconds_to_ms(base).map_err(|e| format!("tc={value}: {e}"))?,
        inc_ms: seconds_to_ms(inc).map_err(|e| format!("tc={value}: {e}"))?,
    };
    match limit {
        Limit::Clock {
            base_ms: 0,
            inc_ms: 0,
        } => Err(format!("tc={value}: no time at all")),
        l => Ok(l),
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
            Limit::Movetime(ms) => write!(f, "movetime={ms}"),
            Limit::Clock { base_ms, inc_ms } => {
                write!(
                    f,
                    "tc={}+{}",
                    *base_ms as f64 / 1000.0,
                    *inc_ms as f64 / 1000.0
                )
            }
        }
    }
}

/// Both sides' clocks in a game. As in fastchess, time used past the clock
/// is carried as a debt: a side loses once its overdrafts over the whole
/// game pass its margin, not when one move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Remaining ms of [white, black]; below zero when overdrawn.
    pub left_ms: [i64; 2],
    /// Increment ms of [white, black].
    pub inc_ms: [u64; 2],
    /// Margin ms of [white, black]: the most a side may overdraw in a game.
    pub margin_ms: [u64; 2],
}

/// A side spent its clock and its margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    /// By how many ms the clock was overdrawn.
    pub overdraft_ms: u64,
}

impl Clocks {
    /// The `go` arguments for these clocks (an overdrawn clock shows 0).
    pub fn go_args(&self) -> String {
        format!(
            "wtime {} btime {} winc {} binc {}",
            self.left_ms[0].max(0),
            self.left_ms[1].max(0),
            self.inc_ms[0],
            self.inc_ms[1]
        )
    }

    /// How long `side` may think before it loses on time.
    pub fn allowed_ms(&self, side: usize) -> u64 {
        (self.left_ms[side] + self.margin_ms[side] as i64).max(0) as u64
    }

    /// Charges `used_ms` to `side` (0 white, 1 black), then adds its increment.
    pub fn charge(&mut self, side: usize, used_ms: u64) -> Result<(), Flagged> {
        let left = self.left_ms[side] - used_ms.min(i64::MAX as u64) as i64;
        if left < -(self.margin_ms[side] as i64) {
            self.left_ms[side] = left;
            return Err(Flagged {
                overdraft_ms: left.unsigned_abs(),
            });
        }
        self.left_ms[side] = left + self.inc_ms[side] as i64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse() {
        assert_eq!(Limit::parse("depth", "6"), Ok(Some(Limit::Depth(6))));
        assert_eq!(Limit::parse("nodes", "1000"), Ok(Some(Limit::Nodes(1000))));
        assert_eq!(
            Limit::parse("tc", "10+0.1"),
            Ok(Some(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100
            }))
        );
        assert_eq!(
            Limit::parse("tc", "2.5"),
            Ok(Some(Limit::Clock {
                base_ms: 2500,
                inc_ms: 0
            }))
        );
        assert_eq!(Limit::parse("name", "x"), Ok(None));
        assert!(Limit::parse("depth", "-1").is_err());
        assert!(Limit::parse("tc", "abc").is_err());
        assert!(Limit::parse("tc", "0+0").is_err());
        assert!(Limit::parse("tc", "inf").is_err());
    }

    #[test]
    fn clocks_charge_with_increment() {
        let mut c = Clocks {
            left_ms: [1000, 1000],
            inc_ms: [100, 100],
            margin_ms: [100, 100],
        };
        assert_eq!(c.charge(0, 400), Ok(()));
        assert_eq!(c.left_ms[0], 700);
        assert_eq!(c.charge(1, 1050), Ok(()));
        assert_eq!(c.go_args(), "wtime 700 btime 50 winc 100 binc 100");
    }

    #[test]
    fn overdrafts_add_up_over_the_game() {
        // tc=1+0, margin 100: 1.05 s is 50 ms over, within the margin; the
        // next move may use only the 50 ms of margin left.
        let mut c = Clocks {
            left_ms: [1000, 1000],
            inc_ms: [0, 0],
            margin_ms: [100, 100],
        };
        assert_eq!(c.charge(0, 1050), Ok(()));
        assert_eq!((c.left_ms[0], c.allowed_ms(0)), (-50, 50));
        assert_eq!(c.go_args(), "wtime 0 btime 1000 winc 0 binc 0");
        assert_eq!(c.charge(0, 40), Ok(()));
        assert_eq!(c.charge(0, 11), Err(Flagged { overdraft_ms: 101 }));
        assert_eq!(c.allowed_ms(0), 0);
    }
}
