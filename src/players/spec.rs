//! Players by name: the specs that the engine's `--player`, the research commands and the
//! protocol's `Player` option take (`level:7`, `features:attack-request`, `search:depth=2`,
//! `random`, `uci:CMD,...`, `xboard:CMD,...`). A spec is read once, where its text comes in,
//! into a [`PlayerSpec`]; from there on it travels as that value and is built into a player
//! where a game needs one. This sits above the `Player` trait and its implementations, so that
//! those depend on nothing that builds them.

use crate::agents::{FeatureError, Features, MasterAgent};
use crate::players::external::{EngineError, EngineSpec, EngineSpecError, ExternalPlayer, Protocol};
use crate::players::level10::{self, Level10};
use crate::players::search::{SearchConfig, SearchConfigError, Searcher};
use crate::players::strength::{self, EloError, Setting};
use crate::players::{Player, RandomPlayer};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The kinds of spec, for error messages.
/// (The research commands also take `uci:CMD,...` and `xboard:CMD,...`; the engine's own player
/// cannot be one, so its messages do not offer them.)
pub const SPEC_FORMS: &str = "level:N, elo:N, features:LIST, search:depth=N[,eval=E][,range=R], random";

/// A player by name, read. `Display` gives the text back (the settings of `features:`,
/// `search:` and the engines as they were written, since that text is the player's name in
/// every table and PGN), and parsing that text gives the same value.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    pub kind: PlayerKind,
    /// The copy number a run gives a player it names twice (`level:7#2`): the same player
    /// under a name of its own.
    pub copy: Option<u32>,
    /// `,nodes=N` after a level or feature list that thinks ahead (level 10's tree): every move
    /// searches this many nodes, whatever the clock allows (the clock's hard limit still holds).
    /// A fixed strength, the same on every machine.
    pub nodes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// `random`: a uniformly random legal move.
    Random,
    /// `level:N`: the agents at a level of thesis Table 2.1 (1-8), level 9, or level 10.
    Level(u8),
    /// `elo:N`: the calibrated setting nearest N Elo (`strength`), as `UCI_Elo` chooses it.
    Elo(u32),
    /// `features:LIST`: the agents with a set of features.
    Features { set: Features, written: String },
    /// `search:depth=N[,eval=E][,range=R]`: the conventional searcher.
    Search { config: SearchConfig, written: String },
    /// `uci:CMD,...`: an engine over UCI.
    Uci(EngineSpec),
    /// `xboard:CMD,...`: an engine over XBoard.
    Xboard(EngineSpec),
}

/// Why a spec names no player.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    #[error("unknown player '{0}' (expected {SPEC_FORMS})")]
    Unknown(String),
    #[error("bad level '{0}' (levels are 1 to 10)")]
    BadLevel(String),
    #[error("features: needs at least one feature, e.g. features:foundation")]
    NoFeatures,
    #[error(transparent)]
    Agents(#[from] FeatureError),
    #[error(transparent)]
    Search(#[from] SearchConfigError),
    #[error(transparent)]
    Engine(#[from] EngineSpecError),
    #[error("nodes: '{0}' is not a whole number of 1 or more")]
    BadNodes(String),
    #[error("nodes= needs a player that thinks ahead (level:10, or features with tree)")]
    NodesWithoutTree,
    #[error("unknown setting '{0}' (a level or feature list takes nodes=N)")]
    UnknownSetting(String),
    #[error("bad Elo '{0}' (a whole number, e.g. elo:1500)")]
    BadElo(String),
    #[error(transparent)]
    EloRange(#[from] EloError),
}

/// Splits a level's or feature list's text into its names and a `nodes=N` setting.
fn split_nodes(arg: &str) -> Result<(String, Option<u64>), SpecError> {
    let mut names = Vec::new();
    let mut nodes = None;
    for part in arg.split(',') {
        match part.split_once('=') {
            Some((key, value)) if key.trim() == "nodes" => {
                let n = value.trim().parse().ok().filter(|&n: &u64| n >= 1);
                nodes = Some(n.ok_or_else(|| SpecError::BadNodes(value.trim().to_string()))?);
            }
            Some((key, _)) => return Err(SpecError::UnknownSetting(key.trim().to_string())),
            None => names.push(part),
        }
    }
    Ok((names.join(","), nodes))
}

/// The agents with these features: thinking ahead with level 10's tree when it is on, else
/// the MasterAgent deciding alone.
fn agents_player(features: Features, seed: u64, nodes: Option<u64>) -> Box<dyn Player> {
    if features.has(Features::TREE) {
        Box::new(Level10::new(features, seed, level10::DEFAULT_MB).with_nodes_per_move(nodes))
    } else {
        Box::new(MasterAgent::new(features, seed))
    }
}

impl PlayerSpec {
    pub fn new(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec { kind, copy: None, nodes: None }
    }

    /// The same player searching `nodes` nodes a move (see `nodes`); only for players that
    /// think ahead.
    pub fn with_nodes(self, nodes: Option<u64>) -> Result<PlayerSpec, SpecError> {
        if nodes.is_some() && !self.agent_features().is_some_and(|f| f.has(Features::TREE)) {
            return Err(SpecError::NodesWithoutTree);
        }
        Ok(PlayerSpec { nodes, ..self })
    }

    pub fn random() -> PlayerSpec {
        PlayerSpec::new(PlayerKind::Random)
    }

    /// `level:N`, for a level that exists (1 to 10).
    pub fn level(n: u32) -> Result<PlayerSpec, SpecError> {
        Features::level(n)?;
        Ok(PlayerSpec::new(PlayerKind::Level(n as u8)))
    }

    /// `elo:N`, for an Elo within the calibrated range.
    pub fn elo(elo: u32) -> Result<PlayerSpec, SpecError> {
        strength::setting(elo)?;
        Ok(PlayerSpec::new(PlayerKind::Elo(elo)))
    }

    /// The player a calibrated setting names: `level:N`, `level:10,nodes=N` or `features:LIST`.
    pub fn from_setting(setting: Setting) -> PlayerSpec {
        match setting {
            Setting::Level(n) => PlayerSpec::level(u32::from(n)).expect("levels 1-10 exist"),
            Setting::Nodes(n) => {
                PlayerSpec::new(PlayerKind::Level(10)).with_nodes(Some(n)).expect("level 10 thinks ahead")
            }
            // A rated set of rules may carry a node budget (`strength::BELOW_BUDGETS`).
            Setting::Features(list) => format!("features:{list}").parse().expect("a rated set of rules parses"),
        }
    }

    /// The player that plays for this spec: for `elo:N` the setting it names, else itself.
    pub fn resolved(&self) -> PlayerSpec {
        match self.kind {
            PlayerKind::Elo(elo) => {
                PlayerSpec::from_setting(strength::setting(elo).expect("an Elo is checked when read"))
            }
            _ => self.clone(),
        }
    }

    /// `features:LIST`, from the list (at least one name).
    pub fn features(list: &str) -> Result<PlayerSpec, SpecError> {
        // `features:` alone would be the bare foundation by accident; say which features.
        if list.split(',').all(|f| f.trim().is_empty()) {
            return Err(SpecError::NoFeatures);
        }
        let set = Features::parse(list)?;
        Ok(PlayerSpec::new(PlayerKind::Features { set, written: list.trim().to_string() }))
    }

    /// `search:SETTINGS`.
    pub fn search(settings: &str) -> Result<PlayerSpec, SpecError> {
        let config = SearchConfig::parse(settings)?;
        Ok(PlayerSpec::new(PlayerKind::Search { config, written: settings.trim().to_string() }))
    }

    /// The same player as copy `n` of a run.
    pub fn with_copy(self, n: u32) -> PlayerSpec {
        PlayerSpec { copy: Some(n), ..self }
    }

    /// The same player without a copy number.
    pub fn without_copy(&self) -> PlayerSpec {
        PlayerSpec { copy: None, ..self.clone() }
    }

    /// The player, seeded. External engines are started at their first move.
    pub fn build(&self, seed: u64) -> Box<dyn Player> {
        match &self.kind {
            PlayerKind::Random => Box::new(RandomPlayer::new(seed)),
            PlayerKind::Level(n) => {
                agents_player(Features::level(u32::from(*n)).expect("a level is checked when read"), seed, self.nodes)
            }
            PlayerKind::Features { set, .. } => agents_player(*set, seed, self.nodes),
            PlayerKind::Elo(_) => self.resolved().build(seed),
            PlayerKind::Search { config, .. } => Box::new(Searcher::new(*config, seed)),
            PlayerKind::Uci(engine) | PlayerKind::Xboard(engine) => Box::new(ExternalPlayer::new(engine.clone())),
        }
    }

    /// An external engine (`uci:` or `xboard:`), which the engine's own player cannot be.
    pub fn is_external(&self) -> bool {
        matches!(self.kind, PlayerKind::Uci(_) | PlayerKind::Xboard(_))
    }

    /// Checks the player as a run would use it: an external engine is started and its
    /// handshake completed, so that a wrong command is a usage error, not a run of faults.
    pub fn probe(&self) -> Result<(), EngineError> {
        match &self.kind {
            PlayerKind::Uci(engine) | PlayerKind::Xboard(engine) => {
                ExternalPlayer::new_unpooled(engine.clone()).probe()
            }
            _ => Ok(()),
        }
    }

    /// The agents' features, for a player made of agents.
    pub fn agent_features(&self) -> Option<Features> {
        match &self.kind {
            PlayerKind::Level(n) => Features::level(u32::from(*n)).ok(),
            PlayerKind::Features { set, .. } => Some(*set),
            PlayerKind::Elo(_) => self.resolved().agent_features(),
            _ => None,
        }
    }

    /// This player searching to `depth`: the searcher's `depth=`, an engine's `depth=` (UCI) or
    /// `sd=` (XBoard) set to it. A spec without such a setting is returned as it is.
    pub fn at_depth(&self, depth: u32) -> PlayerSpec {
        let kind = match &self.kind {
            PlayerKind::Search { written, .. } => {
                let mut set = false;
                let parts: Vec<String> = written
                    .split(',')
                    .map(|p| match p.trim().split_once('=') {
                        Some((k, _)) if k.trim() == "depth" => {
                            set = true;
                            format!("depth={depth}")
                        }
                        _ => p.to_string(),
                    })
                    .collect();
                match PlayerSpec::search(&parts.join(",")) {
                    Ok(spec) if set => spec.kind,
                    _ => return self.clone(),
                }
            }
            PlayerKind::Uci(engine) => PlayerKind::Uci(engine.at_depth(depth)),
            PlayerKind::Xboard(engine) => PlayerKind::Xboard(engine.at_depth(depth)),
            _ => return self.clone(),
        };
        PlayerSpec { kind, ..self.clone() }
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, SpecError> {
        let text = text.trim();
        let (base, copy) = match text.rsplit_once('#') {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => match n.parse() {
                Ok(n) => (base, Some(n)),
                Err(_) => (text, None),
            },
            _ => (text, None),
        };
        let (kind, arg) = base.split_once(':').unwrap_or((base, ""));
        let spec = match kind {
            "random" if arg.is_empty() => PlayerSpec::random(),
            "level" => {
                let (level, nodes) = split_nodes(arg)?;
                let n: u32 = level.trim().parse().map_err(|_| SpecError::BadLevel(level.to_string()))?;
                PlayerSpec::level(n)?.with_nodes(nodes)?
            }
            "features" => {
                let (list, nodes) = split_nodes(arg)?;
                PlayerSpec::features(&list)?.with_nodes(nodes)?
            }
            "elo" => PlayerSpec::elo(arg.trim().parse().map_err(|_| SpecError::BadElo(arg.to_string()))?)?,
            "search" => PlayerSpec::search(arg)?,
            "uci" => PlayerSpec::new(PlayerKind::Uci(EngineSpec::parse(Protocol::Uci, arg)?)),
            "xboard" => PlayerSpec::new(PlayerKind::Xboard(EngineSpec::parse(Protocol::Xboard, arg)?)),
            _ => return Err(SpecError::Unknown(base.to_string())),
        };
        Ok(PlayerSpec { copy, ..spec })
    }
}

impl TryFrom<&str> for PlayerSpec {
    type Error = SpecError;

    fn try_from(text: &str) -> Result<PlayerSpec, SpecError> {
        text.parse()
    }
}

impl fmt::Display for PlayerSpec {
    /// The spec's text (padded as the format asks, for tables).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = match &self.kind {
            PlayerKind::Random => "random".to_string(),
            PlayerKind::Level(n) => format!("level:{n}"),
            PlayerKind::Elo(n) => format!("elo:{n}"),
            PlayerKind::Features { written, .. } => format!("features:{written}"),
            PlayerKind::Search { written, .. } => format!("search:{written}"),
            PlayerKind::Uci(engine) | PlayerKind::Xboard(engine) => engine.to_string(),
        };
        if let Some(n) = self.nodes {
            text.push_str(&format!(",nodes={n}"));
        }
        if let Some(n) = self.copy {
            text.push_str(&format!("#{n}"));
        }
        f.pad(&text)
    }
}

/// Builds a player from a spec given as text: [`PlayerSpec`]'s parse, then its build, with the
/// error in words (for callers that hold a spec as text, such as tests).
pub fn player_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    spec.parse::<PlayerSpec>().map(|s| s.build(seed)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> PlayerSpec {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn specs_round_trip() {
        for text in [
            "random",
            "level:1",
            "level:9",
            "level:7#2",
            "level:10,nodes=5000",
            "elo:1500",
            "features:level10,-agent-selection,nodes=20000#2",
            "features:attack-request,defense-consideration",
            "features:level9,-fork",
            "search:depth=2",
            "search:depth=1,range=50#3",
            "search:depth=3,eval=material",
            "search:",
            "uci:/usr/games/stockfish,depth=1,option.Threads=1",
            "xboard:fairymax -x,tc=40/60+0.5,name=FM",
            "uci:sh tests/engines/fake_uci.sh silent,movetime=50,timeout=1#2",
        ] {
            let s = spec(text);
            assert_eq!(s.to_string(), text);
            assert_eq!(spec(&s.to_string()), s, "{text}");
        }
        assert_eq!(format!("{:<8}|", spec("level:4")), "level:4 |", "padded in tables");
        // Space around the spec and its level is not part of it.
        assert_eq!(spec(" level: 7 ").to_string(), "level:7");
        assert_eq!(spec("random:").to_string(), "random");
    }

    /// `elo:N` plays the calibrated setting, and refuses an Elo outside the range.
    #[test]
    fn an_elo_names_its_setting() {
        let (min, max) = strength::range();
        let low = spec(&format!("elo:{min}"));
        assert_eq!(low.resolved(), PlayerSpec::from_setting(strength::LADDER[0].setting));
        assert_eq!(low.agent_features(), low.resolved().agent_features());
        assert_eq!(spec(&format!("elo:{max}")).resolved(), spec("level:10"), "the top is level 10 unlimited");
        assert!(matches!(format!("elo:{}", max + 1).parse::<PlayerSpec>(), Err(SpecError::EloRange(_))));
        assert!(matches!("elo:strong".parse::<PlayerSpec>(), Err(SpecError::BadElo(_))));
        assert_eq!(PlayerSpec::from_setting(Setting::Nodes(300)).to_string(), "level:10,nodes=300");
        assert_eq!(PlayerSpec::from_setting(Setting::Level(7)).to_string(), "level:7");
        assert_eq!(PlayerSpec::from_setting(Setting::Level(10)), spec("level:10"), "full strength");
        assert_eq!(PlayerSpec::from_setting(Setting::Features("level9,-fork")).to_string(), "features:level9,-fork");
        for b in strength::BETWEEN_LEVELS {
            let between = PlayerSpec::from_setting(Setting::Features(b.list));
            assert_eq!(between, spec(&format!("features:{}", b.list)), "{}", b.list);
        }
        for list in strength::BELOW_BUDGETS {
            let below = PlayerSpec::from_setting(Setting::Features(list));
            assert_eq!(below.to_string(), format!("features:{list}"));
            assert!(below.nodes.is_some(), "{list} plays at a node budget");
        }
        assert_eq!(spec("level:9").resolved(), spec("level:9"));
    }

    #[test]
    fn specs_are_read_into_their_kinds() {
        assert_eq!(spec("level:7"), PlayerSpec::level(7).unwrap());
        assert_eq!(spec("level:7#2"), PlayerSpec::level(7).unwrap().with_copy(2));
        assert_eq!(spec("level:7#2").without_copy(), spec("level:7"));
        let features = spec("features:attack-request");
        assert_eq!(features.agent_features(), Some(Features::parse("attack-request").unwrap()));
        assert_eq!(spec("level:3").agent_features(), Some(Features::level(3).unwrap()));
        assert!(
            matches!(spec("search:depth=2,range=5").kind, PlayerKind::Search { config, .. } if config.depth == 2 && config.range == 5)
        );
        assert!(matches!(spec("uci:sf,depth=4").kind, PlayerKind::Uci(e) if e.command == ["sf"]));
        assert!(spec("xboard:fairymax").is_external() && !spec("random").is_external());
        assert_eq!(spec("search:depth=1").agent_features(), None);
        // A `#` that is no copy number belongs to the spec.
        assert!(matches!(spec("uci:engine#x").kind, PlayerKind::Uci(e) if e.command == ["engine#x"]));
    }

    #[test]
    fn bad_specs_are_refused_with_their_reason() {
        let unknown = |s: &str| SpecError::Unknown(s.to_string());
        for (bad, error) in [
            ("bogus", unknown("bogus")),
            ("", unknown("")),
            ("random:3", unknown("random:3")),
            ("bogus#2", unknown("bogus")),
            ("level:x", SpecError::BadLevel("x".into())),
            ("level:", SpecError::BadLevel("".into())),
            ("level:0", SpecError::Agents(FeatureError::Level(0))),
            ("level:11", SpecError::Agents(FeatureError::Level(11))),
            ("features:", SpecError::NoFeatures),
            ("level:9,nodes=100", SpecError::NodesWithoutTree),
            ("level:10,nodes=0", SpecError::BadNodes("0".into())),
            ("level:10,depth=3", SpecError::UnknownSetting("depth".into())),
            ("features: ,", SpecError::NoFeatures),
            ("search:depth=0", SpecError::Search(SearchConfigError::Depth("0".into()))),
            ("search:deep=1", SpecError::Search(SearchConfigError::Unknown("deep".into()))),
            ("uci:", SpecError::Engine(EngineSpecError::NoCommand)),
            (
                "xboard:e,depth=2",
                SpecError::Engine(EngineSpecError::UnknownSetting { key: "depth".into(), keys: "sd, st, tc" }),
            ),
        ] {
            assert_eq!(bad.parse::<PlayerSpec>(), Err(error), "{bad}");
        }
        let message = |bad: &str| bad.parse::<PlayerSpec>().unwrap_err().to_string();
        assert_eq!(message("bogus"), format!("unknown player 'bogus' (expected {SPEC_FORMS})"));
        assert_eq!(message("level:x"), "bad level 'x' (levels are 1 to 10)");
        assert_eq!(message("level:0"), "agent level 0 does not exist (levels are 1 to 10)");
        assert_eq!(message("features:"), "features: needs at least one feature, e.g. features:foundation");
        assert!(message("features:attack-request,bogus").starts_with("unknown agent feature 'bogus'"));
        assert_eq!(message("search:depth=9"), "depth must be 1 to 8, got '9'");
        assert_eq!(message("uci:"), "an external engine needs a command, e.g. uci:/usr/games/stockfish,depth=1");
    }

    #[test]
    fn specs_build_their_players() {
        let game = crate::board::Game::startpos();
        let a = spec("random").build(7).decide(&game).unwrap();
        let b = spec("random#2").build(7).decide(&game).unwrap();
        assert_eq!(a, b, "a copy label names the same player");
        assert_eq!(spec("level:7#1").build(1).name(), "AgentChess level 7");
        assert_eq!(spec("search:depth=2").build(1).name(), "search:depth=2,eval=thesis,range=0");
        assert_eq!(player_from_spec("level:7", 1).unwrap().name(), "AgentChess level 7");
        assert_eq!(player_from_spec("level:10", 1).unwrap().name(), "AgentChess level 10");
        assert!(player_from_spec("level:11", 1).err().is_some_and(|e| e.contains("level 11")));
    }

    #[test]
    fn depths_are_set_where_there_is_one() {
        assert_eq!(spec("search:depth=1").at_depth(2), spec("search:depth=2"));
        assert_eq!(spec("search:range=5,depth=1#2").at_depth(3).to_string(), "search:range=5,depth=3#2");
        assert_eq!(spec("search:range=5").at_depth(3), spec("search:range=5"));
        assert_eq!(spec("uci:sf,depth=1").at_depth(3).to_string(), "uci:sf,depth=3");
        assert_eq!(spec("xboard:fm,sd=1").at_depth(2).to_string(), "xboard:fm,sd=2");
        assert_eq!(spec("level:7").at_depth(2), spec("level:7"));
    }
}
