//! A stand-in engine for tests of `cheversi-match`: plays random legal
//! placements (deterministic per position and seed), or misbehaves on
//! purpose after `--after N` of its own moves:
//!
//! `fake-engine [--mode MODE] [--after N] [--delay MS] [--seed N] [--pidfile PATH] [--burst-mb N]`
//!
//! MODE: random, crash, hang, flood, illegal, garbage, slow-start, fork-exit
//! (forks a child that keeps stdout open, then exits), deaf (hangs on `go`
//! and ignores the end of its input), burst (`--burst-mb` of long info lines
//! at once), long-line (a line past the runner's cap whose tail reads as a
//! `bestmove`, then a real one).
//!
//! `--delay` is the wait before `uciok` in slow-start mode and the thinking
//! time per move otherwise. `--pidfile` gets the engine's process id (and a
//! forked child's) appended, one a line. Not installed: an example, built by
//! `cargo test`.

use cheversi::{Placement, Position, Variant};
use cheversi_match::rng::SplitMix64;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Random,
    Crash,
    Hang,
    Flood,
    Illegal,
    Garbage,
    SlowStart,
    ForkExit,
    Deaf,
    Burst,
    LongLine,
}

struct Fake {
    mode: Mode,
    after: u32,
    delay: Duration,
    seed: u64,
    variant: Variant,
    pos: Position,
    moves_made: u32,
    pidfile: Option<String>,
    burst_mb: u64,
}

fn main() {
    let mut fake = match parse_args(std::env::args().skip(1).collect()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("fake-engine: {e}");
            std::process::exit(2);
        }
    };
    fake.note_pid(std::process::id());
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !fake.command(&line) {
            return;
        }
    }
    if fake.mode == Mode::Deaf {
        hang();
    }
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(1));
    }
}

fn parse_args(args: Vec<String>) -> Result<Fake, String> {
    let mut f = Fake {
        mode: Mode::Random,
        after: 0,
        delay: Duration::from_millis(0),
        seed: 0,
        variant: Variant::Standard,
        pos: Position::new(Variant::Standard),
        moves_made: 0,
        pidfile: None,
        burst_mb: 300,
    };
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let num = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{flag} {value}: not a number"))
        };
        match flag.as_str() {
            "--mode" => f.mode = parse_mode(&value)?,
            "--after" => f.after = num()? as u32,
            "--delay" => f.delay = Duration::from_millis(num()?),
            "--seed" => f.seed = num()?,
            "--pidfile" => f.pidfile = Some(value.clone()),
            "--burst-mb" => f.burst_mb = num()?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(f)
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    Ok(match s {
        "random" => Mode::Random,
        "crash" => Mode::Crash,
        "hang" => Mode::Hang,
        "flood" => Mode::Flood,
        "illegal" => Mode::Illegal,
        "garbage" => Mode::Garbage,
        "slow-start" => Mode::SlowStart,
        "fork-exit" => Mode::ForkExit,
        "deaf" => Mode::Deaf,
        "burst" => Mode::Burst,
        "long-line" => Mode::LongLine,
        _ => return Err(format!("unknown mode {s}")),
    })
}

fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

impl Fake {
    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                if self.mode == Mode::SlowStart {
                    std::thread::sleep(self.delay);
                    self.delay = Duration::ZERO;
                }
                say("id name fake-engine");
                say(
                    "option name UCI_Variant type combo default standard var standard var open var original",
                );
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => self.setoption(&words),
            Some("position") => self.position(&words),
            Some("go") => self.go(),
            Some("quit") => return false,
            _ => {}
        }
        true
    }

    fn setoption(&mut self, words: &[&str]) {
        if let ["setoption", "name", "UCI_Variant", "value", v] = words {
            self.variant = v.parse().unwrap_or_default();
        }
    }

    fn position(&mut self, words: &[&str]) {
        let (mut pos, rest) = match words.get(1) {
            Some(&"fen") if words.len() >= 5 => {
                let fen = words[2..5].join(" ");
                (
                    Position::from_fen(&fen, self.variant).unwrap_or(Position::new(self.variant)),
                    &words[5..],
                )
            }
            _ => (Position::new(self.variant), &words[2.min(words.len())..]),
        };
        for w in rest.iter().skip_while(|w| **w == "moves") {
            if let Ok(pl) = w.parse::<Placement>() {
                let _ = pos.play_checked(pl);
            }
        }
        self.pos = pos;
    }

    fn go(&mut self) {
        let faulty = self.moves_made >= self.after;
        let first_fault = self.moves_made == self.after;
        self.moves_made += 1;
        match self.mode {
            Mode::Crash if faulty => std::process::exit(3),
            Mode::Hang | Mode::Deaf if faulty => hang(),
            Mode::ForkExit if faulty => self.fork_and_exit(),
            // After its move, while the runner is not reading this engine.
            Mode::Burst if first_fault => {
                self.random_move();
                self.burst();
            }
            Mode::LongLine if faulty => {
                // 12 + 65,524 = 65,536 bytes: a reader that splits at 64 KiB
                // would take the rest for a command.
                say(&format!(
                    "info string {} bestmove {}",
                    "x".repeat(65_524),
                    self.illegal()
                ));
                self.random_move();
            }
            Mode::Flood if faulty => loop {
                say("info string thinking very hard");
            },
            Mode::Illegal if faulty => say(&format!("bestmove {}", self.illegal())),
            Mode::Garbage if faulty => {
                let _ = std::io::stdout().write_all(b"\xff\xfe garbage \x00\n");
                say("bestmove ~~~");
            }
            _ => {
                std::thread::sleep(self.delay);
                self.random_move()
            }
        }
    }

    fn note_pid(&self, pid: u32) {
        if let Some(path) = &self.pidfile {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .expect("pidfile");
            let _ = writeln!(f, "{pid}");
        }
    }

    /// A child that inherits stdout outlives this process.
    fn fork_and_exit(&self) -> ! {
        let child = std::process::Command::new("sleep")
            .arg("600")
            .stdin(std::process::Stdio::null())
            .spawn()
            .expect("sleep starts");
        self.note_pid(child.id());
        std::process::exit(3);
    }

    fn burst(&self) {
        let line = format!("info string {}\n", "y".repeat(60_000));
        let mut out = std::io::stdout().lock();
        for _ in 0..self.burst_mb * 1_000_000 / line.len() as u64 {
            if out.write_all(line.as_bytes()).is_err() {
                return;
            }
        }
        let _ = out.flush();
    }

    fn random_move(&self) {
        let legal = self.pos.legal_moves().to_vec();
        if legal.is_empty() {
            say("bestmove (none)");
            return;
        }
        let mut rng = SplitMix64::new(self.pos.key() ^ self.seed);
        let pl = legal[rng.below(legal.len() as u64) as usize];
        say("info depth 1 score cp 0 nodes 1");
        say(&format!("bestmove {pl}"));
    }

    /// A well-formed placement the rules forbid here.
    fn illegal(&self) -> String {
        let legal = self.pos.legal_moves();
        let letters = ["K", "Q", "R", "B", "N"];
        for sq in cheversi::Square::all() {
            for l in letters {
                if let Ok(pl) = format!("{l}@{sq}").parse::<Placement>()
                    && !legal.contains(pl)
                {
                    return pl.to_string();
                }
            }
        }
        "K@a1".into()
    }
}
