//! The statistics of a set of counts in the form printed and saved: one
//! text line and the JSON keys shared by `--summary` and `stats --json`.

use crate::sprt::{Decision, Sprt};
use crate::stats::{Counts, Elo};
use serde::Serialize;

/// Statistics of one pairing (or of counts given to `stats`).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Games counted.
    pub games: u64,
    /// Wins of the first engine (absent when only pairs are known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wins: Option<u64>,
    /// Draws.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<u64>,
    /// Losses of the first engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub losses: Option<u64>,
    /// Pairs by points: [LL, LD, WL+DD, WD, WW].
    pub penta: [u64; 5],
    /// Which distribution the figures come from: `pentanomial` or `trinomial`.
    pub model: &'static str,
    /// Mean score per game.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// 95% half-interval of `elo`.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// 95% half-interval of `nelo`.
    pub nelo_error: f64,
    /// Likelihood of superiority, in percent.
    pub los: f64,
    /// GSPRT log-likelihood ratio (with an SPRT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llr: Option<f64>,
    /// The SPRT and its bounds (with an SPRT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
}

/// The SPRT part of a report.
#[derive(Clone, Debug, Serialize)]
pub struct SprtReport {
    /// The test.
    #[serde(flatten)]
    pub test: Sprt,
    /// Lower (H0) LLR bound.
    pub lower_bound: f64,
    /// Upper (H1) LLR bound.
    pub upper_bound: f64,
    /// What the LLR says.
    pub decision: Decision,
}

impl Report {
    /// Figures from pentanomial counts when there are pairs, else from W/D/L.
    pub fn from_counts(c: &Counts, sprt: Option<&Sprt>) -> Report {
        if c.pairs() > 0 {
            Report::pentanomial(c, sprt, true)
        } else {
            Report::trinomial(c, sprt)
        }
    }

    /// Figures from W/D/L.
    pub fn trinomial(c: &Counts, sprt: Option<&Sprt>) -> Report {
        let llr = sprt.map(|s| s.llr_trinomial(c));
        Report::build(c, Elo::trinomial(c), "trinomial", sprt, llr, true)
    }

    /// Figures from pair counts; `with_wdl` when W/D/L are known too.
    pub fn pentanomial(c: &Counts, sprt: Option<&Sprt>, with_wdl: bool) -> Report {
        let llr = sprt.map(|s| s.llr_pentanomial(c));
        Report::build(c, Elo::pentanomial(c), "pentanomial", sprt, llr, with_wdl)
    }

    fn build(
        c: &Counts,
        e: Elo,
        model: &'static str,
        sprt: Option<&Sprt>,
        llr: Option<f64>,
        wdl: bool,
    ) -> Report {
        let known = |n: u64| wdl.then_some(n);
        let games = if wdl { c.games() } else { 2 * c.pairs() };
        Report {
            games,
            wins: known(c.wins),
            draws: known(c.draws),
            losses: known(c.losses),
            penta: c.penta,
            model,
            score: e.score,
            elo: e.elo,
            elo_error: e.elo_error,
            nelo: e.nelo,
            nelo_error: e.nelo_error,
            los: 100.0 * e.los,
            sprt: sprt.zip(llr).map(|(s, l)| SprtReport {
                test: *s,
                lower_bound: s.lower_bound(),
                upper_bound: s.upper_bound(),
                decision: s.decide(l),
            }),
            llr,
        }
    }

    /// One line: score, Elo, nElo, LOS, pentanomial counts and the LLR.
    pub fn line(&self) -> String {
        let wdl = match (self.wins, self.losses, self.draws) {
            (Some(w), Some(l), Some(d)) => {
                format!("W-L-D {w} - {l} - {d} [{:.3}] ", self.score)
            }
            _ => format!("[{:.3}] ", self.score),
        };
        let p = self.penta;
        let mut s = format!(
            "{wdl}{} games | {} | {} | {}",
            self.games,
            estimate("Elo", self.elo, self.elo_error),
            estimate("nElo", self.nelo, self.nelo_error),
            if self.los.is_nan() {
                "LOS: undefined for these results".to_string()
            } else {
                format!("LOS {:.2} %", self.los)
            },
        );
        if p.iter().sum::<u64>() > 0 {
            let [ll, ld, dd, wd, ww] = p;
            s.push_str(&format!(" | Ptnml(0-2) [{ll}, {ld}, {dd}, {wd}, {ww}]"));
        }
        if let (Some(llr), Some(t)) = (self.llr, &self.sprt) {
            s.push_str(&format!(
                " | LLR {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {}",
                t.lower_bound, t.upper_bound, t.test.elo0, t.test.elo1, t.test.model
            ));
        }
        s
    }
}

/// `Elo 40.70 +/- 30.43`, or words where a figure is not a number: a
/// score of 100% has an infinite Elo and no interval.
fn estimate(name: &str, value: f64, error: f64) -> String {
    // Adding 0.0 turns -0.0 into 0.0, so an even score prints as 0.00.
    let z = |x: f64| x + 0.0;
    if value.is_nan() {
        return format!("{name}: undefined for these results");
    }
    if value.is_infinite() {
        let (sign, all) = if value > 0.0 {
            ("+", "won")
        } else {
            ("-", "lost")
        };
        return format!("{name}: {sign}inf (all games {all}; no interval)");
    }
    if !error.is_finite() {
        return format!(
            "{name} {:.2} (no interval: too few kinds of result)",
            z(value)
        );
    }
    format!("{name} {:.2} +/- {:.2}", z(value), z(error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_json_carry_the_figures() {
        let c = Counts {
            wins: 136,
            draws: 111,
            losses: 96,
            penta: [0; 5],
        };
        let r = Report::from_counts(&c, None);
        assert_eq!(r.model, "trinomial");
        let line = r.line();
        assert!(
            line.starts_with("W-L-D 136 - 96 - 111 [0.558] 343 games | Elo 40.70 +/- 30.43"),
            "{line}"
        );
        assert!(line.contains("LOS 99.60 %"), "{line}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["wins"], 136);
        assert!(json.get("llr").is_none());
    }

    #[test]
    fn infinite_and_undefined_figures_are_words() {
        let all_won = Counts {
            wins: 10,
            ..Counts::default()
        };
        let line = Report::from_counts(&all_won, None).line();
        assert!(
            line.contains("Elo: +inf (all games won; no interval)"),
            "{line}"
        );
        assert!(!line.contains("NaN") && !line.contains("inf +/-"), "{line}");
        assert_eq!(
            estimate("Elo", -f64::INFINITY, f64::NAN),
            "Elo: -inf (all games lost; no interval)"
        );
        assert_eq!(
            estimate("Elo", 470.441, f64::NAN),
            "Elo 470.44 (no interval: too few kinds of result)"
        );
        assert_eq!(estimate("Elo", -0.0, 0.0), "Elo 0.00 +/- 0.00");
        let all_drawn_pairs = Counts {
            penta: [0, 0, 5, 0, 0],
            ..Counts::default()
        };
        let line = Report::from_counts(&all_drawn_pairs, None).line();
        assert!(!line.contains("NaN"), "{line}");
        assert!(line.contains("nElo: undefined for these results"), "{line}");
    }
}
