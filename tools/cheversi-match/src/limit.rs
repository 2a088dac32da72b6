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

/// Both sides' remaining time in a clocked game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Remaining ms of [white, black].
    pub left_ms: [u64; 2],
    /// Increment ms of [white, black].
    pub inc_ms: [u64; 2],
}

impl Clocks {
    /// The `go` arguments for these clocks.
    pub fn go_args(&self) -> String {
        format!(
            "wtime {} btime {} winc {} binc {}",
            self.left_ms[0], self.left_ms[1], self.inc_ms[0], self.inc_ms[1]
        )
    }

    /// Charges `used_ms` to `side` (0 white, 1 black) and adds its increment;
    /// a move inside the time margin leaves the clock at the increment.
    pub fn charge(&mut self, side: usize, used_ms: u64) {
        self.left_ms[side] = self.left_ms[side].saturating_sub(used_ms) + self.inc_ms[side];
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
        };
        c.charge(0, 400);
        assert_eq!(c.left_ms[0], 700);
        c.charge(1, 1001);
        assert_eq!(c.go_args(), "wtime 700 btime 100 winc 100 binc 100");
    }
}
