//! UCI input: the commands a GUI sends, parsed into types once.

use crate::protocol::shared::echo;
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
pub(super) fn parse_go(args: &[&str]) -> GoParams {
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
