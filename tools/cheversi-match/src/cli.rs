//! The command line: clap definitions and their checked conversion into a
//! [`MatchConfig`], an SPRT, or the counts of `stats`.

use crate::config::{MatchConfig, OpeningOrder};
use crate::engine_config::EngineConfig;
use crate::sprt::{Model, Sprt};
use crate::stats::Counts;
use clap::{ArgAction, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// Tournament runner for Cheversi engines.
#[derive(Parser, Debug)]
#[command(
    name = "cheversi-match",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A subcommand; without one, a match is played.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Match settings.
    #[command(flatten)]
    pub run: RunArgs,
    /// Log to stderr: -v what the runner does, -vv engine traffic too
    /// (RUST_LOG, e.g. RUST_LOG=debug, takes precedence).
    #[arg(short, long, action = ArgAction::Count, global = true)]
    pub verbose: u8,
}

impl Cli {
    /// Parses `argv`, keeping each `--engine`'s values together.
    pub fn parse_args<I, T>(argv: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(argv)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        if let Ok(Some(groups)) = matches.try_get_occurrences::<String>("engine") {
            cli.run.engines = groups.map(|g| g.cloned().collect()).collect();
        }
        Ok(cli)
    }
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Statistics from counts: Elo, nElo, LOS and (with --sprt) the LLR.
    Stats(StatsArgs),
    /// Joins the state files of shards of one match into one summary.
    Merge(MergeArgs),
}

/// Settings of a match.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// An engine: cmd=PATH [name=NAME] [arg=A]... [option.N=V]... LIMIT [timemargin=MS] [timeout=MS].
    /// LIMIT is depth=N, nodes=N, movetime=MS or tc=SECONDS+INC. Give two for a
    /// match; more for a gauntlet of the first against the rest.
    #[arg(id = "engine", long = "engine", num_args = 1.., value_name = "KEY=VALUE", action = ArgAction::Append)]
    pub engine_words: Vec<String>,
    /// The `--engine` values, one list per engine (filled by [`Cli::parse_args`]).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// Settings applied to every engine (its own win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Rules: standard, open or original.
    #[arg(long, default_value = "standard")]
    pub variant: cheversi::Variant,
    /// Games per pairing; even, as openings are played in pairs.
    #[arg(long, default_value_t = 2)]
    pub games: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed of random openings and of the opening order (made up and printed if absent).
    #[arg(long)]
    pub seed: Option<u64>,
    /// File of openings: one a line, a position string or placements.
    #[arg(long)]
    pub openings: Option<String>,
    /// Order of the file's openings.
    #[arg(long, value_enum, default_value = "random")]
    pub opening_order: OpeningOrder,
    /// Plies of random openings (when no file is given).
    #[arg(long, default_value_t = 2)]
    pub opening_plies: u8,
    /// Sequential test: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// PGN file to append games to (a regular file: it is read back on --resume).
    #[arg(long)]
    pub pgnout: Option<String>,
    /// PGN without move comments (placements and result only).
    #[arg(long)]
    pub pgn_min: bool,
    /// JSON summary written at the end.
    #[arg(long)]
    pub summary: Option<String>,
    /// State file, written after every game.
    #[arg(long, default_value = "cheversi-match.state.json")]
    pub state: String,
    /// Continue the match saved in the state file.
    #[arg(long)]
    pub resume: bool,
    /// Log of every line sent to and read from the engines.
    #[arg(long)]
    pub log: Option<String>,
    /// Play only games START..END of the match (a shard; even bounds).
    #[arg(long, value_name = "START..END")]
    pub range: Option<String>,
    /// Milliseconds allowed for uciok and readyok.
    #[arg(long, default_value_t = 10_000)]
    pub startup_timeout: u64,
    /// Games between rating lines (when not on a terminal).
    #[arg(long, default_value_t = 10)]
    pub rating_interval: u64,
}

/// Arguments of `stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    /// Wins, draws and losses of the first engine: W,D,L.
    #[arg(long, conflicts_with = "penta", required_unless_present = "penta")]
    pub wdl: Option<String>,
    /// Pairs by points: LL,LD,DD,WD,WW (DD counts WL pairs too).
    #[arg(long)]
    pub penta: Option<String>,
    /// Sequential test, as for a match.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// State files of the shards.
    #[arg(required = true)]
    pub states: Vec<String>,
    /// JSON summary of the merged match.
    #[arg(long)]
    pub summary: Option<String>,
}

/// Parses `elo0=.. elo1=.. [alpha=..] [beta=..] [model=..]`.
pub fn parse_sprt(tokens: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: Model::Normalized,
    };
    for t in tokens {
        let (k, v) = t
            .split_once('=')
            .ok_or_else(|| format!("--sprt: '{t}' is not KEY=VALUE"))?;
        let num = || {
            v.parse::<f64>()
                .map_err(|_| format!("--sprt {k}={v}: not a number"))
        };
        match k {
            "elo0" => s.elo0 = num()?,
            "elo1" => s.elo1 = num()?,
            "alpha" => s.alpha = num()?,
            "beta" => s.beta = num()?,
            "model" => s.model = v.parse()?,
            _ => return Err(format!("--sprt: unknown key '{k}'")),
        }
    }
    if s.elo0.is_nan() || s.elo1.is_nan() {
        return Err("--sprt needs elo0= and elo1=".into());
    }
    s.validate()?;
    Ok(s)
}

/// Parses `N,N,N` (`n` numbers) into a vector.
fn parse_list(text: &str, n: usize, what: &str) -> Result<Vec<u64>, String> {
    let v: Vec<u64> = text
        .split(',')
        .map(|x| x.trim().parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{what}: expected {n} whole numbers separated by commas"))?;
    if v.len() != n {
        return Err(format!("{what}: expected {n} numbers, got {}", v.len()));
    }
    Ok(v)
}

/// The counts given to `stats`; errors when there are no games.
pub fn stats_counts(args: &StatsArgs) -> Result<Counts, String> {
    let c = match (&args.wdl, &args.penta) {
        (Some(w), _) => {
            let v = parse_list(w, 3, "--wdl")?;
            Counts {
                wins: v[0],
                draws: v[1],
                losses: v[2],
                penta: [0; 5],
            }
        }
        (None, Some(p)) => {
            let v = parse_list(p, 5, "--penta")?;
            Counts {
                penta: [v[0], v[1], v[2], v[3], v[4]],
                ..Counts::default()
            }
        }
        (None, None) => return Err("give --wdl or --penta".into()),
    };
    if c.games() == 0 && c.pairs() == 0 {
        return Err("no games counted".into());
    }
    Ok(c)
}

/// Parses `START..END`.
fn parse_range(text: &str, total: u64) -> Result<(u64, u64), String> {
    let bad = || format!("--range {text}: expected START..END with even bounds within 0..{total}");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (u64, u64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b || b > total || !a.is_multiple_of(2) || !b.is_multiple_of(2) {
        return Err(bad());
    }
    Ok((a, b))
}

/// A seed from the clock, for matches started without `--seed`.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::rng::SplitMix64::new(nanos ^ u64::from(std::process::id())).next_u64() >> 1
}

impl RunArgs {
    /// The match these arguments describe; `saved_seed` stands in for a missing `--seed`.
    pub fn config(&self, saved_seed: Option<u64>) -> Result<MatchConfig, String> {
        if self.engines.len() < 2 {
            return Err("give at least two --engine".into());
        }
        let engines = self
            .engines
            .iter()
            .map(|own| EngineConfig::parse(self.each.iter().chain(own).map(String::as_str)))
            .collect::<Result<Vec<_>, _>>()?;
        check_names(&engines)?;
        if self.games == 0 || !self.games.is_multiple_of(2) {
            return Err(format!(
                "--games {}: must be even and positive (openings are played in pairs)",
                self.games
            ));
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if self.opening_plies >= cheversi::GAME_PLIES {
            return Err(format!(
                "--opening-plies must be below {}",
                cheversi::GAME_PLIES
            ));
        }
        let sprt = self.sprt.as_deref().map(parse_sprt).transpose()?;
        if sprt.is_some() && engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        let total = self.games * (engines.len() as u64 - 1);
        let range = match &self.range {
            Some(r) => parse_range(r, total)?,
            None => (0, total),
        };
        Ok(MatchConfig {
            engines,
            variant: self.variant.name().to_string(),
            games: self.games,
            seed: self.seed.or(saved_seed).unwrap_or_else(fresh_seed),
            openings: self.openings.clone(),
            opening_order: self.opening_order,
            opening_plies: self.opening_plies,
            sprt,
            range,
        })
    }
}

fn check_names(engines: &[EngineConfig]) -> Result<(), String> {
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!("two engines are named '{}': give name=", e.name));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(extra: &[&str]) -> Result<MatchConfig, String> {
        let mut argv = vec![
            "cheversi-match",
            "--engine",
            "cmd=a",
            "depth=2",
            "--engine",
            "cmd=b",
            "nodes=9",
        ];
        argv.extend(extra);
        let cli = Cli::parse_args(argv).map_err(|e| e.to_string())?;
        cli.run.config(None)
    }

    #[test]
    fn a_match_parses() {
        let c = run_args(&["--games", "4", "--seed", "7", "--range", "2..4"]).unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!((c.seed, c.range, c.total_games()), (7, (2, 4), 4));
        let c = run_args(&["--sprt", "elo0=0", "elo1=5", "model=logistic"]).unwrap();
        assert_eq!(c.sprt.unwrap().model, Model::Logistic);
    }

    #[test]
    fn bad_matches_are_refused() {
        assert!(run_args(&["--games", "3"]).is_err());
        assert!(run_args(&["--games", "0"]).is_err());
        assert!(run_args(&["--concurrency", "0"]).is_err());
        assert!(run_args(&["--range", "1..2"]).is_err());
        assert!(run_args(&["--range", "0..4"]).is_err());
        assert!(run_args(&["--sprt", "elo0=5", "elo1=0"]).is_err());
        assert!(run_args(&["--sprt", "elo1=5"]).is_err());
        assert!(run_args(&["--sprt", "elo0=0", "elo1=5", "model=bayes"]).is_err());
        assert!(run_args(&["--variant", "chess"]).is_err());
        assert!(run_args(&["--opening-plies", "16"]).is_err());
        assert!(run_args(&["--engine", "cmd=c", "depth=1", "--sprt", "elo0=0", "elo1=5"]).is_err());
        assert!(run_args(&["--engine", "cmd=a", "depth=1"]).is_err());
        let one = Cli::parse_args(["cheversi-match", "--engine", "cmd=a", "depth=2"]).unwrap();
        assert!(one.run.config(None).is_err());
    }

    #[test]
    fn stats_counts_parse() {
        let a = |wdl: Option<&str>, penta: Option<&str>| StatsArgs {
            wdl: wdl.map(String::from),
            penta: penta.map(String::from),
            sprt: None,
            json: false,
        };
        assert_eq!(stats_counts(&a(Some("1,2,3"), None)).unwrap().losses, 3);
        assert_eq!(
            stats_counts(&a(None, Some("1,2,3,4,5"))).unwrap().penta,
            [1, 2, 3, 4, 5]
        );
        assert!(stats_counts(&a(Some("1,2"), None)).is_err());
        assert!(stats_counts(&a(Some("1,x,2"), None)).is_err());
        assert!(stats_counts(&a(Some("0,0,0"), None)).is_err());
        assert!(stats_counts(&a(None, Some("1,2,3,4,-5"))).is_err());
    }
}
