//! What the engine says to an XBoard GUI, one line per value.
//!
//! Every line the engine prints in XBoard mode is a `Response`; `Display` gives its wire form
//! and `Response::parse` reads it back, so tests (and a future match runner) can work with
//! values instead of strings.

use std::fmt;

/// A feature value in a `feature` line: integers bare, strings quoted (one reader for the
/// engine's own lines and those of the engines it plays: `players::external::features`).
pub use crate::players::external::features::FeatureValue;

/// The outcome part of a result line or a `result` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    pub fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One line of engine output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `feature ping=1 myname="AgentChess" …`
    Feature(Vec<(String, FeatureValue)>),
    /// `move e2e4`
    Move(String),
    /// `pong N` (N echoed verbatim)
    Pong(String),
    /// `Illegal move: X`
    IllegalMove(String),
    /// `Error (REASON): COMMAND`
    Error { reason: String, command: String },
    /// `1-0 {White mates}`: a claim that the game is over now.
    Result { result: GameResult, comment: String },
    /// `offer draw`: accepts an offer, or claims a draw the next move creates.
    OfferDraw,
    /// `resign`
    Resign,
    /// `PLY SCORE TIME NODES PV`, TIME in centiseconds.
    Thinking { ply: u32, score: i32, time_cs: u64, nodes: u64, pv: Vec<String> },
    /// `Hint: e2e4`
    Hint(String),
    /// `telluser MSG`
    TellUser(String),
    /// `tellusererror MSG`
    TellUserError(String),
    /// `# MSG`: only printed once the GUI has accepted `debug`.
    Debug(String),
    /// A `bk` line; the wire form starts with a space as the protocol requires.
    BookLine(String),
    /// The empty line that ends `bk` output.
    Blank,
}

impl Response {
    /// Reads back a line in the form `Display` writes. Lines that are not engine output give None.
    pub fn parse(line: &str) -> Option<Response> {
        if line.is_empty() {
            return Some(Response::Blank);
        }
        if let Some(rest) = line.strip_prefix(' ') {
            return Some(Response::BookLine(rest.to_string()));
        }
        if let Some(rest) = line.strip_prefix("Illegal move: ") {
            return Some(Response::IllegalMove(rest.to_string()));
        }
        if let Some(rest) = line.strip_prefix("Error (") {
            let (reason, command) = rest.split_once("): ")?;
            return Some(Response::Error { reason: reason.to_string(), command: command.to_string() });
        }
        if let Some(rest) = line.strip_prefix("# ") {
            return Some(Response::Debug(rest.to_string()));
        }
        if let Some(rest) = line.strip_prefix("Hint: ") {
            return Some(Response::Hint(rest.to_string()));
        }
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        match head {
            "feature" => parse_features(rest).map(Response::Feature),
            "move" => Some(Response::Move(rest.to_string())),
            "pong" => Some(Response::Pong(rest.to_string())),
            "offer" if rest == "draw" => Some(Response::OfferDraw),
            "resign" if rest.is_empty() => Some(Response::Resign),
            "telluser" => Some(Response::TellUser(rest.to_string())),
            "tellusererror" => Some(Response::TellUserError(rest.to_string())),
            _ => {
                if let Some(result) = GameResult::parse(head) {
                    let comment = rest.strip_prefix('{')?.strip_suffix('}')?;
                    return Some(Response::Result { result, comment: comment.to_string() });
                }
                let f: Vec<&str> = line.split(' ').collect();
                if f.len() < 5 {
                    return None;
                }
                Some(Response::Thinking {
                    ply: f[0].parse().ok()?,
                    score: f[1].parse().ok()?,
                    time_cs: f[2].parse().ok()?,
                    nodes: f[3].parse().ok()?,
                    pv: f[4..].iter().map(|s| s.to_string()).collect(),
                })
            }
        }
    }
}

/// A feature line as this engine writes it: every pair readable, every value an integer or
/// a quoted string.
fn parse_features(body: &str) -> Option<Vec<(String, FeatureValue)>> {
    let pairs = crate::players::external::features::parse_features(body).ok()?;
    pairs.iter().all(|(_, v)| !matches!(v, FeatureValue::Word(_))).then_some(pairs)
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::Feature(list) => {
                f.write_str("feature")?;
                for (name, value) in list {
                    write!(f, " {name}={value}")?;
                }
                Ok(())
            }
            Response::Move(mv) => write!(f, "move {mv}"),
            Response::Pong(n) => write!(f, "pong {n}"),
            Response::IllegalMove(mv) => write!(f, "Illegal move: {mv}"),
            Response::Error { reason, command } => write!(f, "Error ({reason}): {command}"),
            Response::Result { result, comment } => write!(f, "{result} {{{comment}}}"),
            Response::OfferDraw => f.write_str("offer draw"),
            Response::Resign => f.write_str("resign"),
            Response::Thinking { ply, score, time_cs, nodes, pv } => {
                write!(f, "{ply} {score} {time_cs} {nodes}")?;
                for mv in pv {
                    write!(f, " {mv}")?;
                }
                Ok(())
            }
            Response::Hint(mv) => write!(f, "Hint: {mv}"),
            Response::TellUser(msg) => write!(f, "telluser {msg}"),
            Response::TellUserError(msg) => write!(f, "tellusererror {msg}"),
            Response::Debug(msg) => write!(f, "# {msg}"),
            Response::BookLine(text) => write!(f, " {text}"),
            Response::Blank => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's own feature lines read back strictly: a bare word or an unclosed string is
    /// no line this engine writes (the client of other engines takes them).
    #[test]
    fn feature_lines_are_read_back_strictly() {
        let line = r#"feature ping=1 myname="AgentChess 0.1.0" done=1"#;
        let Some(Response::Feature(pairs)) = Response::parse(line) else { panic!("{line}") };
        assert_eq!(pairs[1], ("myname".to_string(), FeatureValue::Str("AgentChess 0.1.0".to_string())));
        for bad in ["feature variants=normal", r#"feature myname="AgentChess"#, "feature ping"] {
            assert_eq!(Response::parse(bad), None, "{bad}");
        }
    }
}
