//! `agentchess tune`: the judgement's weights fitted to games the project plays itself
//! (Texel's method). `data` makes the labelled positions, `label` blends a deeper search's
//! score into their labels where asked, `fit` fits the weights to them, `source` writes them as
//! the Rust source the judgement is built from. `wdl` fits the win/draw/loss model behind
//! `UCI_ShowWDL` to games' scores (`agentchess fit-wdl`).

pub mod data;
pub mod fit;
pub mod label;
pub mod source;
pub mod wdl;

use crate::agents;
use crate::agents::judgement::Style;
use crate::board::Position;
use fit::Samples;

/// The openings the tuner's games start from when none are given (the project's own file).
pub const OPENINGS: &str = include_str!("../../tests/data/openings.epd");

/// Every tenth game's positions are held out of the fit, to tell a fit that learns from one
/// that learns the games by heart.
pub const HELD_OUT_EVERY: usize = 10;

/// The positions of a positions file traced term by term in `style`, on `threads` threads:
/// those the fit learns from, and those of the games held out. The game markers say which game
/// the lines before them belong to.
pub fn samples(text: &str, style: Style, threads: usize) -> (Samples, Samples) {
    let games = games(text);
    let pick = |held: bool| {
        games
            .iter()
            .filter(|g| (g.0 % HELD_OUT_EVERY == 0) == held)
            .flat_map(|g| g.1.iter().copied())
            .collect::<Vec<_>>()
    };
    (traced(&pick(false), style, threads), traced(&pick(true), style, threads))
}

/// A positions file's lines game by game: each game's number and its lines, in the file's
/// order (a game's marker follows its lines; lines after the last marker are left out).
pub fn games(text: &str) -> Vec<(usize, Vec<&str>)> {
    let mut games = Vec::new();
    let mut lines = Vec::new();
    for line in text.lines() {
        match data::marker_game(line) {
            Some(n) => games.push((n, std::mem::take(&mut lines))),
            None => lines.push(line),
        }
    }
    games
}

fn traced(lines: &[&str], style: Style, threads: usize) -> Samples {
    let chunk = lines.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Samples> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut out = Samples::default();
                    for (pos, result) in part.iter().filter_map(|l| data::parse_line(l)) {
                        add(&mut out, &pos, style, result);
                    }
                    out
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a tracing thread panicked")).collect()
    });
    let mut all = Samples::default();
    for part in parts {
        all.extend(part);
    }
    all
}

/// One position and its result (White's side) as the fit sees it in `style`.
pub fn add(samples: &mut Samples, pos: &Position, style: Style, result: f32) {
    let traced = agents::judgement::trace_as(pos, style);
    samples.push(&traced.trace.counts, traced.phase, traced.scale, result);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_splits_into_its_games_by_their_markers() {
        let text = "a [1.0]\nb [1.0]\n# game 3\nc [0.5]\n# game 0\nd [0.0]\n";
        assert_eq!(games(text), vec![(3, vec!["a [1.0]", "b [1.0]"]), (0, vec!["c [0.5]"])]);
        assert!(games("").is_empty());
    }
}
