//! One engine's settings, from `--engine KEY=VALUE ...` (after `--each`).

use crate::limit::Limit;
use serde::{Deserialize, Serialize};

/// How to start and drive one engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineConfig {
    /// The name in output and PGN.
    pub name: String,
    /// The program, started without a shell.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption` pairs, sent after `uciok` in this order.
    pub options: Vec<(String, String)>,
    /// The search limit per move.
    pub limit: Limit,
    /// Extra ms allowed past the clock or movetime before a time forfeit.
    pub timemargin_ms: u64,
    /// For depth and nodes limits: ms allowed per move before a time forfeit.
    pub timeout_ms: u64,
}

/// Default `timemargin`.
const DEFAULT_MARGIN_MS: u64 = 100;
/// Default `timeout` for depth and nodes searches.
const DEFAULT_TIMEOUT_MS: u64 = 60_000;

impl EngineConfig {
    /// Builds a config from `--each` tokens followed by the engine's own.
    pub fn parse<'a>(tokens: impl IntoIterator<Item = &'a str>) -> Result<EngineConfig, String> {
        let mut b = Builder::default();
        for token in tokens {
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| format!("'{token}' is not KEY=VALUE"))?;
            b.set(key, value)?;
        }
        b.finish()
    }
}

impl EngineConfig {
    /// The settings as `KEY=VALUE` words, as on the command line.
    pub fn describe(&self) -> String {
        let mut words = vec![format!("cmd={}", self.cmd), format!("name={}", self.name)];
        words.extend(self.args.iter().map(|a| format!("arg={a}")));
        words.extend(self.options.iter().map(|(n, v)| format!("option.{n}={v}")));
        words.push(self.limit.to_string());
        words.push(format!("timemargin={}", self.timemargin_ms));
        words.push(format!("timeout={}", self.timeout_ms));
        words.join(" ")
    }
}

#[derive(Default)]
struct Builder {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    options: Vec<(String, String)>,
    limit: Option<Limit>,
    timemargin_ms: Option<u64>,
    timeout_ms: Option<u64>,
}

impl Builder {
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let ms = || {
            value
                .parse::<u64>()
                .map_err(|_| format!("{key}={value}: not a number of ms"))
        };
        if let Some(limit) = Limit::parse(key, value)? {
            self.limit = Some(limit);
            return Ok(());
        }
        match key {
            "cmd" => self.cmd = Some(value.to_string()),
            "name" => self.name = Some(value.to_string()),
            "arg" => self.args.push(value.to_string()),
            "timemargin" => self.timemargin_ms = Some(ms()?),
            "timeout" => self.timeout_ms = Some(ms()?),
            _ => match key.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() => self.set_option(opt, value),
                _ => return Err(format!("unknown engine key '{key}'")),
            },
        }
        Ok(())
    }

    /// A later value of the same option (the engine's own over `--each`) wins.
    fn set_option(&mut self, name: &str, value: &str) {
        self.options.retain(|(n, _)| n != name);
        self.options.push((name.to_string(), value.to_string()));
    }

    fn finish(self) -> Result<EngineConfig, String> {
        let cmd = self.cmd.ok_or("an engine needs cmd=PATH")?;
        let name = self.name.unwrap_or_else(|| default_name(&cmd));
        let limit = self.limit.ok_or_else(|| {
            format!("engine {name} needs a limit: depth=, nodes=, movetime= or tc=")
        })?;
        Ok(EngineConfig {
            name,
            cmd,
            args: self.args,
            options: self.options,
            limit,
            timemargin_ms: self.timemargin_ms.unwrap_or(DEFAULT_MARGIN_MS),
            timeout_ms: self.timeout_ms.unwrap_or(DEFAULT_TIMEOUT_MS),
        })
    }
}

fn default_name(cmd: &str) -> String {
    std::path::Path::new(cmd)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| cmd.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_tokens_parse_with_each_defaults() {
        let each = ["depth=4", "option.Hash=16", "timemargin=50"];
        let own = [
            "cmd=/bin/eng",
            "name=A",
            "arg=--x",
            "option.Hash=32",
            "nodes=100",
        ];
        let c = EngineConfig::parse(each.iter().chain(&own).copied()).unwrap();
        assert_eq!(c.name, "A");
        assert_eq!(c.args, ["--x"]);
        assert_eq!(c.options, [("Hash".to_string(), "32".to_string())]);
        assert_eq!(c.limit, Limit::Nodes(100));
        assert_eq!(c.timemargin_ms, 50);
        let c = EngineConfig::parse(["cmd=/usr/bin/eng", "movetime=10"]).unwrap();
        assert_eq!(c.name, "eng");
    }

    #[test]
    fn bad_engine_tokens_are_refused() {
        assert!(EngineConfig::parse(["name=A", "depth=1"]).is_err());
        assert!(EngineConfig::parse(["cmd=x"]).is_err());
        assert!(EngineConfig::parse(["cmd=x", "depth=1", "colour=red"]).is_err());
        assert!(EngineConfig::parse(["cmd=x", "depth=1", "novalue"]).is_err());
        assert!(EngineConfig::parse(["cmd=x", "depth=1", "timemargin=-3"]).is_err());
    }
}
