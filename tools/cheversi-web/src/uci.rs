//! What the engine writes, read as a GUI reads it (protocol.md, "Output").
//! Words it does not know are skipped, so any engine of the dialect works.

use serde::Serialize;

/// One line from the engine, as far as the board cares.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    /// `id name <name>`.
    Name(String),
    /// `option name <name> type ...`: the option's name.
    Option(String),
    /// `uciok`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...` with search figures: a score or a line.
    Info(Info),
    /// `info depth D nodes N nps N hashfull H time T`, no score, no line:
    /// the live figures of the depth under way, between completed depths.
    Progress(Info),
    /// `info string book <text>`: what the engine's solution data says.
    Book(String),
    /// `info string <text>` (also the engine's errors).
    Text(String),
    /// `bestmove <word>`.
    BestMove(String),
    /// Anything else.
    Other,
}

/// The figures of one `info` line.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Info {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv` (1 when absent).
    pub multipv: u32,
    /// `score cp`: 100 times the expected final point difference, mover's view.
    pub cp: Option<i64>,
    /// `lowerbound` or `upperbound`, if the score is a bound.
    pub bound: Option<&'static str>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time` in milliseconds.
    pub time: Option<u64>,
    /// `pv`: the placements.
    pub pv: Vec<String>,
}

/// Reads one line of engine output.
pub fn parse(line: &str) -> EngineLine {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("id") if words.next() == Some("name") => {
            EngineLine::Name(words.collect::<Vec<_>>().join(" "))
        }
        Some("option") if words.next() == Some("name") => {
            let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
            EngineLine::Option(name.join(" "))
        }
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("bestmove") => EngineLine::BestMove(words.next().unwrap_or("").to_string()),
        Some("info") => info(line),
        _ => EngineLine::Other,
    }
}

fn info(line: &str) -> EngineLine {
    if let Some(i) = line.find(" string ") {
        let text = line[i + " string ".len()..].trim();
        return match text.strip_prefix("book ") {
            Some(book) => EngineLine::Book(book.trim().to_string()),
            None => EngineLine::Text(text.to_string()),
        };
    }
    let mut info = Info {
        multipv: 1,
        ..Info::default()
    };
    let mut words = line.split_whitespace().skip(1);
    let mut any = false;
    while let Some(w) = words.next() {
        let mut num = || words.next().and_then(|v| v.parse::<u64>().ok());
        match w {
            "depth" => info.depth = num().map(|v| v as u32),
            "seldepth" => info.seldepth = num().map(|v| v as u32),
            "multipv" => info.multipv = num().map_or(1, |v| v.clamp(1, 256) as u32),
            "nodes" => info.nodes = num(),
            "nps" => info.nps = num(),
            "time" => info.time = num(),
            "score" => {
                if words.next() == Some("cp") {
                    info.cp = words.next().and_then(|v| v.parse().ok());
                }
            }
            "lowerbound" => info.bound = Some("lower"),
            "upperbound" => info.bound = Some("upper"),
            "pv" => {
                info.pv = words.by_ref().take(64).map(str::to_string).collect();
            }
            _ => continue,
        }
        any = true;
    }
    if !any {
        EngineLine::Other
    } else if info.cp.is_some() || !info.pv.is_empty() {
        EngineLine::Info(info)
    } else if info.nodes.is_some() {
        EngineLine::Progress(info)
    } else {
        // Such as `info depth 5 currmove K@d4`: nothing the page shows.
        EngineLine::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_info_line_gives_its_figures() {
        let l = "info depth 3 seldepth 3 multipv 2 score cp -700 upperbound nodes 834 nps 1678602 hashfull 0 time 0 pv Q@f5 R@g6 B@d5";
        let EngineLine::Info(i) = parse(l) else {
            panic!("not info")
        };
        assert_eq!(i.depth, Some(3));
        assert_eq!(i.multipv, 2);
        assert_eq!(i.cp, Some(-700));
        assert_eq!(i.bound, Some("upper"));
        assert_eq!(i.nps, Some(1678602));
        assert_eq!(i.pv, ["Q@f5", "R@g6", "B@d5"]);
    }

    #[test]
    fn a_line_without_score_or_pv_is_live_progress() {
        let l = "info depth 9 nodes 2590000 nps 1295000 hashfull 12 time 2000";
        let EngineLine::Progress(i) = parse(l) else {
            panic!("not progress")
        };
        assert_eq!(
            (i.depth, i.nodes, i.nps, i.time),
            (Some(9), Some(2590000), Some(1295000), Some(2000))
        );
        assert_eq!(i.cp, None);
        assert_eq!(parse("info depth 5 currmove K@d4"), EngineLine::Other);
        let scored = "info depth 0 seldepth 0 score cp -100 nodes 0 nps 0 hashfull 0 time 0";
        assert!(matches!(parse(scored), EngineLine::Info(_)));
    }

    #[test]
    fn book_and_other_lines() {
        assert_eq!(
            parse("info string book solved: draw (exact 0)"),
            EngineLine::Book("solved: draw (exact 0)".into())
        );
        assert_eq!(
            parse("info string error: x"),
            EngineLine::Text("error: x".into())
        );
        assert_eq!(parse("bestmove K@d4"), EngineLine::BestMove("K@d4".into()));
        assert_eq!(
            parse("option name Clear Hash type button"),
            EngineLine::Option("Clear Hash".into())
        );
        assert_eq!(
            parse("id name Cheversi 0.1.0"),
            EngineLine::Name("Cheversi 0.1.0".into())
        );
        assert_eq!(parse("info"), EngineLine::Other);
        assert_eq!(parse("\u{fffd} garbage"), EngineLine::Other);
    }
}
