//! Whole matches with well-behaved fake engines: output, PGN, gauntlets,
//! SPRT stops, resume after an interruption, shards and merging, bad input.

mod common;
use common::*;
use std::path::Path;

fn two_randoms(extra: &[&str]) -> Vec<String> {
    let mut a = engine("alpha", "random", &["depth=1"]);
    a.extend(engine("beta", "random", &["nodes=5"]));
    a.extend(args(extra));
    a
}

fn ok(dir: &Path, a: &[String]) -> Run {
    let r = run(dir, a);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    r
}

#[test]
fn a_match_prints_one_line_per_game_and_writes_pgn_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let r = ok(
        dir.path(),
        &two_randoms(&[
            "--games",
            "4",
            "--seed",
            "9",
            "--pgnout",
            "g.pgn",
            "--summary",
            "s.json",
            "--rating-interval",
            "2",
        ]),
    );
    assert_eq!(
        r.stdout.matches("Finished game ").count(),
        4,
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("seed 9"));
    assert!(r.stdout.contains("Score of alpha vs beta: "));
    let s = json(dir.path().join("s.json"));
    for key in [
        "games",
        "wins",
        "draws",
        "losses",
        "penta",
        "elo",
        "elo_error",
        "nelo",
        "nelo_error",
        "los",
        "terminations",
    ] {
        assert!(s.get(key).is_some(), "missing {key}: {s}");
    }
    assert_eq!(s["games"], 4);
    assert_eq!(s["seed"], 9);
    let pgn = std::fs::read_to_string(dir.path().join("g.pgn")).unwrap();
    for tag in [
        "Event",
        "Site",
        "Date",
        "Round",
        "White",
        "Black",
        "Result",
        "Variant",
        "Termination",
        "WhitePoints",
        "BlackPoints",
    ] {
        assert_eq!(pgn.matches(&format!("[{tag} ")).count(), 4, "{tag}");
    }
    // Games 1 and 2 share their opening with colours swapped.
    let white: Vec<&str> = pgn.lines().filter(|l| l.starts_with("[White ")).collect();
    assert_eq!(
        white,
        [
            "[White \"alpha\"]",
            "[White \"beta\"]",
            "[White \"alpha\"]",
            "[White \"beta\"]"
        ]
    );
    let openings: Vec<&str> = pgn
        .lines()
        .filter(|l| l.starts_with("1. "))
        .map(|l| &l[..21])
        .collect();
    assert_eq!(openings[0], openings[1]);
    assert!(openings[0].contains("{book}"));
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = two_randoms(&[
        "--log",
        "comm.log",
        "--games",
        "2",
        "--seed",
        "3",
        "--summary",
        "s.json",
        "--variant",
        "open",
    ]);
    a.extend(engine("gamma", "random", &["depth=1"]));
    ok(dir.path(), &a);
    let s = json(dir.path().join("s.json"));
    assert_eq!(s["games"], 4);
    assert_eq!(s["variant"], "open");
    let opponents: Vec<&str> = s["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["opponent"].as_str().unwrap())
        .collect();
    assert_eq!(opponents, ["beta", "gamma"]);
    let log = std::fs::read_to_string(dir.path().join("comm.log")).unwrap();
    for line in [
        "gamma > uci",
        "gamma < uciok",
        "beta > setoption name UCI_Variant value open",
    ] {
        assert!(log.contains(line), "{line} missing from the log");
    }
}

#[test]
fn openings_come_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("o.txt"),
        "# two openings\nK@d4 Q@e5\n8/8/8/4q3/3K4/8/8/8 w e5 moves Q@c3\n",
    )
    .unwrap();
    ok(
        dir.path(),
        &two_randoms(&[
            "--games",
            "4",
            "--openings",
            "o.txt",
            "--opening-order",
            "sequential",
            "--pgnout",
            "g.pgn",
        ]),
    );
    let pgn = std::fs::read_to_string(dir.path().join("g.pgn")).unwrap();
    assert_eq!(
        pgn.matches("1. K@d4 {book} Q@e5 {book}").count(),
        2,
        "{pgn}"
    );
    assert_eq!(pgn.matches("[FEN \"8/8/8/4q3/3K4/8/8/8 w e5\"]").count(), 2);
    assert_eq!(pgn.matches("2. Q@c3 {book}").count(), 2, "{pgn}");
}

#[test]
fn the_sprt_stops_the_match_when_it_decides() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = engine("good", "random", &["depth=1"]);
    a.extend(engine("bad", "crash", &["depth=1"]));
    a.extend(args(&[
        "--games",
        "200",
        "--sprt",
        "elo0=0",
        "elo1=300",
        "model=logistic",
        "--summary",
        "s.json",
    ]));
    let r = ok(dir.path(), &a);
    let s = json(dir.path().join("s.json"));
    assert_eq!(s["complete"], false);
    assert_eq!(s["sprt"]["decision"], "H1", "{s}");
    assert_eq!(s["sprt"]["model"], "logistic");
    assert!(s["llr"].as_f64().unwrap() >= s["sprt"]["upper_bound"].as_f64().unwrap());
    assert!(s["games"].as_u64().unwrap() < 200);
    assert!(r.stdout.contains("SPRT: H1"));
}

#[test]
fn resume_finishes_an_interrupted_match_without_losing_or_repeating_games() {
    let full = tempfile::tempdir().unwrap();
    let base = [
        "--games",
        "6",
        "--seed",
        "4",
        "--pgnout",
        "g.pgn",
        "--summary",
        "s.json",
    ];
    ok(full.path(), &slow_pair(4, &base));
    let cut = tempfile::tempdir().unwrap();
    kill_after(
        cut.path(),
        &slow_pair(4, &base),
        "cheversi-match.state.json",
        3,
    );
    let kept = recorded(&cut.path().join("cheversi-match.state.json"));
    let mut resumed = base.to_vec();
    resumed.push("--resume");
    let r = ok(cut.path(), &slow_pair(4, &resumed));
    assert!(
        r.stdout.contains(&format!("({} to play)", 6 - kept)),
        "{}",
        r.stdout
    );
    // Dates and move times may differ between runs; everything else may not.
    let strip_dates = |p: &Path| {
        let text = std::fs::read_to_string(p.join("g.pgn")).unwrap();
        let timeless = |w: &str| match w.strip_suffix("s}") {
            Some(t) if t.parse::<f64>().is_ok() => "TIME}".to_string(),
            _ => w.to_string(),
        };
        text.lines()
            .filter(|l| !l.starts_with("[Date "))
            .flat_map(str::split_whitespace)
            .map(timeless)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let (a, b) = (
        json(full.path().join("s.json")),
        json(cut.path().join("s.json")),
    );
    assert_eq!(
        (a["wins"].clone(), a["draws"].clone(), a["penta"].clone()),
        (b["wins"].clone(), b["draws"].clone(), b["penta"].clone())
    );
    let (pa, pb) = (strip_dates(full.path()), strip_dates(cut.path()));
    assert_eq!(pb.matches("[Event ").count(), 6);
    // Same games; the resumed file may hold them in another finishing order.
    let mut ga: Vec<&str> = pa.split("[Event ").collect();
    let mut gb: Vec<&str> = pb.split("[Event ").collect();
    ga.sort();
    gb.sort();
    assert_eq!(ga, gb);
}

#[test]
fn resume_refuses_a_different_match() {
    let dir = tempfile::tempdir().unwrap();
    ok(dir.path(), &two_randoms(&["--games", "2", "--seed", "4"]));
    let r = run(
        dir.path(),
        &two_randoms(&["--games", "4", "--seed", "4", "--resume"]),
    );
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("different match"), "{}", r.stderr);
    assert!(r.stderr.contains("--games"), "{}", r.stderr);
}

#[test]
fn shards_merge_into_the_whole_match() {
    let whole = tempfile::tempdir().unwrap();
    ok(
        whole.path(),
        &two_randoms(&["--games", "8", "--seed", "11", "--summary", "s.json"]),
    );
    let shards = tempfile::tempdir().unwrap();
    for (range, state) in [("0..4", "a.json"), ("4..8", "b.json")] {
        ok(
            shards.path(),
            &two_randoms(&[
                "--games", "8", "--seed", "11", "--range", range, "--state", state,
            ]),
        );
    }
    ok(
        shards.path(),
        &args(&["merge", "a.json", "b.json", "--summary", "m.json"]),
    );
    let (w, m) = (
        json(whole.path().join("s.json")),
        json(shards.path().join("m.json")),
    );
    for key in [
        "games", "wins", "draws", "losses", "penta", "elo", "complete",
    ] {
        assert_eq!(w[key], m[key], "{key}");
    }
    let r = run(shards.path(), &args(&["merge", "a.json", "a.json"]));
    assert_ne!(r.code, 0);
}

#[test]
fn bad_input_gives_a_clear_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<Vec<String>> = vec![
        args(&[]),
        two_randoms(&["--games", "3"]),
        two_randoms(&["--sprt", "elo0=3", "elo1=1"]),
        two_randoms(&["--openings", "missing.txt"]),
        two_randoms(&["--variant", "chess"]),
        args(&[
            "--engine",
            "cmd=/no/such/engine",
            "depth=1",
            "--engine",
            "cmd=/no/such/other",
            "depth=1",
        ]),
        args(&["--engine", "name=x", "--engine", "cmd=y"]),
        args(&["stats", "--wdl", "1,2"]),
        args(&["stats"]),
        args(&["merge", "nothing.json"]),
    ];
    for a in cases {
        let r = run(dir.path(), &a);
        assert_ne!(r.code, 0, "{a:?}");
        assert!(r.stderr.contains("error"), "{a:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{a:?}: {}", r.stderr);
    }
}

#[test]
fn stats_reproduces_the_fastchess_vectors() {
    let dir = tempfile::tempdir().unwrap();
    let stats = |a: &[&str]| -> serde_json::Value {
        let r = ok(dir.path(), &args(a));
        serde_json::from_str(&r.stdout).unwrap()
    };
    let near = |v: &serde_json::Value, want: f64| (v.as_f64().unwrap() - want).abs() < 0.006;
    let s = stats(&["stats", "--wdl", "136,111,96", "--json"]);
    assert!(
        near(&s["elo"], 40.70) && near(&s["elo_error"], 30.43),
        "{s}"
    );
    assert!(
        near(&s["nelo"], 49.77) && near(&s["nelo_error"], 36.77),
        "{s}"
    );
    assert!(near(&s["los"], 99.60), "{s}");
    let s = stats(&[
        "stats",
        "--penta",
        "365,16618,36229,16974,390",
        "--sprt",
        "elo0=0",
        "elo1=2",
        "--json",
    ]);
    assert!(near(&s["llr"], 2.25), "{s}");
    let s = stats(&[
        "stats",
        "--penta",
        "223,9863,21279,10037,246",
        "--sprt",
        "elo0=0.5",
        "elo1=2.5",
        "model=logistic",
        "--json",
    ]);
    assert!(near(&s["llr"], -3.07), "{s}");
    let r = ok(dir.path(), &args(&["stats", "--wdl", "136,111,96"]));
    assert!(
        r.stdout
            .contains("Elo 40.70 +/- 30.43 | nElo 49.77 +/- 36.77 | LOS 99.60 %"),
        "{}",
        r.stdout
    );
}
