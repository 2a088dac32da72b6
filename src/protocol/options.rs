//! The options the engine offers, and what a `setoption` changes.

use super::command::clip;
use super::response::{Kind, Spec};
use crate::search::Options;
use crate::variant::Variant;
use std::time::Duration;

pub use super::io::{MAX_THREADS, max_hash_mb};
/// The most principal variations.
pub const MAX_MULTIPV: i64 = 64;
/// The largest move overhead, in ms.
pub const MAX_OVERHEAD_MS: i64 = 5000;

/// The option that copies the protocol's input and output to a file.
pub const DEBUG_LOG: &str = "Debug Log File";

/// Every option, with the defaults of `Options::default()`.
pub fn specs() -> Vec<Spec> {
    let d = Options::default();
    let spin = |name, default: i64, min, max| Spec {
        name,
        kind: Kind::Spin { default, min, max },
    };
    vec![
        spin("Hash", d.hash_mb as i64, 1, max_hash_mb()),
        Spec {
            name: "Clear Hash",
            kind: Kind::Button,
        },
        spin("Threads", d.threads as i64, 1, MAX_THREADS),
        spin("MultiPV", d.multipv as i64, 1, MAX_MULTIPV),
        spin(
            "Move Overhead",
            d.move_overhead.as_millis() as i64,
            0,
            MAX_OVERHEAD_MS,
        ),
        Spec {
            name: "TunedEval",
            kind: Kind::Check {
                default: d.tuned_eval,
            },
        },
        Spec {
            name: "OwnBook",
            kind: Kind::Check {
                default: d.own_book,
            },
        },
        Spec {
            name: "UCI_Variant",
            kind: Kind::Combo {
                default: Variant::Standard.name(),
                vars: Variant::ALL.iter().map(|v| v.name()).collect(),
            },
        },
        Spec {
            name: DEBUG_LOG,
            kind: Kind::String { default: "" },
        },
    ]
}

/// What a valid `setoption` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// New search options.
    Search(Options),
    /// Forget the transposition table.
    ClearHash,
    /// Play this variant (the position goes back to its start).
    Variant(Variant),
    /// Copy the protocol to this file (appended); `None`: stop.
    DebugLog(Option<String>),
}

/// Reads `setoption name <name> [value <value>]` against the current
/// options. Names are matched without regard to case, as UCI asks.
pub fn change(name: &str, value: Option<&str>, now: &Options) -> Result<Change, String> {
    let spec = specs()
        .into_iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("no option named '{}' (see 'uci' for the list)", clip(name)))?;
    match spec.kind {
        Kind::Button => return Ok(Change::ClearHash),
        Kind::String { .. } => {
            let path = value.filter(|&v| v != "<empty>").map(str::to_string);
            return Ok(Change::DebugLog(path));
        }
        _ => {}
    }
    let value = value.ok_or_else(|| format!("option '{}' needs a value", spec.name))?;
    let mut o = now.clone();
    match (spec.name, &spec.kind) {
        ("UCI_Variant", _) => {
            return value.parse().map(Change::Variant).map_err(|_| {
                format!(
                    "option 'UCI_Variant' needs standard, open or original, not '{}'",
                    clip(value)
                )
            });
        }
        ("TunedEval", _) => o.tuned_eval = check(spec.name, value)?,
        ("OwnBook", _) => o.own_book = check(spec.name, value)?,
        ("Hash", k) => o.hash_mb = spin(spec.name, k, value)? as usize,
        ("Threads", k) => o.threads = spin(spec.name, k, value)? as usize,
        ("MultiPV", k) => o.multipv = spin(spec.name, k, value)? as usize,
        (_, k) => o.move_overhead = Duration::from_millis(spin(spec.name, k, value)? as u64),
    }
    Ok(Change::Search(o))
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "option '{name}' needs true or false, not '{}'",
            clip(value)
        )),
    }
}

fn spin(name: &str, kind: &Kind, value: &str) -> Result<i64, String> {
    let &Kind::Spin { min, max, .. } = kind else {
        return Err(format!("option '{name}' takes no number"));
    };
    match value.parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "option '{name}' needs a whole number from {min} to {max}, not '{}'",
            clip(value)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spins_are_range_checked_and_names_ignore_case() {
        let now = Options::default();
        let Ok(Change::Search(o)) = change("hash", Some("64"), &now) else {
            panic!("hash refused")
        };
        assert_eq!(o.hash_mb, 64);
        let Ok(Change::Search(o)) = change("move overhead", Some("0"), &now) else {
            panic!("overhead refused")
        };
        assert_eq!(o.move_overhead, Duration::ZERO);
        assert!(change("Hash", Some("0"), &now).is_err());
        let beyond = (max_hash_mb() + 1).to_string();
        assert!(change("Hash", Some(&beyond), &now).is_err());
        assert!(change("Threads", Some("65"), &now).is_err());
        assert!(change("Threads", Some("two"), &now).is_err());
        assert!(change("Threads", None, &now).is_err());
        assert!(change("Contempt", Some("1"), &now).is_err());
    }

    #[test]
    fn variant_and_button() {
        let now = Options::default();
        assert_eq!(
            change("UCI_Variant", Some("Open"), &now),
            Ok(Change::Variant(Variant::Open))
        );
        assert!(change("UCI_Variant", Some("chess"), &now).is_err());
        assert_eq!(change("clear hash", None, &now), Ok(Change::ClearHash));
        let Ok(Change::Search(o)) = change("TunedEval", Some("false"), &now) else {
            panic!("check refused")
        };
        assert!(!o.tuned_eval && now.tuned_eval);
        assert!(change("TunedEval", Some("off"), &now).is_err());
        assert_eq!(
            change("debug log file", Some("/tmp/x y.log"), &now),
            Ok(Change::DebugLog(Some("/tmp/x y.log".into())))
        );
        assert_eq!(
            change("Debug Log File", Some("<empty>"), &now),
            Ok(Change::DebugLog(None))
        );
        assert_eq!(
            change("Debug Log File", None, &now),
            Ok(Change::DebugLog(None))
        );
    }

    #[test]
    fn errors_echo_at_most_forty_characters() {
        let now = Options::default();
        let long = "x".repeat(4000);
        for (name, value) in [
            (long.as_str(), Some("1")),
            ("Hash", Some(long.as_str())),
            ("Threads", Some(long.as_str())),
            ("TunedEval", Some(long.as_str())),
            ("UCI_Variant", Some(long.as_str())),
        ] {
            let e = change(name, value, &now).unwrap_err();
            assert!(
                e.len() < 120 && e.contains(&format!("{}...", &long[..40])),
                "{e}"
            );
        }
    }
}
