//! What the protocol tests share: a deterministic test player, engines around it, and the
//! transcript runner.
//!
//! A transcript is a list of lines: `> text` is sent to the session, `< text` is a reply the
//! previous input must produce, in order, and nothing else. The engine behind the session is a
//! deterministic test player, so the expected moves do not depend on the agents. Transcripts
//! kept as files (tests/data/transcripts/) may also hold `#` comment lines, a line `{name}`
//! that includes the transcript file `name`, and `---` lines between transcripts that each
//! start from a fresh session.

// Each test file uses its own part of this module.
#![allow(dead_code)]

use agentchess::board::{Game, Move};
use agentchess::players::spec::PlayerSpec;
use agentchess::players::{Decision, Player};
use agentchess::protocol::{Engine, Session, UciSession};

/// Plays the next scripted move if it is legal, else a mating move, else the smallest move in
/// coordinate notation. Always reports score 12 and 34 nodes.
pub struct TestPlayer {
    pub script: Vec<String>,
}

impl Player for TestPlayer {
    fn name(&self) -> String {
        "test".into()
    }

    fn decide(&mut self, game: &Game) -> Option<Decision> {
        let pos = game.position();
        let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            return None;
        }
        moves.sort_by_key(|m| m.to_string());
        let scripted = (!self.script.is_empty()).then(|| self.script.remove(0));
        let mv = scripted
            .and_then(|s| moves.iter().copied().find(|m| m.to_string() == s))
            .or_else(|| moves.iter().copied().find(|&m| pos.play(m).is_checkmate()))
            .unwrap_or(moves[0]);
        Some(Decision {
            mv,
            score: 12,
            mate: None,
            depth: 1,
            pv: Vec::new(),
            reason: "test choice".into(),
            nodes: 34,
            multipv: 0,
            tbhits: 0,
        })
    }
}

/// A player spec, read.
pub fn player(spec: &str) -> PlayerSpec {
    spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The test player with a script, reported as level 7, its time frozen.
pub fn engine(script: &[&str]) -> Engine {
    let player = TestPlayer { script: script.iter().map(|s| s.to_string()).collect() };
    Engine::with_player(Box::new(player), self::player("level:7"), 1).freeze_time()
}

/// A middlegame with many moves: a search there takes long at any depth past a few.
pub const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The replies to one line, as text.
pub fn replies(session: &mut Session, line: &str) -> Vec<String> {
    session.handle_line(line).iter().map(|r| r.to_string()).collect()
}

/// Runs a transcript against a fresh XBoard session around the test player.
pub fn xboard(transcript: &str) {
    xboard_with(engine(&[]), transcript);
}

pub fn xboard_with(engine: Engine, transcript: &str) {
    let mut session = Session::new(engine);
    run_transcript(transcript, |line| session.handle_line(line).iter().map(|r| r.to_string()).collect());
}

/// Runs a transcript against a fresh UCI session around the test player.
pub fn uci(transcript: &str) {
    let mut session = UciSession::new(engine(&[]));
    run_transcript(transcript, |line| session.handle_line(line).iter().map(|r| r.to_string()).collect());
}

/// The transcripts of file `name` (`xboard/options`), each against a fresh XBoard session
/// around the engine `make` gives.
pub fn xboard_file_with(name: &str, make: impl Fn() -> Engine) {
    for part in transcripts(name) {
        xboard_with(make(), &part);
    }
}

pub fn xboard_file(name: &str) {
    xboard_file_with(name, || engine(&[]));
}

pub fn uci_file(name: &str) {
    for part in transcripts(name) {
        uci(&part);
    }
}

/// The file `tests/data/transcripts/NAME.txt` with its includes, split at its `---` lines, and
/// `$CORES` in it the most search threads this machine allows (UCI `Threads`' maximum).
pub fn transcripts(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/transcripts/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut parts = vec![String::new()];
    for line in text.lines() {
        if line.trim() == "---" {
            parts.push(String::new());
            continue;
        }
        let part = parts.last_mut().expect("one part at least");
        match line.trim().strip_prefix('{').and_then(|l| l.strip_suffix('}')) {
            Some(include) => {
                for included in transcripts(include) {
                    part.push_str(&included);
                }
            }
            None => {
                part.push_str(&line.replace("$CORES", &agentchess::protocol::engine::max_threads().to_string()));
                part.push('\n');
            }
        }
    }
    parts
}

pub fn run_transcript(transcript: &str, mut send: impl FnMut(&str) -> Vec<String>) {
    let mut got: Vec<String> = Vec::new();
    let mut expected: Vec<String> = Vec::new();
    let mut last_input = String::from("(start)");
    let check = |input: &str, got: &[String], expected: &[String]| {
        assert_eq!(got, expected, "replies to '{input}'");
    };
    let mut sent = 0;
    for raw in transcript.lines() {
        let line = raw.trim_start();
        if let Some(input) = line.strip_prefix('>') {
            check(&last_input, &got, &expected);
            let input = input.strip_prefix(' ').unwrap_or(input);
            got = send(input);
            sent += 1;
            expected.clear();
            last_input = input.to_string();
        } else if let Some(reply) = line.strip_prefix('<') {
            expected.push(reply.strip_prefix(' ').unwrap_or(reply).to_string());
        } else if !line.is_empty() && !line.starts_with('#') {
            panic!("bad transcript line: {raw}");
        }
    }
    check(&last_input, &got, &expected);
    assert!(sent > 0, "a transcript with nothing to send");
}

/// The built engine on pipes (stdin and stdout piped, stderr dropped).
pub fn spawn_engine(args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_agentchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start agentchess")
}
