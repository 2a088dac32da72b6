//! The generalized SPRT (GSPRT) of fastchess and Fishtest: the log-likelihood
//! ratio of two maximum-likelihood outcome distributions, one constrained to
//! `elo0`, one to `elo1`, following M. Van den Bergh, "Comments on Normalized
//! Elo" (sections 1 and 4.1), for the logistic and the normalized Elo model.

use crate::stats::{Counts, Distribution};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Which Elo the bounds are expressed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Normalized Elo (Fishtest's default).
    Normalized,
    /// Logistic Elo.
    Logistic,
}

impl FromStr for Model {
    type Err = String;
    fn from_str(s: &str) -> Result<Model, String> {
        match s {
            "normalized" => Ok(Model::Normalized),
            "logistic" => Ok(Model::Logistic),
            _ => Err(format!("unknown SPRT model '{s}' (normalized or logistic)")),
        }
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Model::Normalized => "normalized",
            Model::Logistic => "logistic",
        })
    }
}

/// A test of H0: Elo = `elo0` against H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// The Elo model of the bounds.
    pub model: Model,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Decision {
    /// Not decided yet.
    Continue,
    /// H0 accepted: the change is not an improvement of `elo1`.
    H0,
    /// H1 accepted.
    H1,
}

/// Counts below this many are replaced, as fastchess does, so logs stay finite.
const REGULARIZED_ZERO: f64 = 1e-3;

/// `800 / ln 10`: the slope converting normalized Elo to a t-value.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

impl Sprt {
    /// Checks the parameters; the message says what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let rate = |x: f64| x > 0.0 && x < 1.0;
        if self.elo0.partial_cmp(&self.elo1) != Some(std::cmp::Ordering::Less) {
            return Err("SPRT: elo0 must be less than elo1".into());
        }
        if !rate(self.alpha) || !rate(self.beta) || self.alpha + self.beta >= 1.0 {
            return Err("SPRT: alpha and beta must lie in (0, 1) with alpha + beta < 1".into());
        }
        Ok(())
    }

    /// The lower (accept H0) bound of the LLR.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper (accept H1) bound of the LLR.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> Decision {
        if llr >= self.upper_bound() {
            Decision::H1
        } else if llr <= self.lower_bound() {
            Decision::H0
        } else {
            Decision::Continue
        }
    }

    /// The LLR from W/D/L counts.
    pub fn llr_trinomial(&self, c: &Counts) -> f64 {
        self.llr(&Distribution::trinomial(c))
    }

    /// The LLR from pentanomial counts.
    pub fn llr_pentanomial(&self, c: &Counts) -> f64 {
        self.llr(&Distribution::pentanomial(c))
    }

    /// The LLR of a distribution (trinomial or pentanomial).
    pub fn llr(&self, d: &Distribution) -> f64 {
        let counts: Vec<f64> = d.counts.iter().map(|&n| regularize(n)).collect();
        let total: f64 = counts.iter().sum();
        let probs: Vec<f64> = counts.iter().map(|n| n / total).collect();
        let (p0, p1) = match self.model {
            Model::Logistic => (
                mle_logistic(&d.scores, &probs, logistic_score(self.elo0)),
                mle_logistic(&d.scores, &probs, logistic_score(self.elo1)),
            ),
            Model::Normalized => {
                // A pair's score spread is that of two games: t scales by sqrt 2.
                let k = if d.is_pentanomial() { 2f64.sqrt() } else { 1.0 };
                (
                    mle_normalized(&d.scores, &probs, k * self.elo0 / NELO_SCALE),
                    mle_normalized(&d.scores, &probs, k * self.elo1 / NELO_SCALE),
                )
            }
        };
        let lpr = |i: usize| probs[i] * (p1[i].ln() - p0[i].ln());
        total * (0..probs.len()).map(lpr).sum::<f64>()
    }
}

fn regularize(n: f64) -> f64 {
    if n == 0.0 { REGULARIZED_ZERO } else { n }
}

/// The expected score of a logistic Elo difference.
fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The root of `f`, which falls from +inf at `lo` to -inf at `hi`, by the ITP
/// method (Oliveira & Takahashi, ACM TOMS 47(1), 2021) with the parameters
/// fastchess uses (k1 = 0.1, k2 = 2, n0 = 0.99). The stopping tolerance is
/// fastchess's too: in degenerate samples (one outcome class only) the root
/// sits next to a pole, and only the same tolerance gives the same LLR.
fn itp_root(f: impl Fn(f64) -> f64, lo: f64, hi: f64, epsilon: f64) -> f64 {
    const K1: f64 = 0.1;
    const K2: f64 = 2.0;
    const N0: f64 = 0.99;
    // Keep `a` on the negative side: start from the +inf end swapped over.
    let (mut a, mut b) = (hi, lo);
    let (mut fa, mut fb) = (f64::NEG_INFINITY, f64::INFINITY);
    let n_max = ((b - a).abs() / (2.0 * epsilon)).log2().ceil() + N0;
    let mut i = 0.0;
    while (b - a).abs() > 2.0 * epsilon {
        let half = (a + b) / 2.0;
        let r = epsilon * 2f64.powf(n_max - i) - (b - a) / 2.0;
        let delta = K1 * (b - a).powf(K2);
        let regula_falsi = (fb * a - fa * b) / (fb - fa);
        let sigma = (half - regula_falsi) / (half - regula_falsi).abs();
        // NaN comparisons are false: an undefined step falls back to bisection.
        let truncated = if delta <= (half - regula_falsi).abs() {
            regula_falsi + sigma * delta
        } else {
            half
        };
        let x = if (truncated - half).abs() <= r {
            truncated
        } else {
            half - sigma * r
        };
        let fx = f(x);
        if fx == 0.0 {
            return x;
        } else if fx < 0.0 {
            (a, fa) = (x, fx);
        } else {
            (b, fb) = (x, fx);
        }
        i += 1.0;
    }
    (a + b) / 2.0
}

/// The distribution closest (in likelihood) to `probs` among those whose
/// constraint values `phi` have zero mean: p_i = probs_i / (1 + theta phi_i).
fn tilt(probs: &[f64], phi: &[f64], epsilon: f64) -> Vec<f64> {
    let u = phi.iter().cloned().fold(f64::INFINITY, f64::min);
    let v = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let f = |x: f64| -> f64 {
        let term = |(p, a): (&f64, &f64)| p * a / (1.0 + x * a);
        probs.iter().zip(phi).map(term).sum()
    };
    let theta = itp_root(f, -1.0 / v, -1.0 / u, epsilon);
    probs
        .iter()
        .zip(phi)
        .map(|(p, a)| p / (1.0 + theta * a))
        .collect()
}

/// The ML distribution with mean score `s` (Van den Bergh, proposition 1.1).
fn mle_logistic(scores: &[f64], probs: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    tilt(probs, &phi, 1e-3)
}

/// The ML distribution with (mean - 1/2) / sigma = `t` (section 4.1), found by
/// the fixed-point iteration of the paper from the uniform distribution, with
/// fastchess's tolerances.
fn mle_normalized(scores: &[f64], probs: &[f64], t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..100 {
        let mu: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mu).powi(2))
            .sum();
        let sigma = var.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
            .collect();
        let next = tilt(probs, &phi, 1e-7);
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-4 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::tests::{near, penta6, wdl as wld};

    fn sprt(elo0: f64, elo1: f64, model: Model) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
            model,
        }
    }

    fn near_rel(got: f64, want: f64) {
        assert!(((got - want) / want).abs() < 0.01, "got {got}, want {want}");
    }

    #[test]
    fn vectors_of_the_issue() {
        let c = penta6(365, 16618, 0, 36229, 16974, 390);
        near(sprt(0.0, 2.0, Model::Normalized).llr_pentanomial(&c), 2.25);
        let c = penta6(223, 9863, 0, 21279, 10037, 246);
        near(sprt(0.5, 2.5, Model::Logistic).llr_pentanomial(&c), -3.07);
    }

    #[test]
    fn trinomial_vectors_of_fastchess() {
        let n = |e0, e1, c: Counts| sprt(e0, e1, Model::Normalized).llr_trinomial(&c);
        near(n(0.0, 2.0, wld(36433, 36027, 68692)), 0.92);
        near(n(-1.75, 0.25, wld(10871, 10650, 20431)), 2.30);
        // One class only: the root sits by a pole; fastchess allows 1% here.
        near_rel(n(0.0, 10.0, wld(4250, 0, 0)), 120.56);
        let l = |e0, e1, c: Counts| sprt(e0, e1, Model::Logistic).llr_trinomial(&c);
        near(l(0.5, 2.5, wld(21404, 21184, 40708)), -1.57);
        near(l(0.0, 2.0, wld(57433, 57030, 106593)), -2.59);
    }

    #[test]
    fn pentanomial_vectors_of_fastchess() {
        let n = |e0, e1, c: Counts| sprt(e0, e1, Model::Normalized).llr_pentanomial(&c);
        near(
            n(0.0, 2.0, penta6(365, 16618, 36029, 200, 16974, 390)),
            2.25,
        );
        near(
            n(-1.75, 0.25, penta6(127, 4883, 10311, 401, 5150, 104)),
            3.01,
        );
        near_rel(n(0.0, 5.0, penta6(0, 0, 0, 0, 0, 5550)), 111.82);
        let l = |e0, e1, c: Counts| sprt(e0, e1, Model::Logistic).llr_pentanomial(&c);
        near(
            l(0.5, 2.5, penta6(223, 9863, 20279, 1000, 10037, 246)),
            -3.07,
        );
        near(
            l(0.0, 2.0, penta6(871, 26175, 55003, 980, 26678, 821)),
            -4.98,
        );
    }

    #[test]
    fn bounds_and_decisions() {
        let s = sprt(0.0, 5.0, Model::Logistic);
        near(s.lower_bound(), -2.94);
        near(s.upper_bound(), 2.94);
        assert_eq!(s.decide(3.0), Decision::H1);
        assert_eq!(s.decide(-3.0), Decision::H0);
        assert_eq!(s.decide(0.0), Decision::Continue);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(sprt(2.0, 0.0, Model::Logistic).validate().is_err());
        let mut s = sprt(0.0, 2.0, Model::Logistic);
        s.alpha = 0.0;
        assert!(s.validate().is_err());
        s.alpha = 0.6;
        s.beta = 0.5;
        assert!(s.validate().is_err());
        assert!(sprt(0.0, 2.0, Model::Normalized).validate().is_ok());
    }

    #[test]
    fn empty_counts_give_a_finite_llr() {
        let c = Counts::default();
        for m in [Model::Logistic, Model::Normalized] {
            assert!(sprt(0.0, 2.0, m).llr_pentanomial(&c).is_finite());
            assert!(sprt(0.0, 2.0, m).llr_trinomial(&c).is_finite());
        }
    }
}
