//! The text protocols: UCI (with the UGI additions; `command.rs`,
//! `session.rs`) and CECP, the XBoard/WinBoard protocol (`cecp/`), over the
//! same engine. The first command chooses: `xboard` starts CECP, anything
//! else UCI. See `protocol.md`.

pub mod cecp;
pub mod command;
pub mod io;
pub mod options;
pub mod response;
pub mod session;

pub use io::{output, reader};
use output::Output;
use reader::Line;
use response::Response;
use std::io::{Read, Write};

/// Runs the protocol on `input` and `output` until `quit` or the end of
/// input, after a one-line banner (as Stockfish's). The first non-blank
/// line chooses the protocol, as in Fairy-Stockfish: `xboard` is CECP,
/// anything else UCI/UGI (and is that session's first command).
pub fn run<R: Read + Send + 'static>(input: R, output: impl Write + Send + 'static) {
    crate::sched::short_slice();
    let out = Output::new(output);
    out.send(&[Response::Banner]);
    let lines = reader::spawn(input);
    let first = lines
        .iter()
        .find(|l| !matches!(l, Line::Text(t) if t.trim().is_empty()));
    match first {
        Some(Line::Text(t)) if t.trim() == "xboard" => {
            out.received(&t);
            cecp::run(lines, out)
        }
        first => session::run(first, lines, out),
    }
}
