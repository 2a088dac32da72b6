//! Random bytes and token soup into the CECP grammar and a whole CECP
//! session: no panic, and every `ping` before a `quit` is answered.

use cheversi::protocol::cecp::command::{Command, parse};
use cheversi::protocol::reader::MAX_LINE;
use proptest::prelude::*;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

const VOCAB: &[&str] = &[
    "xboard",
    "protover",
    "2",
    "new",
    "variant",
    "cheversi",
    "cheversi-open",
    "cheversi-original",
    "crazyhouse",
    "force",
    "go",
    "playother",
    "usermove",
    "undo",
    "remove",
    "setboard",
    "8/8/8/8/8/8/8/8[NNBBRRQKnnbbrrqk]",
    "8/8/8/4q3/3K4/8/8/8",
    "w",
    "b",
    "-",
    "0",
    "1",
    "e5",
    "st",
    "sd",
    "level",
    "40",
    "0:05",
    "0.5",
    "time",
    "otim",
    "-5",
    "post",
    "nopost",
    "analyze",
    "exit",
    ".",
    "?",
    "ping",
    "result",
    "1-0",
    "{White",
    ":",
    "Black}",
    "memory",
    "cores",
    "lift",
    "put",
    "hover",
    "j5",
    "_4",
    "j1",
    "i3",
    "K@d4",
    "Q@e5",
    "q@d5",
    "R@c3",
    "B@a1",
    "N@h8",
    "K@z9",
    "@",
    "accepted",
    "hard",
    "quit",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        12 => prop::sample::select(VOCAB).prop_map(String::from),
        1 => "[ -~]{0,12}",
        1 => any::<String>().prop_map(|s| s.chars().take(12).collect()),
    ]
}

fn soup() -> impl Strategy<Value = Vec<u8>> {
    let sep = prop::sample::select(&[" ", " ", " ", "\t", "\n", "\n", "\r\n"][..]);
    prop::collection::vec((word(), sep), 0..80).prop_map(|parts| {
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

/// How many `ping`s the session must answer: those before any `quit`.
fn expected_pongs(input: &[u8]) -> usize {
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
            Ok(Some(Command::Ping(_))) => n += 1,
            _ => {}
        }
    }
    n
}

fn run_session(soup: Vec<u8>) {
    let mut input = b"xboard\nprotover 2\nnew\nvariant cheversi-open\nsd 2\n".to_vec();
    input.extend(soup);
    input.extend_from_slice(b"\nping 424242\n");
    let out = Shared::default();
    cheversi::protocol::run(Cursor::new(input.clone()), out.clone());
    let text = String::from_utf8(out.0.lock().unwrap().clone()).expect("output is UTF-8");
    let pongs = text.lines().filter(|l| l.starts_with("pong")).count();
    assert_eq!(pongs, expected_pongs(&input), "output: {text}");
    assert!(
        !text.contains("bestmove"),
        "UCI text in a CECP session: {text}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parser_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = parse(&String::from_utf8_lossy(&bytes));
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
