//! What an XBoard GUI says to the engine: one `Command` per input line.
//!
//! `Command::parse` reads a line, `Display` writes the canonical wire form, and the two round
//! trip. Parsing never looks at the board: whether a move is legal, or a FEN sane, is the
//! session's business, so a malformed argument here is a `ParseError` and a strange but
//! well-formed one is a value.

use super::response::GameResult;
pub use super::shared::{ECHO_LIMIT, echo};
use std::fmt;
use std::time::Duration;

/// A parsed line. The doc comment of each variant shows its wire form.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `xboard`
    Xboard,
    /// `protover N`
    Protover(u32),
    /// `accepted FEATURE`
    Accepted(String),
    /// `rejected FEATURE`
    Rejected(String),
    /// `new`
    New,
    /// `variant NAME`
    Variant(String),
    /// `quit`
    Quit,
    /// `random`
    Random,
    /// `force`
    Force,
    /// `go`
    Go,
    /// `playother`
    PlayOther,
    /// `white`
    White,
    /// `black`
    Black,
    /// `level MPS BASE INC`, BASE in minutes or `min:sec`, INC in (fractional) seconds.
    Level { moves_per_session: u32, base: Duration, increment: Duration },
    /// `st SECONDS` (fractional allowed; python-chess sends `st 0.1`)
    St(Duration),
    /// `sd DEPTH`
    Sd(u32),
    /// `nps NODES`
    Nps(u64),
    /// `time CENTISECONDS`: the engine's clock
    Time(u64),
    /// `otim CENTISECONDS`: the opponent's clock
    Otim(u64),
    /// `usermove MOVE`
    UserMove(String),
    /// `MOVE`: a bare token shaped like a move (`e2e4`, `e7e8q`, `O-O`, `Nf3`)
    Move(String),
    /// `?`
    MoveNow,
    /// `ping N`
    Ping(String),
    /// `draw`
    Draw,
    /// `result RESULT {COMMENT}`
    Result { result: GameResult, comment: String },
    /// `setboard FEN`
    SetBoard(String),
    /// `edit`
    Edit,
    /// `hint`
    Hint,
    /// `exclude MOVE` or `exclude all` (feature exclude=1): leave moves out of the analysis.
    Exclude(String),
    /// `include MOVE` or `include all`: take excluded moves back.
    Include(String),
    /// `bk`
    Bk,
    /// `undo`
    Undo,
    /// `remove`
    Remove,
    /// `hard`
    Hard,
    /// `easy`
    Easy,
    /// `post`
    Post,
    /// `nopost`
    NoPost,
    /// `analyze`
    Analyze,
    /// `exit`
    Exit,
    /// `.`
    Dot,
    /// `name OPPONENT`
    Name(String),
    /// `rating ENGINE OPPONENT`
    Rating { engine: i32, opponent: i32 },
    /// `computer`
    Computer,
    /// `ics HOST` or `ics -`
    Ics(String),
    /// `pause`
    Pause,
    /// `resume`
    Resume,
    /// `memory MB`
    Memory(u64),
    /// `cores N`
    Cores(u32),
    /// `egtpath TYPE PATH`
    EgtPath { kind: String, path: String },
    /// `option NAME=VALUE`, or `option NAME` for a button
    Option { name: String, value: Option<String> },
    /// `help`: not XBoard; a person at the prompt asking what to type.
    Help,
}

/// A line that is not a command we can act on; it becomes `Error (reason): command`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Error ({reason}): {command}")]
pub struct ParseError {
    pub reason: String,
    pub command: String,
}

impl ParseError {
    fn new(reason: &str, command: &str) -> ParseError {
        ParseError { reason: reason.to_string(), command: echo(command) }
    }
}

impl Command {
    /// Parses one input line (without its line ending). An empty or blank line gives `Ok(None)`.
    pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        let (head, rest) = match line.split_once(char::is_whitespace) {
            Some((h, r)) => (h, r.trim()),
            None => (line, ""),
        };
        let args: Vec<&str> = rest.split_whitespace().collect();
        let no_args = |cmd: Command| -> Result<Option<Command>, ParseError> {
            if args.is_empty() { Ok(Some(cmd)) } else { Err(ParseError::new("too many parameters", line)) }
        };
        let text_arg = |make: fn(String) -> Command| -> Result<Option<Command>, ParseError> {
            if rest.is_empty() {
                Err(ParseError::new("missing argument", line))
            } else {
                Ok(Some(make(rest.to_string())))
            }
        };
        let one_number = || -> Result<&str, ParseError> {
            match args.as_slice() {
                [] => Err(ParseError::new("missing argument", line)),
                [a] => Ok(a),
                _ => Err(ParseError::new("too many parameters", line)),
            }
        };
        let cmd = match head {
            "xboard" => Command::Xboard,
            // A bad version must not stop the handshake; an Error line naming protover would
            // even make xboard fall back to protocol 1. Anything unreadable counts as 2.
            "protover" => Command::Protover(args.first().and_then(|a| a.parse().ok()).unwrap_or(2)),
            "accepted" => return text_arg(Command::Accepted),
            "rejected" => return text_arg(Command::Rejected),
            "new" => return no_args(Command::New),
            "variant" => return text_arg(Command::Variant),
            // Trailing words after these are harmless and some GUIs add them; ignore them.
            "quit" => Command::Quit,
            "random" => Command::Random,
            "force" => Command::Force,
            "go" => Command::Go,
            "playother" => Command::PlayOther,
            "white" => Command::White,
            "black" => Command::Black,
            "?" => Command::MoveNow,
            "draw" => Command::Draw,
            "edit" => Command::Edit,
            "hint" => Command::Hint,
            "bk" => Command::Bk,
            "help" => Command::Help,
            "undo" => Command::Undo,
            "remove" => Command::Remove,
            "hard" => Command::Hard,
            "easy" => Command::Easy,
            "post" => Command::Post,
            "nopost" => Command::NoPost,
            "analyze" => Command::Analyze,
            "exit" => Command::Exit,
            "." => Command::Dot,
            "computer" => Command::Computer,
            "pause" => Command::Pause,
            "resume" => Command::Resume,
            "level" => parse_level(line, &args)?,
            "st" => {
                let secs = parse_seconds(one_number()?).ok_or_else(|| ParseError::new("bad time", line))?;
                Command::St(secs)
            }
            "sd" => Command::Sd(one_number()?.parse().map_err(|_| ParseError::new("bad depth", line))?),
            "nps" => Command::Nps(one_number()?.parse().map_err(|_| ParseError::new("bad node rate", line))?),
            "time" => {
                Command::Time(parse_centiseconds(one_number()?).ok_or_else(|| ParseError::new("bad time", line))?)
            }
            "otim" => {
                Command::Otim(parse_centiseconds(one_number()?).ok_or_else(|| ParseError::new("bad time", line))?)
            }
            verb @ ("exclude" | "include") => match args.as_slice() {
                [] => return Err(ParseError::new("missing argument", line)),
                [mv] if verb == "exclude" => Command::Exclude(mv.to_string()),
                [mv] => Command::Include(mv.to_string()),
                _ => return Err(ParseError::new("too many parameters", line)),
            },
            "usermove" => match args.as_slice() {
                [] => return Err(ParseError::new("missing argument", line)),
                [mv] => Command::UserMove(mv.to_string()),
                _ => return Err(ParseError::new("too many parameters", line)),
            },
            "ping" => Command::Ping(one_number()?.to_string()),
            "result" => {
                let (token, comment) = match rest.split_once(char::is_whitespace) {
                    Some((t, c)) => (t, c.trim()),
                    None => (rest, ""),
                };
                let result = GameResult::parse(token).ok_or_else(|| ParseError::new("bad result", line))?;
                let comment = comment.strip_prefix('{').map(|c| c.strip_suffix('}').unwrap_or(c)).unwrap_or(comment);
                Command::Result { result, comment: comment.to_string() }
            }
            "setboard" => return text_arg(Command::SetBoard),
            "name" => return text_arg(Command::Name),
            "ics" => return text_arg(Command::Ics),
            "rating" => match args.as_slice() {
                [a, b] => match (a.parse(), b.parse()) {
                    (Ok(engine), Ok(opponent)) => Command::Rating { engine, opponent },
                    _ => return Err(ParseError::new("bad rating", line)),
                },
                [] | [_] => return Err(ParseError::new("missing argument", line)),
                _ => return Err(ParseError::new("too many parameters", line)),
            },
            "memory" => Command::Memory(one_number()?.parse().map_err(|_| ParseError::new("bad size", line))?),
            "cores" => Command::Cores(one_number()?.parse().map_err(|_| ParseError::new("bad count", line))?),
            "egtpath" => match rest.split_once(char::is_whitespace) {
                Some((kind, path)) => Command::EgtPath { kind: kind.to_string(), path: path.trim().to_string() },
                None => return Err(ParseError::new("missing argument", line)),
            },
            "option" => {
                if rest.is_empty() {
                    return Err(ParseError::new("missing argument", line));
                }
                match rest.split_once('=') {
                    Some((name, value)) => {
                        Command::Option { name: name.trim().to_string(), value: Some(value.trim().to_string()) }
                    }
                    None => Command::Option { name: rest.to_string(), value: None },
                }
            }
            _ if looks_like_move(head) => {
                if !args.is_empty() {
                    return Err(ParseError::new("too many parameters", line));
                }
                Command::Move(head.to_string())
            }
            _ => return Err(ParseError::new("unknown command", head)),
        };
        Ok(Some(cmd))
    }
}

fn parse_level(line: &str, args: &[&str]) -> Result<Command, ParseError> {
    match args {
        [mps, base, inc] => {
            let moves_per_session = mps.parse().map_err(|_| ParseError::new("bad moves per session", line))?;
            let base = parse_base(base).ok_or_else(|| ParseError::new("bad base time", line))?;
            let increment = parse_seconds(inc).ok_or_else(|| ParseError::new("bad increment", line))?;
            Ok(Command::Level { moves_per_session, base, increment })
        }
        [..] if args.len() > 3 => Err(ParseError::new("too many parameters", line)),
        _ => Err(ParseError::new("missing argument", line)),
    }
}

/// The longest prefix of `s` that reads as a non-negative decimal number. The spec asks engines
/// to ignore trailing characters in BASE (a future `25+5`), and the same tolerance costs nothing
/// for INC.
fn number_prefix(s: &str) -> Option<f64> {
    let end = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(s.len());
    let n: f64 = s[..end].parse().ok()?;
    n.is_finite().then_some(n)
}

/// Longest time taken from a GUI, about 30 years: beyond it every clock means "no limit", and the
/// cap keeps later arithmetic on durations from overflowing.
const MAX_SECONDS: f64 = 1e9;

fn seconds(secs: f64) -> Duration {
    Duration::from_secs_f64(secs.clamp(0.0, MAX_SECONDS))
}

/// `5` (minutes), `0:30`, `2:10`, `1.5` (minutes).
fn parse_base(s: &str) -> Option<Duration> {
    match s.split_once(':') {
        Some((min, sec)) => {
            let min: f64 = min.parse::<u64>().ok()? as f64;
            Some(seconds(min * 60.0 + number_prefix(sec)?))
        }
        None => Some(seconds(number_prefix(s)? * 60.0)),
    }
}

/// `st`'s seconds: the whole argument a decimal number (`5`, `0.1`). Unlike `level`'s times it
/// has no suffix to tolerate, and a prefix would misread `1e9` as one second.
fn parse_seconds(s: &str) -> Option<Duration> {
    let decimal = !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.') && s.matches('.').count() <= 1;
    decimal.then(|| number_prefix(s)).flatten().map(seconds)
}

/// cutechess clamps clocks at 0 but a buggy GUI could still send a negative or fractional
/// value; an engine that is out of time must still move, so read it as zero.
fn parse_centiseconds(s: &str) -> Option<u64> {
    let n: f64 = s.parse().ok()?;
    if !n.is_finite() {
        return None;
    }
    Some(n.clamp(0.0, MAX_SECONDS * 100.0) as u64)
}

/// Whether a token that is not a command is shaped like a move, so that junk gets
/// `Error (unknown command)` and only move-like tokens get `Illegal move`.
pub fn looks_like_move(token: &str) -> bool {
    let b = token.as_bytes();
    let file = |c: u8| (b'a'..=b'h').contains(&c.to_ascii_lowercase());
    let rank = |c: u8| (b'1'..=b'8').contains(&c);
    if b.len() < 2 {
        return false;
    }
    if token == "@@@@" || token.starts_with("O-O") || token.starts_with("0-0") || token.starts_with("o-o") {
        return true;
    }
    // Coordinate (e2e4, E7E8Q) and pawn SAN (e4, exd5).
    if file(b[0]) && rank(b[1]) {
        return true;
    }
    if b.len() >= 4 && b[0].is_ascii_lowercase() && file(b[0]) && b[1] == b'x' && file(b[2]) && rank(b[3]) {
        return true;
    }
    // Piece SAN (Nf3, Raxd1, Qh4#) and drops (P@h3).
    if b"KQRBNP".contains(&b[0]) {
        let tail = &b[1..];
        if tail.first() == Some(&b'@') {
            return true;
        }
        return tail.iter().any(|&c| rank(c))
            && tail.iter().all(|&c| file(c) && c.is_ascii_lowercase() || rank(c) || b"x+#=QRBN".contains(&c));
    }
    false
}

fn format_base(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(60_000) {
        format!("{}", ms / 60_000)
    } else {
        let secs = d.as_secs_f64() - (ms / 60_000 * 60) as f64;
        format!("{}:{}{}", ms / 60_000, if secs < 10.0 { "0" } else { "" }, trim_float(secs))
    }
}

fn trim_float(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Xboard => f.write_str("xboard"),
            Command::Protover(n) => write!(f, "protover {n}"),
            Command::Accepted(x) => write!(f, "accepted {x}"),
            Command::Rejected(x) => write!(f, "rejected {x}"),
            Command::New => f.write_str("new"),
            Command::Variant(v) => write!(f, "variant {v}"),
            Command::Quit => f.write_str("quit"),
            Command::Random => f.write_str("random"),
            Command::Force => f.write_str("force"),
            Command::Go => f.write_str("go"),
            Command::PlayOther => f.write_str("playother"),
            Command::White => f.write_str("white"),
            Command::Black => f.write_str("black"),
            Command::Level { moves_per_session, base, increment } => {
                write!(f, "level {moves_per_session} {} {}", format_base(*base), trim_float(increment.as_secs_f64()))
            }
            Command::St(d) => write!(f, "st {}", trim_float(d.as_secs_f64())),
            Command::Sd(d) => write!(f, "sd {d}"),
            Command::Nps(n) => write!(f, "nps {n}"),
            Command::Time(cs) => write!(f, "time {cs}"),
            Command::Otim(cs) => write!(f, "otim {cs}"),
            Command::UserMove(mv) => write!(f, "usermove {mv}"),
            Command::Move(mv) => f.write_str(mv),
            Command::MoveNow => f.write_str("?"),
            Command::Ping(n) => write!(f, "ping {n}"),
            Command::Draw => f.write_str("draw"),
            Command::Result { result, comment } => {
                if comment.is_empty() {
                    write!(f, "result {result}")
                } else {
                    write!(f, "result {result} {{{comment}}}")
                }
            }
            Command::SetBoard(fen) => write!(f, "setboard {fen}"),
            Command::Edit => f.write_str("edit"),
            Command::Hint => f.write_str("hint"),
            Command::Exclude(mv) => write!(f, "exclude {mv}"),
            Command::Include(mv) => write!(f, "include {mv}"),
            Command::Bk => f.write_str("bk"),
            Command::Help => f.write_str("help"),
            Command::Undo => f.write_str("undo"),
            Command::Remove => f.write_str("remove"),
            Command::Hard => f.write_str("hard"),
            Command::Easy => f.write_str("easy"),
            Command::Post => f.write_str("post"),
            Command::NoPost => f.write_str("nopost"),
            Command::Analyze => f.write_str("analyze"),
            Command::Exit => f.write_str("exit"),
            Command::Dot => f.write_str("."),
            Command::Name(n) => write!(f, "name {n}"),
            Command::Rating { engine, opponent } => write!(f, "rating {engine} {opponent}"),
            Command::Computer => f.write_str("computer"),
            Command::Ics(h) => write!(f, "ics {h}"),
            Command::Pause => f.write_str("pause"),
            Command::Resume => f.write_str("resume"),
            Command::Memory(mb) => write!(f, "memory {mb}"),
            Command::Cores(n) => write!(f, "cores {n}"),
            Command::EgtPath { kind, path } => write!(f, "egtpath {kind} {path}"),
            Command::Option { name, value: Some(v) } => write!(f, "option {name}={v}"),
            Command::Option { name, value: None } => write!(f, "option {name}"),
        }
    }
}

/// A sub-command of the old `edit` mode (only meaningful between `edit` and `.`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditCommand {
    /// `c`: place pieces of the other colour from now on.
    SwitchColor,
    /// `#`: empty the board.
    Clear,
    /// `Pa4`: put a piece (of the current colour) on a square.
    Place { piece: char, file: u8, rank: u8 },
    /// `xa4`: empty one square.
    Empty { file: u8, rank: u8 },
    /// `.`: leave edit mode.
    Done,
}

impl EditCommand {
    pub fn parse(line: &str) -> Option<EditCommand> {
        let t = line.trim();
        match t {
            "c" => return Some(EditCommand::SwitchColor),
            "#" => return Some(EditCommand::Clear),
            "." => return Some(EditCommand::Done),
            _ => {}
        }
        let b = t.as_bytes();
        if b.len() != 3 || !(b'a'..=b'h').contains(&b[1]) || !(b'1'..=b'8').contains(&b[2]) {
            return None;
        }
        let (file, rank) = (b[1] - b'a', b[2] - b'1');
        match b[0] {
            b'x' | b'X' => Some(EditCommand::Empty { file, rank }),
            c if b"PNBRQKpnbrqk".contains(&c) => {
                Some(EditCommand::Place { piece: (c as char).to_ascii_uppercase(), file, rank })
            }
            _ => None,
        }
    }
}
