//! EPD lines: a position's four FEN fields (placement, side to move, castling, en passant),
//! the two move counters when a line gives them as a FEN does, then operations, each an
//! opcode and its operands ended by `;`:
//!
//! ```text
//! 6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "M1.001";
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400
//! ```
//!
//! Test suites (`bm`, `am`, `id`), perft suites (`D1 20`), opening files and plain FEN lines are
//! all read here; what an operation means is up to its reader.

use super::{FenError, Move, MoveError, Position};
use thiserror::Error;

/// One parsed EPD line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    /// The position fields as the line gives them (four, or six with the move counters), one
    /// space apart.
    pub fen: String,
    pub position: Position,
    /// The operations in the order of the line.
    pub operations: Vec<Operation>,
}

/// `bm Qg6 Qh5`, `id "WAC.001"`, `D1 20`: an opcode and its operands (a quoted operand is one
/// operand, without its quotes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    pub opcode: String,
    pub operands: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EpdError {
    #[error("fewer than four FEN fields")]
    TooFewFields,
    #[error("bad position: {source}")]
    Position { fen: String, source: FenError },
    #[error("unterminated string in '{0}'")]
    Unterminated(String),
    #[error("{opcode} {san}: {source}")]
    Move { opcode: String, san: String, source: MoveError },
    #[error("bad depth entry '{0}'")]
    PerftEntry(String),
}

/// Reads one line; a blank line or a `#` comment is `Ok(None)`.
pub fn parse(line: &str) -> Result<Option<Epd>, EpdError> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let mut rest = text;
    let mut fields = Vec::with_capacity(6);
    for _ in 0..4 {
        match next_field(rest) {
            Some((field, after)) => {
                fields.push(field);
                rest = after;
            }
            None => return Err(EpdError::TooFewFields),
        }
    }
    // The counters, when the next two fields are numbers (an opcode starts with a letter).
    if let Some((halfmove, after)) = next_field(rest)
        && let Some((fullmove, after)) = next_field(after)
        && halfmove.parse::<u32>().is_ok()
        && fullmove.parse::<u32>().is_ok()
    {
        fields.extend([halfmove, fullmove]);
        rest = after;
    }
    let fen = fields.join(" ");
    let position = Position::from_fen(&fen).map_err(|source| EpdError::Position { fen: fen.clone(), source })?;
    let operations = operations(rest)?;
    Ok(Some(Epd { fen, position, operations }))
}

/// The next field: the text up to white space or a `;`, and what follows it.
fn next_field(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    let end = text.find(|c: char| c.is_whitespace() || c == ';').unwrap_or(text.len());
    (end > 0).then(|| (&text[..end], &text[end..]))
}

/// The operations of `text`, each ended by a `;` outside quotes (the last one may lack it).
fn operations(text: &str) -> Result<Vec<Operation>, EpdError> {
    let mut out = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        if c == ';' {
            chars.next();
            push_operation(&mut out, &mut words);
        } else if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut word = String::new();
            loop {
                match chars.next() {
                    Some((_, '"')) => break,
                    Some((_, c)) => word.push(c),
                    None => return Err(EpdError::Unterminated(text[at..].trim().to_string())),
                }
            }
            words.push(word);
        } else {
            let mut word = String::new();
            while let Some(&(_, c)) = chars.peek() {
                if c.is_whitespace() || c == ';' || c == '"' {
                    break;
                }
                word.push(c);
                chars.next();
            }
            words.push(word);
        }
    }
    push_operation(&mut out, &mut words);
    Ok(out)
}

fn push_operation(out: &mut Vec<Operation>, words: &mut Vec<String>) {
    let mut taken = std::mem::take(words).into_iter();
    if let Some(opcode) = taken.next() {
        out.push(Operation { opcode, operands: taken.collect() });
    }
}

impl Epd {
    /// The operands of the first operation with this opcode.
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations.iter().find(|o| o.opcode == opcode).map(|o| o.operands.as_slice())
    }

    /// `id`'s operand, if the line names itself.
    pub fn id(&self) -> Option<&str> {
        self.operands("id").and_then(|o| o.first()).map(String::as_str)
    }

    /// The moves of every operation with this opcode (`bm`, `am`), read in the position (SAN
    /// or coordinates); none when the line has no such operation.
    pub fn moves(&self, opcode: &str) -> Result<Vec<Move>, EpdError> {
        let mut out = Vec::new();
        for op in self.operations.iter().filter(|o| o.opcode == opcode) {
            for san in &op.operands {
                let mv = self.position.parse_move(san).map_err(|source| EpdError::Move {
                    opcode: opcode.to_string(),
                    san: san.clone(),
                    source,
                })?;
                out.push(mv);
            }
        }
        Ok(out)
    }

    /// A perft suite line's counts, `D1 20 ;D2 400`: (depth, leaf nodes) in the order given.
    /// Every operation must be one.
    pub fn perft_counts(&self) -> Result<Vec<(u32, u64)>, EpdError> {
        self.operations
            .iter()
            .map(|op| {
                let entry = || {
                    EpdError::PerftEntry(
                        std::iter::once(&op.opcode).chain(&op.operands).cloned().collect::<Vec<_>>().join(" "),
                    )
                };
                let depth = op.opcode.strip_prefix('D').and_then(|d| d.parse::<u32>().ok()).ok_or_else(entry)?;
                match op.operands.as_slice() {
                    [n] => Ok((depth, n.parse::<u64>().map_err(|_| entry())?)),
                    _ => Err(entry()),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn epd(line: &str) -> Epd {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn test_suite_lines() {
        let e = epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"M1.001\";");
        assert_eq!(e.fen, "6k1/5ppp/8/8/8/8/8/R5K1 w - -");
        assert_eq!(e.position.to_fen(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        assert_eq!(e.id(), Some("M1.001"));
        assert_eq!(e.moves("bm").unwrap().iter().map(|m| m.to_string()).collect::<Vec<_>>(), ["a1a8"]);
        assert!(e.moves("am").unwrap().is_empty());
        assert_eq!(e.operations.len(), 2);
        // Two best moves, a quoted operand with spaces and a `;`, a last operation without `;`.
        let e = epd("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; c0 \"a; b\"; id x");
        assert_eq!(e.moves("bm").unwrap().len(), 2);
        assert_eq!(e.operands("c0"), Some(&["a; b".to_string()][..]));
        assert_eq!(e.id(), Some("x"));
        let bad = epd("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Rb9;").moves("bm").unwrap_err();
        assert!(matches!(&bad, EpdError::Move { san, .. } if san == "Rb9"), "{bad}");
        assert!(bad.to_string().starts_with("bm Rb9: "), "{bad}");
    }

    #[test]
    fn fen_lines_and_counters() {
        let e = epd("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(e.position.to_fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert!(e.operations.is_empty());
        // Extra spaces between the fields are one separator.
        let e = epd("  8/8/8/8/8/8/8/K6k   w  -  - 3  40  ");
        assert_eq!(e.fen, "8/8/8/8/8/8/8/K6k w - - 3 40");
        assert_eq!(e.position.halfmove_clock(), 3);
        assert_eq!(parse("").unwrap(), None);
        assert_eq!(parse("   # a comment").unwrap(), None);
    }

    #[test]
    fn perft_lines() {
        let e = epd("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9");
        assert_eq!(e.fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(e.perft_counts().unwrap(), [(1, 3), (2, 9)]);
        let e = epd("8/8/8/8/8/8/8/K6k w - -;D1 3");
        assert_eq!((e.fen.as_str(), e.perft_counts().unwrap()), ("8/8/8/8/8/8/8/K6k w - -", vec![(1, 3)]));
        assert_eq!(epd("8/8/8/8/8/8/8/K6k w - -").perft_counts().unwrap(), []);
        for bad in ["E1 5", "D1", "D1 x", "Dx 5", "D1 5 6"] {
            let e = epd(&format!("8/8/8/8/8/8/8/K6k w - - ;{bad}"));
            assert_eq!(e.perft_counts(), Err(EpdError::PerftEntry(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn bad_lines_are_errors() {
        assert_eq!(parse("6k1/5ppp/8 w -"), Err(EpdError::TooFewFields));
        assert_eq!(parse("x ;D1 3"), Err(EpdError::TooFewFields));
        let err = parse("8/8/8 w - - ;D1 3").unwrap_err();
        assert!(matches!(&err, EpdError::Position { fen, source: FenError::RankCount(3) } if fen == "8/8/8 w - -"));
        assert!(err.to_string().starts_with("bad position: "), "{err}");
        assert!(matches!(parse("8/8/8/8/8/8/8/K6k w - - id \"open"), Err(EpdError::Unterminated(_))));
    }
}
