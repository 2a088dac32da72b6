//! The input side: a thread that reads bounded lines and feeds a channel, so
//! no line, however long or binary, costs more than a fixed amount of memory.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;

/// Lines longer than this (in bytes, without the newline) are refused.
pub const MAX_LINE: usize = 4096;

/// Lines read ahead of the session; the reader waits when the queue is full.
const QUEUE: usize = 64;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text, without its line end.
    Text(String),
    /// A line over [`MAX_LINE`] bytes (its length, or more), skipped.
    TooLong(usize),
    /// A line that is not UTF-8, skipped.
    NotUtf8,
}

/// Starts the reader thread. The channel closes at the end of input (or
/// when reading fails), which the session takes as `quit`.
pub fn spawn<R: Read + Send + 'static>(input: R) -> Receiver<Line> {
    let (tx, rx) = sync_channel(QUEUE);
    let started = thread::Builder::new().name("input".into()).spawn(move || {
        crate::sched::short_slice();
        feed(BufReader::new(input), &tx)
    });
    if let Err(e) = started {
        log::error!("cannot start the input thread: {e}");
    }
    rx
}

fn feed(mut input: impl BufRead, tx: &SyncSender<Line>) {
    let mut buf = Vec::with_capacity(256);
    loop {
        match read_line(&mut input, &mut buf) {
            Ok(Some(line)) => {
                if tx.send(line).is_err() {
                    return;
                }
            }
            Ok(None) => return,
            Err(e) => {
                log::warn!("input: {e}");
                return;
            }
        }
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes (not counting its `\n` or
/// `\r\n`); `None` at the end of input.
pub fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<Option<Line>> {
    buf.clear();
    // Room for the longest line and its "\r\n".
    let n = input
        .by_ref()
        .take(MAX_LINE as u64 + 2)
        .read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > MAX_LINE + 1 {
        let (rest, last) = skip_line(input)?;
        let cr = usize::from(last.or(buf.last().copied()) == Some(b'\r'));
        return Ok(Some(Line::TooLong(buf.len().saturating_add(rest) - cr)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if buf.len() > MAX_LINE {
        return Ok(Some(Line::TooLong(buf.len())));
    }
    Ok(Some(match std::str::from_utf8(buf) {
        Ok(s) => Line::Text(s.to_string()),
        Err(_) => Line::NotUtf8,
    }))
}

/// Drops input up to and including the next newline; returns the bytes
/// dropped before it and the last of them.
fn skip_line(input: &mut impl BufRead) -> io::Result<(usize, Option<u8>)> {
    let mut skipped = 0usize;
    let mut last = None;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok((skipped, last));
        }
        let (text, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if text > 0 {
            last = Some(chunk[text - 1]);
        }
        input.consume(text + usize::from(found));
        skipped = skipped.saturating_add(text);
        if found {
            return Ok((skipped, last));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        let mut r = BufReader::with_capacity(16, input);
        let mut buf = Vec::new();
        std::iter::from_fn(|| read_line(&mut r, &mut buf).unwrap()).collect()
    }

    #[test]
    fn lines_end_with_lf_crlf_or_eof() {
        assert_eq!(
            lines(b"uci\r\nisready\nquit"),
            vec![
                Line::Text("uci".into()),
                Line::Text("isready".into()),
                Line::Text("quit".into())
            ]
        );
        assert_eq!(lines(b""), vec![]);
        assert_eq!(lines(b"\n"), vec![Line::Text(String::new())]);
    }

    #[test]
    fn long_and_binary_lines_are_skipped_whole() {
        let mut input = vec![b'x'; 3 * MAX_LINE];
        input.extend_from_slice(b"\n\xff\xfe\nok\n");
        let got = lines(&input);
        assert!(matches!(got[0], Line::TooLong(n) if n > MAX_LINE));
        assert_eq!(got[1..], [Line::NotUtf8, Line::Text("ok".into())]);
        let exact = [vec![b'y'; MAX_LINE], b"\n".to_vec()].concat();
        assert_eq!(lines(&exact), vec![Line::Text("y".repeat(MAX_LINE))]);
    }

    #[test]
    fn the_limit_counts_no_line_end() {
        let y = "y".repeat(MAX_LINE);
        let crlf = format!("{y}\r\nok\r\n");
        assert_eq!(
            lines(crlf.as_bytes()),
            [Line::Text(y.clone()), Line::Text("ok".into())]
        );
        assert_eq!(lines(format!("{y}\r").as_bytes()), [Line::Text(y.clone())]);
        for end in ["\n", "\r\n", ""] {
            for extra in [1, 2, 3, 5000] {
                let long = format!("{}{end}ok\n", "z".repeat(MAX_LINE + extra));
                let got = lines(long.as_bytes());
                let want = if end.is_empty() {
                    vec![Line::TooLong(MAX_LINE + extra + 2)]
                } else {
                    vec![Line::TooLong(MAX_LINE + extra), Line::Text("ok".into())]
                };
                assert_eq!(got, want, "{extra} bytes over, ending {end:?}");
            }
        }
    }
}
