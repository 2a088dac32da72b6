//! Game counts and the Elo statistics computed from them, as fastchess does:
//! trinomial (W/D/L per game) and pentanomial (per pair of games with swapped
//! colours) score, variance, Elo with its 95% interval, normalized Elo and LOS.

use serde::{Deserialize, Serialize};

/// The two-sided 95% z-score.
const Z95: f64 = 1.959_963_984_540_054;

/// One game's outcome from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// The first engine won.
    Win,
    /// Draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Outcome {
    /// The points the first engine earns: 1, 1/2 or 0, in half points.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

/// Win/draw/loss counts and pentanomial pair counts of one pairing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Games won by the first engine.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by the first engine.
    pub losses: u64,
    /// Pairs by points scored in the pair: [LL, LD, WL+DD, WD, WW].
    pub penta: [u64; 5],
}

impl Counts {
    /// Counts one finished game.
    pub fn add_game(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Loss => self.losses += 1,
        }
    }

    /// Counts one finished pair (both games of one opening).
    pub fn add_pair(&mut self, a: Outcome, b: Outcome) {
        self.penta[(a.half_points() + b.half_points()) as usize] += 1;
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &Counts) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        for (a, b) in self.penta.iter_mut().zip(other.penta) {
            *a += b;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }
}

/// The per-unit outcome distribution: scores in [0, 1] and their frequencies.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// The score of each outcome class (0, 1/2, 1 or 0, 1/4, ..., 1).
    pub scores: Vec<f64>,
    /// How often each class occurred.
    pub counts: Vec<f64>,
}

impl Distribution {
    /// Per-game distribution: [L, D, W].
    pub fn trinomial(c: &Counts) -> Distribution {
        Distribution {
            scores: vec![0.0, 0.5, 1.0],
            counts: vec![c.losses as f64, c.draws as f64, c.wins as f64],
        }
    }

    /// Per-pair distribution: [LL, LD, WL+DD, WD, WW], scores halved.
    pub fn pentanomial(c: &Counts) -> Distribution {
        Distribution {
            scores: vec![0.0, 0.25, 0.5, 0.75, 1.0],
            counts: c.penta.iter().map(|&n| n as f64).collect(),
        }
    }

    /// Whether this is the per-pair distribution.
    pub fn is_pentanomial(&self) -> bool {
        self.scores.len() == 5
    }

    /// Number of units (games or pairs).
    pub fn total(&self) -> f64 {
        self.counts.iter().sum()
    }

    /// Mean score per unit.
    pub fn mean(&self) -> f64 {
        let n = self.total();
        self.scores
            .iter()
            .zip(&self.counts)
            .map(|(s, c)| s * c / n)
            .sum()
    }

    /// Variance of the score per unit.
    pub fn variance(&self) -> f64 {
        let (n, mu) = (self.total(), self.mean());
        let dev = |(s, c): (&f64, &f64)| c / n * (s - mu) * (s - mu);
        self.scores.iter().zip(&self.counts).map(dev).sum()
    }
}

/// Elo and friends computed from a distribution, all from the first engine's view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Elo {
    /// Mean score per game, 0..1.
    pub score: f64,
    /// Logistic Elo difference.
    pub elo: f64,
    /// Half-width of the 95% interval of `elo`.
    pub elo_error: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// Half-width of the 95% interval of `nelo`.
    pub nelo_error: f64,
    /// Likelihood of superiority, 0..1.
    pub los: f64,
}

/// The logistic Elo difference of a mean score.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The normalized Elo of a score, given the per-game variance (a pair counts
/// as two games, hence the factor 2 for the pentanomial model).
fn score_to_nelo(score: f64, game_variance: f64) -> f64 {
    (score - 0.5) / game_variance.sqrt() * (800.0 / std::f64::consts::LN_10)
}

/// The error function, to 1.2e-7 (Numerical Recipes' erfc Chebyshev fit),
/// enough for a LOS printed to two decimals.
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

impl Elo {
    /// Computes every figure from a trinomial or pentanomial distribution.
    pub fn from_distribution(d: &Distribution) -> Elo {
        let score = d.mean();
        let variance = d.variance();
        let per_unit = variance / d.total();
        let half_width = Z95 * per_unit.sqrt();
        let (lo, hi) = (score - half_width, score + half_width);
        // A pair is two games: the per-game variance is twice the pair's.
        let game_var = if d.is_pentanomial() {
            2.0 * variance
        } else {
            variance
        };
        Elo {
            score,
            elo: score_to_elo(score),
            elo_error: (score_to_elo(hi) - score_to_elo(lo)) / 2.0,
            nelo: score_to_nelo(score, game_var),
            nelo_error: (score_to_nelo(hi, game_var) - score_to_nelo(lo, game_var)) / 2.0,
            los: (1.0 - erf(-(score - 0.5) / (2.0 * per_unit).sqrt())) / 2.0,
        }
    }

    /// From W/D/L counts.
    pub fn trinomial(c: &Counts) -> Elo {
        Elo::from_distribution(&Distribution::trinomial(c))
    }

    /// From pentanomial counts.
    pub fn pentanomial(c: &Counts) -> Elo {
        Elo::from_distribution(&Distribution::pentanomial(c))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn wdl(w: u64, l: u64, d: u64) -> Counts {
        Counts {
            wins: w,
            draws: d,
            losses: l,
            penta: [0; 5],
        }
    }

    /// fastchess orders its six pair counts LL, LD, WL, DD, WD, WW.
    pub(crate) fn penta6(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Counts {
        Counts {
            penta: [ll, ld, wl + dd, wd, ww],
            ..Counts::default()
        }
    }

    pub(crate) fn near(got: f64, want: f64) {
        assert!((got - want).abs() < 0.006, "got {got}, want {want}");
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(erf(0.0).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-2.0) + 0.995_322_27).abs() < 2e-7);
    }

    #[test]
    fn trinomial_vector_of_the_issue() {
        let e = Elo::trinomial(&wdl(136, 96, 111));
        near(e.elo, 40.70);
        near(e.elo_error, 30.43);
        near(e.nelo, 49.77);
        near(e.nelo_error, 36.77);
        assert_eq!(format!("{:.2}", e.los * 100.0), "99.60");
    }

    #[test]
    fn trinomial_vectors_of_fastchess() {
        let e = Elo::trinomial(&wdl(76, 89, 123));
        near(e.nelo, -20.76);
        near(e.nelo_error, 40.13);
        assert_eq!(format!("{:.2}", e.los * 100.0), "15.53");
        let e = Elo::trinomial(&wdl(34, 356, 0));
        near(e.nelo, -508.44);
        near(e.nelo_error, 34.48);
    }

    #[test]
    fn pentanomial_vectors_of_fastchess() {
        let e = Elo::pentanomial(&penta6(34, 54, 31, 32, 64, 75));
        near(e.nelo, 57.94);
        near(e.nelo_error, 28.28);
        near(e.elo, 55.58);
        near(e.elo_error, 27.65);
        assert_eq!(format!("{:.2}", e.los * 100.0), "100.00");
        let e = Elo::pentanomial(&penta6(332, 433, 457, 41, 333, 334));
        near(e.nelo, -9.17);
        near(e.nelo_error, 10.96);
        near(e.elo, -8.64);
        near(e.elo_error, 10.33);
        assert_eq!(format!("{:.2}", e.los * 100.0), "5.05");
        let e = Elo::pentanomial(&penta6(7895, 8757, 5485, 200, 568, 9999));
        near(e.nelo, -19.01);
        near(e.nelo_error, 2.65);
        near(e.elo, -21.04);
        near(e.elo_error, 2.95);
    }

    #[test]
    fn pairs_are_counted_by_points() {
        use Outcome::*;
        let mut c = Counts::default();
        c.add_pair(Win, Loss);
        c.add_pair(Draw, Draw);
        c.add_pair(Win, Draw);
        c.add_pair(Loss, Loss);
        assert_eq!(c.penta, [1, 0, 2, 1, 0]);
        assert_eq!(c.pairs(), 4);
    }

    #[test]
    fn even_score_gives_zero_elo_and_half_los() {
        let e = Elo::trinomial(&wdl(10, 10, 5));
        assert!(e.elo.abs() < 1e-9);
        assert!((e.los - 0.5).abs() < 1e-7);
    }
}
