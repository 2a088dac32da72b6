//! Everything the engine writes. `Response`'s `Display` is the only place
//! where protocol text is produced; one response may span several lines.
//! The data it writes from (`View`, `Spec`) lives here too, so this folder
//! imports nothing from the rest of `protocol/`: the session and the options
//! build responses, never the other way round.

mod board;
mod spec;
pub mod view;

pub use spec::{Kind, Spec};

use crate::engine::{Finish, Report};
use crate::search::{Bound, Event, Info, Stats};
use crate::solve::explore::{self, MoveValue, Progress, Summary};
use crate::types::Placement;
use std::fmt::{self, Write as _};
use std::time::Duration;
use view::View;

/// One answer of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// The first line: name, version, authors (as Stockfish's banner).
    Banner,
    /// `id name ...` and `id author ...`.
    Id,
    /// One `option ...` line per option.
    Options(Vec<Spec>),
    /// `uciok`.
    UciOk,
    /// `ugiok`.
    UgiOk,
    /// `readyok`.
    ReadyOk,
    /// A search progress line.
    Info(InfoLine),
    /// The live figures between depths: `info depth D nodes N nps N
    /// hashfull H time T`.
    Stats(Stats),
    /// `bestmove M` or `bestmove (none)`.
    BestMove(Option<Placement>),
    /// `response ...` to a UGI `query`.
    Answer(Answer),
    /// `info string error: ...`.
    Error(String),
    /// `info string ...`.
    Message(String),
    /// `d`: the board, attacks, scores, position string, move count.
    Board(Box<View>),
    /// `eval`: points per piece.
    Eval(Box<View>),
    /// `moves`: the legal placements.
    Moves(Vec<Placement>),
    /// `explore`: one move's proven interval and the progress.
    ExploreMove(MoveValue, Progress),
    /// `explore`: the closing line.
    Explored(Summary),
    /// `perft`: one first placement and its count.
    PerftMove(Placement, u64),
    /// `perft`: the total.
    PerftTotal {
        /// Leaves counted.
        nodes: u64,
        /// Wall time.
        elapsed: Duration,
        /// False if stopped early.
        complete: bool,
    },
    /// `bench`: node count and speed.
    Bench {
        /// Nodes searched.
        nodes: u64,
        /// Wall time.
        elapsed: Duration,
    },
    /// `help`: the commands.
    Help,
}

/// The answer to a UGI `query`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `true` or `false`.
    Yes(bool),
    /// Player 1 (White) has won.
    P1Win,
    /// Player 2 (Black) has won.
    P2Win,
    /// Equal points at the end.
    Draw,
    /// The game goes on.
    NoResult,
}

/// An `info` line, in the protocol's own terms (independent of how the
/// search represents its progress).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Which line among several (shown only with MultiPV above 1).
    pub multipv: Option<usize>,
    /// Centipoints, side to move's view.
    pub score: i32,
    /// Exact or a bound.
    pub bound: Bound,
    /// Nodes.
    pub nodes: u64,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// Time since the search began.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Placement>,
}

impl InfoLine {
    /// The line for a search's `Info`.
    pub fn from_info(i: &Info, multipv: bool) -> InfoLine {
        InfoLine {
            depth: i.depth,
            seldepth: i.seldepth,
            multipv: multipv.then_some(i.multipv),
            score: i.score,
            bound: i.bound,
            nodes: i.nodes,
            hashfull: i.hashfull,
            time: i.time,
            pv: i.pv.clone(),
        }
    }

    /// The last line of a search: its last progress line with the final
    /// node count and time, or (nothing completed) the static score.
    pub fn last(f: &Finish) -> InfoLine {
        let mut line = match &f.last {
            Some(i) => InfoLine::from_info(i, false),
            None => InfoLine {
                depth: 0,
                seldepth: 0,
                multipv: None,
                score: f.static_score,
                bound: Bound::Exact,
                nodes: 0,
                hashfull: 0,
                time: Duration::ZERO,
                pv: f.best.into_iter().collect(),
            },
        };
        line.nodes = line.nodes.max(f.nodes);
        line.time = f.elapsed;
        line
    }
}

impl Response {
    /// What the protocol says for an engine report.
    pub fn from_report(r: Report) -> Vec<Response> {
        match r {
            Report::Event {
                event: Event::Info(i),
                multipv,
            } => vec![Response::Info(InfoLine::from_info(&i, multipv))],
            Report::Event {
                event: Event::Message(m),
                ..
            } => vec![Response::Message(m)],
            Report::Event {
                event: Event::Stats(s),
                ..
            } => vec![Response::Stats(s)],
            Report::Finished(f) => vec![
                Response::Info(InfoLine::last(&f)),
                Response::BestMove(f.best),
            ],
            Report::Explore(explore::Event::Move(v, p)) => vec![Response::ExploreMove(v, p)],
            Report::Explored(s) => vec![Response::Explored(s)],
            Report::PerftMove(pl, n) => vec![Response::PerftMove(pl, n)],
            Report::PerftDone {
                nodes,
                elapsed,
                complete,
            } => vec![Response::PerftTotal {
                nodes,
                elapsed,
                complete,
            }],
        }
    }
}

/// The engine's version, as Cargo knows it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Who wrote it, in the banner and `id author`.
pub const AUTHORS: &str = "the Cheversi developers";

/// At most this many characters of a user's word are echoed in an error.
const ECHO: usize = 40;

/// A user's word as echoed in an error: at most 40 characters, then `...`.
pub fn clip(w: &str) -> String {
    match w.char_indices().nth(ECHO) {
        Some((at, _)) => format!("{}...", &w[..at]),
        None => w.to_string(),
    }
}

/// Per second, guarding against a zero duration.
fn per_second(n: u64, d: Duration) -> u64 {
    (n as f64 / d.as_secs_f64().max(1e-6)) as u64
}

/// User text with control characters escaped, so one response stays one line.
pub struct Clean<'a>(pub &'a str);

impl fmt::Display for Clean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                f.write_char(c)?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Banner => write!(f, "Cheversi {VERSION} by {AUTHORS}"),
            Response::Id => write!(f, "id name Cheversi {VERSION}\nid author {AUTHORS}"),
            Response::Options(specs) => write_options(f, specs),
            Response::UciOk => f.write_str("uciok"),
            Response::UgiOk => f.write_str("ugiok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::Info(line) => write!(f, "{line}"),
            Response::Stats(s) => write!(
                f,
                "info depth {} nodes {} nps {} hashfull {} time {}",
                s.depth,
                s.nodes,
                per_second(s.nodes, s.time),
                s.hashfull,
                s.time.as_millis()
            ),
            Response::BestMove(Some(m)) => write!(f, "bestmove {m}"),
            Response::BestMove(None) => f.write_str("bestmove (none)"),
            Response::Answer(a) => write!(f, "response {a}"),
            Response::Error(e) => write!(f, "info string error: {}", Clean(e)),
            Response::Message(m) => write!(f, "info string {}", Clean(m)),
            Response::Board(v) => board::draw(f, v),
            Response::Eval(v) => board::eval(f, v),
            Response::Moves(m) => write_moves(f, m),
            Response::ExploreMove(v, p) => write_explore_move(f, v, p),
            Response::Explored(s) => write_explored(f, s),
            Response::PerftMove(pl, n) => write!(f, "{pl}: {n}"),
            Response::PerftTotal {
                nodes,
                elapsed,
                complete,
            } => write_perft(f, *nodes, *elapsed, *complete),
            Response::Bench { nodes, elapsed } => totals(f, *nodes, *elapsed),
            Response::Help => f.write_str(HELP),
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Answer::Yes(true) => "true",
            Answer::Yes(false) => "false",
            Answer::P1Win => "p1win",
            Answer::P2Win => "p2win",
            Answer::Draw => "draw",
            Answer::NoResult => "none",
        })
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info depth {} seldepth {}", self.depth, self.seldepth)?;
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        write!(f, " score cp {}", self.score)?;
        match self.bound {
            Bound::Lower => f.write_str(" lowerbound")?,
            Bound::Upper => f.write_str(" upperbound")?,
            Bound::Exact => {}
        }
        write!(
            f,
            " nodes {} nps {} hashfull {} time {}",
            self.nodes,
            per_second(self.nodes, self.time),
            self.hashfull,
            self.time.as_millis()
        )?;
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for m in &self.pv {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

fn write_options(f: &mut fmt::Formatter<'_>, specs: &[Spec]) -> fmt::Result {
    for (i, s) in specs.iter().enumerate() {
        if i > 0 {
            f.write_char('\n')?;
        }
        write!(f, "option name {} type ", s.name)?;
        match &s.kind {
            Kind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")?
            }
            Kind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                for v in vars {
                    write!(f, " var {v}")?;
                }
            }
            Kind::Check { default } => write!(f, "check default {default}")?,
            Kind::Button => f.write_str("button")?,
            Kind::String { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                write!(f, "string default {shown}")?
            }
        }
    }
    Ok(())
}

fn write_moves(f: &mut fmt::Formatter<'_>, moves: &[Placement]) -> fmt::Result {
    write!(f, "moves {}:", moves.len())?;
    for m in moves {
        write!(f, " {m}")?;
    }
    Ok(())
}

/// `info explore move K@b2 lo -1 hi -1 by book exact 12 of 64 nodes 0 time 0`.
fn write_explore_move(f: &mut fmt::Formatter<'_>, v: &MoveValue, p: &Progress) -> fmt::Result {
    let end = |b: Option<i32>| b.map_or("none".to_string(), |b| b.to_string());
    write!(
        f,
        "info explore move {} lo {} hi {} by {} ",
        v.mv,
        end(v.lo),
        end(v.hi),
        v.proof.name()
    )?;
    write_progress(f, p)
}

/// `explored complete exact 20 of 20 nodes N time MS best K@b2 ...`.
fn write_explored(f: &mut fmt::Formatter<'_>, s: &Summary) -> fmt::Result {
    let done = if s.complete { "complete" } else { "incomplete" };
    write!(f, "explored {done} ")?;
    write_progress(f, &s.progress)?;
    if !s.best.is_empty() {
        f.write_str(" best")?;
        for m in &s.best {
            write!(f, " {m}")?;
        }
    }
    Ok(())
}

fn write_progress(f: &mut fmt::Formatter<'_>, p: &Progress) -> fmt::Result {
    write!(
        f,
        "exact {} of {} nodes {} time {}",
        p.exact,
        p.moves,
        p.nodes,
        p.elapsed.as_millis()
    )
}

fn write_perft(f: &mut fmt::Formatter<'_>, nodes: u64, t: Duration, complete: bool) -> fmt::Result {
    if !complete {
        writeln!(f, "info string perft stopped: the count is partial")?;
    }
    f.write_char('\n')?;
    totals(f, nodes, t)
}

/// Stockfish's three closing lines of `bench` (and here of perft too).
fn totals(f: &mut fmt::Formatter<'_>, nodes: u64, t: Duration) -> fmt::Result {
    write!(
        f,
        "Total time (ms): {}\nNodes searched: {nodes}\nNodes/second: {}",
        t.as_millis(),
        per_second(nodes, t)
    )
}

const HELP: &str = "\
Cheversi engine. Commands (one per line):
  uci | ugi                 identify, list options, answer uciok | ugiok
  isready                   answer readyok (also during a search)
  setoption name N [value V]  options: Hash, Clear Hash, Threads, MultiPV,
                            Move Overhead, TunedEval (true|false),
                            OwnBook (true|false),
                            UCI_Variant (standard|open|original),
                            Debug Log File (a path, or <empty> to stop)
  ucinewgame | uginewgame   forget earlier searches
  position startpos [moves K@d4 ...]
  position fen <board> <side> <last> [moves ...]
  go [depth D] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS]
     [movestogo N] [infinite] [ponder] [searchmoves K@d4 ...]
  go p1time MS p2time MS p1inc MS p2inc MS     (UGI clocks)
  go perft D                count the game tree D plies deep
  explore [movetime MS]     prove every legal move's value (book, then search)
  stop | ponderhit | quit
  query p1turn|gameover|result                 (UGI)
  d        the board, attacks, hands, scores, position string, moves
  eval     points per piece, with the squares that earn them
  moves    the legal placements
  bench [D] a fixed search; prints a deterministic node count
  help     this text
See protocol.md for the details.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_fields_come_in_protocol_order() {
        let line = InfoLine {
            depth: 3,
            seldepth: 4,
            multipv: Some(2),
            score: -150,
            bound: Bound::Lower,
            nodes: 2000,
            hashfull: 7,
            time: Duration::from_millis(500),
            pv: vec!["K@d4".parse().unwrap(), "q@e5".parse().unwrap()],
        };
        assert_eq!(
            line.to_string(),
            "info depth 3 seldepth 4 multipv 2 score cp -150 lowerbound nodes 2000 \
             nps 4000 hashfull 7 time 500 pv K@d4 Q@e5"
        );
    }

    #[test]
    fn live_figures_are_an_info_line_without_score_or_pv() {
        let s = Stats {
            depth: 9,
            nodes: 2_590_000,
            time: Duration::from_millis(2000),
            hashfull: 12,
        };
        assert_eq!(
            Response::Stats(s).to_string(),
            "info depth 9 nodes 2590000 nps 1295000 hashfull 12 time 2000"
        );
    }

    #[test]
    fn user_text_cannot_break_lines() {
        let r = Response::Error("bad\nbestmove K@a1\r\u{0}".into());
        assert_eq!(r.to_string().lines().count(), 1);
    }

    #[test]
    fn answers_and_best_moves() {
        assert_eq!(
            Response::Answer(Answer::Yes(true)).to_string(),
            "response true"
        );
        assert_eq!(
            Response::Answer(Answer::P2Win).to_string(),
            "response p2win"
        );
        assert_eq!(Response::BestMove(None).to_string(), "bestmove (none)");
    }
}
