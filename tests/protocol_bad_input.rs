//! Every class of bad input gets one `info string error: ...` and the
//! engine goes on (checked with `isready` after each).

mod protocol_support;

use protocol_support::Engine;

#[test]
fn every_bad_command_gets_one_error_line() {
    let mut e = Engine::start();
    for (line, why) in [
        ("xyzzy", "unknown command 'xyzzy'"),
        ("UCI", "unknown command 'UCI'"),
        ("uci please", "unexpected 'please'"),
        ("isready now", "unexpected 'now'"),
        ("setoption", "expected 'name'"),
        ("setoption value 3", "expected 'name'"),
        ("setoption name", "an option name"),
        ("setoption name Hash value", "a value after 'value'"),
        ("go depth", "but the line ends"),
        ("go depth -1", "a depth after 'depth'"),
        ("go nodes lots", "a node count"),
        ("go movetime 1.5", "milliseconds"),
        ("go wtime x", "milliseconds"),
        ("go mate 2", "unexpected 'mate'"),
        ("go searchmoves", "placements after 'searchmoves'"),
        ("go searchmoves K@i9", "not a square"),
        ("go perft", "a depth after 'perft'"),
        ("go perft 2 depth 3", "unexpected 'depth'"),
        ("query", "'p1turn', 'gameover' or 'result'"),
        ("query result now", "unexpected 'now'"),
        ("bench 0", "depth must be"),
        ("bench x", "expected a depth"),
        ("position fen", "a position string"),
        ("position startpos moves Kd4", "a placement like K@d4"),
        ("position startpos K@d4", "unexpected 'K@d4'"),
    ] {
        e.expect_error(line, why);
    }
}

#[test]
fn long_binary_and_odd_lines_do_not_break_the_session() {
    let mut e = Engine::start();
    // A megabyte on one line: refused whole, memory stays bounded.
    let mut long = vec![b'a'; 1 << 20];
    long.push(b'\n');
    e.send_bytes(&long);
    e.send("isready");
    let got = e.until("readyok");
    assert_eq!(got.len(), 2, "{:?}", &got[..got.len().min(3)]);
    assert!(got[0].starts_with("info string error: line of") && got[0].contains("limit"));
    // Not UTF-8.
    e.send_bytes(b"\xff\xfe\x00\x80 go\n");
    e.send("isready");
    let got = e.until("readyok");
    assert_eq!(
        got,
        [
            "info string error: line ignored: it is not UTF-8 text",
            "readyok"
        ]
    );
    // Control characters are escaped in the echo, so one error stays one line.
    e.send_bytes(b"\x00\x1b[2J\x07bestmove\n");
    e.send("isready");
    let got = e.until("readyok");
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got[0].starts_with("info string error: unknown command '\\u{0}"),
        "{got:?}"
    );
    // CRLF line ends, tabs and spaces around words, blank lines: all fine.
    e.send_bytes(b"\r\n  \t \r\nposition\tstartpos   moves  K@d4 \r\nisready\r\n");
    assert_eq!(e.until("readyok"), ["readyok"]);
    assert_eq!(e.fen(), "8/8/8/8/3K4/8/8/8 b d4");
    // A long but legal-length word is clipped in the echo.
    let word = "w".repeat(4000);
    e.expect_error(&word, "unknown command 'wwww");
    let got = e.ask(&word);
    assert!(got[0].len() < 120, "{}", got[0].len());
}

#[test]
fn the_line_limit_counts_no_line_end() {
    // Issue 23, E2: 4096 bytes and CRLF is a line; the count of a longer
    // one leaves its line end out.
    let mut e = Engine::start();
    let go = format!("go depth 1{}", " ".repeat(4096 - 10));
    e.send_bytes(format!("position startpos\r\n{go}\r\n").as_bytes());
    assert!(e.until("bestmove").iter().all(|l| !l.contains("error")));
    for end in ["\n", "\r\n"] {
        e.send_bytes(format!("{}{end}", "x".repeat(5000)).as_bytes());
        e.expect_error("", "line of 5000 bytes ignored: the limit is 4096");
    }
}

#[test]
fn setoption_errors_clip_what_they_echo() {
    // Issue 23, E3: as every other error, at most 40 characters of a word.
    let mut e = Engine::start();
    let long = "n".repeat(4000);
    for line in [
        format!("setoption name {long} value 1"),
        format!("setoption name Hash value {long}"),
        format!("setoption name UCI_Variant value {long}"),
        format!("setoption name TunedEval value {long}"),
    ] {
        let got = e.ask(&line);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].starts_with("info string error: setoption: "),
            "{}",
            got[0]
        );
        assert!(
            got[0].len() < 140,
            "{} characters: {}",
            got[0].len(),
            got[0]
        );
    }
}

#[test]
fn unfinished_last_line_is_still_read() {
    let mut e = Engine::start();
    e.send_bytes(b"query p1turn");
    let (status, rest) = e.close();
    assert_eq!(status.code(), Some(0));
    assert_eq!(rest, ["response true"]);
}
