//! The PGN as other tools read it: python-chess must not take the games for
//! chess (issue 25). Needs python3 with python-chess; skipped with a message
//! without them, unless CHEVERSI_NEED_PYTHON_CHESS is set (as .ci/run does
//! once it has installed python-chess).

mod common;
use common::*;
use std::process::Command;

fn python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn python_chess_reports_an_unknown_variant_and_reads_no_chess_moves() {
    if !python_chess() {
        assert!(
            std::env::var_os("CHEVERSI_NEED_PYTHON_CHESS").is_none(),
            "python3 with python-chess is needed"
        );
        eprintln!("skipped: no python3 with python-chess (python3 -m pip install chess)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for variant in ["standard", "open", "original"] {
        let r = run(
            dir.path(),
            &slow_pair(
                0,
                &[
                    "--games",
                    "2",
                    "--variant",
                    variant,
                    "--pgnout",
                    "g.pgn",
                    "--state",
                    variant,
                ],
            ),
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/pgn_python_chess.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(dir.path().join("g.pgn"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("6 games"), "{text}");
}
