//! `agentchess tune`: the judgement's weights fitted to games the project plays itself
//! (Texel's method). `data` makes the labelled positions, `fit` fits the weights to them,
//! `source` writes them as the Rust source the judgement is built from.

pub mod data;
pub mod fit;
pub mod source;

use crate::agents;
use crate::board::Position;
use fit::Samples;

/// The openings the tuner's games start from when none are given (the project's own file).
pub const OPENINGS: &str = include_str!("../../../tests/data/openings.epd");

/// The positions of a positions file traced term by term, on `threads` threads; lines that
/// are no position (the game markers) are skipped.
pub fn samples(text: &str, threads: usize) -> Samples {
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let chunk = lines.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<Samples> = std::thread::scope(|s| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut out = Samples::default();
                    for (pos, result) in part.iter().filter_map(|l| data::parse_line(l)) {
                        add(&mut out, &pos, result);
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

/// One position and its result (White's side) as the fit sees it.
pub fn add(samples: &mut Samples, pos: &Position, result: f32) {
    let traced = agents::trace(pos);
    samples.push(&traced.trace.counts, traced.phase, traced.scale, result);
}
