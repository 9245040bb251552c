//! The tuner's positions: level 10 playing itself at a node budget from the openings (a few
//! random moves into each, so that no two games are alike), every quiet position of each game
//! labelled by how the game ended. Written as one line per position, the FEN and the result
//! from White's side in brackets (`... w - - 0 30 [0.5]`), each game's lines followed by a
//! `# game N` line, so that a run cut short goes on where it stopped.

use crate::agents;
use crate::board::{Color, Move, MoveKind, Position};
use crate::experiments::game::GameRecord;
use crate::experiments::{Job, game_seed};
use crate::players::spec::PlayerSpec;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::collections::HashSet;

/// At most this many random moves are played into each opening.
pub const RANDOM_PLIES: u32 = 4;

/// The self-play games of a tuning run: game `i` starts from opening `i / 2` (colours swapped
/// in pairs) after its own random moves, both sides `player`.
pub fn jobs(player: &PlayerSpec, openings: &[Position], games: usize, seed: u64) -> Vec<Job> {
    (0..games)
        .map(|i| {
            let game = game_seed(seed, 0, i as u64);
            let opening = openings.get((i / 2) % openings.len().max(1)).copied().unwrap_or_else(Position::startpos);
            Job {
                white: player.clone(),
                black: player.clone(),
                seed: game,
                keep_reasons: false,
                start: random_walk(opening, game),
            }
        })
        .collect()
}

/// `start` after up to `RANDOM_PLIES` random legal moves chosen by `seed` (fewer where a walk
/// would end the game).
pub fn random_walk(start: Position, seed: u64) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = start;
    for _ in 0..rng.random_range(0..=RANDOM_PLIES) {
        let moves = pos.legal_moves();
        let next = pos.play(moves[rng.random_range(0..moves.len())]);
        if next.legal_moves().is_empty() {
            break;
        }
        pos = next;
    }
    pos
}

/// A position the judgement should be fitted on: nothing hangs that the side to move could
/// take at once (the tree's quiescence would), it is not in check, and the move played from it
/// was quiet.
pub fn is_quiet(pos: &Position, played: Move) -> bool {
    if pos.is_check() || pos.is_capture(played) || played.kind() == MoveKind::Promotion {
        return false;
    }
    let captures = pos.legal_moves();
    !captures
        .iter()
        .any(|&m| (pos.is_capture(m) || m.kind() == MoveKind::Promotion) && agents::capture_gain(pos, m) > 0)
}

/// The lines a finished game adds to the positions file, its marker last; none for a game
/// that ended without a result by the rules (a fault).
pub fn game_lines(record: &GameRecord) -> String {
    let result = match record.termination.winner() {
        _ if record.fault.is_some() => return String::new(),
        Some(Color::White) => "1.0",
        Some(Color::Black) => "0.0",
        None => "0.5",
    };
    let Ok(mut pos) = Position::from_fen(&record.start_fen) else { return String::new() };
    let mut out = String::new();
    for &mv in &record.moves {
        if is_quiet(&pos, mv) {
            out.push_str(&format!("{} [{result}]\n", pos.to_fen()));
        }
        pos = pos.play(mv);
    }
    out.push_str(&game_marker(record.index));
    out
}

/// The line that ends game `n`'s lines in a positions (or searched) file.
pub fn game_marker(n: usize) -> String {
    format!("# game {n}\n")
}

/// The game number of a marker line, `None` for any other line.
pub fn marker_game(line: &str) -> Option<usize> {
    line.strip_prefix("# game ").and_then(|n| n.trim().parse().ok())
}

/// The games a positions file holds complete, and how long its text is up to the last of
/// them (anything after it is a game cut off while being written).
pub fn finished(text: &str) -> (HashSet<usize>, usize) {
    let mut games = HashSet::new();
    let mut complete = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        if let Some(n) = marker_game(line)
            && line.ends_with('\n')
        {
            games.insert(n);
            complete = at;
        }
    }
    (games, complete)
}

/// A position line's position and result (1, ½ or 0 from White's side); `None` for comments.
pub fn parse_line(line: &str) -> Option<(Position, f32)> {
    let (fen, result) = line.trim().rsplit_once(" [")?;
    let result = result.strip_suffix(']')?.parse::<f32>().ok().filter(|r| (0.0..=1.0).contains(r))?;
    Some((Position::from_fen(fen).ok()?, result))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::game::Termination;

    #[test]
    fn a_cut_off_game_is_not_counted() {
        let text = "fen1 [1.0]\n# game 3\nfen2 [0.5]\n# game 0\nfen3 [0.0]\n# ga";
        let (games, complete) = finished(text);
        assert_eq!(games, HashSet::from([0, 3]));
        assert_eq!(&text[..complete], "fen1 [1.0]\n# game 3\nfen2 [0.5]\n# game 0\n");
    }

    #[test]
    fn a_game_marker_reads_back_as_its_game() {
        assert_eq!(marker_game(&game_marker(42)), Some(42));
        assert_eq!(marker_game("# game x"), None);
        assert_eq!(marker_game("8/8/8/8/8/8/8/K1k5 w - - 0 1 [0.5]"), None);
    }

    #[test]
    fn lines_read_back() {
        let (pos, r) = parse_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 [0.5]").unwrap();
        assert_eq!((pos.to_fen().as_str(), r), ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 0.5));
        assert!(parse_line("# game 1").is_none());
        assert!(parse_line("4k3/8/8/8/8/8/8/4K2R w K - 0 1 [2]").is_none());
    }

    #[test]
    fn only_quiet_positions_are_kept() {
        // White to move can take a free rook: not quiet, whatever it plays.
        let pos = Position::from_fen("4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1").unwrap();
        assert!(!is_quiet(&pos, pos.parse_uci("e1f1").unwrap()));
        let calm = Position::from_fen("4k3/8/8/8/8/8/3R4/4K3 w - - 0 1").unwrap();
        assert!(is_quiet(&calm, calm.parse_uci("e1f1").unwrap()));
        assert!(is_quiet(&calm, calm.parse_uci("d2d8").unwrap()), "the move gives check but takes nothing");
        let checked = Position::from_fen("4k3/8/8/8/8/8/3r4/3RK3 w - - 0 1").unwrap();
        assert!(!is_quiet(&checked, checked.parse_uci("d1d2").unwrap()), "a capture was played");
    }

    #[test]
    fn a_game_is_written_with_its_result_and_marker() {
        let start = Position::from_fen("4k3/8/8/8/8/8/3R4/4K3 w - - 0 1").unwrap();
        let mv = start.parse_uci("e1f1").unwrap();
        let record = GameRecord {
            index: 7,
            seed: 1,
            white: "a".into(),
            black: "b".into(),
            start_fen: start.to_fen(),
            moves: vec![mv],
            reasons: vec![],
            termination: Termination::Resigned(Color::Black),
            material: vec![],
            bare_king: None,
            counters: [None, None],
            fault: None,
        };
        assert_eq!(game_lines(&record), format!("{} [1.0]\n# game 7\n", start.to_fen()));
    }

    #[test]
    fn random_walks_differ_by_seed_and_repeat_by_seed() {
        let start = Position::startpos();
        let walks: HashSet<String> = (0..20).map(|s| random_walk(start, s).to_fen()).collect();
        assert!(walks.len() > 10);
        assert_eq!(random_walk(start, 5), random_walk(start, 5));
    }
}
