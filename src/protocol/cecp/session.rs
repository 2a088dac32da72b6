//! The CECP state machine: which side the engine plays (none in force
//! mode), whether it analyses, the game and the clock. Input lines and the
//! engine's reports arrive on one channel, so the game is only ever changed
//! here, on the session's thread.

use super::command::{self, Command, CommandError};
use super::game::{Clock, Game};
use super::response::{Response, Thinking};
use super::setup;
use crate::engine::{Engine, Finish, Report, Sink};
use crate::protocol::io::output::Output;
use crate::protocol::io::reader::{Line, MAX_LINE};
use crate::protocol::io::{MAX_THREADS, QUIT_WAIT, max_hash_mb};
use crate::search::{Event, Info, Limits, Options};
use crate::types::{Color, Placement};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;

/// What arrives at the session.
enum Msg {
    Line(Line),
    /// An engine report, with the number of the search that sent it.
    Report(u64, Report),
    /// The input has ended.
    End,
}

/// Runs CECP on `lines` (the `xboard` line already read) until `quit` or
/// the end of input.
pub fn run(lines: Receiver<Line>, out: Output) {
    let (tx, rx) = channel();
    let mut session = Session::new(out, tx.clone());
    let forward = thread::Builder::new()
        .name("cecp-input".into())
        .spawn(move || {
            for l in lines {
                if tx.send(Msg::Line(l)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Msg::End);
        });
    if let Err(e) = forward {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    for msg in rx {
        match msg {
            Msg::Line(l) => {
                if !session.line(l) {
                    break;
                }
            }
            Msg::Report(search, r) => session.report(search, r),
            Msg::End => break,
        }
    }
    session.engine.quit(QUIT_WAIT);
}

/// Why the engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// To move: its result is played.
    Play,
    /// Analysis: until `exit` or a new position.
    Analyze,
}

struct Session {
    out: Output,
    engine: Engine,
    /// The number of the current search; reports of older ones are stale.
    search: Arc<AtomicU64>,
    purpose: Option<Purpose>,
    /// `None` until `variant` names one of ours (CECP starts in chess).
    game: Option<Game>,
    /// The side the engine plays; `None` in force mode.
    plays: Option<Color>,
    analyzing: bool,
    /// Has XBoard said `computer` since `new`: is the opponent an engine?
    against_engine: bool,
    post: bool,
    clock: Clock,
    last: Option<Info>,
}

/// The error of a command, as the session reports it.
enum Fault {
    /// `Error (REASON): COMMAND`.
    Error(String),
    /// `Illegal move (REASON): MOVE`.
    Illegal(Placement, String),
}

type Done = Result<(), Fault>;

fn error(reason: impl Into<String>) -> Fault {
    Fault::Error(reason.into())
}

const NO_VARIANT: &str = "no Cheversi variant chosen: send 'variant cheversi' first";

impl Session {
    fn new(out: Output, tx: Sender<Msg>) -> Session {
        let search = Arc::new(AtomicU64::new(0));
        let number = search.clone();
        let sink: Sink = Arc::new(move |r| {
            let _ = tx.send(Msg::Report(number.load(Ordering::SeqCst), r));
        });
        Session {
            out,
            engine: Engine::new(Options::default(), sink),
            search,
            purpose: None,
            game: None,
            plays: Some(Color::Black),
            analyzing: false,
            against_engine: false,
            post: false,
            clock: Clock::default(),
            last: None,
        }
    }

    fn say(&self, r: Response) {
        self.out.send(&[r]);
    }

    fn answer(&self, r: Response) -> Done {
        self.say(r);
        Ok(())
    }

    /// Handles one line; false means quit.
    fn line(&mut self, line: Line) -> bool {
        let text = match line {
            Line::Text(t) => t,
            Line::TooLong(n) => {
                let reason = format!("line of {n} bytes ignored: the limit is {MAX_LINE}");
                self.say(Response::Error {
                    reason,
                    command: String::new(),
                });
                return true;
            }
            Line::NotUtf8 => {
                let reason = "line ignored: it is not UTF-8 text".to_string();
                self.say(Response::Error {
                    reason,
                    command: String::new(),
                });
                return true;
            }
        };
        log::debug!("< {text}");
        self.out.received(&text);
        let result = match command::parse(&text) {
            Ok(Some(Command::Quit)) => return false,
            Ok(Some(c)) => self.command(c),
            Ok(None) => Ok(()),
            Err(CommandError::Unknown(w)) => {
                let reason = "unknown command".into();
                self.say(Response::Error { reason, command: w });
                Ok(())
            }
            Err(CommandError::Bad(reason)) => Err(Fault::Error(reason)),
            Err(CommandError::BadMove { mv, reason }) => {
                self.say(Response::IllegalMove { reason, mv });
                Ok(())
            }
        };
        match result {
            Ok(()) => {}
            Err(Fault::Error(reason)) => {
                let command = text.trim().to_string();
                self.say(Response::Error { reason, command });
            }
            Err(Fault::Illegal(mv, reason)) => self.say(Response::IllegalMove {
                reason,
                mv: mv.to_string(),
            }),
        }
        true
    }

    fn command(&mut self, c: Command) -> Done {
        match c {
            Command::Xboard | Command::Put | Command::Ignored => Ok(()),
            Command::Protover(_) => self.answer(Response::Features),
            Command::New => self.new_game(),
            Command::Computer => {
                self.against_engine = true;
                Ok(())
            }
            Command::Variant(name) => self.variant(&name),
            Command::Force => {
                self.halt();
                self.plays = None;
                Ok(())
            }
            Command::Go => {
                self.halt();
                self.plays = Some(self.game()?.pos().side_to_move());
                self.think()
            }
            Command::PlayOther => {
                self.plays = Some(self.game()?.pos().side_to_move().flip());
                Ok(())
            }
            Command::UserMove(m) => self.user_move(m),
            Command::Undo => self.take_back(1),
            Command::Remove => self.take_back(2),
            Command::SetBoard(fen) => self.set_board(&fen),
            Command::St(t) => {
                self.clock.per_move = Some(t);
                Ok(())
            }
            Command::Sd(d) => {
                self.clock.depth = Some(d);
                Ok(())
            }
            Command::Level(l) => {
                self.clock.level = Some(l);
                self.clock.per_move = None;
                Ok(())
            }
            Command::Time(n) => {
                self.clock.own = Some(Clock::centis(n));
                Ok(())
            }
            Command::Otim(n) => {
                self.clock.opponent = Some(Clock::centis(n));
                Ok(())
            }
            Command::Post | Command::NoPost => {
                self.post = c == Command::Post;
                Ok(())
            }
            Command::Analyze => {
                self.halt();
                self.game()?;
                self.analyzing = true;
                self.think()
            }
            Command::Exit => {
                self.halt();
                self.analyzing = false;
                Ok(())
            }
            Command::Status => {
                if let (true, Some(i), Some(g)) = (self.analyzing, &self.last, &self.game) {
                    let moves = g.pos().legal_moves().count();
                    self.say(Response::Status {
                        last: thinking(i),
                        moves,
                    });
                }
                Ok(())
            }
            Command::MoveNow => {
                if self.purpose == Some(Purpose::Play) {
                    self.engine.stop();
                }
                Ok(())
            }
            Command::Ping(n) => self.answer(Response::Pong(n)),
            Command::Result(_) => {
                self.halt();
                self.plays = None;
                Ok(())
            }
            Command::Memory(mb) => self.set_options(|o| o.hash_mb = mb, "memory", mb),
            Command::Cores(n) => self.set_options(|o| o.threads = n, "cores", n),
            Command::Lift(spot) => {
                let marked = match &self.game {
                    Some(g) => setup::targets(g.pos(), spot),
                    None => crate::bitboard::Bitboard::EMPTY,
                };
                self.answer(Response::Highlight(marked))
            }
            Command::Quit => Ok(()),
        }
    }

    fn game(&self) -> Result<&Game, Fault> {
        self.game.as_ref().ok_or_else(|| error(NO_VARIANT))
    }

    /// Stops any search; its result, if it comes, is ignored.
    fn halt(&mut self) {
        self.engine.stop();
        self.search.fetch_add(1, Ordering::SeqCst);
        self.purpose = None;
    }

    fn new_game(&mut self) -> Done {
        self.halt();
        self.game = None;
        self.plays = Some(Color::Black);
        self.analyzing = false;
        self.against_engine = false;
        self.clock.depth = None;
        self.engine.clear().map_err(|_| error("the engine is busy"))
    }

    fn variant(&mut self, name: &str) -> Done {
        let v = setup::variant_named(name).ok_or_else(|| error("unknown variant"))?;
        self.halt();
        self.game = Some(Game::new(crate::position::Position::new(v)));
        self.say(Response::Setup(v));
        Ok(())
    }

    fn user_move(&mut self, m: Placement) -> Done {
        let Some(game) = &self.game else {
            return Err(Fault::Illegal(m, NO_VARIANT.into()));
        };
        if let Err(e) = game.pos().check(m) {
            return Err(Fault::Illegal(m, e.to_string()));
        }
        self.halt();
        if let Some(g) = self.game.as_mut() {
            g.play(m).map_err(|e| Fault::Illegal(m, e.to_string()))?;
        }
        self.after_move()
    }

    /// After a placement: claim the end, or search if it is our turn.
    fn after_move(&mut self) -> Done {
        let Some(g) = &self.game else { return Ok(()) };
        let pos = g.pos();
        if pos.is_over() {
            if self.plays.is_some() && !self.analyzing {
                let (white, black) = (pos.points(Color::White), pos.points(Color::Black));
                // XBoard forfeits an engine's draw claim between two
                // engines (`-testClaims`, its default) unless it saw the
                // draw itself, which it cannot here: both offer instead.
                if white == black && self.against_engine {
                    self.say(Response::OfferDraw);
                } else {
                    self.say(Response::GameOver { white, black });
                }
            }
            return Ok(());
        }
        if self.analyzing || self.plays == Some(pos.side_to_move()) {
            return self.think();
        }
        Ok(())
    }

    fn take_back(&mut self, n: usize) -> Done {
        self.halt();
        let game = self.game.as_mut().ok_or_else(|| error(NO_VARIANT))?;
        if !game.take_back(n) {
            return Err(error("not that many placements to take back"));
        }
        if self.analyzing {
            self.think()?;
        }
        Ok(())
    }

    fn set_board(&mut self, fen: &str) -> Done {
        let variant = self.game()?.pos().variant();
        let pos =
            setup::read_position(fen, variant).map_err(|e| error(format!("bad position: {e}")))?;
        self.halt();
        self.game = Some(Game::new(pos));
        if self.analyzing {
            self.think()?;
        }
        Ok(())
    }

    fn set_options(&mut self, change: impl Fn(&mut Options), what: &str, n: usize) -> Done {
        let mut o = self.engine.options().clone();
        change(&mut o);
        let (max_hash, max_threads) = (max_hash_mb() as usize, MAX_THREADS as usize);
        if !(1..=max_hash).contains(&o.hash_mb) || !(1..=max_threads).contains(&o.threads) {
            return Err(error(format!(
                "{what} {n} is out of range (memory 1..={max_hash}, cores 1..={max_threads})"
            )));
        }
        self.halt();
        self.engine
            .set_options(o)
            .map_err(|_| error("the engine is busy"))
    }

    /// Starts the search the state asks for: analysis, or our move.
    fn think(&mut self) -> Done {
        let Some(g) = &self.game else {
            return Err(error(NO_VARIANT));
        };
        let pos = g.pos().clone();
        if pos.is_over() {
            return self.after_move();
        }
        let (purpose, limits) = if self.analyzing {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            (Purpose::Analyze, limits)
        } else {
            (Purpose::Play, self.clock.limits(&pos, pos.side_to_move()))
        };
        self.search.fetch_add(1, Ordering::SeqCst);
        self.last = None;
        self.engine
            .go(&pos, limits)
            .map_err(|_| error("the engine is busy"))?;
        self.purpose = Some(purpose);
        Ok(())
    }

    /// A report of the engine: thinking output, or the end of a search.
    fn report(&mut self, search: u64, r: Report) {
        if search != self.search.load(Ordering::SeqCst) {
            return;
        }
        match r {
            Report::Event {
                event: Event::Info(i),
                ..
            } => {
                if i.multipv == 1 && (self.post || self.analyzing) {
                    self.say(Response::Thinking(thinking(&i)));
                }
                self.last = Some(i);
            }
            Report::Event {
                event: Event::Message(m),
                ..
            } => self.say(Response::Comment(m)),
            // CECP has no unasked periodic line: the live figures go into
            // the answer to `.` (stat01), once a depth has been reported.
            Report::Event {
                event: Event::Stats(s),
                ..
            } => {
                if let Some(last) = &mut self.last {
                    (last.depth, last.nodes, last.time) = (s.depth, s.nodes, s.time);
                }
            }
            Report::Finished(f) => self.finished(&f),
            // Perft and explore: CECP starts neither.
            _ => {}
        }
    }

    fn finished(&mut self, f: &Finish) {
        if self.purpose.take() != Some(Purpose::Play) {
            return;
        }
        let (Some(m), Some(g)) = (f.best, self.game.as_mut()) else {
            return;
        };
        if let Err(e) = g.play(m) {
            log::error!("the search chose an illegal move {m}: {e}");
            return;
        }
        self.say(Response::Move(m));
        if let Err(Fault::Error(e)) = self.after_move() {
            self.say(Response::Comment(e));
        }
    }
}

fn thinking(i: &Info) -> Thinking {
    Thinking {
        depth: i.depth,
        score: i.score,
        time: i.time,
        nodes: i.nodes,
        pv: i.pv.clone(),
    }
}
