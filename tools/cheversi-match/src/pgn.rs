//! PGN of a finished game: the seven standard tags, `Variant`, `Termination`,
//! the final points, and the placements with cutechess-style comments.
//! Ordo and BayesElo read the tags and the result.
//!
//! `Variant` is `Cheversi <rules>`, a name no chess program takes for one of
//! its own (`standard` made python-chess read the placements as chess
//! moves). `TimeControl` is in the PGN standard's form: `-` for depth and
//! node limits, `1/S` for S seconds a move, `S` or `S+I` for a clock, and
//! `?` when the two sides differ; each side's limit as given to the runner
//! is in `WhiteLimit` and `BlackLimit`.

use crate::game::Played;
use crate::limit::Limit;
use std::fmt::Write as _;

/// The facts of a game that are not in [`Played`].
#[derive(Clone, Debug)]
pub struct PgnHeader<'a> {
    /// `Event` tag.
    pub event: &'a str,
    /// `Round` tag (the game's number, from 1).
    pub round: u64,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The variant's name (`standard`, `open`, `original`).
    pub variant: &'a str,
    /// The limits of [white, black], if known.
    pub limits: [Option<Limit>; 2],
}

/// The `Variant` tag's value for the rules named `variant`.
pub fn variant_tag(variant: &str) -> String {
    format!("Cheversi {variant}")
}

/// A limit in the PGN standard's `TimeControl` form.
pub fn time_control(limit: Limit) -> String {
    let secs = |ms: u64| format!("{}", ms as f64 / 1000.0);
    match limit {
        Limit::Depth(_) | Limit::Nodes(_) => "-".into(),
        Limit::Movetime(ms) => format!("1/{}", secs(ms)),
        Limit::Clock { base_ms, inc_ms: 0 } => secs(base_ms),
        Limit::Clock { base_ms, inc_ms } => format!("{}+{}", secs(base_ms), secs(inc_ms)),
    }
}

fn time_control_tag(limits: [Option<Limit>; 2]) -> String {
    match limits {
        [Some(w), Some(b)] if time_control(w) == time_control(b) => time_control(w),
        _ => "?".into(),
    }
}

/// The PGN text of one game, ending in a blank line; `min` leaves out the
/// move comments (as cutechess's and fastchess's `min`).
pub fn game_pgn(h: &PgnHeader<'_>, g: &Played, min: bool) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{k} \"{v}\"]");
    };
    tag("Event", h.event);
    tag("Site", "cheversi-match");
    tag("Date", &today());
    tag("Round", &h.round.to_string());
    tag("White", h.white);
    tag("Black", h.black);
    tag("Result", g.result.pgn());
    tag("Variant", &variant_tag(h.variant));
    tag("Termination", g.termination.as_str());
    tag("WhitePoints", &g.points[0].to_string());
    tag("BlackPoints", &g.points[1].to_string());
    tag("PlyCount", &g.moves.len().to_string());
    tag("TimeControl", &time_control_tag(h.limits));
    let limit = |l: Option<Limit>| l.map_or("?".to_string(), |l| l.to_string());
    tag("WhiteLimit", &limit(h.limits[0]));
    tag("BlackLimit", &limit(h.limits[1]));
    if let Some(fen) = &g.start_fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');
    out.push_str(&wrap(&movetext(g.start_ply, g, min)));
    out.push_str("\n\n");
    out
}

fn movetext(start_ply: u8, g: &Played, min: bool) -> String {
    let mut words: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        let ply = start_ply as usize + i;
        if ply.is_multiple_of(2) {
            words.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 {
            words.push(format!("{}...", ply / 2 + 1));
        }
        words.push(m.placement.to_string());
        if !min {
            words.push(format!("{{{}}}", m.comment.as_deref().unwrap_or("book")));
        }
    }
    if let Some(d) = &g.detail {
        words.push(format!("{{{}}}", d.replace(['{', '}'], "")));
    }
    words.push(g.result.pgn().to_string());
    words.join(" ")
}

/// Breaks text into lines of at most 79 characters, between words.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut len = 0;
    for w in text.split(' ') {
        if len > 0 && len + 1 + w.len() > 79 {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(w);
        len += w.len();
    }
    out
}

/// Today's UTC date as `YYYY.MM.DD` (civil-from-days, H. Hinnant).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayedMove;
    use crate::termination::{GameResult, Termination};

    #[test]
    fn time_controls_take_the_pgn_standard_form() {
        let tc = |base_ms, inc_ms| Limit::Clock { base_ms, inc_ms };
        assert_eq!(time_control(Limit::Depth(4)), "-");
        assert_eq!(time_control(Limit::Nodes(9)), "-");
        assert_eq!(time_control(Limit::Movetime(100)), "1/0.1");
        assert_eq!(time_control(tc(1000, 10)), "1+0.01");
        assert_eq!(time_control(tc(60_000, 0)), "60");
        assert_eq!(
            time_control_tag([Some(tc(1000, 10)), Some(tc(1000, 10))]),
            "1+0.01"
        );
        assert_eq!(
            time_control_tag([Some(Limit::Depth(4)), Some(Limit::Depth(2))]),
            "-"
        );
        assert_eq!(
            time_control_tag([Some(Limit::Depth(4)), Some(tc(1000, 0))]),
            "?"
        );
    }

    #[test]
    fn dates_convert() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn a_game_prints_tags_moves_and_result() {
        let mv = |s: &str, c: Option<&str>| PlayedMove {
            placement: s.parse().unwrap(),
            comment: c.map(str::to_string),
        };
        let g = Played {
            start_fen: None,
            start_ply: 0,
            moves: vec![mv("K@d4", None), mv("Q@e5", Some("+0.10/3 0.010s"))],
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            points: [8, 20],
            detail: Some("A lost on time".into()),
        };
        let h = PgnHeader {
            event: "test",
            round: 3,
            white: "A",
            black: "B \"x\"",
            variant: "standard",
            limits: [Some(Limit::Depth(3)), Some(Limit::Depth(5))],
        };
        let pgn = game_pgn(&h, &g, false);
        assert!(pgn.contains("[Variant \"Cheversi standard\"]\n"), "{pgn}");
        assert!(
            pgn.contains(
                "[TimeControl \"-\"]\n[WhiteLimit \"depth=3\"]\n[BlackLimit \"depth=5\"]\n"
            ),
            "{pgn}"
        );
        assert!(game_pgn(&h, &g, true).contains("\n\n1. K@d4 Q@e5 {A lost on time} 0-1\n\n"));
        assert!(pgn.contains("[Result \"0-1\"]\n"));
        assert!(pgn.contains("[Black \"B \\\"x\\\"\"]\n"));
        assert!(pgn.contains("[Termination \"time forfeit\"]\n"));
        assert!(pgn.contains("[WhitePoints \"8\"]\n[BlackPoints \"20\"]\n"));
        assert!(
            pgn.contains("\n\n1. K@d4 {book} Q@e5 {+0.10/3 0.010s} {A lost on time} 0-1\n\n"),
            "{pgn}"
        );
    }
}
