//! The grammar: one input line into a typed [`Command`]. Pure: no I/O, no
//! engine state. Legality against a position is checked later by the session.

pub use super::response::clip;
use crate::search::Limits;
use crate::types::Placement;
use nom::bytes::complete::{take_till1, take_while};
use nom::combinator::{map, opt, peek, verify};
use nom::multi::{many0, many1};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use std::fmt;
use std::time::Duration;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify, list the options, `uciok`.
    Uci,
    /// `ugi`: as `uci`, answered `ugiok`.
    Ugi,
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]` (name and value as typed,
    /// runs of spaces collapsed).
    SetOption {
        /// The option's name.
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `ucinewgame` or `uginewgame`.
    NewGame,
    /// `position startpos|fen <board> <side> <last> [moves ...]`.
    Position {
        /// Where the game starts.
        start: Start,
        /// Placements played from there.
        moves: Vec<Placement>,
    },
    /// `go ...`: search.
    Go(Limits),
    /// `explore [movetime MS]`: prove every legal move's value.
    Explore(Option<Duration>),
    /// `go perft <depth>`: count the game tree.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `query p1turn|gameover|result` (UGI).
    Query(Query),
    /// `d`: draw the position.
    Display,
    /// `eval`: points per piece.
    Eval,
    /// `moves`: the legal placements.
    Moves,
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `help`.
    Help,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The empty board of the current variant.
    StartPos,
    /// A position string (three fields, checked by the session).
    Fen(String),
}

/// A UGI question about the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// Is it White's (player 1's) turn?
    P1Turn,
    /// Is the game over?
    GameOver,
    /// Who has won?
    Result,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The first word is not a command.
    Unknown(String),
    /// A command's arguments are wrong.
    Syntax {
        /// The command word.
        command: String,
        /// What the grammar wanted.
        expected: String,
        /// The word found instead (`None`: the line ended).
        found: Option<String>,
    },
    /// A word has the right shape but a wrong value.
    Invalid {
        /// The command word.
        command: String,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Unknown(w) => match hint(w) {
                Some(h) => write!(f, "unknown command '{}' (did you mean '{h}'?)", clip(w)),
                None => write!(f, "unknown command '{}' (try 'help')", clip(w)),
            },
            CommandError::Syntax {
                command,
                expected,
                found: Some(w),
            } => write!(f, "{command}: expected {expected}, found '{}'", clip(w)),
            CommandError::Syntax {
                command, expected, ..
            } => write!(f, "{command}: expected {expected}, but the line ends"),
            CommandError::Invalid { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// The command meant by a word that other engines or tools use for it.
fn hint(w: &str) -> Option<&'static str> {
    match w {
        "perft" | "divide" => Some("go perft <depth>"),
        "exit" => Some("quit"),
        "board" | "show" | "print" => Some("d"),
        "legal" | "movelist" => Some("moves"),
        "UCI" | "Uci" => Some("uci"),
        _ => None,
    }
}

/// Parses one line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let Ok((rest, word)) = token(line) else {
        return Ok(None);
    };
    let fail = |f: Fail| f.into_error(word);
    let (rest, cmd) = match arguments(word, rest) {
        Some(result) => result.map_err(|e| match e {
            nom::Err::Error(f) | nom::Err::Failure(f) => fail(f),
            nom::Err::Incomplete(_) => fail(Fail::expected(rest, "more input")),
        })?,
        None => return Err(CommandError::Unknown(word.to_string())),
    };
    match token(rest) {
        Ok((_, extra)) => Err(fail(Fail::unexpected(extra))),
        Err(_) => Ok(Some(cmd)),
    }
}

/// The parser of a command's arguments, by its word; `None`: no such command.
fn arguments<'a>(word: &str, rest: &'a str) -> Option<Res<'a, Command>> {
    let bare = |c: Command| Ok((rest, c));
    Some(match word {
        "uci" => bare(Command::Uci),
        "ugi" => bare(Command::Ugi),
        "isready" => bare(Command::IsReady),
        "ucinewgame" | "uginewgame" => bare(Command::NewGame),
        "stop" => bare(Command::Stop),
        "ponderhit" => bare(Command::PonderHit),
        "quit" => bare(Command::Quit),
        "d" => bare(Command::Display),
        "eval" => bare(Command::Eval),
        "moves" => bare(Command::Moves),
        "help" => bare(Command::Help),
        "setoption" => setoption(rest),
        "position" => position(rest),
        "go" => go(rest),
        "explore" => explore(rest),
        "query" => query(rest),
        "bench" => map(
            opt(preceded(peek(token), number::<u32>("a depth"))),
            Command::Bench,
        )
        .parse(rest),
        _ => return None,
    })
}

// ---- nom plumbing ----------------------------------------------------------

type Res<'a, T> = IResult<&'a str, T, Fail<'a>>;

/// A grammar failure: where, and what was wanted there.
#[derive(Debug)]
struct Fail<'a> {
    at: &'a str,
    want: Want,
}

#[derive(Debug)]
enum Want {
    /// Whatever nom's combinator wanted (only seen if a parser is not wrapped).
    Nom,
    Expected(String),
    Unexpected,
    Invalid(String),
}

impl<'a> Fail<'a> {
    fn expected(at: &'a str, what: impl Into<String>) -> Fail<'a> {
        Fail {
            at,
            want: Want::Expected(what.into()),
        }
    }

    fn unexpected(at: &'a str) -> Fail<'a> {
        Fail {
            at,
            want: Want::Unexpected,
        }
    }

    fn into_error(self, command: &str) -> CommandError {
        let command = command.to_string();
        let found = token(self.at).ok().map(|(_, w)| w.to_string());
        match self.want {
            Want::Invalid(reason) => CommandError::Invalid { command, reason },
            Want::Unexpected => CommandError::Invalid {
                reason: format!("unexpected '{}'", clip(found.as_deref().unwrap_or(""))),
                command,
            },
            Want::Expected(expected) => CommandError::Syntax {
                command,
                expected,
                found,
            },
            Want::Nom => CommandError::Syntax {
                command,
                expected: "valid arguments".into(),
                found,
            },
        }
    }
}

impl<'a> nom::error::ParseError<&'a str> for Fail<'a> {
    fn from_error_kind(at: &'a str, _: nom::error::ErrorKind) -> Fail<'a> {
        Fail {
            at,
            want: Want::Nom,
        }
    }
    fn append(_: &'a str, _: nom::error::ErrorKind, other: Fail<'a>) -> Fail<'a> {
        other
    }
}

/// Turns a recoverable failure of `p` into a fatal "expected `what`".
fn expect<'a, T>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = T, Error = Fail<'a>>,
) -> impl FnMut(&'a str) -> Res<'a, T> {
    move |i| {
        p.parse(i).map_err(|e| match e {
            nom::Err::Error(_) => nom::Err::Failure(Fail::expected(i, what)),
            other => other,
        })
    }
}

/// One whitespace-separated word.
fn token(i: &str) -> Res<'_, &str> {
    preceded(
        take_while(char::is_whitespace),
        take_till1(char::is_whitespace),
    )
    .parse(i)
}

/// The word `k` exactly.
fn keyword<'a>(k: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Fail<'a>> {
    verify(token, move |w: &str| w == k)
}

/// One or more words, up to (not including) the word `stop`.
fn words_until<'a>(
    stop: &'static str,
) -> impl Parser<&'a str, Output = Vec<&'a str>, Error = Fail<'a>> {
    many1(verify(token, move |w: &str| w != stop))
}

/// A number of type `T`; a missing or unparsable word is fatal.
fn number<'a, T: std::str::FromStr>(what: &'static str) -> impl FnMut(&'a str) -> Res<'a, T> {
    move |i| match token(i) {
        Ok((rest, w)) => match w.parse() {
            Ok(n) => Ok((rest, n)),
            Err(_) => Err(nom::Err::Failure(Fail::expected(i, what))),
        },
        Err(_) => Err(nom::Err::Failure(Fail::expected(i, what))),
    }
}

/// A placement `K@d4`; a word with `@` that does not read is fatal.
fn placement(i: &str) -> Res<'_, Placement> {
    let (rest, w) = verify(token, |w: &str| w.contains('@')).parse(i)?;
    match w.parse() {
        Ok(pl) => Ok((rest, pl)),
        Err(e) => Err(nom::Err::Failure(Fail {
            at: i,
            want: Want::Invalid(format!("{e}")),
        })),
    }
}

// ---- the commands ------------------------------------------------------------

fn setoption(i: &str) -> Res<'_, Command> {
    let (i, _) = expect("'name'", keyword("name")).parse(i)?;
    let (i, name) = expect("an option name", words_until("value")).parse(i)?;
    let (i, value) = opt(preceded(
        keyword("value"),
        expect("a value after 'value'", words_until("")),
    ))
    .parse(i)?;
    Ok((
        i,
        Command::SetOption {
            name: name.join(" "),
            value: value.map(|v| v.join(" ")),
        },
    ))
}

fn position(i: &str) -> Res<'_, Command> {
    let startpos = map(keyword("startpos"), |_| Start::StartPos);
    let fen = preceded(
        keyword("fen"),
        // The fields are counted by `Position::from_fen`, so the protocol and
        // the command line word a wrong count alike.
        expect(
            "a position string '<board> <side> <last>'",
            words_until("moves"),
        ),
    );
    let (i, start) = expect(
        "'startpos' or 'fen'",
        (startpos).or(map(fen, |w| Start::Fen(w.join(" ")))),
    )
    .parse(i)?;
    let (i, moves) = opt(preceded(keyword("moves"), many0(expect_placement))).parse(i)?;
    Ok((
        i,
        Command::Position {
            start,
            moves: moves.unwrap_or_default(),
        },
    ))
}

/// After `moves`, every word must be a placement.
fn expect_placement(i: &str) -> Res<'_, Placement> {
    let (_, w) = token(i)?;
    if w.contains('@') {
        placement(i)
    } else {
        Err(nom::Err::Failure(Fail::expected(
            i,
            "a placement like K@d4",
        )))
    }
}

fn query(i: &str) -> Res<'_, Command> {
    let q = |k, q| map(keyword(k), move |_| Command::Query(q));
    expect(
        "'p1turn', 'gameover' or 'result'",
        q("p1turn", Query::P1Turn)
            .or(q("gameover", Query::GameOver))
            .or(q("result", Query::Result)),
    )
    .parse(i)
}

/// One `go` parameter.
#[derive(Debug)]
enum GoParam {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    Time(usize, i64),
    Inc(usize, i64),
    MovesToGo(u32),
    Infinite,
    Ponder,
    SearchMoves(Vec<Placement>),
}

fn go(i: &str) -> Res<'_, Command> {
    if let Ok((rest, _)) = keyword("perft").parse(i) {
        return map(number("a depth after 'perft'"), Command::Perft).parse(rest);
    }
    let (i, params) = many0(go_param).parse(i)?;
    let mut limits = Limits::default();
    params.into_iter().for_each(|p| apply(&mut limits, p));
    Ok((i, Command::Go(limits)))
}

fn go_param(i: &str) -> Res<'_, GoParam> {
    use GoParam::*;
    let (rest, word) = token(i)?;
    match word {
        "depth" => depth(rest),
        "nodes" => map(number("a node count after 'nodes'"), Nodes).parse(rest),
        "movetime" => map(number("milliseconds after 'movetime'"), MoveTime).parse(rest),
        "wtime" | "p1time" => {
            map(number("milliseconds after the time"), |t| Time(0, t)).parse(rest)
        }
        "btime" | "p2time" => {
            map(number("milliseconds after the time"), |t| Time(1, t)).parse(rest)
        }
        "winc" | "p1inc" => {
            map(number("milliseconds after the increment"), |t| Inc(0, t)).parse(rest)
        }
        "binc" | "p2inc" => {
            map(number("milliseconds after the increment"), |t| Inc(1, t)).parse(rest)
        }
        "movestogo" => map(number("a move count after 'movestogo'"), MovesToGo).parse(rest),
        "infinite" => Ok((rest, Infinite)),
        "ponder" => Ok((rest, Ponder)),
        "searchmoves" => map(
            expect("placements after 'searchmoves'", many1(placement)),
            SearchMoves,
        )
        .parse(rest),
        _ => Err(nom::Err::Error(Fail::unexpected(i))),
    }
}

/// `explore [movetime MS]`.
fn explore(i: &str) -> Res<'_, Command> {
    let budget = preceded(keyword("movetime"), number("milliseconds after 'movetime'"));
    map(opt(budget), |ms: Option<u64>| {
        Command::Explore(ms.map(Duration::from_millis))
    })
    .parse(i)
}

/// `go depth 0` would search nothing: refused rather than taken as 1.
fn depth(i: &str) -> Res<'_, GoParam> {
    let (rest, d) = number("a depth after 'depth'")(i)?;
    if d == 0 {
        return Err(nom::Err::Failure(Fail {
            at: i,
            want: Want::Invalid("depth must be at least 1 ('go depth 0' searches nothing)".into()),
        }));
    }
    Ok((rest, GoParam::Depth(d)))
}

/// Milliseconds from a clock value; GUIs may send negative clocks when late.
fn ms(t: i64) -> Option<Duration> {
    Some(Duration::from_millis(t.max(0) as u64))
}

fn apply(l: &mut Limits, p: GoParam) {
    match p {
        GoParam::Depth(d) => l.depth = Some(d),
        GoParam::Nodes(n) => l.nodes = Some(n),
        GoParam::MoveTime(t) => l.movetime = Some(Duration::from_millis(t)),
        GoParam::Time(side, t) => l.time[side] = ms(t),
        GoParam::Inc(side, t) => l.inc[side] = ms(t),
        GoParam::MovesToGo(n) => l.movestogo = Some(n),
        GoParam::Infinite => l.infinite = true,
        GoParam::Ponder => l.ponder = true,
        GoParam::SearchMoves(m) => l.searchmoves = m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_err().to_string()
    }

    #[test]
    fn bare_commands_and_blank_lines() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready \r"), Command::IsReady);
        assert_eq!(ok("uginewgame"), Command::NewGame);
        assert_eq!(parse("   \t").unwrap(), None);
        assert_eq!(err("uci now"), "uci: unexpected 'now'");
        assert_eq!(err("xyzzy 1"), "unknown command 'xyzzy' (try 'help')");
    }

    #[test]
    fn setoption_names_and_values_keep_their_spaces() {
        assert_eq!(
            ok("setoption name Move  Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(err("setoption Hash 1").contains("expected 'name'"));
        assert!(err("setoption name Hash value").contains("a value after 'value'"));
        assert!(err("setoption name").contains("an option name"));
    }

    #[test]
    fn positions() {
        assert_eq!(
            ok("position startpos moves K@d4 q@e5"),
            Command::Position {
                start: Start::StartPos,
                moves: vec!["K@d4".parse().unwrap(), "Q@e5".parse().unwrap()]
            }
        );
        assert_eq!(
            ok("position fen 8/8/8/4q3/3K4/8/8/8 w e5 moves"),
            Command::Position {
                start: Start::Fen("8/8/8/4q3/3K4/8/8/8 w e5".into()),
                moves: vec![]
            }
        );
        assert!(err("position").contains("'startpos' or 'fen'"));
        assert!(err("position fen moves").contains("a position string"));
        assert!(err("position startpos moves K@z9").contains("not a square"));
        assert!(err("position startpos moves Kd4").contains("a placement like K@d4"));
        assert!(err("position startpos K@d4").contains("unexpected 'K@d4'"));
    }

    #[test]
    fn go_parameters_fill_limits() {
        let Command::Go(l) = ok("go wtime 1000 btime -5 winc 10 binc 20 movestogo 3 depth 4")
        else {
            panic!("not a go")
        };
        assert_eq!(l.time, [ms(1000), ms(0)]);
        assert_eq!(l.inc, [ms(10), ms(20)]);
        assert_eq!((l.depth, l.movestogo), (Some(4), Some(3)));
        let Command::Go(l) = ok("go p1time 7 p2time 8 p1inc 1 p2inc 2") else {
            panic!("not a go")
        };
        assert_eq!((l.time, l.inc), ([ms(7), ms(8)], [ms(1), ms(2)]));
        let Command::Go(l) = ok("go infinite searchmoves K@d4 K@e4 nodes 5") else {
            panic!("not a go")
        };
        assert!(l.infinite && l.searchmoves.len() == 2 && l.nodes == Some(5));
        assert_eq!(ok("go perft 3"), Command::Perft(3));
        assert_eq!(ok("explore"), Command::Explore(None));
        assert_eq!(
            ok("explore movetime 250"),
            Command::Explore(Some(ms(250).unwrap()))
        );
        assert!(err("explore movetime").contains("milliseconds after 'movetime'"));
        assert!(err("explore depth 3").contains("unexpected 'depth'"));
        assert_eq!(ok("go"), Command::Go(Limits::default()));
        assert!(err("go depth x").contains("a depth after 'depth'"));
        assert!(err("go depth").contains("but the line ends"));
        assert!(err("go searchmoves").contains("placements"));
        assert!(err("go mate 3").contains("unexpected 'mate'"));
        assert!(err("go perft 3 depth 2").contains("unexpected 'depth'"));
        assert!(err("go nodes 99999999999999999999999").contains("node count"));
        assert_eq!(
            err("go depth 0"),
            "go: depth must be at least 1 ('go depth 0' searches nothing)"
        );
        assert_eq!(
            err("perft 3"),
            "unknown command 'perft' (did you mean 'go perft <depth>'?)"
        );
    }

    #[test]
    fn queries_and_debug_commands() {
        assert_eq!(ok("query result"), Command::Query(Query::Result));
        assert!(err("query score").contains("'p1turn', 'gameover' or 'result'"));
        assert_eq!(ok("bench"), Command::Bench(None));
        assert_eq!(ok("bench 3"), Command::Bench(Some(3)));
        assert!(err("bench deep").contains("expected a depth"));
        assert!(err("bench 3 4").contains("unexpected '4'"));
    }

    #[test]
    fn long_words_are_clipped_in_errors() {
        let e = err(&"x".repeat(1000));
        assert!(e.len() < 100, "{e}");
    }
}
