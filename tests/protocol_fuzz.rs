//! Random bytes and token soup into the parser and a whole session: no
//! panic, and every `isready` before a `quit` is answered.

use cheversi::protocol::command::{Command, parse};
use cheversi::protocol::reader::MAX_LINE;
use proptest::prelude::*;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

const VOCAB: &[&str] = &[
    "uci",
    "ugi",
    "isready",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "MultiPV",
    "Move",
    "Overhead",
    "UCI_Variant",
    "Clear",
    "open",
    "original",
    "standard",
    "ucinewgame",
    "uginewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "8/8/8/8/8/8/8/8",
    "8/8/8/4q3/3K4/8/8/8",
    "w",
    "b",
    "-",
    "e5",
    "K@d4",
    "Q@e5",
    "q@d5",
    "R@c3",
    "B@a1",
    "N@h8",
    "K@z9",
    "@",
    "go",
    "explore",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p1inc",
    "p2inc",
    "movestogo",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "stop",
    "ponderhit",
    "query",
    "p1turn",
    "gameover",
    "result",
    "d",
    "eval",
    "help",
    "bench",
    "0",
    "1",
    "2",
    "-1",
    "99999999999999999999999",
    "x",
    "",
    "\u{0}",
    "é",
    "quit",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => prop::sample::select(VOCAB).prop_map(String::from),
        1 => "[ -~]{0,12}",
        1 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&[" ", " ", " ", "\t", "\n", "\n", "\r\n", "  "][..])
}

fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((word(), separator()), 0..80).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(w, s)| [w, s.to_string()])
            .collect::<String>()
            .into_bytes()
    })
}

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How many `isready` the session must answer: those before any `quit`.
fn expected_readyoks(input: &[u8]) -> usize {
    let mut n = 0;
    for raw in input.split(|&b| b == b'\n') {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let Ok(line) = std::str::from_utf8(raw) else {
            continue;
        };
        if raw.len() > MAX_LINE {
            continue;
        }
        match parse(line) {
            Ok(Some(Command::Quit)) => return n,
            Ok(Some(Command::IsReady)) => n += 1,
            _ => {}
        }
    }
    n
}

fn run_session(mut input: Vec<u8>) {
    input.extend_from_slice(b"\nisready\n");
    let out = Shared::default();
    cheversi::protocol::run(Cursor::new(input.clone()), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).expect("output is UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    let ready = lines.iter().filter(|l| **l == "readyok").count();
    assert_eq!(ready, expected_readyoks(&input), "output: {text}");
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    let gos = input
        .split(|&b| b == b'\n')
        .filter(|l| l.trim_ascii_start().starts_with(b"go"))
        .count();
    assert!(bestmoves <= gos, "{bestmoves} bestmoves for {gos} go lines");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn parser_never_panics_on_token_soup(line in soup()) {
        let line = String::from_utf8(line).unwrap();
        for l in line.lines() {
            if let Err(e) = parse(l) {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn session_survives_token_soup(input in soup()) {
        run_session(input);
    }

    #[test]
    fn session_survives_random_bytes(input in prop::collection::vec(any::<u8>(), 0..600)) {
        run_session(input);
    }
}

#[test]
fn session_answers_after_an_overlong_line() {
    let mut input = vec![b'g'; 10 * MAX_LINE];
    input.extend_from_slice(b"\nisready\n");
    run_session(input);
}
