//! The protocols' handle on move choice: a `Player` plus the guard rails that keep a faulty
//! player from costing a game (an illegal move, no move, or a panic all fall back to a legal move).
//! A fallback is a bug, never a normal event: each one is counted, logged at error level on
//! stderr and marked on the `Thought`, so that the protocols and the end-to-end checks can see it.

use super::clock::SearchLimits;
use crate::agents::Features;
use crate::board::syzygy::{Tablebase, TbError};
use crate::board::{Game, Move, Position};
use crate::players::level10::MAX_THREADS;
use crate::players::spec::{PlayerKind, PlayerSpec, SpecError};
use crate::players::strength;
use crate::players::{Ending, Player, StopSignal, TablebaseUse};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a player cannot be the engine's own.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum OwnPlayerError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("'{0}': external engines play in match, tournament, thesis and suite, not as the engine's own player")]
    External(Box<PlayerSpec>),
}

/// The engine's own player: any spec but an external engine (that is for the research
/// commands).
fn own_player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player>, OwnPlayerError> {
    can_be_own(spec)?;
    Ok(spec.build(seed))
}

fn can_be_own(spec: &PlayerSpec) -> Result<(), OwnPlayerError> {
    match spec.is_external() {
        true => Err(OwnPlayerError::External(Box::new(spec.clone()))),
        false => Ok(()),
    }
}

/// Level when none is given: the strongest, level 10 (an SPRT at 10 s + 0.1 s accepted it as
/// better than level 9, which stays for users who want an instant mover).
pub const DEFAULT_LEVEL: u8 = 10;
pub const MIN_LEVEL: u8 = 1;
pub const MAX_LEVEL: u8 = 10;
/// The most best lines a search reports at once (UCI `MultiPV`, XBoard option `MultiPV`).
pub const MAX_LINES: u32 = 64;

/// A chosen move and what the protocol reports about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    pub mv: Move,
    /// Centipawns from the mover's point of view (the MasterAgent's estimated profit).
    pub score: i32,
    /// Moves to mate (negative: being mated), when the player knows.
    pub mate: Option<i32>,
    /// Plies the player looked ahead.
    pub depth: u32,
    /// The expected line, starting with `mv`; always legal from the position thought about.
    pub pv: Vec<Move>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub reason: String,
    /// Set when the player failed and the move is the fallback: what went wrong.
    pub fault: Option<String>,
    /// The line's rank when several were asked for (UCI `MultiPV`), else 0.
    pub multipv: u32,
    /// Endgame tablebase probes that answered.
    pub tbhits: u64,
}

pub struct Engine {
    player: Box<dyn Player>,
    /// The player's analyst (`Player::analyst`), made at the first analysis and kept, table and
    /// all, until the player changes.
    analyst: Option<Box<dyn Player>>,
    /// The table size the GUI asked for (XBoard `memory`, UCI `Hash`), if it did.
    table_mb: Option<usize>,
    /// The search threads asked for (UCI `Threads`, XBoard `cores`, `--threads`): each player
    /// made from now on gets them.
    threads: usize,
    /// Best lines reported at each depth (`MultiPV`), 1 to `MAX_LINES`.
    lines: u32,
    /// The player that plays: `chosen`, or with the strength limited the setting for `elo`.
    spec: PlayerSpec,
    /// What the user chose with `--level`, Level, Features or Player.
    chosen: PlayerSpec,
    /// `UCI_LimitStrength` (XBoard `LimitStrength`): play at `elo` instead of `chosen`.
    limit_strength: bool,
    /// `UCI_Elo` (XBoard `Elo`).
    elo: u32,
    seed: u64,
    /// The user fixed the seed (`--seed`, the Seed option): every game starts from it, so the
    /// same game replays move for move. Otherwise each new game draws a fresh one.
    seed_fixed: bool,
    /// Report zero elapsed time, so that transcripts are byte-for-byte reproducible.
    frozen_time: bool,
    interrupt: Interrupt,
    /// How a decision begins on the interrupt (see `BeginHook`); None: straight away.
    begin: Option<BeginHook>,
    /// How the last decision ended.
    last_ending: Ending,
    faults: u32,
    /// Syzygy tables (UCI `SyzygyPath`, XBoard `egtpath syzygy`), for the player and its
    /// analyst, now and to come.
    tablebase: Option<Tablebase>,
    /// UCI `SyzygyProbeDepth`.
    probe_depth: u32,
    /// UCI `SyzygyProbeLimit`.
    probe_limit: u32,
}

/// `SyzygyProbeDepth`'s default, least and greatest values.
pub const PROBE_DEPTH: (u32, u32, u32) = (1, 1, 100);
/// `SyzygyProbeLimit`'s default, least and greatest values.
pub const PROBE_LIMIT: (u32, u32, u32) = (7, 0, 7);

/// How the input side reaches a decision in progress: the protocol loop reads lines on its own
/// thread, so a `?`, `stop` or `exit` that arrives while the player thinks can end the thinking
/// instead of waiting behind it.
pub type Interrupt = StopSignal;

/// The kind of decision that begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thinking {
    /// A move in a game, within its time.
    Move,
    /// Open-ended: analysis, UCI `go infinite` and `go ponder`.
    Analysis,
    /// XBoard `hard`: on the opponent's time, until the next line.
    Ponder,
}

/// Begins a decision on the interrupt. The protocol loop installs one that first answers the
/// lines waiting in its input that are answered while the engine thinks (UCI `isready`, XBoard
/// `ping` during analysis), under the lock its reader sorts lines under, so that no such line
/// slips in between and waits behind a search that has no end of its own.
pub type BeginHook = Box<dyn FnMut(&Interrupt, Thinking) + Send>;

/// Plies past a mate's distance after which analysis stops deepening: nothing deeper will
/// change a mate the tree has seen from that far, and each further depth costs next to nothing,
/// so it would pour out a line per depth up to the deepest.
const MATE_SETTLED: u32 = 4;

/// What became of a table size the GUI asked for (XBoard `memory`, UCI `Hash`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSize {
    /// The size asked for is the size it already had: nothing was done.
    Unchanged,
    /// The table has the size asked for (or the player keeps none).
    Resized,
    /// Not that much memory was to be had: the table has `got` megabytes instead of `asked`.
    Smaller { asked: usize, got: usize },
}

impl Engine {
    pub fn new(spec: PlayerSpec, seed: u64) -> Result<Engine, OwnPlayerError> {
        // `--player elo:N` is the strength limited at N, as the options set it: the options
        // show it (instead of their defaults), and the engine says which setting plays.
        if let PlayerKind::Elo(elo) = spec.kind {
            let mut engine = Engine::new(PlayerSpec::level(u32::from(DEFAULT_LEVEL))?, seed)?;
            engine.set_elo(elo).map_err(|e| OwnPlayerError::Spec(e.into()))?;
            engine.set_limit_strength(true);
            return Ok(engine);
        }
        let player = own_player(&spec, seed)?;
        Ok(Engine::with_player(player, spec, seed))
    }

    /// An engine around a given player, which the engine reports as `spec` (tests use a
    /// deterministic one).
    pub fn with_player(mut player: Box<dyn Player>, spec: PlayerSpec, seed: u64) -> Engine {
        let interrupt = Interrupt::default();
        player.watch_stop(interrupt.clone());
        Engine {
            player,
            analyst: None,
            table_mb: None,
            threads: 1,
            lines: 1,
            chosen: spec.clone(),
            spec,
            limit_strength: false,
            elo: strength::DEFAULT_ELO,
            seed,
            seed_fixed: true,
            frozen_time: false,
            interrupt,
            begin: None,
            last_ending: Ending::Completed,
            faults: 0,
            tablebase: None,
            probe_depth: PROBE_DEPTH.0,
            probe_limit: PROBE_LIMIT.0,
        }
    }

    /// How decisions begin from now on (the protocol loop's; see `BeginHook`).
    pub fn set_begin_hook(&mut self, hook: BeginHook) {
        self.begin = Some(hook);
    }

    fn begin(&mut self, kind: Thinking) {
        match self.begin.as_mut() {
            Some(hook) => hook(&self.interrupt, kind),
            None if kind == Thinking::Ponder => self.interrupt.begin_pondering(false),
            None => self.interrupt.begin(kind == Thinking::Analysis),
        }
    }

    /// How the last decision ended: on its own, stopped by a line (its move is its best so
    /// far), or abandoned (XBoard `force`, `new`, `result` during it: its move is not for
    /// playing).
    pub fn last_ending(&self) -> Ending {
        self.last_ending
    }

    /// Each new game draws a fresh seed (the engine's default when no `--seed` was given), so
    /// that games vary; setting the Seed option fixes it again.
    pub fn fresh_seed_every_game(mut self) -> Engine {
        self.seed_fixed = false;
        self
    }

    /// The handle the input side uses to interrupt a decision.
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    pub fn freeze_time(mut self) -> Engine {
        self.frozen_time = true;
        self
    }

    pub fn spec(&self) -> &PlayerSpec {
        &self.spec
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many times the player has failed (panicked, chosen an illegal move or none) since
    /// this engine was made; each time a fallback move was played or a line was cut short.
    pub fn faults(&self) -> u32 {
        self.faults
    }

    /// Counts and logs a player failure; returns the text the protocols report.
    fn fault(&mut self, what: String) -> String {
        self.faults += 1;
        let text = format!("player {:?} {what} (fault {} this session)", self.spec.to_string(), self.faults)
            .replace(char::is_control, " ");
        log::error!("{text}");
        text
    }

    /// The level this engine plays at: its agents' features when they are a level's preset
    /// (`--features foundation` is level 1), else None (a custom set, the searcher, random).
    pub fn level(&self) -> Option<u8> {
        self.agent_features()?.as_level().map(|n| n as u8)
    }

    /// The agent feature flags this engine plays with, as the comma list `features:` takes, or
    /// "-" for a player that is not made of agents.
    pub fn features(&self) -> String {
        self.agent_features().map_or_else(|| "-".to_string(), |f| f.to_string())
    }

    fn agent_features(&self) -> Option<Features> {
        self.spec.agent_features()
    }

    /// The user's choice of player; on error the current player stays. With the strength
    /// limited it is kept for when the limit is switched off.
    pub fn set_spec(&mut self, spec: PlayerSpec) -> Result<(), OwnPlayerError> {
        if self.limit_strength {
            can_be_own(&spec)?;
            self.chosen = spec;
            return Ok(());
        }
        self.play_as(spec.clone())?;
        self.chosen = spec;
        Ok(())
    }

    /// Swaps in the player for a spec; on error the current player stays.
    fn play_as(&mut self, spec: PlayerSpec) -> Result<(), OwnPlayerError> {
        let mut player = own_player(&spec, self.seed)?;
        player.watch_stop(self.interrupt.clone());
        if let Some(mb) = self.table_mb {
            sized(player.as_mut(), mb);
        }
        player.set_threads(self.threads);
        player.set_tablebase(self.tablebase_use());
        self.player = player;
        self.analyst = None;
        self.spec = spec;
        Ok(())
    }

    /// `UCI_LimitStrength`: on, the setting calibrated nearest `elo` plays; off, the chosen
    /// player again.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.limit_strength = on;
        self.follow_strength();
    }

    /// `UCI_Elo`: refused outside the calibrated range (the old value stays).
    pub fn set_elo(&mut self, elo: u32) -> Result<(), strength::EloError> {
        strength::setting(elo)?;
        self.elo = elo;
        self.follow_strength();
        Ok(())
    }

    pub fn elo(&self) -> u32 {
        self.elo
    }

    pub fn limits_strength(&self) -> bool {
        self.limit_strength
    }

    /// With the strength limited: which setting plays, for the protocols to say, and when
    /// nothing is rated near the Elo asked, how far the nearest is.
    pub fn strength_note(&self) -> Option<String> {
        self.limit_strength.then(|| strength_note(self.elo, &self.spec))
    }

    fn follow_strength(&mut self) {
        let wanted = match self.limit_strength {
            // `set_elo` keeps `elo` in range.
            true => strength::setting(self.elo).map_or_else(|_| self.chosen.clone(), PlayerSpec::from_setting),
            false => self.chosen.clone(),
        };
        if wanted != self.spec {
            // Both kinds were built before: the calibrated settings are the agents, and
            // `chosen` was accepted when it was set.
            if let Err(e) = self.play_as(wanted) {
                log::error!("strength setting not playable: {e}");
            }
        }
    }

    /// Sizes the player's table (XBoard `memory`, UCI `Hash`), now and for players to come. A
    /// size the table already has is left alone (XBoard sends `memory` before every game); when
    /// the memory is not to be had, the table is made as large as it can be, and says so.
    pub fn set_table_mb(&mut self, mb: usize) -> TableSize {
        if self.table_mb == Some(mb) {
            return TableSize::Unchanged;
        }
        self.table_mb = Some(mb);
        let got = [Some(&mut self.player), self.analyst.as_mut()]
            .into_iter()
            .flatten()
            .filter_map(|p| sized(p.as_mut(), mb))
            .min();
        match got {
            Some(got) if got < mb => TableSize::Smaller { asked: mb, got },
            _ => TableSize::Resized,
        }
    }

    /// Search threads for the player and its analyst, now and for players to come (1 to
    /// `MAX_THREADS`): the number they take.
    pub fn set_threads(&mut self, n: usize) -> usize {
        self.threads = n.clamp(1, MAX_THREADS);
        for p in [Some(&mut self.player), self.analyst.as_mut()].into_iter().flatten() {
            p.set_threads(self.threads);
        }
        self.threads
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Opens the Syzygy tables of a ':'-separated directory list for the player and its
    /// analyst, in place of any before; an empty path or `<empty>` closes them. Their piece
    /// count, or why they did not open (the engine then plays without tables).
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<Option<u32>, TbError> {
        let path = path.trim();
        if let Some(tables) = self.tablebase.as_ref().filter(|t| t.path() == path) {
            return Ok(Some(tables.max_pieces()));
        }
        // Every handle on the old tables goes first: the prober holds one set at a time.
        self.tablebase = None;
        self.share_tablebase();
        if path.is_empty() || path == "<empty>" {
            return Ok(None);
        }
        let tables = Tablebase::open(path)?;
        let pieces = tables.max_pieces();
        self.tablebase = Some(tables);
        self.share_tablebase();
        Ok(Some(pieces))
    }

    /// The tables' path, `<empty>` when none are open.
    pub fn syzygy_path(&self) -> &str {
        self.tablebase.as_ref().map_or("<empty>", |t| t.path())
    }

    /// `SyzygyProbeDepth`, clamped to its range.
    pub fn set_probe_depth(&mut self, depth: u32) {
        self.probe_depth = depth.clamp(PROBE_DEPTH.1, PROBE_DEPTH.2);
        self.share_tablebase();
    }

    pub fn probe_depth(&self) -> u32 {
        self.probe_depth
    }

    /// `SyzygyProbeLimit`, clamped to its range (0: no probes).
    pub fn set_probe_limit(&mut self, pieces: u32) {
        self.probe_limit = pieces.clamp(PROBE_LIMIT.1, PROBE_LIMIT.2);
        self.share_tablebase();
    }

    pub fn probe_limit(&self) -> u32 {
        self.probe_limit
    }

    fn tablebase_use(&self) -> Option<TablebaseUse> {
        let tables = self.tablebase.clone()?;
        (self.probe_limit > 0).then(|| TablebaseUse::new(tables, self.probe_depth, self.probe_limit))
    }

    fn share_tablebase(&mut self) {
        let tables = self.tablebase_use();
        for p in [Some(&mut self.player), self.analyst.as_mut()].into_iter().flatten() {
            p.set_tablebase(tables.clone());
        }
    }

    /// `MultiPV`: how many best lines a search reports, clamped to 1..=`MAX_LINES`. Level 10
    /// (and analysis, which level 10's tree does for every level) obeys it; levels 1-9 playing
    /// a move and the searcher report their one line.
    pub fn set_lines(&mut self, lines: u32) {
        self.lines = lines.clamp(1, MAX_LINES);
    }

    pub fn lines(&self) -> u32 {
        self.lines
    }

    /// The Seed option: fixes the seed of this and every later game.
    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
        self.seed_fixed = true;
        self.player.set_seed(seed);
    }

    /// `Clear Hash`: the player forgets what its searches learned (table and histories), as at
    /// a new game, keeping its seed.
    pub fn clear_hash(&mut self) {
        self.player.new_game();
        if let Some(analyst) = self.analyst.as_mut() {
            analyst.new_game();
        }
    }

    /// A new game: the fixed seed again, or a fresh one, so that the same seed replays the
    /// same game and no seed replays the last.
    pub fn new_game(&mut self) {
        if !self.seed_fixed {
            self.seed = rand::random();
            log::info!("new game, seed {}", self.seed);
        }
        self.player.set_seed(self.seed);
        self.player.new_game();
        if let Some(analyst) = self.analyst.as_mut() {
            analyst.new_game();
        }
    }

    /// A legal move for the side to move, or None when there is none.
    ///
    /// `limits` is what the GUI allows for this move: the agents need microseconds and ignore
    /// it, a searching player stops within it.
    pub fn think(&mut self, game: &Game, limits: &SearchLimits) -> Option<Thought> {
        self.think_reporting(game, limits, &mut |_| {})
    }

    /// `think`, telling `on_step` about each completed step of a longer decision (a searcher's
    /// iterations), as soon as it is complete. Analysis (`limits.infinite`) is done by the
    /// player's analyst when it has one (see `Player::analyst`); should that fail, the player's
    /// own move stands.
    pub fn think_reporting(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        on_step: &mut dyn FnMut(Thought),
    ) -> Option<Thought> {
        let legal = game.position().legal_moves();
        if legal.is_empty() {
            return None;
        }
        let several;
        let limits = if self.lines > 1 {
            several = SearchLimits { lines: self.lines, ..limits.clone() };
            &several
        } else {
            limits
        };
        log::debug!("thinking with {limits:?}");
        let elapsed = stopwatch(self.frozen_time);
        let interrupt = self.interrupt.clone();
        let open_ended = limits.infinite;
        let mut settled = false;
        let mut report = |d: &crate::players::Decision| {
            if legal.contains(d.mv) {
                on_step(thought_of(game, d, elapsed()));
                if open_ended && d.multipv <= 1 && mate_settled(d) && !settled {
                    settled = true;
                    interrupt.raise(false);
                }
            }
        };
        self.begin(if open_ended { Thinking::Analysis } else { Thinking::Move });
        let mut result = Err(String::new());
        let mut analyst_fault = None;
        // Analysis, and a search for a mate or over some moves only, is level 10's tree's work
        // when the player is the agents of levels 1-9, which judge every move in one step.
        let searched = limits.infinite || limits.mate.is_some() || !limits.root_moves.is_empty();
        let made = self.analyst.is_none();
        if searched && let Some(mut analyst) = self.analyst.take().or_else(|| self.player.analyst()) {
            // A new analyst gets the table size asked for; one kept keeps its table, and what
            // it learned about the positions analysed so far.
            if made {
                analyst.watch_stop(self.interrupt.clone());
                if let Some(mb) = self.table_mb {
                    sized(analyst.as_mut(), mb);
                }
                analyst.set_threads(self.threads);
                analyst.set_tablebase(self.tablebase_use());
            }
            result = decide_legally(analyst.as_mut(), game, limits, &legal, &mut report);
            self.analyst = Some(analyst);
            if let Err(why) = &result {
                analyst_fault = Some(self.fault(format!("{why} while analysing; the player's own move stands")));
            }
        }
        if result.is_err() {
            result = decide_legally(self.player.as_mut(), game, limits, &legal, &mut report);
        }
        self.last_ending = match self.interrupt.end() {
            // The analysis stopped itself on a settled mate: it is complete.
            Ending::Stopped if settled => Ending::Completed,
            ending => ending,
        };
        Some(match result {
            Ok(d) => Thought { fault: analyst_fault, ..thought_of(game, &d, elapsed()) },
            Err(why) => {
                let mv = legal[0];
                let fault = self.fault(format!("{why}; played the first legal move {mv} instead"));
                Thought {
                    mv,
                    score: 0,
                    mate: None,
                    depth: 0,
                    pv: vec![mv],
                    nodes: 0,
                    elapsed: elapsed(),
                    reason: format!("fallback: {why}"),
                    fault: Some(fault),
                    multipv: 0,
                    tbhits: 0,
                }
            }
        })
    }
}

impl Engine {
    /// Whether the player gains by pondering (see `Player::ponders`).
    pub fn ponders(&self) -> bool {
        self.player.ponders()
    }

    /// Thinks about `game` (the opponent to move) until the next input line, so that the
    /// player's table knows the position when the opponent's move comes; nothing is reported
    /// and the result is dropped.
    pub fn ponder(&mut self, game: &Game) {
        if game.position().legal_moves().is_empty() {
            return;
        }
        self.begin(Thinking::Ponder);
        let limits = SearchLimits { infinite: true, ..SearchLimits::default() };
        let pondered = catch_unwind(AssertUnwindSafe(|| self.player.decide_within(game, &limits)));
        self.last_ending = self.interrupt.end();
        if pondered.is_err() {
            self.fault("panicked while pondering".to_string());
        }
    }
}

/// `Elo 1000 plays level:7 (rated 746: nothing is rated between 746 and 1292)` on a ladder with
/// a gap (the shipped one has none).
fn strength_note(elo: u32, plays: &PlayerSpec) -> String {
    match strength::gap_note(elo) {
        Some(gap) => format!("Elo {elo} plays {plays} ({gap})"),
        None => format!("Elo {elo} plays {plays}"),
    }
}

/// The most search threads a GUI may ask for: one a core of this machine, at most
/// `MAX_THREADS`.
pub fn max_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS)
}

/// Sizes a player's table; the megabytes it got, for a player that keeps one.
fn sized(player: &mut dyn Player, mb: usize) -> Option<usize> {
    let got = player.set_table_mb(mb)?;
    if got < mb {
        log::info!("{mb} MB for the table could not be had: it has {got} MB");
    }
    Some(got)
}

/// Whether an iteration's mate is settled: seen from at least `MATE_SETTLED` plies deeper than
/// its distance.
fn mate_settled(d: &crate::players::Decision) -> bool {
    d.mate.is_some_and(|n| {
        let plies = if n > 0 { 2 * n.unsigned_abs() - 1 } else { 2 * n.unsigned_abs() };
        d.depth >= plies + MATE_SETTLED
    })
}

/// The player's decision if it is a legal move; otherwise what went wrong, in words.
fn decide_legally(
    player: &mut dyn Player,
    game: &Game,
    limits: &SearchLimits,
    legal: &crate::board::MoveList,
    report: &mut dyn FnMut(&crate::players::Decision),
) -> Result<crate::players::Decision, String> {
    match catch_unwind(AssertUnwindSafe(|| player.decide_reporting(game, limits, report))) {
        Ok(Some(d)) if legal.contains(d.mv) => Ok(d),
        Ok(Some(d)) => Err(format!("chose the illegal move {}", d.mv)),
        Ok(None) => Err("chose no move".to_string()),
        Err(_) => Err("panicked".to_string()),
    }
}

/// A stopwatch started now (reading zero when time is frozen for transcripts).
fn stopwatch(frozen: bool) -> impl Fn() -> Duration {
    let start = Instant::now();
    move || if frozen { Duration::ZERO } else { start.elapsed() }
}

/// The depth at which a position that has no moves (mate or stalemate) is reported analysed:
/// nothing deeper can change it.
pub const FINISHED_DEPTH: u32 = 64;

/// A legal decision as the protocols show it.
fn thought_of(game: &Game, d: &crate::players::Decision, elapsed: Duration) -> Thought {
    // A mate in one is known whoever chose the move.
    let mate = d.mate.or_else(|| game.position().play(d.mv).is_checkmate().then_some(1));
    let pv = legal_line(game.position(), d.mv, &d.pv);
    Thought {
        mv: d.mv,
        score: d.score,
        mate,
        depth: d.depth,
        pv,
        nodes: d.nodes,
        elapsed,
        reason: d.reason.clone(),
        fault: None,
        multipv: d.multipv,
        tbhits: d.tbhits,
    }
}

/// The player's line checked move by move: it must start with the move played, and it is cut
/// at the first move that is not legal where it stands, so a GUI is never shown an impossible
/// line.
fn legal_line(pos: &Position, mv: Move, line: &[Move]) -> Vec<Move> {
    let mut out = vec![mv];
    if line.first() != Some(&mv) {
        return out;
    }
    let mut at = pos.play(mv);
    for &m in &line[1..] {
        if !at.is_legal(m) {
            break;
        }
        out.push(m);
        at = at.play(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_cut_at_its_first_illegal_move() {
        let pos = Position::startpos();
        let mv = |p: &Position, uci: &str| p.parse_uci(uci).unwrap();
        let e4 = mv(&pos, "e2e4");
        let e5 = mv(&pos.play(e4), "e7e5");
        let nf3 = mv(&pos.play(e4).play(e5), "g1f3");
        assert_eq!(legal_line(&pos, e4, &[e4, e5, nf3]), vec![e4, e5, nf3]);
        // e2e4 again after 1.e4 e5 is not legal: the line stops before it.
        assert_eq!(legal_line(&pos, e4, &[e4, e5, e4, nf3]), vec![e4, e5]);
        // A line that does not start with the move played is dropped.
        assert_eq!(legal_line(&pos, e4, &[e5]), vec![e4]);
        assert_eq!(legal_line(&pos, e4, &[]), vec![e4]);
    }
}
