//! The CECP grammar: one input line into a typed [`Command`]. Pure: no I/O,
//! no engine state (legality is checked by the session).

use super::setup::{Spot, spot};
use crate::protocol::response::clip;
use crate::types::Placement;
use nom::bytes::complete::{take_till1, take_while};
use nom::combinator::{opt, rest};
use nom::sequence::preceded;
use nom::{IResult, Parser};
use std::time::Duration;

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `xboard` (again; the first one chose this protocol).
    Xboard,
    /// `protover N`: answered with the features.
    Protover(u32),
    /// `new`: a new game, the engine plays Black; the variant is chess
    /// until a `variant` command names one of ours.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: play no side.
    Force,
    /// `go`: play the side to move, and move now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `usermove M`, or a bare placement: the opponent's move.
    UserMove(Placement),
    /// `undo`: take back one placement.
    Undo,
    /// `remove`: take back two.
    Remove,
    /// `setboard FEN`.
    SetBoard(String),
    /// `st S`: seconds per move.
    St(Duration),
    /// `sd D`: a depth limit.
    Sd(u32),
    /// `level MPS BASE INC`.
    Level(Level),
    /// `time N`: the engine's clock, in centiseconds.
    Time(i64),
    /// `otim N`: the opponent's clock, in centiseconds.
    Otim(i64),
    /// `post`: print thinking.
    Post,
    /// `nopost`.
    NoPost,
    /// `analyze`: search the position until `exit`.
    Analyze,
    /// `exit`: leave analysis.
    Exit,
    /// `.`: a status line during analysis.
    Status,
    /// `?`: move now.
    MoveNow,
    /// `ping N`: answered `pong N`.
    Ping(String),
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `memory MB`: the table size.
    Memory(usize),
    /// `cores N`: search threads.
    Cores(usize),
    /// `lift SQUARE`: the user picked up a piece (answered with `highlight`).
    Lift(Spot),
    /// `put SQUARE` or `hover SQUARE`: nothing to say.
    Put,
    /// `quit`.
    Quit,
    /// `computer`: the opponent is an engine too (until `new`).
    Computer,
    /// A command that needs nothing of this engine (`accepted`, `random`,
    /// `hard`, `name`...).
    Ignored,
}

/// A `level` time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per control (0: the whole game).
    pub moves: u32,
    /// Time for the control.
    pub base: Duration,
    /// Added per move.
    pub inc: Duration,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// `Error (unknown command): WORD`.
    Unknown(String),
    /// `Error (REASON): LINE`.
    Bad(String),
    /// `Illegal move (REASON): MOVE`: a `usermove` that does not read.
    BadMove {
        /// The word sent as a move.
        mv: String,
        /// Why it is not a placement.
        reason: String,
    },
}

type Res<'a, T> = IResult<&'a str, T>;

/// One whitespace-separated word.
fn token(i: &str) -> Res<'_, &str> {
    preceded(
        take_while(char::is_whitespace),
        take_till1(char::is_whitespace),
    )
    .parse(i)
}

/// Parses one line. `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let Ok((args, word)) = token(line) else {
        return Ok(None);
    };
    let args = args.trim();
    let bare = |c: Command| -> Result<Command, CommandError> {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(CommandError::Bad(format!("{word} takes no arguments")))
        }
    };
    match word {
        "xboard" => Ok(Command::Xboard),
        "new" => bare(Command::New),
        "force" => bare(Command::Force),
        "go" => bare(Command::Go),
        "playother" => bare(Command::PlayOther),
        "undo" => bare(Command::Undo),
        "remove" => bare(Command::Remove),
        "post" => bare(Command::Post),
        "nopost" => bare(Command::NoPost),
        "analyze" => bare(Command::Analyze),
        "exit" => bare(Command::Exit),
        "." => bare(Command::Status),
        "?" => bare(Command::MoveNow),
        "quit" => Ok(Command::Quit),
        "protover" => number(word, args, "a version").map(Command::Protover),
        "variant" => one_word(word, args).map(|w| Command::Variant(w.to_string())),
        "usermove" => match one_word(word, args) {
            Ok(mv) => placement(mv).map(Command::UserMove),
            Err(e) => Err(e),
        },
        "setboard" if args.is_empty() => Err(CommandError::Bad("setboard needs a position".into())),
        "setboard" => Ok(Command::SetBoard(args.to_string())),
        "st" => seconds(word, args).map(Command::St),
        "sd" => number(word, args, "a depth").and_then(|d: u32| match d {
            0 => Err(CommandError::Bad("sd must be at least 1".into())),
            d => Ok(Command::Sd(d)),
        }),
        "level" => level(args).map(Command::Level),
        "time" => number(word, args, "centiseconds").map(Command::Time),
        "otim" => number(word, args, "centiseconds").map(Command::Otim),
        "ping" => Ok(Command::Ping(args.to_string())),
        "result" => Ok(Command::Result(args.to_string())),
        "memory" => number(word, args, "a size in MB").map(Command::Memory),
        "cores" => number(word, args, "a number of threads").map(Command::Cores),
        "lift" => one_word(word, args).map(|w| Command::Lift(spot(w))),
        "put" | "hover" => one_word(word, args).map(|_| Command::Put),
        "computer" => Ok(Command::Computer),
        "accepted" | "rejected" | "random" | "hard" | "easy" | "name" | "rating" | "ics"
        | "draw" | "hint" | "bk" | "white" | "black" | "pause" | "resume" | "option"
        | "egtpath" | "nps" | "setscore" => Ok(Command::Ignored),
        w if w.contains('@') && args.is_empty() => placement(w).map(Command::UserMove),
        w => Err(CommandError::Unknown(w.to_string())),
    }
    .map(Some)
}

fn one_word<'a>(command: &str, args: &'a str) -> Result<&'a str, CommandError> {
    let mut words = args.split_whitespace();
    match (words.next(), words.next()) {
        (Some(w), None) => Ok(w),
        (None, _) => Err(CommandError::Bad(format!("{command} needs an argument"))),
        (Some(_), Some(extra)) => Err(CommandError::Bad(format!(
            "{command} takes one argument, not '{}'",
            clip(extra)
        ))),
    }
}

fn number<T: std::str::FromStr>(command: &str, args: &str, what: &str) -> Result<T, CommandError> {
    let w = one_word(command, args)?;
    w.parse()
        .map_err(|_| CommandError::Bad(format!("{command} needs {what}, not '{}'", clip(w))))
}

fn placement(w: &str) -> Result<Placement, CommandError> {
    w.parse()
        .map_err(|e: crate::types::NotationError| CommandError::BadMove {
            mv: w.to_string(),
            reason: e.to_string(),
        })
}

/// Non-negative seconds, whole or not.
fn seconds(command: &str, args: &str) -> Result<Duration, CommandError> {
    let s: f64 = number(command, args, "seconds")?;
    Duration::try_from_secs_f64(s)
        .map_err(|_| CommandError::Bad(format!("{command} needs seconds from 0, not '{args}'")))
}

/// `MPS BASE INC`: BASE in minutes or `MIN:SEC`, INC in seconds.
fn level(args: &str) -> Result<Level, CommandError> {
    let bad = || {
        CommandError::Bad(format!(
            "level needs 'MOVES MINUTES[:SECONDS] INCREMENT', not '{}'",
            clip(args)
        ))
    };
    let parsed: Res<'_, (&str, &str, &str, Option<&str>)> =
        (token, token, token, opt(rest)).parse(args);
    let Ok((_, (moves, base, inc, extra))) = parsed else {
        return Err(bad());
    };
    if extra.is_some_and(|e| !e.trim().is_empty()) {
        return Err(bad());
    }
    let (min, sec) = base.split_once(':').unwrap_or((base, "0"));
    let moves: u32 = moves.parse().map_err(|_| bad())?;
    let (min, sec): (u64, u64) = (
        min.parse().map_err(|_| bad())?,
        sec.parse().map_err(|_| bad())?,
    );
    let inc: f64 = inc.parse().map_err(|_| bad())?;
    let inc = Duration::try_from_secs_f64(inc).map_err(|_| bad())?;
    Ok(Level {
        moves,
        base: Duration::from_secs(min * 60 + sec),
        inc,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Color, Piece};

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn the_commands_xboard_sends() {
        assert_eq!(ok("protover 2"), Command::Protover(2));
        assert_eq!(ok("variant cheversi"), Command::Variant("cheversi".into()));
        assert_eq!(
            ok("usermove K@d4"),
            Command::UserMove("K@d4".parse().unwrap())
        );
        assert_eq!(ok("q@e5"), Command::UserMove("Q@e5".parse().unwrap()));
        assert_eq!(
            ok("level 40 5 0"),
            Command::Level(Level {
                moves: 40,
                base: Duration::from_secs(300),
                inc: Duration::ZERO
            })
        );
        assert_eq!(
            ok("level 0 0:30 0.5"),
            Command::Level(Level {
                moves: 0,
                base: Duration::from_secs(30),
                inc: Duration::from_millis(500)
            })
        );
        assert_eq!(ok("st 2"), Command::St(Duration::from_secs(2)));
        assert_eq!(ok("time -5"), Command::Time(-5));
        assert_eq!(ok("ping 7"), Command::Ping("7".into()));
        assert_eq!(
            ok("lift j5"),
            Command::Lift(Spot::Hand(Color::White, Piece::King))
        );
        assert_eq!(
            ok("result 0-1 {White 43 : 44 Black}"),
            Command::Result("0-1 {White 43 : 44 Black}".into())
        );
        assert_eq!(ok("accepted usermove"), Command::Ignored);
        assert_eq!(ok("."), Command::Status);
        assert_eq!(parse("   ").unwrap(), None);
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(parse("xyzzy"), Err(CommandError::Unknown("xyzzy".into())));
        assert!(matches!(
            parse("usermove Z@d4"),
            Err(CommandError::BadMove { .. })
        ));
        assert!(matches!(parse("level 40 x 0"), Err(CommandError::Bad(_))));
        assert!(matches!(parse("level 40 5"), Err(CommandError::Bad(_))));
        assert!(matches!(parse("sd 0"), Err(CommandError::Bad(_))));
        assert!(matches!(parse("st -1"), Err(CommandError::Bad(_))));
        assert!(matches!(parse("go now"), Err(CommandError::Bad(_))));
        assert!(matches!(parse("setboard"), Err(CommandError::Bad(_))));
        assert!(matches!(parse("memory lots"), Err(CommandError::Bad(_))));
    }
}
