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

use crate::board::{Game, Move, Position, STARTPOS};
use crate::players::{Decision, NoMove, Player};
use std::cell::RefCell;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
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
}

/// A late move within this margin of the clock is not a forfeit (the pipe and the scheduler).
const CLOCK_MARGIN: Duration = Duration::from_millis(100);
/// How long the handshake (`uciok`, `readyok`, XBoard's features) may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl EngineSpec {
    /// `spec` without its `uci:`/`xboard:` prefix, whose protocol is `protocol`.
    pub fn parse(protocol: Protocol, text: &str) -> Result<EngineSpec, String> {
        let mut parts = text.split(',');
        let command: Vec<String> = parts.next().unwrap_or("").split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err("an external engine needs a command, e.g. uci:/usr/games/stockfish,depth=1".to_string());
        }
        let mut spec = EngineSpec {
            protocol,
            command,
            limit: Limit::Depth(1),
            options: Vec::new(),
            timeout: Duration::from_secs(60),
            label: None,
        };
        let mut limits = 0;
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| format!("'{part}' is not KEY=VALUE"))?;
            let (key, value) = (key.trim(), value.trim());
            let number = |what: &str| {
                value
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite() && *v > 0.0)
                    .ok_or_else(|| format!("{what}: '{value}' is not a positive number"))
            };
            let whole = |what: &str| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&v| v > 0)
                    .ok_or_else(|| format!("{what}: '{value}' is not a whole number from 1"))
            };
            let limit = match (protocol, key) {
                (Protocol::Uci, "depth") | (Protocol::Xboard, "sd") => {
                    Some(Limit::Depth(whole(key)?.min(u32::MAX as u64) as u32))
                }
                (Protocol::Uci, "nodes") => Some(Limit::Nodes(whole(key)?)),
                (Protocol::Uci, "movetime") => Some(Limit::MoveTime(Duration::from_millis(whole(key)?))),
                (Protocol::Xboard, "st") => Some(Limit::MoveTime(Duration::from_secs_f64(number(key)?))),
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
                "timeout" => spec.timeout = Duration::from_secs_f64(number(key)?),
                _ => match key.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => spec.options.push((name.to_string(), value.to_string())),
                    _ => {
                        let keys = match protocol {
                            Protocol::Uci => "depth, nodes, movetime, tc",
                            Protocol::Xboard => "sd, st, tc",
                        };
                        return Err(format!(
                            "unknown engine setting '{key}' (expected {keys}, option.NAME, timeout, name)"
                        ));
                    }
                },
            }
        }
        if limits > 1 {
            return Err("give the engine one limit (depth, nodes, movetime, sd, st or tc)".to_string());
        }
        Ok(spec)
    }

    /// How long a move may take before the engine counts as silent, given its clock.
    fn reply_deadline(&self, clock: Option<Duration>) -> Duration {
        match self.limit {
            Limit::MoveTime(t) => t + self.timeout.min(Duration::from_secs(5)).max(Duration::from_secs(1)),
            Limit::Clock { .. } => clock.unwrap_or_default() + CLOCK_MARGIN + Duration::from_secs(1),
            _ => self.timeout,
        }
    }
}

/// `40/60+0.5`, `60+1`, `0/60`: moves per session / seconds + increment.
fn parse_tc(text: &str) -> Result<Limit, String> {
    let bad = || format!("tc: '{text}' is not MOVES/SECS+INC (e.g. 40/60+0.5 or 10+0.1)");
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
        return Err(bad());
    }
    Ok(Limit::Clock { moves, base: Duration::from_secs_f64(base), inc: Duration::from_secs_f64(inc) })
}

/// A running engine: its stdin, and its stdout's lines from a reader thread.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// XBoard features the engine announced.
    usermove: bool,
    setboard: bool,
    ping: bool,
    /// The last `ping` number sent.
    pings: u32,
}

impl Process {
    fn spawn(command: &[String]) -> Result<Process, String> {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command.join(" ")))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Process { child, stdin, lines, usermove: false, setboard: false, ping: false, pings: 0 })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        log::trace!("engine <- {line}");
        writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()).map_err(|_| self.gone())
    }

    /// Why the engine stopped talking: its exit status if it has one.
    fn gone(&mut self) -> String {
        std::thread::sleep(Duration::from_millis(20));
        match self.child.try_wait() {
            Ok(Some(status)) => format!("engine process ended ({status})"),
            _ => "engine closed its output".to_string(),
        }
    }

    /// Lines already sent and not read (left from an earlier game or turn), dropped.
    fn drain(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            log::trace!("engine -> {line} (dropped)");
        }
    }

    /// XBoard: `ping N` and every line up to `pong N`, so that nothing the engine said before is
    /// read as an answer to what comes next. Without the ping feature, the lines already there.
    fn sync(&mut self) -> Result<Vec<String>, String> {
        if !self.ping {
            self.drain();
            return Ok(Vec::new());
        }
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut before = Vec::new();
        loop {
            let line = self.line(deadline, &format!("pong {n}"))?;
            if line.split_whitespace().eq(["pong".to_string(), n.to_string()].iter().map(String::as_str)) {
                return Ok(before);
            }
            before.push(line);
        }
    }

    /// The next line before `deadline`.
    fn line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                log::trace!("engine -> {line}");
                Ok(line)
            }
            Err(RecvTimeoutError::Timeout) => {
                Err(format!("no reply: no {waiting_for} within {:.1} s", wait.as_secs_f64()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.gone()),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A polite engine leaves at once; one that does not is not waited for.
        for _ in 0..10 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

thread_local! {
    /// Healthy processes left by finished games on this thread, by spec, for the next game.
    static IDLE: RefCell<Vec<(String, Process)>> = const { RefCell::new(Vec::new()) };
}

/// An external engine as a [`Player`].
pub struct ExternalPlayer {
    key: String,
    spec: EngineSpec,
    process: Option<Process>,
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
    pub fn new(key: &str, spec: EngineSpec) -> ExternalPlayer {
        let process = IDLE.with(|idle| {
            let mut idle = idle.borrow_mut();
            let at = idle.iter().position(|(k, _)| k == key)?;
            Some(idle.swap_remove(at).1)
        });
        let clock = match spec.limit {
            Limit::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        ExternalPlayer {
            key: key.to_string(),
            spec,
            process,
            in_game: false,
            told: 0,
            clock,
            moves_made: 0,
            no_move: None,
            spoiled: false,
            pooled: true,
        }
    }

    /// A player whose process is its own: started fresh, ended when the player is dropped.
    pub fn new_unpooled(key: &str, spec: EngineSpec) -> ExternalPlayer {
        let clock = match spec.limit {
            Limit::Clock { base, .. } => base,
            _ => Duration::ZERO,
        };
        ExternalPlayer {
            key: key.to_string(),
            spec,
            process: None,
            in_game: false,
            told: 0,
            clock,
            moves_made: 0,
            no_move: None,
            spoiled: false,
            pooled: false,
        }
    }

    /// Starts the engine and completes the handshake, to check a spec before a run.
    pub fn probe(&mut self) -> Result<(), String> {
        self.ensure_started().map(|_| ())
    }

    fn ensure_started(&mut self) -> Result<&mut Process, String> {
        if self.process.is_none() {
            let mut p = Process::spawn(&self.spec.command)?;
            handshake(&mut p, &self.spec)?;
            self.process = Some(p);
            self.in_game = false;
        }
        Ok(self.process.as_mut().expect("just started"))
    }

    fn fail(&mut self, reason: String) -> Option<Decision> {
        self.spoiled = true;
        self.process = None;
        self.no_move = Some(NoMove::Fault(reason));
        None
    }

    fn ask(&mut self, game: &Game) -> Result<Result<Decision, NoMove>, String> {
        let spec = self.spec.clone();
        let clock = self.clock;
        let start_new = !self.in_game;
        let told = if start_new { 0 } else { self.told };
        let process = self.ensure_started()?;
        let pos = *game.position();
        let answer = match spec.protocol {
            Protocol::Uci => uci_move(process, &spec, game, start_new, clock)?,
            Protocol::Xboard => xboard_move(process, &spec, game, start_new, told, clock)?,
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
            _ => return Err(format!("illegal move '{text}' in {}", pos.to_fen())),
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
                return Err(format!("false claim '{claim}' after its move {text}: {truth}"));
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
        if let Some(p) = self.process.take() {
            let key = std::mem::take(&mut self.key);
            // A thread-local that is being torn down drops the process instead.
            let _ = IDLE.try_with(|idle| idle.borrow_mut().push((key, p)));
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
                        let reason = format!(
                            "time forfeit: {} ms used with {} ms left",
                            used.as_millis(),
                            self.clock.as_millis()
                        );
                        return self.fail(reason);
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
    }
}

fn handshake(p: &mut Process, spec: &EngineSpec) -> Result<(), String> {
    let deadline = Instant::now() + HANDSHAKE;
    match spec.protocol {
        Protocol::Uci => {
            p.send("uci")?;
            let mut offered = Vec::new();
            loop {
                let line = p.line(deadline, "uciok")?;
                if line.trim() == "uciok" {
                    break;
                }
                if let Some(name) = uci_option_name(&line) {
                    offered.push(name);
                }
            }
            check_options(spec, &offered)?;
            for (name, value) in &spec.options {
                p.send(&format!("setoption name {name} value {value}"))?;
            }
            p.send("isready")?;
            while p.line(deadline, "readyok")?.trim() != "readyok" {}
        }
        Protocol::Xboard => {
            p.send("xboard")?;
            p.send("protover 2")?;
            // Features until `done=1`; an engine that announces none (protocol 1) gets five
            // seconds (slow starters such as GNU Chess take over two on a busy machine), one
            // that says `done=0` the whole handshake time.
            let mut quiet_deadline = Instant::now() + Duration::from_secs(5);
            let mut offered = Vec::new();
            loop {
                let line = match p.line(quiet_deadline.min(deadline), "feature done=1") {
                    Ok(l) => l,
                    Err(e) if e.starts_with("no reply") && Instant::now() < deadline => break,
                    Err(e) => return Err(e),
                };
                let Some(features) = line.trim().strip_prefix("feature ") else { continue };
                for (name, value) in parse_features(features) {
                    match name.as_str() {
                        "usermove" => p.usermove = value == "1",
                        "setboard" => p.setboard = value == "1",
                        "ping" => p.ping = value == "1",
                        "done" if value == "0" => quiet_deadline = deadline,
                        // `option="Hash -spin 16 1 1024"`: the name is what comes before " -".
                        "option" => offered.push(value.split(" -").next().unwrap_or("").trim().to_string()),
                        _ => {}
                    }
                    if name != "done" {
                        p.send(&format!("accepted {name}"))?;
                    }
                }
                if features.split_whitespace().any(|f| f == "done=1") {
                    break;
                }
            }
            check_options(spec, &offered)?;
            for (name, value) in &spec.options {
                p.send(&format!("option {name}={value}"))?;
            }
        }
    }
    Ok(())
}

/// The name in a UCI `option name NAME type ...` line (names may hold spaces).
fn uci_option_name(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let name = match rest.find(" type ") {
        Some(at) => &rest[..at],
        None => rest,
    };
    Some(name.trim().to_string())
}

/// Every `option.NAME=VALUE` of the spec must name an option the engine offers (UCI matches
/// names without regard to case, so both protocols do here): an option the engine would ignore
/// in silence makes a run measure something other than what was asked.
fn check_options(spec: &EngineSpec, offered: &[String]) -> Result<(), String> {
    for (name, _) in &spec.options {
        if !offered.iter().any(|o| o.eq_ignore_ascii_case(name)) {
            let list = if offered.is_empty() { "none".to_string() } else { offered.join(", ") };
            return Err(format!("the engine offers no option '{name}' (it offers: {list})"));
        }
    }
    Ok(())
}

/// `usermove=1 myname="Fairy-Max 5.0" done=1` into name/value pairs (quotes kept out).
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some((name, after)) = rest.split_once('=') {
        let name = name.trim().to_string();
        let after = after.trim_start();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.split_once('"') {
                Some((v, n)) => (v, n),
                None => (quoted, ""),
            }
        } else {
            after.split_once(char::is_whitespace).unwrap_or((after, ""))
        };
        out.push((name, value.to_string()));
        rest = next.trim_start();
    }
    out
}

fn uci_move(
    p: &mut Process,
    spec: &EngineSpec,
    game: &Game,
    new_game: bool,
    clock: Duration,
) -> Result<Answer, String> {
    if new_game {
        p.send("ucinewgame")?;
        p.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while p.line(deadline, "readyok")?.trim() != "readyok" {}
    }
    let start = game.start_position().to_fen();
    let mut command = if start == STARTPOS { "position startpos".to_string() } else { format!("position fen {start}") };
    if !game.moves().is_empty() {
        command.push_str(" moves");
        for m in game.moves() {
            command.push_str(&format!(" {m}"));
        }
    }
    p.send(&command)?;
    let go = match spec.limit {
        Limit::Depth(d) => format!("go depth {d}"),
        Limit::Nodes(n) => format!("go nodes {n}"),
        Limit::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        Limit::Clock { moves, inc, .. } => {
            // Our side of the board has no clock of its own; the opponent is shown the same time.
            let (ms, inc) = (clock.as_millis(), inc.as_millis());
            let mut go = format!("go wtime {ms} btime {ms} winc {inc} binc {inc}");
            if moves > 0 {
                let made = game.moves().len() as u32 / 2;
                go.push_str(&format!(" movestogo {}", moves - made % moves));
            }
            go
        }
    };
    p.send(&go)?;
    let deadline = Instant::now() + spec.reply_deadline(Some(clock));
    let mut info = Info::default();
    loop {
        let line = p.line(deadline, "bestmove")?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("info") => read_info(&line, &mut info),
            Some("bestmove") => {
                let mv = words.next().unwrap_or("");
                if mv.is_empty() || mv == "(none)" || mv == "0000" {
                    return Err(format!(
                        "no move: 'bestmove {mv}' in {} where there are legal moves",
                        game.position().to_fen()
                    ));
                }
                return Ok(Answer::Move(mv.to_string(), info, None));
            }
            _ => {}
        }
    }
}

fn read_info(line: &str, info: &mut Info) {
    let words: Vec<&str> = line.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1);
        match *w {
            "depth" => info.depth = next.and_then(|v| v.parse().ok()).unwrap_or(info.depth),
            "nodes" => info.nodes = next.and_then(|v| v.parse().ok()).unwrap_or(info.nodes),
            "cp" => {
                info.score = next.and_then(|v| v.parse().ok()).unwrap_or(info.score);
                info.mate = None;
            }
            "mate" => info.mate = next.and_then(|v| v.parse().ok()),
            "pv" => break,
            _ => {}
        }
    }
}

fn xboard_move(
    p: &mut Process,
    spec: &EngineSpec,
    game: &Game,
    new_game: bool,
    told: usize,
    clock: Duration,
) -> Result<Answer, String> {
    let mut told = told;
    if new_game {
        p.sync()?;
        p.send("new")?;
        p.send("easy")?;
        p.send("post")?;
        p.send("force")?;
        match spec.limit {
            Limit::Depth(d) => p.send(&format!("sd {d}"))?,
            Limit::MoveTime(t) => p.send(&format!("st {}", t.as_secs_f64().ceil().max(1.0) as u64))?,
            Limit::Clock { moves, base, inc } => {
                let secs = base.as_secs();
                p.send(&format!("level {moves} {}:{:02} {}", secs / 60, secs % 60, inc.as_secs_f64()))?;
            }
            Limit::Nodes(_) => {}
        }
        let start = *game.start_position();
        if start != Position::startpos() {
            if !p.setboard {
                return Err("the engine cannot start from a FEN (no feature setboard=1)".to_string());
            }
            p.send(&format!("setboard {}", start.to_fen()))?;
        }
        told = 0;
    }
    let sent: Vec<String> = game.moves()[told..].iter().map(|m| m.to_string()).collect();
    for m in &sent {
        let text = if p.usermove { format!("usermove {m}") } else { m.clone() };
        p.send(&text)?;
    }
    if let Limit::Clock { .. } = spec.limit {
        let cs = clock.as_millis() / 10;
        p.send(&format!("time {cs}"))?;
        p.send(&format!("otim {cs}"))?;
    }
    p.send("go")?;
    let deadline = Instant::now() + spec.reply_deadline(Some(clock));
    let mut info = Info::default();
    let answer = loop {
        let line = p.line(deadline, "move")?;
        let trimmed = line.trim();
        let first = trimmed.split_whitespace().next().unwrap_or("");
        // `move e2e4`; old GNU Chess says `My move is : e2e4`.
        if let Some(mv) = trimmed.strip_prefix("move ").or_else(|| trimmed.strip_prefix("My move is :")) {
            break Answer::Move(mv.trim().to_string(), info, None);
        }
        if first == "resign" || trimmed.contains("resign") && ["1-0", "0-1"].contains(&first) {
            break Answer::Resign;
        }
        if ["1-0", "0-1", "1/2-1/2"].contains(&first) {
            return Err(format!("claimed '{trimmed}' in a game that is not over"));
        }
        if first.starts_with("Illegal") || first.starts_with("Invalid") || first.starts_with("Error") {
            // About a move of the game: the engine and the game disagree, which ends it. About
            // a setting (Phalanx and GNU Chess refuse `sd`): the engine plays on without it.
            let last = trimmed.rsplit([' ', ':']).next().unwrap_or("");
            if sent.iter().any(|m| m == last) {
                return Err(format!("refused the game's move: '{trimmed}'"));
            }
            log::debug!("engine refused a setting: {trimmed}");
            continue;
        }
        // Thinking output: `depth score time nodes pv`.
        let numbers: Vec<&str> = trimmed.split_whitespace().take(4).collect();
        if numbers.len() == 4 && numbers.iter().all(|w| w.trim_end_matches(['.', '&']).parse::<i64>().is_ok()) {
            info.depth = numbers[0].trim_end_matches(['.', '&']).parse().unwrap_or(0);
            info.score = numbers[1].parse().unwrap_or(0);
            info.nodes = numbers[3].parse().unwrap_or(0);
        }
    };
    // Back to force mode, so that the engine waits for the opponent's move to be told; what
    // it says up to the pong is about its move (a result claim when it thinks the game over).
    p.send("force")?;
    let claim =
        p.sync()?.into_iter().find(|l| ["1-0", "0-1", "1/2-1/2"].contains(&l.split_whitespace().next().unwrap_or("")));
    Ok(match answer {
        Answer::Move(mv, info, _) => Answer::Move(mv, info, claim),
        other => other,
    })
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
        for bad in [
            "",
            ",depth=1",
            "e,depth=0",
            "e,depth=x",
            "e,sd=2",
            "e,depth=1,nodes=5",
            "e,bogus=1",
            "e,tc=40/",
            "e,tc=0",
            "e,option.=1",
            "e,depth",
        ] {
            assert!(EngineSpec::parse(Protocol::Uci, bad).is_err(), "uci:{bad} accepted");
        }
        assert!(EngineSpec::parse(Protocol::Xboard, "e,depth=2").is_err(), "xboard takes sd, not depth");
    }

    #[test]
    fn features_are_read_with_quotes() {
        assert_eq!(
            parse_features("usermove=1 myname=\"Fairy-Max 5.0b\" setboard=1 done=1"),
            vec![
                ("usermove".to_string(), "1".to_string()),
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".to_string(), "1".to_string()),
                ("done".to_string(), "1".to_string())
            ]
        );
    }

    #[test]
    fn uci_info_is_read() {
        let mut info = Info::default();
        read_info("info depth 7 seldepth 9 multipv 1 score cp -35 nodes 12345 nps 1 pv e2e4 e7e5", &mut info);
        assert_eq!((info.depth, info.score, info.mate, info.nodes), (7, -35, None, 12345));
        read_info("info depth 9 score mate 3 nodes 99 pv a1a8", &mut info);
        assert_eq!((info.depth, info.mate), (9, Some(3)));
    }

    #[test]
    fn option_names_are_read_and_checked() {
        assert_eq!(
            uci_option_name("option name Hash type spin default 16 min 1 max 33554432").as_deref(),
            Some("Hash")
        );
        assert_eq!(uci_option_name("option name Skill Level type spin default 20").as_deref(), Some("Skill Level"));
        assert_eq!(uci_option_name("id name Stockfish"), None);
        let spec = EngineSpec::parse(Protocol::Uci, "e,option.hash=32,option.Skill Level=3").unwrap();
        assert!(check_options(&spec, &["Hash".to_string(), "Skill Level".to_string()]).is_ok());
        let err = check_options(&spec, &["Threads".to_string()]).unwrap_err();
        assert!(err.contains("'hash'") && err.contains("Threads"), "{err}");
        assert!(check_options(&spec, &[]).unwrap_err().contains("offers: none"));
    }

    #[test]
    fn a_missing_engine_is_a_fault_not_a_panic() {
        let spec = EngineSpec::parse(Protocol::Uci, "/nonexistent/engine-binary").unwrap();
        let mut player = ExternalPlayer::new_unpooled("uci:/nonexistent/engine-binary", spec);
        assert!(player.probe().unwrap_err().contains("cannot start"));
        player.new_game();
        assert_eq!(player.decide(&Game::startpos()), None);
        assert!(matches!(player.no_move(), Some(NoMove::Fault(r)) if r.contains("cannot start")));
    }
}
