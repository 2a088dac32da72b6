//! The command line: completions and the man page come from the clap
//! definitions, and `perft` prints what the protocol's `go perft` prints.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cheversi"))
        .args(args)
        .output()
        .expect("the binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[test]
fn completions_know_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (ok, script, err) = run(&["completions", shell]);
        assert!(ok, "{shell}: {err}");
        for word in ["perft", "bench", "completions", "man", "variant", "fen"] {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let (ok, _, err) = run(&["completions", "tcsh"]);
    assert!(!ok && err.contains("invalid value 'tcsh'"), "{err}");
}

#[test]
fn man_page_is_roff_with_the_subcommands() {
    let (ok, page, err) = run(&["man"]);
    assert!(ok, "{err}");
    assert!(page.contains(".TH cheversi 1"), "{page}");
    for word in ["perft", "bench", "completions", "\\-\\-verbose"] {
        assert!(page.contains(word), "the man page lacks {word}");
    }
}

#[test]
fn perft_and_position_errors_read_as_in_the_protocol() {
    let (ok, text, _) = run(&["perft", "--depth", "2"]);
    assert!(ok);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 64 + 4, "{text}");
    assert!(lines[0].starts_with("K@a1: "), "{text}");
    assert_eq!(lines[64], "");
    assert!(lines[65].starts_with("Total time (ms): "));
    assert_eq!(lines[66], "Nodes searched: 1680");
    assert!(lines[67].starts_with("Nodes/second: "));
    let (ok, _, err) = run(&["perft", "--depth", "1", "--fen", "8/8/8 w"]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "error: --fen: bad position string: expected 3 fields (board, side, last square), found 2"
    );
}
