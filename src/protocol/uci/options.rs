//! UCI options: the list `uci` answers with, and `setoption` read into the session.

use super::{UciResponse, UciSession};
use crate::board::CastlingNotation;
use crate::players::level10::{DEFAULT_MB as DEFAULT_TABLE_MB, MAX_MB as MAX_TABLE_MB};
use crate::players::spec::PlayerSpec;
use crate::players::strength;
use crate::protocol::clock::MAX_OVERHEAD_MS;
use crate::protocol::engine::{
    DEFAULT_LEVEL, MAX_LEVEL, MAX_LINES, MIN_LEVEL, OwnPlayerError, PROBE_DEPTH, PROBE_LIMIT, TableSize, max_threads,
};
use crate::protocol::shared::echo;
use std::time::Duration;

/// Why a `setoption` was refused, for its `info string`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionError {
    #[error("Level must be {MIN_LEVEL} to {MAX_LEVEL}, got '{0}'")]
    Level(String),
    #[error("Hash must be 1 to {MAX_TABLE_MB} (MB), got '{0}'")]
    Hash(String),
    #[error("Hash {asked}: not that much memory to be had; the table has {got} MB")]
    HashShort { asked: usize, got: usize },
    #[error("MultiPV must be 1 to {MAX_LINES}, got '{0}'")]
    MultiPv(String),
    #[error("bad Seed '{0}'")]
    Seed(String),
    #[error("UCI_LimitStrength must be true or false, got '{0}'")]
    LimitStrength(String),
    #[error("Ponder must be true or false, got '{0}'")]
    Ponder(String),
    #[error("UCI_Chess960 must be true or false, got '{0}'")]
    Chess960(String),
    #[error("Threads must be 1 to {max} (this machine's cores), got '{value}'")]
    Threads { value: String, max: usize },
    #[error("UCI_Elo must be {min} to {max}, got '{value}'")]
    Elo { value: String, min: u32, max: u32 },
    #[error("Move Overhead must be 0 to {MAX_OVERHEAD_MS} (ms), got '{0}'")]
    Overhead(String),
    #[error("UCI_ShowWDL must be true or false, got '{0}'")]
    ShowWdl(String),
    #[error("UCI_AnalyseMode must be true or false, got '{0}'")]
    AnalyseMode(String),
    #[error("SyzygyProbeDepth must be {min} to {max}, got '{value}'", min = PROBE_DEPTH.1, max = PROBE_DEPTH.2)]
    ProbeDepth { value: String },
    #[error("SyzygyProbeLimit must be {min} to {max}, got '{value}'", min = PROBE_LIMIT.1, max = PROBE_LIMIT.2)]
    ProbeLimit { value: String },
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error(transparent)]
    Player(#[from] OwnPlayerError),
}

impl UciSession<'_> {
    /// The `option` lines of the answer to `uci`, each with its value now.
    pub(super) fn option_lines(&self) -> Vec<UciResponse> {
        let level = self.engine.level().unwrap_or(DEFAULT_LEVEL);
        let mut out = Vec::new();
        out.push(UciResponse::Option(format!("name Level type spin default {level} min {MIN_LEVEL} max {MAX_LEVEL}")));
        out.push(UciResponse::Option(format!(
            "name Hash type spin default {DEFAULT_TABLE_MB} min 1 max {MAX_TABLE_MB}"
        )));
        out.push(UciResponse::Option(format!("name Ponder type check default {}", self.ponder)));
        out.push(UciResponse::Option(format!(
            "name UCI_Chess960 type check default {}",
            self.castling == CastlingNotation::KingTakesRook
        )));
        out.push(UciResponse::Option(format!(
            "name Threads type spin default {} min 1 max {}",
            self.engine.threads(),
            max_threads()
        )));
        out.push(UciResponse::Option(format!(
            "name MultiPV type spin default {} min 1 max {MAX_LINES}",
            self.engine.lines()
        )));
        out.push(UciResponse::Option(format!("name Features type string default {}", self.engine.features())));
        out.push(UciResponse::Option(format!("name Seed type string default {}", self.engine.seed())));
        let (min, max) = strength::range();
        out.push(UciResponse::Option(format!(
            "name UCI_LimitStrength type check default {}",
            self.engine.limits_strength()
        )));
        out.push(UciResponse::Option(format!(
            "name UCI_Elo type spin default {} min {min} max {max}",
            self.engine.elo()
        )));
        out.push(UciResponse::Option(format!("name Player type string default {}", self.engine.spec())));
        out.push(UciResponse::Option(format!(
            "name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
            self.overhead.as_millis()
        )));
        out.push(UciResponse::Option("name Clear Hash type button".into()));
        out.push(UciResponse::Option("name UCI_AnalyseMode type check default false".into()));
        out.push(UciResponse::Option(format!("name UCI_ShowWDL type check default {}", self.show_wdl)));
        out.push(UciResponse::Option(format!("name SyzygyPath type string default {}", self.engine.syzygy_path())));
        out.push(UciResponse::Option(format!(
            "name SyzygyProbeDepth type spin default {} min {} max {}",
            self.engine.probe_depth(),
            PROBE_DEPTH.1,
            PROBE_DEPTH.2
        )));
        out.push(UciResponse::Option(format!(
            "name SyzygyProbeLimit type spin default {} min {} max {}",
            self.engine.probe_limit(),
            PROBE_LIMIT.1,
            PROBE_LIMIT.2
        )));
        out
    }

    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let value = value.unwrap_or("");
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<u8>() {
                Ok(n) if (MIN_LEVEL..=MAX_LEVEL).contains(&n) => {
                    let spec = PlayerSpec::level(u32::from(n)).map_err(OwnPlayerError::from)?;
                    Ok(self.engine.set_spec(spec)?)
                }
                _ => Err(OptionError::Level(echo(value))),
            },
            "hash" => match value.trim().parse::<usize>() {
                Ok(mb) if (1..=MAX_TABLE_MB).contains(&mb) => {
                    if let TableSize::Smaller { asked, got } = self.engine.set_table_mb(mb) {
                        return Err(OptionError::HashShort { asked, got });
                    }
                    Ok(())
                }
                _ => Err(OptionError::Hash(echo(value))),
            },
            "threads" => match value.trim().parse::<usize>() {
                Ok(n) if (1..=max_threads()).contains(&n) => {
                    self.engine.set_threads(n);
                    Ok(())
                }
                _ => Err(OptionError::Threads { value: echo(value), max: max_threads() }),
            },
            "ponder" => match value.trim().to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    self.ponder = on == "true";
                    Ok(())
                }
                _ => Err(OptionError::Ponder(echo(value))),
            },
            "uci_chess960" => match value.trim().to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    self.castling =
                        if on == "true" { CastlingNotation::KingTakesRook } else { CastlingNotation::KingsMove };
                    Ok(())
                }
                _ => Err(OptionError::Chess960(echo(value))),
            },
            "multipv" => match value.trim().parse::<u32>() {
                Ok(n) if (1..=MAX_LINES).contains(&n) => {
                    self.engine.set_lines(n);
                    Ok(())
                }
                _ => Err(OptionError::MultiPv(echo(value))),
            },
            "seed" => {
                let seed = value.parse().map_err(|_| OptionError::Seed(echo(value)))?;
                self.engine.set_seed(seed);
                Ok(())
            }
            "uci_limitstrength" => match value.trim().to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    self.engine.set_limit_strength(on == "true");
                    Ok(())
                }
                _ => Err(OptionError::LimitStrength(echo(value))),
            },
            "uci_elo" => {
                let (min, max) = strength::range();
                let refused = || OptionError::Elo { value: echo(value), min, max };
                let elo = value.trim().parse::<u32>().map_err(|_| refused())?;
                self.engine.set_elo(elo).map_err(|_| refused())
            }
            "move overhead" => match value.trim().parse::<u64>() {
                Ok(ms) if ms <= MAX_OVERHEAD_MS => {
                    self.overhead = Duration::from_millis(ms);
                    Ok(())
                }
                _ => Err(OptionError::Overhead(echo(value))),
            },
            "clear hash" => {
                self.engine.clear_hash();
                Ok(())
            }
            // Analysis is what `go infinite` already does; the option is taken for the GUIs
            // that set it.
            "uci_analysemode" => match value.trim().to_ascii_lowercase().as_str() {
                "true" | "false" => Ok(()),
                _ => Err(OptionError::AnalyseMode(echo(value))),
            },
            "uci_showwdl" => match value.trim().to_ascii_lowercase().as_str() {
                on @ ("true" | "false") => {
                    self.show_wdl = on == "true";
                    Ok(())
                }
                _ => Err(OptionError::ShowWdl(echo(value))),
            },
            "syzygyprobedepth" => match value.trim().parse::<u32>() {
                Ok(d) if (PROBE_DEPTH.1..=PROBE_DEPTH.2).contains(&d) => {
                    self.engine.set_probe_depth(d);
                    Ok(())
                }
                _ => Err(OptionError::ProbeDepth { value: echo(value) }),
            },
            "syzygyprobelimit" => match value.trim().parse::<u32>() {
                Ok(n) if (PROBE_LIMIT.1..=PROBE_LIMIT.2).contains(&n) => {
                    self.engine.set_probe_limit(n);
                    Ok(())
                }
                _ => Err(OptionError::ProbeLimit { value: echo(value) }),
            },
            "features" => Ok(self.engine.set_spec(PlayerSpec::features(value).map_err(OwnPlayerError::from)?)?),
            "player" => Ok(self.engine.set_spec(value.parse().map_err(OwnPlayerError::from)?)?),
            _ => Err(OptionError::Unknown(echo(name))),
        }
    }
}
