//! Openings: a start position string and/or placements played before the
//! engines take over; read from a file or made at random from a seed.

use crate::rng::SplitMix64;
use cheversi::{GAME_PLIES, Placement, Position, Variant};
use std::fmt::Write as _;

/// Where a game starts and the placements that are played for the engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// A position string to start from; the empty board if `None`.
    pub fen: Option<String>,
    /// Placements played from there before the engines move.
    pub moves: Vec<Placement>,
}

impl Opening {
    /// The position the game starts from (before the opening's moves).
    pub fn start(&self, variant: Variant) -> Result<Position, String> {
        match &self.fen {
            None => Ok(Position::new(variant)),
            Some(f) => Position::from_fen(f, variant).map_err(|e| e.to_string()),
        }
    }

    /// The position after the opening's moves, each checked by the rules.
    pub fn position(&self, variant: Variant) -> Result<Position, String> {
        let mut pos = self.start(variant)?;
        for &pl in &self.moves {
            pos.play_checked(pl).map_err(|e| format!("{pl}: {e}"))?;
        }
        if pos.is_over() {
            return Err("the opening leaves no placement to play".into());
        }
        Ok(pos)
    }

    /// The protocol `position` command for this opening plus `played`.
    pub fn position_command(&self, played: &[Placement]) -> String {
        let mut cmd = match &self.fen {
            None => "position startpos".to_string(),
            Some(f) => format!("position fen {f}"),
        };
        let mut all = self.moves.iter().chain(played).peekable();
        if all.peek().is_some() {
            cmd.push_str(" moves");
            for pl in all {
                let _ = write!(cmd, " {pl}");
            }
        }
        cmd
    }
}

/// Parses one line of an openings file: a three-field position string
/// (optionally followed by `moves ...`) or a list of placements.
pub fn parse_line(line: &str, variant: Variant) -> Result<Opening, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (fen, rest) = if words.first().is_some_and(|w| w.contains('/')) {
        if words.len() < 3 {
            return Err("a position string has three fields".into());
        }
        let rest = match words.get(3) {
            Some(&"moves") => &words[4..],
            Some(w) => return Err(format!("unexpected '{w}' after the position")),
            None => &words[3..],
        };
        (Some(words[..3].join(" ")), rest)
    } else {
        (None, &words[..])
    };
    let moves = rest
        .iter()
        .map(|w| w.parse::<Placement>().map_err(|e| format!("'{w}': {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let opening = Opening { fen, moves };
    opening.position(variant)?;
    Ok(opening)
}

/// Reads an openings file: one opening a line; blank lines and `#` comments skipped.
pub fn read_file(path: &str, variant: Variant) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line, variant).map_err(|e| format!("{path}:{}: {e}", i + 1))?);
    }
    if out.is_empty() {
        return Err(format!("{path}: no openings"));
    }
    Ok(out)
}

/// A random legal opening of `plies` placements, the same for the same
/// `(seed, index)` on every machine.
pub fn random(variant: Variant, plies: u8, seed: u64, index: u64) -> Opening {
    let mut rng = SplitMix64::for_item(seed, index);
    let mut pos = Position::new(variant);
    let mut moves = Vec::new();
    for _ in 0..plies.min(GAME_PLIES - 1) {
        let legal = pos.legal_moves().to_vec();
        let pl = legal[rng.below(legal.len() as u64) as usize];
        pos.play(pl);
        moves.push(pl);
    }
    Opening { fen: None, moves }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        for v in Variant::ALL {
            for i in 0..20 {
                let o = random(v, 4, 99, i);
                assert_eq!(o.moves.len(), 4);
                assert!(o.position(v).is_ok());
                assert_eq!(o, random(v, 4, 99, i));
            }
        }
        assert_ne!(
            random(Variant::Standard, 4, 99, 0),
            random(Variant::Standard, 4, 99, 1)
        );
    }

    #[test]
    fn lines_parse_as_moves_or_positions() {
        let v = Variant::Standard;
        let o = parse_line("K@d4 Q@e5", v).unwrap();
        assert_eq!(o.position_command(&[]), "position startpos moves K@d4 Q@e5");
        let o = parse_line("8/8/8/4q3/3K4/8/8/8 w e5 moves Q@c3", v).unwrap();
        let pl: Placement = "N@a1".parse().unwrap();
        assert_eq!(
            o.position_command(&[pl]),
            "position fen 8/8/8/4q3/3K4/8/8/8 w e5 moves Q@c3 N@a1"
        );
        assert!(parse_line("K@d4 K@e5", v).is_err());
        assert!(parse_line("Q@d4", v).is_err());
        assert!(parse_line("8/8/8 w", v).is_err());
        assert!(parse_line("garbage", v).is_err());
    }
}
