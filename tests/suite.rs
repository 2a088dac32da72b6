//! The solving benchmark suite (`tests/data/suite.txt`) and `cheversi
//! bench suite`: the file holds the categories the suite promises, the
//! engine solves its small positions (those CI can afford) to the file's
//! value with an optimal move, and a wrong entry or a bad file is caught.

use std::collections::BTreeMap;
use std::process::Command;

const SUITE: &str = include_str!("data/suite.txt");

fn bench_suite(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cheversi"))
        .args(["bench", "suite"])
        .args(args)
        .output()
        .expect("the binary runs");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8");
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// The suite's entries (id, variant, plies left, value), read plainly.
fn entries() -> Vec<(String, String, u32, i32)> {
    SUITE
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let placed = w[2].chars().filter(char::is_ascii_alphabetic).count() as u32;
            (
                w[0].to_string(),
                w[1].to_string(),
                16 - placed,
                w[5].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_suite_covers_its_categories() {
    let mut count: BTreeMap<(String, u32), usize> = BTreeMap::new();
    for (_, variant, left, _) in entries() {
        *count.entry((variant, left)).or_default() += 1;
    }
    let want = [
        ("standard", [10, 11, 12, 13, 14].as_slice()),
        ("original", &[10, 12, 13]),
        ("open", &[8, 9, 10]),
    ];
    for (variant, lefts) in want {
        for &left in lefts {
            let n = count
                .get(&(variant.to_string(), left))
                .copied()
                .unwrap_or(0);
            assert!(
                n >= 1,
                "no {variant} position with {left} plies left: {count:?}"
            );
        }
    }
}

/// The part CI runs: `standard` and `original` up to 10 plies left, `open`
/// up to 8 (its 9-left positions take 9-19 s each, its 10-left ones minutes).
#[test]
fn the_engine_solves_the_suite_up_to_ten_plies_left() {
    for (variant, max) in [("standard", 10), ("original", 10), ("open", 8)] {
        let (ok, out, err) = bench_suite(&[
            "--variant",
            variant,
            "--max-left",
            &max.to_string(),
            "--hash",
            "256",
        ]);
        assert!(ok, "{out}{err}");
        let mine: Vec<_> = entries()
            .into_iter()
            .filter(|e| e.1 == variant && e.2 <= max)
            .collect();
        assert!(mine.len() >= 4, "{variant}: {} positions", mine.len());
        assert!(
            out.contains(&format!(
                "{} positions, all values and moves right",
                mine.len()
            )),
            "{out}"
        );
        for (id, _, left, value) in mine {
            let row = out
                .lines()
                .find(|l| l.starts_with(&format!("{id} ")))
                .expect(&id);
            let words: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(words[2], left.to_string(), "{row}");
            assert_eq!(words[4], format!("{value:+}"), "{row}");
            assert_eq!(words[6], "yes", "{row}");
        }
        eprintln!("{out}");
    }
}

#[test]
fn a_wrong_value_or_move_is_marked_and_fails() {
    let dir = std::env::temp_dir().join(format!("cheversi-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (id, _, _, value) = entries()
        .into_iter()
        .find(|e| e.1 == "original" && e.2 == 10)
        .unwrap();
    let line = SUITE
        .lines()
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap();
    let w: Vec<&str> = line.split_whitespace().collect();
    let wrong_value = format!("{} {}", w[..5].join(" "), value + 1) + " " + &w[6..].join(" ");
    let file = dir.join("wrong.txt");
    std::fs::write(&file, format!("{wrong_value}\n")).unwrap();
    let (ok, out, err) = bench_suite(&[file.to_str().unwrap()]);
    assert!(
        !ok && out.contains("WRONG") && out.contains("1 WRONG"),
        "{out}"
    );
    assert!(err.contains("1 of 1 suite positions wrong"), "{err}");
    std::fs::write(&file, "x standard 8/8/8/8/8/8/8/8 w - -1 K@z9\n").unwrap();
    let (ok, _, err) = bench_suite(&[file.to_str().unwrap()]);
    assert!(!ok && err.contains("line 1: move `K@z9`"), "{err}");
    let (ok, _, err) = bench_suite(&["--max-left", "3"]);
    assert!(!ok && err.contains("no suite position matches"), "{err}");
    let (ok, _, err) = bench_suite(&[dir.join("missing.txt").to_str().unwrap()]);
    assert!(!ok && err.contains("missing.txt"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
