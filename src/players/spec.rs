//! Players by name: the spec strings that the engine's `--player`, the research commands and
//! the protocol's `Player` option take (`level:7`, `features:attack-request`, `search:depth=2`,
//! `random`). It sits above the `Player` trait and its implementations, so that those depend
//! on nothing that builds them.

use crate::agents::{Features, MasterAgent};
use crate::players::external::{EngineSpec, ExternalPlayer, Protocol};
use crate::players::search::{SearchConfig, Searcher};
use crate::players::{Player, RandomPlayer};

/// The kinds of spec, for error messages.
/// (The research commands also take `uci:CMD,...` and `xboard:CMD,...`; the engine's own player
/// cannot be one, so its messages do not offer them.)
pub const SPEC_FORMS: &str = "level:N, features:LIST, search:depth=N[,eval=E][,range=R], random";

/// Builds a player from a spec string: `random`, `level:N`, `features:a,b,...`.
///
/// A label after `#` (`level:7#2`, how a run tells two copies of one player apart) names the
/// same player.
pub fn player_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    let spec = strip_label(spec.trim());
    let (kind, arg) = spec.split_once(':').unwrap_or((spec, ""));
    match kind {
        "random" if arg.is_empty() => Ok(Box::new(RandomPlayer::new(seed))),
        "level" => {
            let n: u32 = arg.trim().parse().map_err(|_| format!("bad level '{arg}' (levels are 1 to 9)"))?;
            Ok(Box::new(MasterAgent::with_level(n, seed).map_err(|e| e.to_string())?))
        }
        "features" => {
            // `features:` alone would be the bare foundation by accident; say which features.
            if arg.split(',').all(|f| f.trim().is_empty()) {
                return Err("features: needs at least one feature, e.g. features:foundation".to_string());
            }
            let set = Features::parse(arg).map_err(|e| e.to_string())?;
            Ok(Box::new(MasterAgent::new(set, seed)))
        }
        "search" => Ok(Box::new(Searcher::new(SearchConfig::parse(arg)?, seed))),
        "uci" | "xboard" => {
            let protocol = if kind == "uci" { Protocol::Uci } else { Protocol::Xboard };
            Ok(Box::new(ExternalPlayer::new(EngineSpec::parse(protocol, arg).map_err(|e| e.to_string())?)))
        }
        _ => Err(format!("unknown player '{spec}' (expected {SPEC_FORMS})")),
    }
}

/// Whether `spec` names an external engine (`uci:` or `xboard:`), which the engine's own
/// `--player` cannot be.
pub fn is_external(spec: &str) -> bool {
    let spec = spec.trim();
    spec.starts_with("uci:") || spec.starts_with("xboard:")
}

/// Checks a spec as a run would use it: builds the player, and for an external engine starts it
/// and completes the handshake, so that a wrong command is a usage error, not a run of faults.
pub fn check_spec(spec: &str) -> Result<(), String> {
    player_from_spec(spec, 0)?;
    let base = strip_label(spec.trim());
    if let Some((kind, arg)) = base.split_once(':')
        && is_external(base)
    {
        let protocol = if kind == "uci" { Protocol::Uci } else { Protocol::Xboard };
        let mut probe = ExternalPlayer::new_unpooled(EngineSpec::parse(protocol, arg).map_err(|e| e.to_string())?);
        probe.probe().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `level:7#2` -> `level:7`: the copy number a run gives a player that appears twice.
pub fn strip_label(spec: &str) -> &str {
    match spec.rsplit_once('#') {
        Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => spec,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_build_players_and_bad_ones_are_errors() {
        let game = crate::board::Game::startpos();
        let a = player_from_spec("random", 7).unwrap().decide(&game).unwrap();
        let b = player_from_spec("random#2", 7).unwrap().decide(&game).unwrap();
        assert_eq!(a, b, "a copy label names the same player");
        assert_eq!(player_from_spec("level:7#1", 1).unwrap().name(), "AgentChess level 7");
        for bad in ["bogus", "features:", "features: ,", "level:0", "level:x", "random:3", "search:depth=0"] {
            assert!(player_from_spec(bad, 1).is_err(), "{bad} accepted");
        }
    }
}
