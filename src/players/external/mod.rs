//! External engines as players: `uci:CMD[,...]` and `xboard:CMD[,...]` specs run a real engine
//! (Stockfish, Fairy-Max, GNU Chess, agentchess itself) as a subprocess and ask it for moves.
//!
//! `uci:CMD[,depth=N|nodes=N|movetime=MS|tc=MOVES/SECS+INC][,option.NAME=VALUE...][,timeout=SECS][,name=LABEL]`
//! `xboard:CMD[,sd=N|st=SECS|tc=MOVES/SECS+INC][,option.NAME=VALUE...][,timeout=SECS][,name=LABEL]`
//!
//! CMD is the program and its arguments, split at spaces (no quoting; a comma ends it). With no
//! limit a UCI engine searches to depth 1 and an XBoard engine with `sd 1`. `tc=40/60+0.5` is 40
//! moves in 60 seconds plus 0.5 s a move (`tc=0/60+1`, or `tc=60+1`: the whole game in 60 s). The
//! engine's clock is kept here: it is sent with every move and a move made after it ran out
//! (with a 100 ms margin for the pipe) is a time forfeit.
//!
//! Each player owns one process, started for its first move and reused by the next game played
//! on the same thread (one process per game slot); a process that crashed or misbehaved is
//! never reused, so the next game starts a fresh one. Everything the engine does wrong — it
//! cannot be started, it dies, it says nothing in time, its move is illegal or unreadable, it
//! claims a result in a game that is not over, it runs out of time — ends that game as a loss
//! for the engine with the reason ([`Player::no_move`]), and the run goes on.
//!
//! - [`spec`]: the spec after its prefix; `process`: the subprocess and its pipes;
//! - `uci` and `xboard`: the two clients; [`features`]: XBoard's `feature` lines, which the
//!   protocol reads too.

pub mod features;
mod process;
pub mod spec;
mod uci;
mod xboard;

pub use spec::{EngineSpec, EngineSpecError, Limit, Protocol, parse_time_control};

use crate::board::{Game, Move};
use crate::players::{Decision, NoMove, Player};
use process::Process;
use spec::CLOCK_MARGIN;
use std::cell::RefCell;
use std::time::{Duration, Instant};
use thiserror::Error;

/// How long the handshake (`uciok`, `readyok`, XBoard's features) may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// Everything an engine can do wrong, each ending its game as a loss with this reason.
#[derive(Debug, Error)]
pub enum EngineError {
    #[error("cannot start {command}: {source}")]
    Start { command: String, source: std::io::Error },
    #[error("engine process ended ({0})")]
    Exited(std::process::ExitStatus),
    #[error("engine closed its output")]
    ClosedOutput,
    #[error("no reply: no {waiting_for} within {:.1} s", .wait.as_secs_f64())]
    NoReply { waiting_for: String, wait: Duration },
    #[error("the engine offers no option '{name}' (it offers: {offered})")]
    UnknownOption { name: String, offered: String },
    #[error("no move: 'bestmove {said}' in {fen} where there are legal moves")]
    NoBestMove { said: String, fen: String },
    #[error("the engine cannot start from a FEN (no feature setboard=1)")]
    NoSetboard,
    #[error("claimed '{0}' in a game that is not over")]
    EarlyClaim(String),
    #[error("refused the game's move: '{0}'")]
    RefusedMove(String),
    #[error("illegal move '{text}' in {fen}")]
    IllegalMove { text: String, fen: String },
    #[error("false claim '{claim}' after its move {text}: {truth}")]
    FalseClaim { claim: String, text: String, truth: String },
    #[error(
        "it announced no XBoard feature and gave no move from the start position ({0}); a UCI engine is named uci:CMD"
    )]
    NotXboard(String),
    #[error("time forfeit: {} ms used with {} ms left", .used.as_millis(), .left.as_millis())]
    TimeForfeit { used: Duration, left: Duration },
}

/// A started engine, its handshake done, with what it announced.
struct Engine {
    process: Process,
    xboard: xboard::Features,
}

thread_local! {
    /// Healthy engines left by finished games on this thread, by spec, for the next game.
    static IDLE: RefCell<Vec<(String, Engine)>> = const { RefCell::new(Vec::new()) };
}

/// An external engine as a [`Player`].
pub struct ExternalPlayer {
    key: String,
    spec: EngineSpec,
    engine: Option<Engine>,
    /// The process has started the current game (`ucinewgame` / `new` sent).
    in_game: bool,
    /// XBoard: how many of the game's moves the engine has been told.
    told: usize,
    /// The engine's clock (with a `tc` limit) and moves made in this session.
    clock: Duration,
    moves_made: u32,
    /// Why the last decision gave no move.
    no_move: Option<NoMove>,
    /// The process must not be reused (it failed or misbehaved).
    spoiled: bool,
    /// Processes come from and go back to this thread's idle ones.
    pooled: bool,
}

impl ExternalPlayer {
    /// A player for `spec`, reusing an idle engine of this thread started for the same spec.
    pub fn new(spec: EngineSpec) -> ExternalPlayer {
        let key = spec.to_string();
        let engine = IDLE.with(|idle| {
            let mut idle = idle.borrow_mut();
            let at = idle.iter().position(|(k, _)| *k == key)?;
            Some(idle.swap_remove(at).1)
        });
        let mut player = ExternalPlayer::new_unpooled(spec);
        player.engine = engine;
        player.pooled = true;
        player
    }

    /// A player whose process is its own: started fresh, ended when the player is dropped.
    pub fn new_unpooled(spec: EngineSpec) -> ExternalPlayer {
        let clock = match spec.limit {
            Limit::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        ExternalPlayer {
            key: spec.to_string(),
            spec,
            engine: None,
            in_game: false,
            told: 0,
            clock,
            moves_made: 0,
            no_move: None,
            spoiled: false,
            pooled: false,
        }
    }

    /// Starts the engine and completes the handshake, to check a spec before a run. An XBoard
    /// engine that announced no features may be a protocol 1 engine or one that speaks another
    /// protocol (a UCI engine reads `go` as a search without end): only a move from the start
    /// position tells them apart, so it is asked for one, and the run starts afresh after.
    pub fn probe(&mut self) -> Result<(), EngineError> {
        let announced = self.ensure_started()?.xboard.announced;
        if self.spec.protocol == Protocol::Uci || announced {
            return Ok(());
        }
        // A second a move, whatever the run's limit: a depth has no deadline of its own.
        let mut probe = self.spec.clone();
        probe.limit = Limit::MoveTime(Duration::from_secs(1));
        let run = std::mem::replace(&mut self.spec, probe);
        let answer = self.ask(&Game::startpos());
        self.spec = run;
        self.engine = None;
        self.in_game = false;
        match answer {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) => Err(EngineError::NotXboard("it resigned".into())),
            Err(EngineError::NoReply { .. }) => Err(EngineError::NotXboard("no `move` line to a second a move".into())),
            Err(e) => Err(EngineError::NotXboard(e.to_string())),
        }
    }

    fn ensure_started(&mut self) -> Result<&mut Engine, EngineError> {
        if self.engine.is_none() {
            let mut process = Process::spawn(&self.spec.command)?;
            let xboard = match self.spec.protocol {
                Protocol::Uci => {
                    uci::handshake(&mut process, &self.spec)?;
                    xboard::Features::default()
                }
                Protocol::Xboard => xboard::handshake(&mut process, &self.spec)?,
            };
            self.engine = Some(Engine { process, xboard });
            self.in_game = false;
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    fn fail(&mut self, reason: EngineError) -> Option<Decision> {
        self.spoiled = true;
        self.engine = None;
        self.no_move = Some(NoMove::Fault(reason.to_string()));
        None
    }

    fn ask(&mut self, game: &Game) -> Result<Result<Decision, NoMove>, EngineError> {
        let spec = self.spec.clone();
        let clock = self.clock;
        let start_new = !self.in_game;
        let told = if start_new { 0 } else { self.told };
        let engine = self.ensure_started()?;
        let pos = *game.position();
        let answer = match spec.protocol {
            Protocol::Uci => uci::best_move(&mut engine.process, &spec, game, start_new, clock)?,
            Protocol::Xboard => {
                xboard::best_move(&mut engine.process, &mut engine.xboard, &spec, game, start_new, told, clock)?
            }
        };
        self.in_game = true;
        let (text, info, claim) = match answer {
            Answer::Move(text, info, claim) => (text, info, claim),
            Answer::Resign => return Ok(Err(NoMove::Resign)),
        };
        let parsed = match spec.protocol {
            Protocol::Uci => pos.parse_uci(&text),
            Protocol::Xboard => pos.parse_move(&text),
        };
        let mv = match parsed {
            Ok(mv) if pos.is_legal(mv) => mv,
            _ => return Err(EngineError::IllegalMove { text, fen: pos.to_fen() }),
        };
        if let Some(claim) = claim {
            let mut after = game.clone();
            after.play(mv);
            let result = claim.split_whitespace().next().unwrap_or("");
            let truth = after.outcome().map(|o| o.result_string());
            if truth != Some(result) {
                let truth = after
                    .outcome()
                    .map_or("the game goes on".to_string(), |o| format!("{} ({})", o.result_string(), o.reason()));
                return Err(EngineError::FalseClaim { claim, text, truth });
            }
        }
        self.told = game.moves().len() + 1;
        Ok(Ok(decision(mv, info)))
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        if self.spoiled || !self.pooled {
            return;
        }
        if let Some(engine) = self.engine.take() {
            let key = std::mem::take(&mut self.key);
            // A thread-local that is being torn down drops the process instead.
            let _ = IDLE.try_with(|idle| idle.borrow_mut().push((key, engine)));
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.spec.label.clone().unwrap_or_else(|| self.key.clone())
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        self.no_move = None;
        if game.position().legal_moves().is_empty() {
            return None;
        }
        let started = Instant::now();
        match self.ask(game) {
            Ok(Ok(d)) => {
                if let Limit::Clock { moves, base, inc } = self.spec.limit {
                    let used = started.elapsed();
                    if used > self.clock + CLOCK_MARGIN {
                        return self.fail(EngineError::TimeForfeit { used, left: self.clock });
                    }
                    self.clock = self.clock.saturating_sub(used) + inc;
                    self.moves_made += 1;
                    if moves > 0 && self.moves_made.is_multiple_of(moves) {
                        self.clock += base;
                    }
                }
                Some(d)
            }
            Ok(Err(no_move)) => {
                self.no_move = Some(no_move);
                // A resigning engine is healthy, but its game is over for it.
                self.in_game = false;
                None
            }
            Err(reason) => self.fail(reason),
        }
    }

    fn new_game(&mut self) {
        self.in_game = false;
        self.told = 0;
        self.moves_made = 0;
        self.no_move = None;
        if let Limit::Clock { base, .. } = self.spec.limit {
            self.clock = base;
        }
        // A process that failed last game is gone; the next move starts a fresh one.
        self.spoiled = false;
    }

    fn no_move(&self) -> Option<NoMove> {
        self.no_move.clone()
    }
}

/// What the engine answered for its move: the move text with what it said while thinking and
/// any result it claimed right after, or a resignation.
enum Answer {
    Move(String, Info, Option<String>),
    Resign,
}

#[derive(Clone, Copy, Debug, Default)]
struct Info {
    depth: u32,
    score: i32,
    mate: Option<i32>,
    nodes: u64,
}

fn decision(mv: Move, info: Info) -> Decision {
    Decision {
        mv,
        score: info.score,
        mate: info.mate,
        depth: info.depth.max(1),
        pv: vec![mv],
        reason: format!("engine: depth {} score {}", info.depth, info.score),
        nodes: info.nodes,
        multipv: 0,
        tbhits: 0,
    }
}

/// Every `option.NAME=VALUE` of the spec must name an option the engine offers (UCI matches
/// names without regard to case, so both protocols do here): an option the engine would ignore
/// in silence makes a run measure something other than what was asked.
fn check_options(spec: &EngineSpec, offered: &[String]) -> Result<(), EngineError> {
    for (name, _) in &spec.options {
        if !offered.iter().any(|o| o.eq_ignore_ascii_case(name)) {
            let offered = if offered.is_empty() { "none".to_string() } else { offered.join(", ") };
            return Err(EngineError::UnknownOption { name: name.clone(), offered });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_options_are_checked() {
        let spec = EngineSpec::parse(Protocol::Uci, "e,option.hash=32,option.Skill Level=3").unwrap();
        assert!(check_options(&spec, &["Hash".to_string(), "Skill Level".to_string()]).is_ok());
        let err = check_options(&spec, &["Threads".to_string()]).unwrap_err().to_string();
        assert!(err.contains("'hash'") && err.contains("Threads"), "{err}");
        assert!(check_options(&spec, &[]).unwrap_err().to_string().contains("offers: none"));
    }

    #[test]
    fn a_missing_engine_is_a_fault_not_a_panic() {
        let spec = EngineSpec::parse(Protocol::Uci, "/nonexistent/engine-binary").unwrap();
        let mut player = ExternalPlayer::new_unpooled(spec);
        assert!(player.probe().unwrap_err().to_string().contains("cannot start"));
        player.new_game();
        assert_eq!(player.decide(&Game::startpos()), None);
        assert!(matches!(player.no_move(), Some(NoMove::Fault(r)) if r.contains("cannot start")));
    }
}
