//! The XBoard handshake and settings: the features the engine declares, its options
//! (`option NAME=VALUE`) and `memory`.

use super::Session;
use crate::players::level10::MAX_MB as MAX_TABLE_MB;
use crate::players::spec::PlayerSpec;
use crate::players::strength;
use crate::protocol::clock::MAX_OVERHEAD_MS;
use crate::protocol::engine::{DEFAULT_LEVEL, MAX_LEVEL, MAX_LINES, MIN_LEVEL, OwnPlayerError, TableSize};
use crate::protocol::response::{FeatureValue, Response};
use crate::protocol::shared::{ENGINE_NAME, VERSION, echo};
use std::time::Duration;

impl Session<'_> {
    /// The handshake: all features at once (xboard master waits only 1 s), options, `done=1`.
    pub fn features(&self) -> Vec<Response> {
        let int = |n: &str, v: i64| (n.to_string(), FeatureValue::Int(v));
        let string = |n: &str, v: String| (n.to_string(), FeatureValue::Str(v));
        let level = self.engine.level().unwrap_or(DEFAULT_LEVEL);
        vec![
            Response::Feature(vec![
                int("ping", 1),
                int("setboard", 1),
                int("playother", 1),
                int("usermove", 1),
                int("time", 1),
                int("draw", 1),
                // No `sigterm=0`: python-chess rejects it with a warning, and the engine ends
                // promptly on `quit` or a SIGTERM alike.
                int("sigint", 0),
                int("reuse", 1),
                int("analyze", 1),
                int("colors", 0),
                int("name", 1),
                int("nps", 1),
                int("debug", 1),
                int("memory", 1),
                int("smp", 1),
                int("exclude", 1),
                string("egt", "syzygy".to_string()),
                string("myname", format!("{ENGINE_NAME} {VERSION} {}", self.engine.spec())),
                string("variants", super::Variant::NAMES.join(",")),
            ]),
            Response::Feature(vec![string("option", format!("Level -spin {level} {MIN_LEVEL} {MAX_LEVEL}"))]),
            Response::Feature(vec![string("option", format!("MultiPV -spin {} 1 {MAX_LINES}", self.engine.lines()))]),
            Response::Feature(vec![string("option", format!("Features -string {}", self.engine.features()))]),
            Response::Feature(vec![string("option", format!("Seed -string {}", self.engine.seed()))]),
            Response::Feature(vec![string("option", format!("Player -string {}", self.engine.spec()))]),
            Response::Feature(vec![string(
                "option",
                format!("LimitStrength -check {}", u8::from(self.engine.limits_strength())),
            )]),
            Response::Feature(vec![string("option", {
                let (min, max) = strength::range();
                format!("Elo -spin {} {min} {max}", self.engine.elo())
            })]),
            Response::Feature(vec![string(
                "option",
                format!("Move Overhead -spin {} 0 {MAX_OVERHEAD_MS}", self.clock.overhead.as_millis()),
            )]),
            Response::Feature(vec![string("option", "Clear Hash -button".to_string())]),
            Response::Feature(vec![int("done", 1)]),
        ]
    }

    /// A refused value keeps the old one and is said twice: `Error (REASON): option N=V`, which
    /// python-chess raises as an `EngineError` from its next command, and `tellusererror`, which
    /// XBoard shows in a dialog.
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) -> Vec<Response> {
        let refuse = |reason: &str, detail: &str| {
            let cmd = match value {
                Some(v) => format!("option {name}={v}"),
                None => format!("option {name}"),
            };
            log::info!("{cmd} refused: {detail}");
            vec![
                Response::Error { reason: reason.to_string(), command: echo(&cmd) },
                Response::TellUserError(format!("{} refused: {}", echo(&cmd), detail.replace(['\n', '\r'], " "))),
            ]
        };
        const OPTIONS: [&str; 8] =
            ["Level", "MultiPV", "Features", "Seed", "Player", "LimitStrength", "Elo", "Move Overhead"];
        if name == "Clear Hash" {
            self.engine.clear_hash();
            return Vec::new();
        }
        let Some(value) = value else {
            return match OPTIONS.contains(&name) {
                true => refuse("missing value", &format!("{name} takes a value: option {name}=VALUE")),
                false => refuse("unknown option", "no such option"),
            };
        };
        let result = match name {
            "Level" => match value.parse::<u8>() {
                Ok(n) if (MIN_LEVEL..=MAX_LEVEL).contains(&n) => PlayerSpec::level(u32::from(n))
                    .map_err(OwnPlayerError::from)
                    .and_then(|spec| self.engine.set_spec(spec))
                    .map_err(|e| ("level not available", e.to_string())),
                _ => Err(("bad level", format!("levels are {MIN_LEVEL} to {MAX_LEVEL}"))),
            },
            "Seed" => match value.parse::<u64>() {
                Ok(seed) => {
                    self.engine.set_seed(seed);
                    Ok(())
                }
                Err(_) => Err(("bad seed", "a seed is a whole number from 0 to 2^64-1".to_string())),
            },
            "MultiPV" => match value.trim().parse::<u32>() {
                Ok(n) if (1..=MAX_LINES).contains(&n) => {
                    self.engine.set_lines(n);
                    Ok(())
                }
                _ => Err(("bad value", format!("MultiPV must be 1 to {MAX_LINES}"))),
            },
            "Features" => PlayerSpec::features(value)
                .map_err(OwnPlayerError::from)
                .and_then(|spec| self.engine.set_spec(spec))
                .map_err(|e| ("unknown feature", e.to_string())),
            "LimitStrength" => match value.trim() {
                on @ ("0" | "1") => {
                    self.engine.set_limit_strength(on == "1");
                    Ok(())
                }
                _ => Err(("bad value", "LimitStrength is a check box: 0 or 1".to_string())),
            },
            "Elo" => {
                let (min, max) = strength::range();
                match value.trim().parse::<u32>().ok().map(|elo| self.engine.set_elo(elo)) {
                    Some(Ok(())) => Ok(()),
                    _ => Err(("Elo out of range", format!("Elo must be {min} to {max}"))),
                }
            }
            "Move Overhead" => match value.trim().parse::<u64>() {
                Ok(ms) if ms <= MAX_OVERHEAD_MS => {
                    self.clock.overhead = Duration::from_millis(ms);
                    Ok(())
                }
                _ => Err(("bad value", format!("Move Overhead must be 0 to {MAX_OVERHEAD_MS} (ms)"))),
            },
            "Player" => value
                .parse::<PlayerSpec>()
                .map_err(OwnPlayerError::from)
                .and_then(|spec| self.engine.set_spec(spec))
                .map_err(|e| ("unknown player", e.to_string())),
            _ => Err(("unknown option", "no such option".to_string())),
        };
        match result {
            // The GUI's debug window shows which setting plays (`#` lines are comments).
            Ok(()) if matches!(name, "LimitStrength" | "Elo") => {
                vec![Response::Debug(self.engine.strength_note().unwrap_or_else(|| "strength not limited".into()))]
            }
            Ok(()) => Vec::new(),
            Err((reason, detail)) => refuse(reason, &detail),
        }
    }

    /// `memory N`: the table's size, in megabytes. The same value as last time changes nothing
    /// (XBoard sends it before every game); more than the table can use, or more than the
    /// memory to be had, is said in a `telluser`.
    pub(super) fn memory(&mut self, asked: u64) -> Vec<Response> {
        if self.memory.replace(asked) == Some(asked) {
            return Vec::new();
        }
        let mb = (asked as usize).clamp(1, MAX_TABLE_MB);
        log::info!("memory {asked}: {mb} MB for the transposition table");
        let mut out = Vec::new();
        if mb as u64 != asked {
            out.push(Response::TellUser(format!(
                "memory {asked}: the table takes 1 to {MAX_TABLE_MB} MB; it has {mb} MB"
            )));
        }
        if let TableSize::Smaller { asked, got } = self.engine.set_table_mb(mb) {
            out.push(Response::TellUser(format!(
                "memory {asked}: not that much memory to be had; the table has {got} MB"
            )));
        }
        out
    }

    /// `egtpath syzygy PATH`: the tables for the engine's search; a path without them is said
    /// to the user (`telluser`), and the engine plays on without tables.
    pub(super) fn egt_path(&mut self, path: &str) -> Vec<Response> {
        match self.engine.set_syzygy_path(path) {
            Ok(Some(pieces)) => {
                log::info!("egtpath syzygy {path}: tables of up to {pieces} pieces");
                Vec::new()
            }
            Ok(None) => Vec::new(),
            Err(e) => vec![Response::TellUser(format!("egtpath syzygy: {e}; playing without tables"))],
        }
    }
}
