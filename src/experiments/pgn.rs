//! PGN export of finished games.

use super::game::GameRecord;
use std::fmt::Write;

fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// One game in PGN (seven-tag roster plus Termination, and FEN when not from the start).
pub fn to_pgn(g: &GameRecord, event: &str, date: &str) -> String {
    write_pgn(g, event, date, false)
}

/// The same with each move's reason as a comment (`{L7 attack request: ...}`), so a GUI shows
/// why every move was played while stepping through the game.
pub fn to_pgn_commented(g: &GameRecord, event: &str, date: &str) -> String {
    write_pgn(g, event, date, true)
}

fn write_pgn(g: &GameRecord, event: &str, date: &str, comments: bool) -> String {
    let mut out = String::new();
    tag(&mut out, "Event", event);
    tag(&mut out, "Site", "AgentChess");
    tag(&mut out, "Date", date);
    tag(&mut out, "Round", &(g.index + 1).to_string());
    tag(&mut out, "White", &g.white);
    tag(&mut out, "Black", &g.black);
    tag(&mut out, "Result", g.result());
    tag(&mut out, "Termination", &g.termination_text());
    tag(&mut out, "Seed", &g.seed.to_string());
    if g.start_fen != crate::board::STARTPOS {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &g.start_fen);
    }
    out.push('\n');
    // Words, wrapped to lines of at most 79 characters as PGN's export format asks.
    let mut words: Vec<String> = Vec::new();
    // Move numbers follow the start position: an opening with Black to move begins "N...".
    let start = crate::board::Position::from_fen(&g.start_fen).ok();
    let first_number = start.map_or(1, |p| p.fullmove_number() as usize);
    let black_first = start.is_some_and(|p| p.side_to_move() == crate::board::Color::Black);
    let mut after_comment = false;
    for (i, san) in g.san().iter().enumerate() {
        let ply = i + usize::from(black_first);
        let number = first_number + ply / 2;
        let white_moves = ply % 2 == 0;
        // A move number stays on the line of its move.
        words.push(if white_moves {
            format!("{number}. {san}")
        } else if after_comment || i == 0 {
            format!("{number}... {san}")
        } else {
            san.clone()
        });
        after_comment = false;
        let reason = g.reasons.get(i).map(|r| comment_text(r)).unwrap_or_default();
        if comments && !reason.is_empty() {
            let mut text: Vec<String> = reason.split_whitespace().map(str::to_string).collect();
            text[0] = format!("{{{}", text[0]);
            if let Some(last) = text.last_mut() {
                last.push('}');
            }
            words.extend(text);
            after_comment = true;
        }
    }
    words.push(g.result().to_string());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A reason as comment text: a brace would end the comment early, so it becomes a parenthesis.
fn comment_text(reason: &str) -> String {
    reason.replace('{', "(").replace('}', ")").trim().to_string()
}

/// Today's date as PGN wants it (YYYY.MM.DD), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

/// What a finished game's tags say: the players as the run named them, White's points (1, 0.5
/// or 0) and the game's seed.
#[derive(Clone, Debug, PartialEq)]
pub struct TaggedResult {
    pub white: String,
    pub black: String,
    pub white_points: f64,
    pub seed: Option<u64>,
}

/// White's points for a PGN result (`1-0`, `0-1`, `1/2-1/2`); none for `*`.
pub fn white_points(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The decided games of a PGN file this program wrote, from their `White`, `Black`, `Result`
/// and `Seed` tags (escapes undone); an unfinished game (`*`) is skipped.
pub fn read_results(text: &str) -> Vec<TaggedResult> {
    let mut out = Vec::new();
    let mut tags: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut finish = |tags: &mut std::collections::HashMap<String, String>| {
        let points = tags.get("Result").and_then(|r| white_points(r));
        if let (Some(white), Some(black), Some(white_points)) = (tags.remove("White"), tags.remove("Black"), points) {
            out.push(TaggedResult { white, black, white_points, seed: tags.get("Seed").and_then(|s| s.parse().ok()) });
        }
        tags.clear();
    };
    for line in text.lines() {
        let Some(body) = line.trim().strip_prefix('[').and_then(|l| l.strip_suffix(']')) else { continue };
        let Some((name, quoted)) = body.split_once(' ') else { continue };
        let Some(inner) = quoted.trim().strip_prefix('"').and_then(|q| q.strip_suffix('"')) else { continue };
        let value = inner.replace("\\\"", "\"").replace("\\\\", "\\");
        if name == "Event" {
            finish(&mut tags);
        }
        tags.insert(name.to_string(), value);
    }
    finish(&mut tags);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_back_from_the_tags() {
        let text = concat!(
            "[Event \"x\"]\n[White \"uci:sf,name=a \\\"b\\\"\"]\n[Black \"level:9\"]\n[Result \"0-1\"]\n",
            "[Seed \"42\"]\n\n1. e4 e5 0-1\n\n",
            "[Event \"x\"]\n[White \"level:1\"]\n[Black \"level:2\"]\n[Result \"*\"]\n\n*\n\n",
            "[Event \"x\"]\n[White \"level:3\"]\n[Black \"level:4\"]\n[Result \"1/2-1/2\"]\n\n1/2-1/2\n",
        );
        let read = read_results(text);
        assert_eq!(read.len(), 2, "{read:?}");
        let first = TaggedResult {
            white: "uci:sf,name=a \"b\"".into(),
            black: "level:9".into(),
            white_points: 0.0,
            seed: Some(42),
        };
        assert_eq!(read[0], first);
        assert_eq!((read[1].white.as_str(), read[1].white_points, read[1].seed), ("level:3", 0.5, None));
    }
}
