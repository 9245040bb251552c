//! The annotated game as PGN, as analysis boards export it: the input's tags (and an
//! `Annotator`), the players' summaries as the game's first comment, and after each move its
//! evaluation from White's side (`[%eval 0.35]`, `[%eval #-3]`); a marked move carries its mark
//! (`?!`, `?`, `??`), the scores around it, the agents' reason and the better move, with the
//! judge's line as a variation.

use super::chances::Score;
use super::summary::summarise;
use super::{Annotated, MoveNote, line_san};
use crate::board::Color;

/// Plies of the better line written as a variation.
pub const LINE_PLIES: usize = 10;

/// Lines of movetext at most this long, as PGN's export format asks.
const WIDTH: usize = 79;

/// The game with its annotations.
pub fn to_pgn(a: &Annotated) -> String {
    let mut out = String::new();
    let mut tagged = false;
    for (name, value) in &a.game.tags {
        if name == "Annotator" {
            tag(&mut out, name, &annotator(a));
            tagged = true;
        } else {
            tag(&mut out, name, value);
        }
    }
    if !tagged {
        tag(&mut out, "Annotator", &annotator(a));
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    let summaries: Vec<String> = [Color::White, Color::Black].map(|c| summarise(a, c).to_string()).to_vec();
    comment(&mut words, &summaries.join(". "));
    let mut numbered = false;
    for n in &a.notes {
        let number = n.number();
        if n.mover() == Color::White || !numbered {
            words.push(format!("{number} {}{}", n.san, mark_suffix(n)));
        } else {
            words.push(format!("{}{}", n.san, mark_suffix(n)));
        }
        numbered = true;
        let text = move_comment(n);
        if !text.is_empty() {
            comment(&mut words, &text);
            numbered = false;
        }
        if n.mark.is_some() && n.has_better() {
            let line = line_san(&n.pos, &n.better, LINE_PLIES);
            words.push(format!("({line})"));
            numbered = false;
        }
    }
    words.push(a.game.result.clone());
    wrap(&mut out, &words);
    out.push_str("\n\n");
    out
}

/// "AgentChess annotate (level:10, 250000 nodes a position)"
fn annotator(a: &Annotated) -> String {
    format!("AgentChess annotate ({})", a.judge)
}

fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

fn mark_suffix(n: &MoveNote) -> &'static str {
    n.mark.map_or("", |m| m.suffix())
}

/// The comment after a move: its evaluation, and for a marked move what it lost, why, and the
/// better move.
pub fn move_comment(n: &MoveNote) -> String {
    let mut parts = Vec::new();
    let white = |s: Score| if n.mover() == Color::White { s } else { s.flip() };
    if let Some(e) = white(n.after).eval_text() {
        parts.push(format!("[%eval {e}]"));
    }
    if let Some(mark) = n.mark {
        parts.push(format!(
            "{}: {}'s score went from {} to {} (winning chances {:.0}% to {:.0}%).",
            mark.name(),
            n.mover(),
            n.before,
            n.after,
            n.percent(n.before),
            n.percent(n.after)
        ));
        if let Some(c) = &n.critique {
            parts.push(format!("{c}."));
        }
        if let Some(&b) = n.better.first().filter(|_| n.has_better()) {
            parts.push(format!("Better: {}.", n.pos.to_san(b)));
        }
    }
    parts.join(" ")
}

/// `{text}` as words, with any brace in the text made a parenthesis (it would end the comment).
fn comment(words: &mut Vec<String>, text: &str) {
    let text = text.replace('{', "(").replace('}', ")");
    let mut list: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    if list.is_empty() {
        return;
    }
    list[0] = format!("{{{}", list[0]);
    if let Some(last) = list.last_mut() {
        last.push('}');
    }
    words.extend(list);
}

/// Words into lines of at most `WIDTH` characters (a longer word stands alone).
fn wrap(out: &mut String, words: &[String]) {
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
}

#[cfg(test)]
mod tests {
    use super::super::chances::Scale;
    use super::super::{View, notes};
    use super::*;
    use crate::board::Position;
    use crate::board::pgn_reader::{PgnGame, read_games};

    fn annotated() -> Annotated {
        let text = "[Event \"t\"]\n[White \"A \\\"a\\\"\"]\n[Black \"B\"]\n[Odd \"kept\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let game: PgnGame = read_games(text).remove(0).unwrap();
        let mut at = game.start;
        let mut views = Vec::new();
        for (i, &mv) in game.moves.iter().enumerate() {
            // The judge agrees with every move but Black's third (Nf6, where g6 was better).
            let best = if i == 5 { at.parse_san("g6").unwrap() } else { mv };
            let score = if i == 5 { Score::Cp(-50) } else { Score::Cp(if i % 2 == 0 { 30 } else { -30 }) };
            views.push(View { score, line: vec![best] });
            at = at.play(mv);
        }
        views[5 + 1] = View { score: Score::Mate(1), line: vec![game.moves[6]] };
        views.push(View { score: Score::Lost, line: Vec::new() });
        let notes = notes(&game, &views, Scale::SAME);
        Annotated { game, notes, judge: "test judge".into() }
    }

    #[test]
    fn the_pgn_keeps_the_tags_and_marks_the_blunder_with_its_line() {
        let pgn = to_pgn(&annotated());
        let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(pgn.contains("[White \"A \\\"a\\\"\"]\n[Black \"B\"]\n[Odd \"kept\"]\n"), "{pgn}");
        assert!(pgn.contains("[Annotator \"AgentChess annotate (test judge)\"]"), "{pgn}");
        assert!(pgn.contains("3... Nf6??"), "{pgn}");
        assert!(
            flat.contains("Blunder: Black's score went from -0.50 to mated in 1 (winning chances 45% to 2%)"),
            "{pgn}"
        );
        assert!(flat.contains("Ng8-f6 allows mate in 1: Qh5xf7, the queen on f7 mates. Better: g6."), "{pgn}");
        assert!(pgn.contains("(3... g6)"), "{pgn}");
        assert!(pgn.contains("4. Qxf7#"), "{pgn}");
        assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
        assert!(pgn.lines().all(|l| l.len() <= WIDTH), "{pgn}");
    }

    #[test]
    fn the_pgn_reads_back_with_the_same_moves() {
        let a = annotated();
        let back = read_games(&to_pgn(&a)).remove(0).unwrap();
        assert_eq!(back.moves, a.game.moves);
        assert_eq!(back.start, Position::startpos());
        assert_eq!(back.tag("Odd"), Some("kept"));
    }

    #[test]
    fn evaluations_are_from_whites_side() {
        let a = annotated();
        // After 1. e4 (White's move) the judge saw -30 for Black to move: +0.30 for White.
        assert_eq!(move_comment(&a.notes[0]), "[%eval 0.30]");
        // After 1... e5 it saw +30 for White to move.
        assert_eq!(move_comment(&a.notes[1]), "[%eval 0.30]");
        assert!(move_comment(&a.notes[5]).starts_with("[%eval #1]"), "{}", move_comment(&a.notes[5]));
    }
}
