//! The session: reads lines from the input thread's channel, carries out
//! each command against the position and the engine, and answers.

use super::command::{self, Command, Query, Start};
use super::io::QUIT_WAIT;
use super::io::output::Output;
use super::io::reader::{Line, MAX_LINE};
use super::options::{self, Change};
use super::response::view::View;
use super::response::{Answer, Response};
use crate::engine::{Busy, Engine, Sink};
use crate::position::Position;
use crate::search::{Limits, Options, bench};
use crate::types::{Color, Placement};
use crate::variant::Variant;
use std::sync::Arc;
use std::sync::mpsc::Receiver;

/// The deepest `bench` the session runs (it blocks the session meanwhile).
pub const MAX_BENCH_DEPTH: u32 = 6;

/// Runs the UCI/UGI protocol until `quit` or the end of `lines`, starting
/// with `first` (the line that chose this protocol, if any).
pub fn run(first: Option<Line>, lines: Receiver<Line>, out: Output) {
    let mut session = Session::new(out);
    for line in first.into_iter().chain(lines) {
        if !session.line(line) {
            break;
        }
    }
    session.engine.quit(QUIT_WAIT);
}

/// The state of one conversation.
struct Session {
    out: Output,
    engine: Engine,
    pos: Position,
}

fn busy(_: Busy) -> String {
    "a search is running; send 'stop' first".into()
}

impl Session {
    fn new(out: Output) -> Session {
        let sink_out = out.clone();
        let sink: Sink = Arc::new(move |r| sink_out.send(&Response::from_report(r)));
        Session {
            out,
            engine: Engine::new(Options::default(), sink),
            pos: Position::new(Variant::Standard),
        }
    }

    fn say(&self, r: Response) -> Result<(), String> {
        self.out.send(&[r]);
        Ok(())
    }

    /// Handles one line; false means quit.
    fn line(&mut self, line: Line) -> bool {
        let result = match line {
            Line::Text(text) => {
                log::debug!("< {text}");
                self.out.received(&text);
                match command::parse(&text) {
                    Ok(Some(Command::Quit)) => return false,
                    Ok(Some(c)) => self.command(c),
                    Ok(None) => Ok(()),
                    Err(e) => Err(e.to_string()),
                }
            }
            Line::TooLong(n) => Err(format!(
                "line of {n} bytes ignored: the limit is {MAX_LINE}"
            )),
            Line::NotUtf8 => Err("line ignored: it is not UTF-8 text".into()),
        };
        if let Err(e) = result {
            self.out.send(&[Response::Error(e)]);
        }
        true
    }

    fn command(&mut self, c: Command) -> Result<(), String> {
        match c {
            Command::Uci => self.hello(Response::UciOk),
            Command::Ugi => self.hello(Response::UgiOk),
            Command::IsReady => self.say(Response::ReadyOk),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.engine.clear().map_err(busy),
            Command::Position { start, moves } => self.position(start, &moves),
            Command::Go(limits) => self.go(limits),
            Command::Explore(budget) => self.engine.explore(&self.pos, budget).map_err(busy),
            Command::Perft(depth) => self.engine.perft(&self.pos, depth).map_err(busy),
            Command::Stop => {
                self.engine.stop();
                Ok(())
            }
            Command::PonderHit => {
                self.engine.ponderhit();
                Ok(())
            }
            Command::Quit => Ok(()),
            Command::Query(q) => self.say(Response::Answer(answer(&self.pos, q))),
            Command::Display => self.say(Response::Board(Box::new(View::of(&self.pos)))),
            Command::Eval => self.say(Response::Eval(Box::new(View::of(&self.pos)))),
            Command::Moves => self.say(Response::Moves(self.pos.legal_moves().to_vec())),
            Command::Bench(depth) => self.bench(depth.unwrap_or(5)),
            Command::Help => self.say(Response::Help),
        }
    }

    fn hello(&self, ok: Response) -> Result<(), String> {
        self.out
            .send(&[Response::Id, Response::Options(options::specs()), ok]);
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let change = options::change(name, value, self.engine.options())
            .map_err(|e| format!("setoption: {e}"))?;
        match change {
            Change::Search(o) => self.engine.set_options(o).map_err(busy),
            Change::ClearHash => self.engine.clear().map_err(busy),
            Change::Variant(v) => {
                self.pos = Position::new(v);
                Ok(())
            }
            Change::DebugLog(path) => self.out.set_log(path.as_deref()).map_err(|e| {
                let path = command::clip(path.as_deref().unwrap_or_default());
                format!("setoption: cannot open the debug log file '{path}': {e}")
            }),
        }
    }

    /// Builds the new position aside, so an error leaves the old one.
    fn position(&mut self, start: Start, moves: &[Placement]) -> Result<(), String> {
        let variant = self.pos.variant();
        let mut pos = match start {
            Start::StartPos => Position::new(variant),
            Start::Fen(f) => {
                Position::from_fen(&f, variant).map_err(|e| format!("position: {e}"))?
            }
        };
        for (i, &m) in moves.iter().enumerate() {
            pos.play_checked(m)
                .map_err(|e| format!("position: move {} ({m}): {e}", i + 1))?;
        }
        self.pos = pos;
        Ok(())
    }

    fn go(&mut self, limits: Limits) -> Result<(), String> {
        if let Some(m) = limits
            .searchmoves
            .iter()
            .find(|&&m| self.pos.check(m).is_err())
        {
            let why = self.pos.check(*m).err().map(|e| e.to_string());
            return Err(format!("go: searchmoves: {}", why.unwrap_or_default()));
        }
        self.engine.go(&self.pos, limits).map_err(busy)
    }

    fn bench(&mut self, depth: u32) -> Result<(), String> {
        if depth == 0 || depth > MAX_BENCH_DEPTH {
            return Err(format!("bench: depth must be 1 to {MAX_BENCH_DEPTH}"));
        }
        if self.engine.is_busy() {
            return Err(busy(Busy));
        }
        let r = bench::run(depth);
        self.say(Response::Bench {
            nodes: r.nodes,
            elapsed: r.elapsed,
        })
    }
}

/// The UGI answer about `pos` (player 1 is White).
fn answer(pos: &Position, q: Query) -> Answer {
    let (white, black) = (pos.points(Color::White), pos.points(Color::Black));
    match q {
        Query::P1Turn => Answer::Yes(pos.side_to_move() == Color::White),
        Query::GameOver => Answer::Yes(pos.is_over()),
        Query::Result if !pos.is_over() => Answer::NoResult,
        Query::Result if white > black => Answer::P1Win,
        Query::Result if white < black => Answer::P2Win,
        Query::Result => Answer::Draw,
    }
}
