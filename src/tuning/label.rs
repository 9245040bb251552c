//! Labels from a deeper look: each position of the tuner's games searched by level 10 at a
//! node budget, its score kept beside the game's result, so that a fit can learn from both.
//! A game's result says who won in the end, whatever happened after the position; the search
//! says what the position was worth when it stood on the board, with the noise of the moves
//! after it left out.
//!
//! A searched positions file holds the positions file's lines with the search's score from
//! White's side appended (`... w - - 0 30 [0.5] 37`), game markers as they were.

use super::data;
use super::fit::expected;

/// A mate found by the search counts as this many centipawns (the logistic map is then all
/// but certain).
pub const MATE_CP: i32 = 2_000;

/// A search's score from the side to move (`mate`: moves to mate, negative when mated) as
/// centipawns from White's side.
pub fn white_cp(score: i32, mate: Option<i32>, white_to_move: bool) -> i32 {
    let cp = match mate {
        Some(n) if n > 0 => MATE_CP,
        Some(n) if n < 0 => -MATE_CP,
        _ => score.clamp(-MATE_CP, MATE_CP),
    };
    if white_to_move { cp } else { -cp }
}

/// A positions file's line with its search score appended.
pub fn scored_line(line: &str, white_cp: i32) -> String {
    format!("{} {white_cp}", line.trim_end())
}

/// A searched line's position line (as the positions file has it) and its score; `None` for
/// markers and anything else.
pub fn parse_scored(line: &str) -> Option<(&str, i32)> {
    let (position, score) = line.trim().rsplit_once(' ')?;
    let score = score.parse().ok()?;
    data::parse_line(position).map(|_| (position, score))
}

/// What a fit learns a position is worth: `share` of the game's result and the rest the
/// result the search's score expects (the logistic map with `k`).
pub fn blend(result: f32, white_cp: i32, share: f64, k: f64) -> f32 {
    (share * f64::from(result) + (1.0 - share) * expected(f64::from(white_cp), k)) as f32
}

/// A searched positions file as a positions file whose results are the blended labels, the
/// game markers kept (so that the same games are held out).
pub fn blended_text(searched: &str, share: f64, k: f64) -> String {
    let mut out = String::with_capacity(searched.len());
    for line in searched.lines() {
        if line.starts_with('#') {
            out.push_str(line);
            out.push('\n');
        } else if let Some((position, cp)) = parse_scored(line)
            && let Some((fen, _)) = position.rsplit_once(" [")
            && let Some((_, result)) = data::parse_line(position)
        {
            out.push_str(&format!("{fen} [{:.4}]\n", blend(result, cp, share, k)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_to_white_side_and_mates_to_a_bound() {
        assert_eq!(white_cp(35, None, true), 35);
        assert_eq!(white_cp(35, None, false), -35);
        assert_eq!(white_cp(29_990, Some(3), false), -MATE_CP);
        assert_eq!(white_cp(-29_990, Some(-2), true), -MATE_CP);
        assert_eq!(white_cp(5_000, None, true), MATE_CP, "clamped");
    }

    #[test]
    fn a_scored_line_reads_back() {
        let line = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 [0.5]";
        let scored = scored_line(line, -12);
        assert_eq!(parse_scored(&scored), Some((line, -12)));
        assert_eq!(parse_scored("# game 3"), None);
        assert_eq!(parse_scored(line), None, "no score");
    }

    #[test]
    fn the_label_lies_between_the_result_and_the_search() {
        let k = 1.2;
        assert_eq!(blend(1.0, 0, 1.0, k), 1.0);
        assert!((blend(1.0, 0, 0.0, k) - 0.5).abs() < 1e-6);
        let mixed = blend(0.0, 200, 0.5, k);
        assert!(mixed > 0.0 && mixed < 0.5, "{mixed}");
        assert!((f64::from(mixed) - 0.5 * expected(200.0, k)).abs() < 1e-6);
    }

    #[test]
    fn a_searched_file_becomes_a_positions_file_with_blended_results() {
        let searched = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 [1.0] 0\n# game 0\n";
        let text = blended_text(searched, 0.5, 1.0);
        assert_eq!(text, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 [0.7500]\n# game 0\n");
        let (_, label) = data::parse_line(text.lines().next().unwrap()).unwrap();
        assert!((label - 0.75).abs() < 1e-6);
    }
}
