//! UCI, for tools that speak nothing else. Entered when the first command is `uci`.
//!
//! Like the XBoard session it is a pure state machine from lines to replies. Moves are decided
//! synchronously; `go infinite` holds the `bestmove` back until `stop`, and `go ponder` until
//! `stop` or, after `ponderhit`, a search on the clock, as UCI requires.

use super::clock::{MAX_OVERHEAD_MS, OVERHEAD, SearchLimits, budget_with, per_move_budget_with};
use super::engine::{
    DEFAULT_LEVEL, Engine, MAX_LEVEL, MAX_LINES, MIN_LEVEL, OwnPlayerError, PROBE_DEPTH, PROBE_LIMIT, TableSize,
    Thought, max_threads,
};
use super::shared::{ENGINE_NAME, HELP, LiveOutput, VERSION, echo, parse_move};
use crate::board::{CastlingNotation, Color, Game, Position};
use crate::players::level10::{DEFAULT_MB as DEFAULT_TABLE_MB, MAX_MB as MAX_TABLE_MB};
use crate::players::spec::PlayerSpec;
use crate::players::strength;
use std::fmt;
use std::time::Duration;

/// `go` parameters; times in milliseconds on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
    /// `mate N`: a mate in N moves is sought.
    pub mate: Option<u32>,
    /// `searchmoves M...`: the moves as sent, read against the position when the search starts.
    pub searchmoves: Vec<String>,
    /// Tokens skipped because they are unknown or lack a readable value; the search runs anyway
    /// and they are reported as `info string`.
    pub ignored: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `position startpos|fen FEN [moves M...]`; `fen: None` is the start position.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    Stop,
    PonderHit,
    Quit,
    /// `help`: not UCI; a person at the prompt.
    Help,
}

impl UciCommand {
    /// Parses a line; `Err` says why for an `info string`.
    pub fn parse(line: &str) -> Result<Option<UciCommand>, UciParseError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = tokens.first() else { return Ok(None) };
        // The UCI spec: an unknown command or token is ignored and the rest of the line parsed,
        // so "joho debug on" is "debug on".
        let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
            return Err(UciParseError::UnknownCommand(echo(first)));
        };
        if start > 0 {
            log::info!("skipped unknown tokens before '{}': {}", tokens[start], echo(line));
        }
        let (head, args) = (tokens[start], &tokens[start + 1..]);
        let cmd = match head {
            "uci" => UciCommand::Uci,
            "debug" => UciCommand::Debug(args.first() == Some(&"on")),
            "isready" => UciCommand::IsReady,
            "register" => UciCommand::Register,
            "ucinewgame" => UciCommand::UciNewGame,
            "stop" => UciCommand::Stop,
            "ponderhit" => UciCommand::PonderHit,
            "quit" => UciCommand::Quit,
            "help" => UciCommand::Help,
            "setoption" => {
                if args.first() != Some(&"name") || args.len() < 2 {
                    return Err(UciParseError::NoOptionName(echo(line)));
                }
                // The name runs to the token `value`; a value the user cleared leaves the line
                // ending in `value`, which is an empty value, not part of the name.
                let rest = &args[1..];
                match rest.iter().skip(1).position(|&t| t == "value") {
                    Some(at) => {
                        UciCommand::SetOption { name: rest[..=at].join(" "), value: Some(rest[at + 2..].join(" ")) }
                    }
                    None => UciCommand::SetOption { name: rest.join(" "), value: None },
                }
            }
            "position" => {
                let split = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
                let (setup, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
                let fen = match setup {
                    ["startpos"] => None,
                    ["fen", fen @ ..] if !fen.is_empty() => Some(fen.join(" ")),
                    _ => return Err(UciParseError::BadPosition(echo(line))),
                };
                UciCommand::Position { fen, moves: moves.iter().map(|m| m.to_string()).collect() }
            }
            "go" => UciCommand::Go(parse_go(args)),
            _ => return Err(UciParseError::UnknownCommand(echo(head))),
        };
        Ok(Some(cmd))
    }
}

/// A line that is no UCI command, with the text quoted back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciParseError {
    #[error("unknown command: {0}")]
    UnknownCommand(String),
    #[error("setoption without name: {0}")]
    NoOptionName(String),
    #[error("bad position command: {0}")]
    BadPosition(String),
}

/// The commands a GUI may send; anything else at the start of a line is skipped.
const COMMANDS: [&str; 12] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "help",
];

/// The parameter names of `go`.
const GO_PARAMS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// Stores a parameter's value; false when it was unreadable (the slot is left empty).
fn set<T>(slot: &mut Option<T>, value: Option<T>) -> bool {
    *slot = value;
    slot.is_some()
}

/// Reads `go`'s parameters. It never fails: the GUI waits for a `bestmove` after every `go`, so
/// an unknown token or an unreadable value is skipped (as the UCI spec asks) and noted in
/// `ignored`.
fn parse_go(args: &[&str]) -> GoParams {
    let mut p = GoParams::default();
    let mut i = 0;
    let ms = |v: Option<&&str>| -> Option<Duration> {
        let n: i64 = v?.parse().ok()?;
        // Some GUIs send a negative clock once the flag has fallen: treat it as no time at all.
        Some(Duration::from_millis(n.max(0) as u64))
    };
    let num = |v: Option<&&str>| -> Option<u64> { v?.parse().ok() };
    while i < args.len() {
        let v = args.get(i + 1);
        let mut step = 2;
        let read = match args[i] {
            "wtime" => set(&mut p.wtime, ms(v)),
            "btime" => set(&mut p.btime, ms(v)),
            "winc" => set(&mut p.winc, ms(v)),
            "binc" => set(&mut p.binc, ms(v)),
            "movetime" => set(&mut p.movetime, ms(v)),
            // `movestogo 0` is sent by some GUIs for sudden death: no count, not one move left.
            "movestogo" => {
                p.movestogo = num(v).filter(|&n| n > 0).map(|n| n.min(u64::from(u32::MAX)) as u32);
                num(v).is_some()
            }
            "depth" => set(&mut p.depth, num(v).map(|n| n as u32)),
            "nodes" => set(&mut p.nodes, num(v)),
            "mate" => set(&mut p.mate, num(v).filter(|&n| n >= 1).map(|n| n.min(50) as u32)),
            "infinite" => {
                p.infinite = true;
                step = 1;
                true
            }
            "ponder" => {
                p.ponder = true;
                step = 1;
                true
            }
            // The moves run up to the next parameter name (or the end of the line).
            "searchmoves" => {
                let moves: Vec<String> =
                    args[i + 1..].iter().take_while(|t| !GO_PARAMS.contains(t)).map(|t| t.to_string()).collect();
                step = 1 + moves.len();
                p.searchmoves.extend(moves);
                true
            }
            _ => {
                step = 1;
                false
            }
        };
        if !read {
            // A known name whose value is unreadable goes with that value, unless the "value" is
            // the next parameter (`go wtime btime 1000`).
            if v.is_some_and(|t| GO_PARAMS.contains(t)) {
                step = 1;
            }
            let end = (i + step).min(args.len());
            p.ignored.push(echo(&args[i..end].join(" ")));
        }
        i += step;
    }
    p
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciResponse {
    IdName(String),
    IdAuthor(String),
    /// The text after `option `.
    Option(String),
    UciOk,
    ReadyOk,
    /// `bestmove MOVE [ponder MOVE]`: the move, and the reply the engine expects if it knows one.
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    /// `info depth D [multipv K] score cp S|mate M nodes N [tbhits H] time T [pv MOVE...]`
    Info {
        depth: u32,
        /// The line's rank when more than one was asked for (`MultiPV`), else 0 (not sent).
        multipv: u32,
        score: String,
        nodes: u64,
        /// Endgame tablebase probes that answered (sent when any did).
        tbhits: u64,
        time_ms: u64,
        pv: String,
    },
    InfoString(String),
}

impl fmt::Display for UciResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciResponse::IdName(n) => write!(f, "id name {n}"),
            UciResponse::IdAuthor(a) => write!(f, "id author {a}"),
            UciResponse::Option(o) => write!(f, "option {o}"),
            UciResponse::UciOk => f.write_str("uciok"),
            UciResponse::ReadyOk => f.write_str("readyok"),
            UciResponse::BestMove { mv, ponder: None } => write!(f, "bestmove {mv}"),
            UciResponse::BestMove { mv, ponder: Some(reply) } => write!(f, "bestmove {mv} ponder {reply}"),
            UciResponse::Info { depth, multipv, score, nodes, tbhits, time_ms, pv } => {
                write!(f, "info depth {depth}")?;
                if *multipv > 0 {
                    write!(f, " multipv {multipv}")?;
                }
                write!(f, " score {score} nodes {nodes}")?;
                if *tbhits > 0 {
                    write!(f, " tbhits {tbhits}")?;
                }
                write!(f, " time {time_ms}")?;
                if !pv.is_empty() {
                    write!(f, " pv {pv}")?;
                }
                Ok(())
            }
            UciResponse::InfoString(s) => write!(f, "info string {s}"),
        }
    }
}

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

pub struct UciSession<'a> {
    engine: Engine,
    live: Option<LiveOutput<'a, UciResponse>>,
    game: Game,
    /// A `bestmove` held back until `stop`/`ponderhit`.
    pending: Option<UciResponse>,
    /// The `go ponder` being held: after `ponderhit` the same `go` runs on the clock.
    pondering: Option<GoParams>,
    /// The `Ponder` option: the GUI may send `go ponder`. Nothing else changes with it.
    ponder: bool,
    /// How castling is written (`UCI_Chess960`: the king takes its own rook); every form is
    /// read whatever it says.
    castling: CastlingNotation,
    /// `Move Overhead`: the time kept back from every move for the GUI's and the network's lag.
    overhead: Duration,
    /// Why the last `position` was refused: until a good one, `go` searches nothing (the GUI
    /// expects a move for the position it sent, which the engine does not have).
    refused: Option<String>,
    quit: bool,
}

impl<'a> UciSession<'a> {
    pub fn new(engine: Engine) -> UciSession<'a> {
        UciSession {
            engine,
            live: None,
            game: Game::startpos(),
            pending: None,
            pondering: None,
            ponder: false,
            castling: CastlingNotation::KingsMove,
            overhead: OVERHEAD,
            refused: None,
            quit: false,
        }
    }

    /// Sends an `info` line for each of a searcher's completed iterations to `sink` as soon as
    /// it is complete; `bestmove` comes with the decision's own line only if it differs.
    pub fn set_live_output(&mut self, sink: impl FnMut(&UciResponse) + 'a) {
        self.live = Some(Box::new(sink));
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    pub fn handle_line(&mut self, line: &str) -> Vec<UciResponse> {
        log::debug!(">> {line}");
        match UciCommand::parse(line) {
            Ok(Some(cmd)) => self.handle(cmd),
            Ok(None) => Vec::new(),
            Err(e @ UciParseError::BadPosition(_)) => {
                // The GUI's next `go` is for the position it meant to send, which the engine
                // does not have: refused like a bad FEN.
                let why = e.to_string();
                self.refused = Some(why.clone());
                vec![UciResponse::InfoString(why)]
            }
            Err(e) => vec![UciResponse::InfoString(e.to_string())],
        }
    }

    pub fn handle(&mut self, cmd: UciCommand) -> Vec<UciResponse> {
        let mut out = Vec::new();
        match cmd {
            UciCommand::Uci => {
                let level = self.engine.level().unwrap_or(DEFAULT_LEVEL);
                out.push(UciResponse::IdName(format!("{ENGINE_NAME} {VERSION}")));
                out.push(UciResponse::IdAuthor("the AgentChess developers".into()));
                out.push(UciResponse::Option(format!(
                    "name Level type spin default {level} min {MIN_LEVEL} max {MAX_LEVEL}"
                )));
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
                out.push(UciResponse::Option(format!(
                    "name SyzygyPath type string default {}",
                    self.engine.syzygy_path()
                )));
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
                out.push(UciResponse::UciOk);
            }
            UciCommand::Debug(_) | UciCommand::Register => {}
            UciCommand::IsReady => out.push(UciResponse::ReadyOk),
            // The tables' path is said back: how many pieces they hold, or why none opened
            // (the engine plays on without them).
            UciCommand::SetOption { name, value } if name.eq_ignore_ascii_case("syzygypath") => {
                match self.engine.set_syzygy_path(value.as_deref().unwrap_or("")) {
                    Ok(Some(pieces)) => out.push(UciResponse::InfoString(format!(
                        "Syzygy tables of up to {pieces} pieces found in {}",
                        self.engine.syzygy_path()
                    ))),
                    Ok(None) => {}
                    Err(e) => out.push(UciResponse::InfoString(format!("{e}; playing without tables"))),
                }
            }
            UciCommand::SetOption { name, value } => match self.set_option(&name, value.as_deref()) {
                Err(e) => out.push(UciResponse::InfoString(e.to_string())),
                Ok(()) if matches!(name.to_ascii_lowercase().as_str(), "uci_limitstrength" | "uci_elo") => {
                    let note = self.engine.strength_note();
                    out.push(UciResponse::InfoString(note.unwrap_or_else(|| "strength not limited".into())));
                }
                Ok(()) => {}
            },
            UciCommand::UciNewGame => {
                self.game = Game::startpos();
                self.refused = None;
                self.engine.new_game();
            }
            UciCommand::Position { fen, moves } => {
                let start = match fen {
                    None => Position::startpos(),
                    Some(f) => match Position::from_fen(&f) {
                        Ok(p) => p,
                        Err(e) => {
                            let why = format!("illegal position: {e}");
                            out.push(UciResponse::InfoString(why.clone()));
                            self.refused = Some(why);
                            return out;
                        }
                    },
                };
                let mut game = Game::new(start);
                self.refused = None;
                for m in &moves {
                    match parse_move(game.position(), m) {
                        Some(mv) => game.play(mv),
                        None => {
                            let why = format!("illegal move: {}", echo(m));
                            out.push(UciResponse::InfoString(why.clone()));
                            self.refused = Some(why);
                            break;
                        }
                    }
                }
                self.game = game;
            }
            UciCommand::Go(params) => {
                // A `go` without `stop` ends the held search: its `bestmove` goes first, before
                // the new search's live `info` lines.
                if let Some(best) = self.pending.take() {
                    match self.live.as_mut() {
                        Some(sink) => sink(&best),
                        None => out.push(best),
                    }
                }
                self.pondering = params.ponder.then(|| params.clone());
                out.extend(self.go(&params));
            }
            UciCommand::Stop => {
                self.pondering = None;
                out.extend(self.pending.take());
            }
            // The GUI's move is the one pondered on: the search goes on, now on the clock the
            // `go ponder` gave, counted from here. It starts again on the same position with
            // the table the pondering filled, so the depths pondered come back at once.
            UciCommand::PonderHit => match self.pondering.take() {
                Some(params) => {
                    self.pending = None;
                    out.extend(self.go(&GoParams { ponder: false, ..params }));
                }
                None => out.extend(self.pending.take()),
            },
            UciCommand::Quit => self.quit = true,
            UciCommand::Help => out.extend(HELP.iter().map(|l| UciResponse::InfoString(l.to_string()))),
        }
        out
    }

    /// A `go`: the search and its `bestmove`, held back (in `pending`) for `go infinite` and
    /// `go ponder`.
    fn go(&mut self, params: &GoParams) -> Vec<UciResponse> {
        let mut out = Vec::new();
        let held = params.infinite || params.ponder;
        if let Some(why) = &self.refused {
            out.push(UciResponse::InfoString(format!(
                "no search: the last position was refused ({why}); send a legal one"
            )));
            out.push(UciResponse::BestMove { mv: "0000".into(), ponder: None });
            self.pondering = None;
            return out;
        }
        if let Some(note) = self.engine.strength_note() {
            out.push(UciResponse::InfoString(note));
        }
        for token in &params.ignored {
            out.push(UciResponse::InfoString(format!("ignored go parameter '{token}'")));
        }
        let mut limits = self.limits(params);
        let (moves, notes) = search_moves(self.game.position(), &params.searchmoves);
        limits.root_moves = moves;
        out.extend(notes.into_iter().map(UciResponse::InfoString));
        let mut sink = self.live.as_mut();
        let mut last_best: Option<UciResponse> = None;
        let (pos, castling) = (*self.game.position(), self.castling);
        let thought = self.engine.think_reporting(&self.game, &limits, &mut |step| {
            if let Some(live) = sink.as_mut() {
                let line = info_line(&pos, castling, &step);
                live(&line);
                if step.multipv <= 1 {
                    last_best = Some(line);
                }
            }
        });
        let best = match thought {
            // Mate or stalemate on the board: the score says which, and there is no move.
            None => {
                let pos = self.game.position();
                let score = if pos.is_checkmate() { "mate 0" } else { "cp 0" };
                out.push(UciResponse::Info {
                    depth: 0,
                    multipv: 0,
                    score: score.into(),
                    nodes: 0,
                    tbhits: 0,
                    time_ms: 0,
                    pv: String::new(),
                });
                UciResponse::BestMove { mv: "0000".into(), ponder: None }
            }
            Some(t) => {
                // UCI lets an engine say anything in an info string: a player failure is said
                // there as well as on stderr.
                if let Some(fault) = &t.fault {
                    out.push(UciResponse::InfoString(format!("fault: {fault}")));
                }
                // The decision's own line only when it says something the last one did not (a
                // better move found in a cut iteration); its nodes and time alone are no new line.
                let own = info_line(&pos, castling, &t);
                if !last_best.as_ref().is_some_and(|sent| same_line(sent, &own)) {
                    out.push(own);
                }
                best_move(&pos, castling, &t)
            }
        };
        if held {
            self.pending = Some(best);
        } else {
            out.push(best);
        }
        out
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
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

    fn limits(&self, p: &GoParams) -> SearchLimits {
        let mut limits = SearchLimits {
            depth: p.depth,
            nodes: p.nodes,
            infinite: p.infinite || p.ponder,
            mate: p.mate,
            ..Default::default()
        };
        if limits.infinite {
            return limits;
        }
        let (time, inc) = match self.game.position().side_to_move() {
            Color::White => (p.wtime, p.winc),
            Color::Black => (p.btime, p.binc),
        };
        let times = match (p.movetime, time) {
            (Some(t), _) => Some(per_move_budget_with(t, self.overhead)),
            (None, Some(t)) => Some(budget_with(t, inc.unwrap_or_default(), p.movestogo, self.overhead)),
            (None, None) => None,
        };
        if let Some((soft, hard)) = times {
            limits.soft_time = Some(soft);
            limits.hard_time = Some(hard);
        }
        limits
    }
}

/// `go searchmoves`: the moves read against `pos`, and an `info string` for each one that is
/// not a legal move there (and when none is, that every move is searched).
fn search_moves(pos: &Position, texts: &[String]) -> (Vec<crate::board::Move>, Vec<String>) {
    let mut moves = Vec::new();
    let mut notes = Vec::new();
    for text in texts {
        match parse_move(pos, text) {
            Some(mv) if !moves.contains(&mv) => moves.push(mv),
            Some(_) => {}
            None => notes.push(format!("searchmoves: '{}' is not a legal move here", echo(text))),
        }
    }
    if moves.is_empty() && !texts.is_empty() {
        notes.push("searchmoves: no legal move given; every move is searched".into());
    }
    (moves, notes)
}

/// `bestmove` for a thought, with the reply its line expects as the move to ponder on.
fn best_move(pos: &Position, castling: CastlingNotation, t: &Thought) -> UciResponse {
    let mut line = pos.coordinate_line(&t.pv[..t.pv.len().min(2)], castling).into_iter();
    let mv = line.next().unwrap_or_else(|| pos.coordinate(t.mv, castling));
    UciResponse::BestMove { mv, ponder: line.next() }
}

/// Two `info` lines that say the same (depth, rank, score and line), whatever their nodes and
/// time.
fn same_line(a: &UciResponse, b: &UciResponse) -> bool {
    match (a, b) {
        (
            UciResponse::Info { depth, multipv, score, pv, .. },
            UciResponse::Info { depth: depth_b, multipv: multipv_b, score: score_b, pv: pv_b, .. },
        ) => (depth, multipv, score, pv) == (depth_b, multipv_b, score_b, pv_b),
        _ => a == b,
    }
}

/// The `info` line for a thought.
fn info_line(pos: &Position, castling: CastlingNotation, t: &Thought) -> UciResponse {
    let score = match t.mate {
        Some(n) => format!("mate {n}"),
        None => format!("cp {}", t.score),
    };
    UciResponse::Info {
        depth: t.depth.max(1),
        multipv: t.multipv,
        score,
        nodes: t.nodes,
        tbhits: t.tbhits,
        time_ms: t.elapsed.as_millis() as u64,
        pv: pos.coordinate_line(&t.pv, castling).join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searchmoves_run_to_the_next_parameter_and_mate_is_read() {
        let p = parse_go(&["searchmoves", "e2e4", "d2d4", "depth", "3", "mate", "2"]);
        assert_eq!(p.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!((p.depth, p.mate), (Some(3), Some(2)));
        assert!(p.ignored.is_empty(), "{:?}", p.ignored);
        let end = parse_go(&["wtime", "1000", "searchmoves", "g1f3"]);
        assert_eq!((end.wtime, end.searchmoves), (Some(Duration::from_millis(1000)), vec!["g1f3".to_string()]));
        // A mate in 0 or in nothing readable is no search for a mate.
        assert_eq!(parse_go(&["mate", "0"]).mate, None);
        assert_eq!(parse_go(&["mate", "0"]).ignored, ["mate 0"]);
        assert!(parse_go(&["searchmoves"]).searchmoves.is_empty());
    }

    /// `Move Overhead` keeps that much more back from every move's time; out of range, it is
    /// refused and the margin stays.
    #[test]
    fn a_move_overhead_shortens_every_move() {
        let engine = Engine::new("level:1".parse().unwrap(), 1).unwrap();
        let mut session = UciSession::new(engine);
        let go = parse_go(&["wtime", "2000", "btime", "2000", "movetime", "1000"]);
        let clock = parse_go(&["wtime", "2000", "btime", "2000"]);
        let before = (session.limits(&go).hard_time, session.limits(&clock).hard_time);
        assert!(session.set_option("Move Overhead", Some("150")).is_ok());
        let after = (session.limits(&go).hard_time, session.limits(&clock).hard_time);
        assert_eq!(after.0, Some(Duration::from_millis(850)));
        assert!(after.0 < before.0 && after.1 < before.1, "{before:?} {after:?}");
        assert!(session.set_option("Move Overhead", Some("-1")).is_err());
        assert!(session.set_option("Move Overhead", Some("5001")).is_err());
        assert_eq!(session.limits(&go).hard_time, after.0);
        assert!(session.set_option("UCI_AnalyseMode", Some("true")).is_ok());
        assert!(session.set_option("UCI_AnalyseMode", Some("maybe")).is_err());
        assert!(session.set_option("Clear Hash", None).is_ok());
    }

    /// `movestogo 0` (sudden death, as some GUIs say it) is no count, not one move left.
    #[test]
    fn movestogo_zero_is_no_count() {
        let p = parse_go(&["wtime", "1000", "btime", "1000", "movestogo", "0"]);
        assert_eq!(p.movestogo, None);
        assert!(p.ignored.is_empty(), "{:?}", p.ignored);
        assert_eq!(parse_go(&["movestogo", "5"]).movestogo, Some(5));
    }

    /// A string option the user cleared arrives as `... value` at the line's end: an empty
    /// value for that option, not an option named `NAME value`.
    #[test]
    fn an_emptied_string_option_is_an_empty_value() {
        let read = |line: &str| UciCommand::parse(line).unwrap().unwrap();
        let set = |name: &str, value: Option<&str>| UciCommand::SetOption {
            name: name.into(),
            value: value.map(String::from),
        };
        assert_eq!(read("setoption name Player value "), set("Player", Some("")));
        assert_eq!(read("setoption name Player value"), set("Player", Some("")));
        assert_eq!(read("setoption name Move Overhead value 300"), set("Move Overhead", Some("300")));
        assert_eq!(read("setoption name Clear Hash"), set("Clear Hash", None));
        assert_eq!(read("setoption name Player value level:3"), set("Player", Some("level:3")));
        assert!(UciCommand::parse("setoption name").is_err());
        assert!(UciCommand::parse("setoption value 3").is_err());
    }
}
