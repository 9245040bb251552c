//! What `uci:CMD,...` and `xboard:CMD,...` say after their prefix: the command, the limit of a
//! move, the engine's options, how long to wait, and a name.

use std::fmt;
use std::time::Duration;
use thiserror::Error;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

impl Protocol {
    /// The spec prefix: `uci` or `xboard`.
    pub fn prefix(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Xboard => "xboard",
        }
    }

    /// The limit settings the protocol takes, for messages.
    fn limit_keys(self) -> &'static str {
        match self {
            Protocol::Uci => "depth, nodes, movetime, tc",
            Protocol::Xboard => "sd, st, tc",
        }
    }
}

/// What one move may cost the engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    Depth(u32),
    Nodes(u64),
    MoveTime(Duration),
    /// `moves` per `base` (0: the whole game), plus `inc` a move.
    Clock {
        moves: u32,
        base: Duration,
        inc: Duration,
    },
}

/// A parsed `uci:`/`xboard:` spec.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub protocol: Protocol,
    pub command: Vec<String>,
    pub limit: Limit,
    pub options: Vec<(String, String)>,
    /// How long to wait for a move beyond what the limit allows.
    pub timeout: Duration,
    pub label: Option<String>,
    /// The settings as written (after the prefix), which `Display` gives back: the engine's
    /// name in every table is the spec the user typed.
    written: String,
}

/// Why an engine spec cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineSpecError {
    #[error("an external engine needs a command, e.g. uci:/usr/games/stockfish,depth=1")]
    NoCommand,
    #[error("'{0}' is not KEY=VALUE")]
    NotKeyValue(String),
    #[error("{key}: '{value}' is not a positive number")]
    NotPositive { key: String, value: String },
    #[error("{key}: '{value}' is not a whole number of 1 or more")]
    NotWhole { key: String, value: String },
    #[error("tc: '{0}' is not MOVES/SECS+INC (e.g. 40/60+0.5 or 10+0.1)")]
    BadTimeControl(String),
    #[error("tc: '{0}' leaves no time on the clock (SECS must be above 0, e.g. 10+0.1)")]
    NoTime(String),
    #[error("unknown engine setting '{key}' (expected {keys}, option.NAME, timeout, name)")]
    UnknownSetting { key: String, keys: &'static str },
    #[error("give the engine one limit (depth, nodes, movetime, sd, st or tc)")]
    TwoLimits,
}

/// A late move within this margin of the clock is not a forfeit (the pipe and the scheduler).
pub(super) const CLOCK_MARGIN: Duration = Duration::from_millis(100);

impl EngineSpec {
    /// `text` is the spec without its `uci:`/`xboard:` prefix, whose protocol is `protocol`.
    pub fn parse(protocol: Protocol, text: &str) -> Result<EngineSpec, EngineSpecError> {
        let mut parts = text.split(',');
        let command: Vec<String> = parts.next().unwrap_or("").split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err(EngineSpecError::NoCommand);
        }
        let mut spec = EngineSpec {
            protocol,
            command,
            limit: Limit::Depth(1),
            options: Vec::new(),
            timeout: Duration::from_secs(60),
            label: None,
            written: text.trim().to_string(),
        };
        let mut limits = 0;
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| EngineSpecError::NotKeyValue(part.to_string()))?;
            let (key, value) = (key.trim(), value.trim());
            let number = || {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v > 0.0)
                    .ok_or_else(|| EngineSpecError::NotPositive { key: key.to_string(), value: value.to_string() })
            };
            let whole = || {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&v| v > 0)
                    .ok_or_else(|| EngineSpecError::NotWhole { key: key.to_string(), value: value.to_string() })
            };
            let limit = match (protocol, key) {
                (Protocol::Uci, "depth") | (Protocol::Xboard, "sd") => {
                    Some(Limit::Depth(whole()?.min(u32::MAX as u64) as u32))
                }
                (Protocol::Uci, "nodes") => Some(Limit::Nodes(whole()?)),
                (Protocol::Uci, "movetime") => Some(Limit::MoveTime(Duration::from_millis(whole()?))),
                (Protocol::Xboard, "st") => Some(Limit::MoveTime(Duration::from_secs_f64(number()?))),
                (_, "tc") => Some(parse_tc(value)?),
                _ => None,
            };
            if let Some(limit) = limit {
                spec.limit = limit;
                limits += 1;
                continue;
            }
            match key {
                "name" if !value.is_empty() => spec.label = Some(value.to_string()),
                "timeout" => spec.timeout = Duration::from_secs_f64(number()?),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => spec.options.push((name.to_string(), value.to_string())),
                    _ => {
                        let keys = protocol.limit_keys();
                        return Err(EngineSpecError::UnknownSetting { key: key.to_string(), keys });
                    }
                },
            }
        }
        if limits > 1 {
            return Err(EngineSpecError::TwoLimits);
        }
        Ok(spec)
    }

    /// How long a move may take before the engine counts as silent, given its clock.
    pub(super) fn reply_deadline(&self, clock: Option<Duration>) -> Duration {
        match self.limit {
            Limit::MoveTime(t) => t + self.timeout.min(Duration::from_secs(5)).max(Duration::from_secs(1)),
            Limit::Clock { .. } => clock.unwrap_or_default() + CLOCK_MARGIN + Duration::from_secs(1),
            _ => self.timeout,
        }
    }

    /// This spec with its search depth set to `depth` (the `depth=` of a UCI engine, the `sd=`
    /// of an XBoard one), or as it is when it limits the engine some other way.
    pub fn at_depth(&self, depth: u32) -> EngineSpec {
        let key = match self.protocol {
            Protocol::Uci => "depth",
            Protocol::Xboard => "sd",
        };
        let mut parts = self.written.split(',');
        let mut written = parts.next().unwrap_or("").to_string();
        for p in parts {
            written.push(',');
            match p.trim().split_once('=') {
                Some((k, _)) if k.trim() == key => written.push_str(&format!("{key}={depth}")),
                _ => written.push_str(p),
            }
        }
        EngineSpec::parse(self.protocol, &written).expect("a depth in place of a depth is as valid as before")
    }
}

impl fmt::Display for EngineSpec {
    /// `uci:` or `xboard:` and the settings as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.protocol.prefix(), self.written)
    }
}

/// A time control as `tc=` takes it, read alone (`calibrate --tc`).
pub fn parse_time_control(text: &str) -> Result<Limit, EngineSpecError> {
    parse_tc(text)
}

/// `40/60+0.5`, `60+1`, `0/60`: moves per session / seconds + increment.
fn parse_tc(text: &str) -> Result<Limit, EngineSpecError> {
    let bad = || EngineSpecError::BadTimeControl(text.to_string());
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => (m.trim().parse::<u32>().map_err(|_| bad())?, r),
        None => (0, text),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, i),
        None => (rest, "0"),
    };
    let secs = |s: &str| s.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0).ok_or_else(bad);
    let (base, inc) = (secs(base)?, secs(inc)?);
    if base <= 0.0 {
        return Err(EngineSpecError::NoTime(text.to_string()));
    }
    Ok(Limit::Clock { moves, base: Duration::from_secs_f64(base), inc: Duration::from_secs_f64(inc) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_are_refused() {
        let s = EngineSpec::parse(Protocol::Uci, "/usr/games/stockfish,depth=3,option.Threads=1,name=SF").unwrap();
        assert_eq!(s.command, vec!["/usr/games/stockfish"]);
        assert_eq!(s.limit, Limit::Depth(3));
        assert_eq!(s.options, vec![("Threads".to_string(), "1".to_string())]);
        assert_eq!(s.label.as_deref(), Some("SF"));
        let x = EngineSpec::parse(Protocol::Xboard, "fairymax -x,tc=40/60+0.5").unwrap();
        assert_eq!(x.command, vec!["fairymax", "-x"]);
        assert_eq!(x.limit, Limit::Clock { moves: 40, base: Duration::from_secs(60), inc: Duration::from_millis(500) });
        assert_eq!(
            EngineSpec::parse(Protocol::Xboard, "e,st=2").unwrap().limit,
            Limit::MoveTime(Duration::from_secs(2))
        );
        assert_eq!(EngineSpec::parse(Protocol::Uci, "e").unwrap().limit, Limit::Depth(1));
        assert_eq!(
            EngineSpec::parse(Protocol::Uci, "e,tc=10+0.1").unwrap().limit,
            Limit::Clock { moves: 0, base: Duration::from_secs(10), inc: Duration::from_millis(100) }
        );
        let uci = |text| EngineSpec::parse(Protocol::Uci, text).unwrap_err();
        let text = |s: &str| s.to_string();
        let unknown =
            |key: &str| EngineSpecError::UnknownSetting { key: key.into(), keys: "depth, nodes, movetime, tc" };
        for (bad, error) in [
            ("", EngineSpecError::NoCommand),
            (",depth=1", EngineSpecError::NoCommand),
            ("e,depth=0", EngineSpecError::NotWhole { key: text("depth"), value: text("0") }),
            ("e,depth=x", EngineSpecError::NotWhole { key: text("depth"), value: text("x") }),
            ("e,timeout=-1", EngineSpecError::NotPositive { key: text("timeout"), value: text("-1") }),
            ("e,sd=2", unknown("sd")),
            ("e,depth=1,nodes=5", EngineSpecError::TwoLimits),
            ("e,bogus=1", unknown("bogus")),
            ("e,tc=40/", EngineSpecError::BadTimeControl(text("40/"))),
            ("e,tc=0", EngineSpecError::NoTime(text("0"))),
            ("e,tc=0+0", EngineSpecError::NoTime(text("0+0"))),
            ("e,option.=1", unknown("option.")),
            ("e,depth", EngineSpecError::NotKeyValue(text("depth"))),
        ] {
            assert_eq!(uci(bad), error, "uci:{bad}");
        }
        assert_eq!(
            uci("e,bogus=1").to_string(),
            "unknown engine setting 'bogus' (expected depth, nodes, movetime, tc, option.NAME, timeout, name)"
        );
        assert!(EngineSpec::parse(Protocol::Xboard, "e,depth=2").is_err(), "xboard takes sd, not depth");
    }

    #[test]
    fn the_spec_is_shown_as_written() {
        for (protocol, text) in [
            (Protocol::Uci, "/usr/games/stockfish,depth=1, option.Threads=1"),
            (Protocol::Xboard, "fairymax -x,tc=40/60+0.5,name=FM"),
        ] {
            let spec = EngineSpec::parse(protocol, text).unwrap();
            assert_eq!(spec.to_string(), format!("{}:{text}", protocol.prefix()));
        }
    }

    #[test]
    fn the_opponent_goes_to_depths_1_to_3() {
        let at = |protocol, text, depth| EngineSpec::parse(protocol, text).unwrap().at_depth(depth).to_string();
        assert_eq!(
            at(Protocol::Uci, "/usr/games/stockfish,depth=1,option.Threads=1", 3),
            "uci:/usr/games/stockfish,depth=3,option.Threads=1"
        );
        assert_eq!(at(Protocol::Xboard, "fairymax,sd=1", 2), "xboard:fairymax,sd=2");
        assert_eq!(at(Protocol::Uci, "engine,movetime=100", 2), "uci:engine,movetime=100");
        assert_eq!(at(Protocol::Uci, "engine", 2), "uci:engine");
    }
}
