//! The XBoard client: the feature handshake, then force mode, the game's moves and `go` for
//! each move, with `ping`/`pong` to keep what the engine says in step.

use super::features::parse_features;
use super::process::Process;
use super::spec::{EngineSpec, Limit};
use super::{Answer, EngineError, HANDSHAKE, Info, check_options};
use crate::board::{Game, Position};
use std::time::{Duration, Instant};

/// What the engine announced in its features, and the last `ping` number sent to it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Features {
    usermove: bool,
    setboard: bool,
    ping: bool,
    pings: u32,
    /// Whether it sent any `feature` line: an engine that sent none is a protocol 1 engine,
    /// or no XBoard engine at all.
    pub(super) announced: bool,
}

/// `xboard`, `protover 2`, the features until `done=1` (each accepted), the spec's options.
pub(super) fn handshake(p: &mut Process, spec: &EngineSpec) -> Result<Features, EngineError> {
    let deadline = Instant::now() + HANDSHAKE;
    p.send("xboard")?;
    p.send("protover 2")?;
    // Features until `done=1`; an engine that announces none (protocol 1) gets five seconds
    // (slow starters such as GNU Chess take over two on a busy machine), one that says `done=0`
    // the whole handshake time.
    let mut quiet_deadline = Instant::now() + Duration::from_secs(5);
    let mut offered = Vec::new();
    let mut features = Features::default();
    loop {
        let line = match p.line(quiet_deadline.min(deadline), "feature done=1") {
            Ok(l) => l,
            Err(EngineError::NoReply { .. }) if Instant::now() < deadline => break,
            Err(e) => return Err(e),
        };
        let Some(text) = line.trim().strip_prefix("feature ") else { continue };
        features.announced = true;
        // What can be read of a malformed line is taken; the rest is no feature.
        let pairs = parse_features(text).unwrap_or_else(|malformed| {
            log::debug!("engine feature line: {malformed}");
            malformed.read
        });
        let mut done = false;
        for (name, value) in pairs {
            let value = value.text();
            match name.as_str() {
                "usermove" => features.usermove = value == "1",
                "setboard" => features.setboard = value == "1",
                "ping" => features.ping = value == "1",
                "done" if value == "0" => quiet_deadline = deadline,
                "done" if value == "1" => done = true,
                // `option="Hash -spin 16 1 1024"`: the name is what comes before " -".
                "option" => offered.push(value.split(" -").next().unwrap_or("").trim().to_string()),
                _ => {}
            }
            if name != "done" {
                p.send(&format!("accepted {name}"))?;
            }
        }
        if done {
            break;
        }
    }
    check_options(spec, &offered)?;
    for (name, value) in &spec.options {
        p.send(&format!("option {name}={value}"))?;
    }
    Ok(features)
}

/// `ping N` and every line up to `pong N`, so that nothing the engine said before is read as an
/// answer to what comes next. Without the ping feature, the lines already there.
fn sync(p: &mut Process, f: &mut Features) -> Result<Vec<String>, EngineError> {
    if !f.ping {
        p.drain();
        return Ok(Vec::new());
    }
    f.pings += 1;
    let n = f.pings;
    p.send(&format!("ping {n}"))?;
    let deadline = Instant::now() + HANDSHAKE;
    let mut before = Vec::new();
    loop {
        let line = p.line(deadline, &format!("pong {n}"))?;
        if line.split_whitespace().eq(["pong".to_string(), n.to_string()].iter().map(String::as_str)) {
            return Ok(before);
        }
        before.push(line);
    }
}

/// A result claim (`1-0 {...}`) by its first word.
fn is_claim(line: &str) -> bool {
    ["1-0", "0-1", "1/2-1/2"].contains(&line.split_whitespace().next().unwrap_or(""))
}

/// The engine's move in `game`, of which it has been told the first `told` moves: a new game
/// is set up first (`new`, force mode, the limit, the start position).
pub(super) fn best_move(
    p: &mut Process,
    f: &mut Features,
    spec: &EngineSpec,
    game: &Game,
    new_game: bool,
    told: usize,
    clock: Duration,
) -> Result<Answer, EngineError> {
    let mut told = told;
    if new_game {
        sync(p, f)?;
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
            if !f.setboard {
                return Err(EngineError::NoSetboard);
            }
            p.send(&format!("setboard {}", start.to_fen()))?;
        }
        told = 0;
    }
    let sent: Vec<String> = game.moves()[told..].iter().map(|m| m.to_string()).collect();
    for m in &sent {
        let text = if f.usermove { format!("usermove {m}") } else { m.clone() };
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
        if is_claim(trimmed) {
            return Err(EngineError::EarlyClaim(trimmed.to_string()));
        }
        if first.starts_with("Illegal") || first.starts_with("Invalid") || first.starts_with("Error") {
            // About a move of the game: the engine and the game disagree, which ends it. About
            // a setting (Phalanx and GNU Chess refuse `sd`): the engine plays on without it.
            let last = trimmed.rsplit([' ', ':']).next().unwrap_or("");
            if sent.iter().any(|m| m == last) {
                return Err(EngineError::RefusedMove(trimmed.to_string()));
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
    let claim = sync(p, f)?.into_iter().find(|l| is_claim(l));
    Ok(match answer {
        Answer::Move(mv, info, _) => Answer::Move(mv, info, claim),
        other => other,
    })
}
