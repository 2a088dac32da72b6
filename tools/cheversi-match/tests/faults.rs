//! Engines that misbehave on purpose: every fault loses the game for the
//! engine at fault with the right Termination, and the match plays every game.

mod common;
use common::*;

/// Plays `games` games of a random mover (first) against `bad`; returns the summary and PGN.
fn match_against(bad: Vec<String>, games: u64, extra: &[&str]) -> (serde_json::Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut a = engine("good", "random", &["depth=1"]);
    a.extend(bad);
    a.extend(args(&[
        "--games",
        &games.to_string(),
        "--seed",
        "1",
        "--pgnout",
        "g.pgn",
        "--summary",
        "s.json",
    ]));
    a.extend(args(extra));
    let r = run(dir.path(), &a);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let pgn = std::fs::read_to_string(dir.path().join("g.pgn")).unwrap();
    (json(dir.path().join("s.json")), pgn)
}

fn assert_all_won(s: &serde_json::Value, games: u64, termination: &str, pgn: &str) {
    assert_eq!(s["games"], games, "{s}");
    assert_eq!(s["wins"], games, "{s}");
    assert_eq!(s["losses"], 0);
    assert_eq!(s["complete"], true);
    assert_eq!(s["terminations"][termination], games, "{s}");
    assert_eq!(s["penta"][4], games / 2);
    let tag = format!("[Termination \"{termination}\"]");
    assert_eq!(pgn.matches(&tag).count() as u64, games, "{pgn}");
    assert_eq!(pgn.matches("[Event ").count() as u64, games);
}

#[test]
fn a_crash_at_once_loses_every_game() {
    let (s, pgn) = match_against(engine("bad", "crash", &["depth=1"]), 4, &[]);
    assert_all_won(&s, 4, "crash", &pgn);
}

#[test]
fn a_crash_mid_game_loses_and_the_engine_is_restarted() {
    let bad = engine("bad", "crash", &["depth=1", "arg=--after", "arg=3"]);
    let (s, pgn) = match_against(bad, 4, &["--concurrency", "2"]);
    assert_all_won(&s, 4, "crash", &pgn);
    // Three good placements by the faulty engine before each crash.
    assert!(
        pgn.contains("} {bad during search: the engine exited}"),
        "{pgn}"
    );
}

#[test]
fn a_hang_is_a_time_forfeit_under_every_limit() {
    let (s, pgn) = match_against(engine("bad", "hang", &["depth=3", "timeout=300"]), 2, &[]);
    assert_all_won(&s, 2, "time forfeit", &pgn);
    let (s, pgn) = match_against(
        engine("bad", "hang", &["movetime=50", "timemargin=100"]),
        2,
        &[],
    );
    assert_all_won(&s, 2, "time forfeit", &pgn);
    let (s, pgn) = match_against(
        engine("bad", "hang", &["tc=0.2+0.01", "timemargin=50"]),
        2,
        &[],
    );
    assert_all_won(&s, 2, "time forfeit", &pgn);
}

#[test]
fn endless_info_lines_are_a_time_forfeit() {
    let (s, pgn) = match_against(
        engine("bad", "flood", &["movetime=50", "timemargin=100"]),
        2,
        &[],
    );
    assert_all_won(&s, 2, "time forfeit", &pgn);
}

#[test]
fn an_illegal_move_loses() {
    let bad = engine("bad", "illegal", &["depth=1", "arg=--after", "arg=2"]);
    let (s, pgn) = match_against(bad, 2, &[]);
    assert_all_won(&s, 2, "illegal move", &pgn);
    assert!(pgn.contains("illegal bestmove"), "{pgn}");
}

#[test]
fn garbage_output_loses_as_an_illegal_move() {
    let (s, pgn) = match_against(engine("bad", "garbage", &["depth=1"]), 2, &[]);
    assert_all_won(&s, 2, "illegal move", &pgn);
    assert!(pgn.contains("unreadable bestmove '~~~'"), "{pgn}");
}

#[test]
fn a_slow_start_past_the_timeout_is_a_stall() {
    let bad = engine("bad", "slow-start", &["depth=1", "arg=--delay", "arg=3000"]);
    let (s, pgn) = match_against(bad, 2, &["--startup-timeout", "200"]);
    assert_all_won(&s, 2, "stall", &pgn);
}

#[test]
fn a_slow_start_within_the_timeout_plays_normally() {
    let bad = engine("slow", "slow-start", &["depth=1", "arg=--delay", "arg=50"]);
    let (s, _) = match_against(bad, 2, &["--startup-timeout", "5000"]);
    assert_eq!(s["terminations"]["normal"], 2, "{s}");
}
