//! The UCI client: handshake, options, and one move per `position` and `go`.

use super::process::Process;
use super::spec::{EngineSpec, Limit};
use super::{Answer, EngineError, HANDSHAKE, Info, check_options};
use crate::board::{Game, STARTPOS};
use std::time::{Duration, Instant};

/// `uci` until `uciok` (collecting the options offered), the spec's options, `isready`.
pub(super) fn handshake(p: &mut Process, spec: &EngineSpec) -> Result<(), EngineError> {
    let deadline = Instant::now() + HANDSHAKE;
    p.send("uci")?;
    let mut offered = Vec::new();
    loop {
        let line = p.line(deadline, "uciok")?;
        if line.trim() == "uciok" {
            break;
        }
        if let Some(name) = option_name(&line) {
            offered.push(name);
        }
    }
    check_options(spec, &offered)?;
    for (name, value) in &spec.options {
        p.send(&format!("setoption name {name} value {value}"))?;
    }
    p.send("isready")?;
    while p.line(deadline, "readyok")?.trim() != "readyok" {}
    Ok(())
}

/// The name in a UCI `option name NAME type ...` line (names may hold spaces).
fn option_name(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix("option name ")?;
    let name = match rest.find(" type ") {
        Some(at) => &rest[..at],
        None => rest,
    };
    Some(name.trim().to_string())
}

/// The engine's move in `game`: the whole game as `position`, `go` with the limit (and the
/// engine's clock), then `info` lines until `bestmove`.
pub(super) fn best_move(
    p: &mut Process,
    spec: &EngineSpec,
    game: &Game,
    new_game: bool,
    clock: Duration,
) -> Result<Answer, EngineError> {
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
                    return Err(EngineError::NoBestMove { said: mv.to_string(), fen: game.position().to_fen() });
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_info_is_read() {
        let mut info = Info::default();
        read_info("info depth 7 seldepth 9 multipv 1 score cp -35 nodes 12345 nps 1 pv e2e4 e7e5", &mut info);
        assert_eq!((info.depth, info.score, info.mate, info.nodes), (7, -35, None, 12345));
        read_info("info depth 9 score mate 3 nodes 99 pv a1a8", &mut info);
        assert_eq!((info.depth, info.mate), (9, Some(3)));
    }

    #[test]
    fn option_names_are_read() {
        assert_eq!(option_name("option name Hash type spin default 16 min 1 max 33554432").as_deref(), Some("Hash"));
        assert_eq!(option_name("option name Skill Level type spin default 20").as_deref(), Some("Skill Level"));
        assert_eq!(option_name("id name Stockfish"), None);
    }
}
