//! One position of the suite and its line in the suite file:
//!
//! ```text
//! std11-4 standard 8/4RK2/4nb2/6Q1/8/8/8/8 b g5 0 Q@h4 Q@e8
//! ```
//!
//! id, variant, the three fields of the position string, the exact value
//! (the final point difference with perfect play, the side to move's view)
//! and every placement that keeps it, symmetric twins included. `#` starts
//! a comment; blank lines are skipped.

use crate::position::Position;
use crate::types::Placement;
use crate::variant::Variant;
use std::fmt;

/// A suite position with its proven value and optimal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A short name, unique in the file.
    pub id: String,
    /// The position (its variant inside).
    pub pos: Position,
    /// The exact value in points, side to move's view.
    pub value: i32,
    /// Every placement whose value is `value`.
    pub best: Vec<Placement>,
}

impl Entry {
    /// The variant of the position.
    pub fn variant(&self) -> Variant {
        self.pos.variant()
    }

    /// Plies left in the position.
    pub fn left(&self) -> u8 {
        self.pos.plies_left()
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.id,
            self.variant(),
            self.pos.fen(),
            self.value
        )?;
        for m in &self.best {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}

/// Reads one line (not a comment nor blank).
fn parse_line(line: &str) -> Result<Entry, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 7 {
        return Err(format!(
            "expected `id variant board side last value move...`, found {} words",
            words.len()
        ));
    }
    let variant: Variant = words[1]
        .parse()
        .map_err(|_| format!("unknown variant `{}`", words[1]))?;
    let fen = words[2..5].join(" ");
    let pos = Position::from_fen(&fen, variant).map_err(|e| format!("position `{fen}`: {e}"))?;
    let value: i32 = words[5]
        .parse()
        .map_err(|_| format!("value `{}` is not a whole number", words[5]))?;
    let mut best = Vec::new();
    for w in &words[6..] {
        let m: Placement = w.parse().map_err(|e| format!("move `{w}`: {e}"))?;
        pos.check(m).map_err(|e| format!("move `{w}`: {e}"))?;
        best.push(m);
    }
    Ok(Entry {
        id: words[0].to_string(),
        pos,
        value,
        best,
    })
}

/// Reads a suite file: every entry, or the first error with its line number.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let mut out: Vec<Entry> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let e = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if out.iter().any(|o| o.id == e.id) {
            return Err(format!("line {}: id `{}` used twice", i + 1, e.id));
        }
        out.push(e);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_back_as_written() {
        let line = "std11-4 standard 8/4RK2/4nb2/6Q1/8/8/8/8 b g5 0 Q@h4 Q@e8";
        let e = parse(line).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].to_string(), line);
        assert_eq!((e[0].left(), e[0].value, e[0].best.len()), (11, 0, 2));
    }

    #[test]
    fn bad_lines_name_their_line_and_what_is_wrong() {
        let cases = [
            ("a standard 8/8/8/8/8/8/8/8 w - 1", "found 6 words"),
            ("a chess 8/8/8/8/8/8/8/8 w - 1 K@a1", "unknown variant"),
            ("a standard 8/8/8/8/8/8/9/8 w - 1 K@a1", "position"),
            (
                "a standard 8/8/8/8/8/8/8/8 w - x K@a1",
                "not a whole number",
            ),
            ("a standard 8/8/8/8/8/8/8/8 w - 1 Q@a1", "move `Q@a1`"),
            ("a standard 8/8/8/8/8/8/8/8 w - 1 K@i9", "move `K@i9`"),
        ];
        for (line, want) in cases {
            let err = parse(&format!("# suite\n\n{line}\n")).unwrap_err();
            assert!(
                err.starts_with("line 3: ") && err.contains(want),
                "{line}: {err}"
            );
        }
        let twice =
            "a standard 8/8/8/8/8/8/8/8 w - -1 K@a1\na standard 8/8/8/8/8/8/8/8 w - -1 K@a1";
        assert!(parse(twice).unwrap_err().contains("used twice"));
    }

    #[test]
    fn the_committed_suite_reads() {
        let e = parse(super::super::DEFAULT).unwrap();
        assert!(!e.is_empty());
        for x in &e {
            assert!(!x.best.is_empty(), "{}", x.id);
        }
    }
}
