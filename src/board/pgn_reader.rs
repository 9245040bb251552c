//! Reading games from PGN text (export format and the looser files people have): the tags in
//! order, the start position (`FEN`), the main line as moves with the comment after each, and
//! the result. Other comments (`;`, a second `{}` after a move, those in variations), variations, NAGs, move numbers and escape lines (`%`) are skipped; SAN is read as
//! `Position::parse_san` reads it (a missing check sign, `!?` suffixes, `0-0`).
//!
//! A game that cannot be read is an error of its own, with its number in the file and the line
//! where the trouble is, and reading goes on with the next game: a bad game in a long file does
//! not cost the others.

use crate::board::{FenError, Move, MoveError, Position, STARTPOS};
use thiserror::Error;

/// One game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Its place in the file, from 1.
    pub number: usize,
    /// The line it starts on, from 1.
    pub line: usize,
    /// Every tag in the order read, unknown ones included.
    pub tags: Vec<(String, String)>,
    pub start: Position,
    /// The main line.
    pub moves: Vec<Move>,
    /// The first `{}` comment after each main-line move (a GUI's score and time), empty when
    /// there is none: as many as `moves`.
    pub comments: Vec<String>,
    /// The termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// A tag's value, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// A game that could not be read: which one, where, and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("game {game} (line {line}): {kind}")]
pub struct PgnError {
    pub game: usize,
    pub line: usize,
    pub kind: PgnErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnErrorKind {
    #[error("move {number} {text}: {}", move_problem(.source))]
    BadMove { number: String, text: String, source: MoveError },
    #[error("bad FEN tag: {0}")]
    BadFen(FenError),
    #[error("variant '{0}' is not standard chess")]
    Variant(String),
    #[error("malformed tag: {0}")]
    BadTag(String),
    #[error("truncated: {0}")]
    Truncated(&'static str),
    #[error("unexpected '{0}'")]
    Unexpected(String),
}

/// What is wrong with a move, in the words of an error about a game.
fn move_problem(e: &MoveError) -> &'static str {
    match e {
        MoveError::Syntax(_) => "not a move",
        MoveError::Illegal(_) => "illegal in the position",
        MoveError::Ambiguous(_) => "ambiguous",
    }
}

/// Every game of `text`, each read or with the error that stopped it, in file order.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    let mut reader = Reader { lexer: Lexer::new(text), games: Vec::new(), number: 0 };
    reader.run();
    reader.games
}

/// What the lexer finds, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token<'a> {
    /// `[Name "value"]`, the value unescaped; the text when the brackets hold no well-formed tag.
    Tag(Result<(String, String), String>),
    /// A move as written (its move number cut off).
    Word(&'a str),
    Open,
    Close,
    Result(&'a str),
    /// A `{}` comment's text.
    Comment(&'a str),
    /// `{` with no `}` before the end.
    Unclosed,
}

struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    /// The current token starts a line (only spaces before it).
    line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        // A byte-order mark is no part of the first tag.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer { text, at: 0, line: 1, line_start: true }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn bump(&mut self, n: usize) {
        for c in self.text[self.at..self.at + n].chars() {
            if c == '\n' {
                self.line += 1;
            }
        }
        self.at += n;
    }

    /// The next token and its line, skipping space, `;` comments, NAGs, move numbers and escape
    /// lines; `None` at the end of the text.
    fn next(&mut self) -> Option<(Token<'a>, usize, bool)> {
        loop {
            let rest = self.rest();
            let c = rest.chars().next()?;
            if c == '\n' {
                self.bump(1);
                self.line_start = true;
                continue;
            }
            if c.is_whitespace() {
                self.bump(c.len_utf8());
                continue;
            }
            let starts_line = self.line_start;
            self.line_start = false;
            let line = self.line;
            match c {
                '%' if starts_line => self.skip_line(),
                ';' => self.skip_line(),
                '{' => match rest.find('}') {
                    Some(end) => {
                        self.bump(end + 1);
                        return Some((Token::Comment(&rest[1..end]), line, starts_line));
                    }
                    None => {
                        self.bump(rest.len());
                        return Some((Token::Unclosed, line, starts_line));
                    }
                },
                '$' => {
                    let n = 1 + rest[1..].find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len() - 1);
                    self.bump(n);
                }
                '(' => {
                    self.bump(1);
                    return Some((Token::Open, line, starts_line));
                }
                ')' => {
                    self.bump(1);
                    return Some((Token::Close, line, starts_line));
                }
                '[' => {
                    let end = rest.find([']', '\n']).unwrap_or(rest.len());
                    let closed = rest[end..].starts_with(']');
                    let body = &rest[1..end];
                    self.bump(if closed { end + 1 } else { end });
                    let tag = if closed { parse_tag(body) } else { Err(format!("[{body}")) };
                    return Some((Token::Tag(tag), line, starts_line));
                }
                _ => {
                    let end = rest.find(|c: char| c.is_whitespace() || "{}()[];$".contains(c)).unwrap_or(rest.len());
                    let word = &rest[..end];
                    self.bump(end);
                    if let Some(token) = word_token(word) {
                        return Some((token, line, starts_line));
                    }
                }
            }
        }
    }

    fn skip_line(&mut self) {
        let end = self.rest().find('\n').unwrap_or(self.rest().len());
        self.bump(end);
    }
}

/// A word of movetext as a token: a result, a move (its move number cut off), or nothing (a
/// bare move number, `..`).
fn word_token(word: &str) -> Option<Token<'_>> {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½") {
        return Some(Token::Result(if word == "½-½" { "1/2-1/2" } else { word }));
    }
    // "12." "12..." "12.e4" "12...e5"
    let unnumbered = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let body = if unnumbered.len() < word.len() && unnumbered.starts_with('.') {
        unnumbered.trim_start_matches('.')
    } else if unnumbered.len() < word.len() && unnumbered.is_empty() {
        // A bare number without its dot.
        ""
    } else {
        word.trim_start_matches('.')
    };
    (!body.is_empty()).then_some(Token::Word(body))
}

/// `Name "value"` with PGN's escapes (`\"`, `\\`).
fn parse_tag(body: &str) -> Result<(String, String), String> {
    let bad = || format!("[{body}]");
    let body = body.trim();
    let (name, rest) = body.split_once(char::is_whitespace).ok_or_else(bad)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(bad());
    }
    let quoted = rest.trim().strip_prefix('"').and_then(|q| q.strip_suffix('"')).ok_or_else(bad)?;
    let mut value = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next().ok_or_else(bad)?),
            '"' => return Err(bad()),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

struct Reader<'a> {
    lexer: Lexer<'a>,
    games: Vec<Result<PgnGame, PgnError>>,
    number: usize,
}

/// A game being read.
struct Open {
    number: usize,
    line: usize,
    tags: Vec<(String, String)>,
    /// The position once the tags are read (set at the first movetext token).
    start: Option<Position>,
    pos: Position,
    moves: Vec<Move>,
    comments: Vec<String>,
    /// Variations open.
    depth: usize,
}

impl Reader<'_> {
    fn run(&mut self) {
        let mut game: Option<Open> = None;
        while let Some((token, line, starts_line)) = self.lexer.next() {
            // A comment outside a game's movetext (between games, before the first move) opens
            // nothing and belongs to no move.
            if matches!(token, Token::Comment(_)) && game.as_ref().is_none_or(|g| g.start.is_none()) {
                continue;
            }
            // Tags after movetext begin the next game: the one before ended without its result.
            if let (Token::Tag(_), Some(g)) = (&token, &game)
                && g.start.is_some()
                && starts_line
            {
                let g = game.take().expect("checked");
                self.fail(g.number, line, PgnErrorKind::Truncated("no result before the next game's tags"));
            }
            let g = game.get_or_insert_with(|| {
                self.number += 1;
                Open {
                    number: self.number,
                    line,
                    tags: Vec::new(),
                    start: None,
                    pos: Position::startpos(),
                    moves: Vec::new(),
                    comments: Vec::new(),
                    depth: 0,
                }
            });
            match token {
                Token::Tag(tag) if g.start.is_none() => match tag {
                    Ok(t) => g.tags.push(t),
                    Err(text) => {
                        let number = g.number;
                        game = None;
                        self.fail_and_skip(number, line, PgnErrorKind::BadTag(text));
                    }
                },
                Token::Tag(Err(text)) | Token::Tag(Ok((text, _))) => {
                    // A tag inside the movetext, not at the start of a line.
                    let number = g.number;
                    game = None;
                    self.fail_and_skip(number, line, PgnErrorKind::Unexpected(format!("[{text}")));
                }
                Token::Unclosed => {
                    let number = g.number;
                    game = None;
                    self.fail(number, line, PgnErrorKind::Truncated("a comment is not closed"));
                }
                other => {
                    if g.start.is_none() {
                        match start_position(&g.tags) {
                            Ok(p) => {
                                g.start = Some(p);
                                g.pos = p;
                            }
                            Err(kind) => {
                                let number = g.number;
                                game = None;
                                // This token may already be the result.
                                if !matches!(other, Token::Result(_)) {
                                    self.skip_game();
                                }
                                self.fail(number, line, kind);
                                continue;
                            }
                        }
                    }
                    match Self::movetext(g, other) {
                        Ok(false) => {}
                        Ok(true) => {
                            let g = game.take().expect("open");
                            self.games.push(Ok(g.finish()));
                        }
                        Err(kind) => {
                            let number = g.number;
                            game = None;
                            self.fail_and_skip(number, line, kind);
                        }
                    }
                }
            }
        }
        if let Some(g) = game {
            let line = self.lexer.line;
            let why = if g.depth > 0 { "a variation is not closed" } else { "the game has no result at the end" };
            self.fail(g.number, line, PgnErrorKind::Truncated(why));
        }
    }

    /// One movetext token of the open game: Ok(true) when it ends the game.
    fn movetext(g: &mut Open, token: Token) -> Result<bool, PgnErrorKind> {
        match token {
            Token::Open => g.depth += 1,
            Token::Close if g.depth == 0 => return Err(PgnErrorKind::Unexpected(")".into())),
            Token::Close => g.depth -= 1,
            Token::Result(r) if g.depth == 0 => {
                g.tags.iter_mut().filter(|(n, _)| n == "Result").for_each(|(_, v)| *v = r.to_string());
                if !g.tags.iter().any(|(n, _)| n == "Result") {
                    g.tags.push(("Result".into(), r.into()));
                }
                return Ok(true);
            }
            Token::Result(_) => {}
            Token::Comment(text) if g.depth == 0 && g.comments.len() < g.moves.len() => {
                g.comments.resize(g.moves.len() - 1, String::new());
                g.comments.push(text.trim().to_string());
            }
            Token::Comment(_) => {}
            Token::Word(_) if g.depth > 0 => {}
            Token::Word(text) => {
                let ply = g.moves.len()
                    + usize::from(g.start.is_some_and(|s| s.side_to_move() == crate::board::Color::Black));
                let number = g.start.map_or(1, |s| s.fullmove_number() as usize) + ply / 2;
                let number = if ply.is_multiple_of(2) { format!("{number}.") } else { format!("{number}...") };
                let mv = g.pos.parse_san(text).map_err(|source| PgnErrorKind::BadMove {
                    number,
                    text: text.to_string(),
                    source,
                })?;
                g.pos = g.pos.play(mv);
                g.moves.push(mv);
            }
            Token::Tag(_) | Token::Unclosed => unreachable!("handled by run"),
        }
        Ok(false)
    }

    fn fail(&mut self, game: usize, line: usize, kind: PgnErrorKind) {
        self.games.push(Err(PgnError { game, line, kind }));
    }

    fn fail_and_skip(&mut self, game: usize, line: usize, kind: PgnErrorKind) {
        self.fail(game, line, kind);
        self.skip_game();
    }

    /// Skips the rest of a game that failed: up to its result outside any variation, or up to
    /// the next game's tags (left for the next game), or the end.
    fn skip_game(&mut self) {
        let mut depth = 0usize;
        loop {
            let saved = (self.lexer.at, self.lexer.line, self.lexer.line_start);
            let Some((token, _, starts_line)) = self.lexer.next() else { return };
            match token {
                Token::Open => depth += 1,
                Token::Close => depth = depth.saturating_sub(1),
                Token::Result(_) if depth == 0 => return,
                Token::Tag(_) if starts_line => {
                    (self.lexer.at, self.lexer.line, self.lexer.line_start) = saved;
                    return;
                }
                _ => {}
            }
        }
    }
}

impl Open {
    fn finish(mut self) -> PgnGame {
        self.comments.resize(self.moves.len(), String::new());
        let result = self.tags.iter().find(|(n, _)| n == "Result").map_or("*".to_string(), |(_, v)| v.clone());
        PgnGame {
            number: self.number,
            line: self.line,
            tags: self.tags,
            start: self.start.unwrap_or_else(Position::startpos),
            moves: self.moves,
            comments: self.comments,
            result,
        }
    }
}

/// The start position the tags give: `FEN` when present, else the initial position. A
/// `Variant` other than standard chess is refused (its castling or rules differ).
fn start_position(tags: &[(String, String)]) -> Result<Position, PgnErrorKind> {
    let tag = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    if let Some(variant) = tag("Variant")
        && !matches!(variant.to_ascii_lowercase().as_str(), "standard" | "chess" | "from position" | "")
    {
        return Err(PgnErrorKind::Variant(variant.to_string()));
    }
    match tag("FEN") {
        Some(fen) => Position::from_fen(fen.trim()).map_err(PgnErrorKind::BadFen),
        None => Ok(Position::from_fen(STARTPOS).expect("the initial position")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Vec<PgnGame> {
        read_games(text).into_iter().map(|g| g.expect("read")).collect()
    }

    fn sans(g: &PgnGame) -> Vec<String> {
        let mut pos = g.start;
        g.moves
            .iter()
            .map(|&m| {
                let s = pos.to_san(m);
                pos = pos.play(m);
                s
            })
            .collect()
    }

    #[test]
    fn tags_moves_and_result_are_read_and_the_rest_skipped() {
        let text = "[Event \"A \\\"quoted\\\" event\"]\n[White \"x\"]\n[Custom \"kept\"]\n[Result \"1-0\"]\n\n\
                    1. e4 {a comment\nover two lines} e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6?! ; rest\n\
                    % an escape line\n3.Bb5 a6 4. Ba4 1-0\n";
        let games = ok(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(sans(g), ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]);
        assert_eq!(g.tag("Event"), Some("A \"quoted\" event"));
        assert_eq!(g.tag("Custom"), Some("kept"));
        assert_eq!((g.result.as_str(), g.number, g.line), ("1-0", 1, 1));
    }

    /// Each main-line move keeps the first comment after it (a GUI's score and time); a
    /// comment before the first move, a second one, one in a variation or between games
    /// belongs to no move.
    #[test]
    fn each_move_keeps_the_comment_after_it() {
        let text = "{before the tags}\n[Result \"0-1\"]\n\n{before the moves} 1. e4 {+0.35/12 0.1s} {second} e5 \
                    2. Nf3 (2. f4 {in a variation}) Nc6 {-0.20/11 0.2s} 0-1\n{after the game}\n";
        let games = read_games(text);
        assert_eq!(games.len(), 1, "{games:?}");
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.comments, ["+0.35/12 0.1s", "", "", "-0.20/11 0.2s"]);
        let plain = &ok("1. e4 e5 *\n")[0];
        assert_eq!(plain.comments, ["", ""]);
    }

    #[test]
    fn a_fen_tag_sets_the_start_and_black_may_move_first() {
        let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n[SetUp \"1\"]\n\n30... Kd7 31. e4 *\n";
        let g = &ok(text)[0];
        assert_eq!(sans(g), ["Kd7", "e4"]);
        assert_eq!(g.result, "*");
    }

    #[test]
    fn a_bad_game_is_reported_with_its_number_and_line_and_the_next_is_read() {
        let text = "[Event \"1\"]\n\n1. e4 e5 1-0\n\n\
                    [Event \"2\"]\n\n1. e4 e5\n2. Ke3 Nc6 0-1\n\n\
                    [Event \"3\"]\n\n1. d4 d5 1/2-1/2\n";
        let games = read_games(text);
        assert_eq!(games.len(), 3);
        let err = games[1].as_ref().unwrap_err();
        assert_eq!((err.game, err.line), (2, 8));
        assert!(
            matches!(&err.kind, PgnErrorKind::BadMove { text, number, .. } if text == "Ke3" && number == "2."),
            "{err}"
        );
        assert_eq!(err.to_string(), "game 2 (line 8): move 2. Ke3: illegal in the position");
        assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("3"));
    }

    #[test]
    fn truncated_games_are_errors() {
        // Cut in the middle of the last game.
        let games = read_games("1. e4 e5 1-0\n\n[Event \"2\"]\n\n1. e4 e5 2. Nf3\n");
        assert!(games[0].is_ok());
        assert!(matches!(games[1], Err(PgnError { game: 2, kind: PgnErrorKind::Truncated(_), .. })), "{games:?}");
        // A game without its result runs into the next game's tags: that one is still read.
        let games = read_games("[Event \"1\"]\n\n1. e4 e5\n\n[Event \"2\"]\n\n1. d4 0-1\n");
        assert!(matches!(games[0], Err(PgnError { game: 1, line: 5, kind: PgnErrorKind::Truncated(_) })), "{games:?}");
        assert_eq!(games[1].as_ref().unwrap().moves.len(), 1);
        // A comment left open, a variation left open.
        assert!(matches!(read_games("1. e4 {never closed")[0], Err(PgnError { kind: PgnErrorKind::Truncated(_), .. })));
        assert!(matches!(read_games("1. e4 (1. d4 d5")[0], Err(PgnError { kind: PgnErrorKind::Truncated(_), .. })));
    }

    #[test]
    fn bad_tags_fens_and_variants_are_errors_of_their_game() {
        let text = "[Event \"1\"\n\n1. e4 1-0\n\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 1-0\n\n\
                    [Variant \"Chess960\"]\n\n1. e4 1-0\n\n[Event \"4\"]\n\n1. e4 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 4, "{games:?}");
        assert!(matches!(&games[0], Err(PgnError { game: 1, line: 1, kind: PgnErrorKind::BadTag(_) })), "{games:?}");
        assert!(matches!(&games[1], Err(PgnError { game: 2, kind: PgnErrorKind::BadFen(_), .. })), "{games:?}");
        assert!(matches!(&games[2], Err(PgnError { game: 3, kind: PgnErrorKind::Variant(_), .. })), "{games:?}");
        assert!(games[3].is_ok());
    }

    #[test]
    fn nothing_at_all_is_no_game() {
        assert!(read_games("").is_empty());
        assert!(read_games("\n  \n% only an escape line\n").is_empty());
    }

    #[test]
    fn a_stray_parenthesis_is_an_error() {
        let games = read_games("1. e4 ) e5 1-0\n\n1. d4 0-1\n");
        assert!(matches!(&games[0], Err(PgnError { kind: PgnErrorKind::Unexpected(_), .. })), "{games:?}");
        assert!(games[1].is_ok());
    }
}
