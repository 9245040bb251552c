//! Decision time of the MasterAgent per level over the WAC positions: median and 99th
//! percentile of single decisions. Run with `cargo bench --bench decide [-- EPD_FILE]
//! [FEATURES ...] [warm]`: a FEATURES argument (`level9,-look-ahead`, as `--features` reads it)
//! times that set instead of the levels, to see what a rule costs.
//!
//! The decisions are timed one position after another, as in a game, where the positions
//! before have left the caches and the branch predictor trained on other work. `warm` times
//! each position's decisions back to back instead: what a decision costs once the machine has
//! learnt it, to tell the two apart (README, Level 9).

use agentchess::agents::{Features, MasterAgent};
use agentchess::board::Position;
use std::hint::black_box;
use std::time::Instant;

/// Timed decisions per position and level; each is measured on its own.
const REPEATS: usize = 25;

fn load(path: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            (fields.len() == 4).then(|| Position::from_fen(&format!("{} 0 1", fields.join(" "))).ok())?
        })
        .filter(|p| !p.legal_moves().is_empty())
        .collect()
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn main() {
    let default = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wac.epd");
    // `cargo bench` passes "--bench"; an argument naming a file is the EPD file, any other is a
    // feature set.
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let warm = args.iter().any(|a| a == "warm");
    args.retain(|a| a != "warm");
    let path = args.iter().find(|a| std::path::Path::new(a).is_file()).cloned().unwrap_or(default.to_string());
    let mut sets: Vec<(String, Features)> = args
        .iter()
        .filter(|a| !std::path::Path::new(a).is_file())
        .map(|a| (a.clone(), Features::parse(a).unwrap_or_else(|e| panic!("{a}: {e}"))))
        .collect();
    if sets.is_empty() {
        sets = (1..=Features::MAX_LEVEL)
            .map(|n| (n.to_string(), Features::level(n).expect("levels 1..=9 exist")))
            .collect();
    }
    let positions = load(&path);
    let order = if warm { "back to back" } else { "one position after another" };
    println!("{} positions from {path}, {REPEATS} timed decisions each, {order}", positions.len());
    println!("| level | median (µs) | p99 (µs) | mean (µs) |");
    println!("|------:|------------:|---------:|----------:|");
    for (level, features) in sets {
        let mut master = MasterAgent::new(features, 1);
        for pos in &positions {
            black_box(master.choose(pos));
        }
        let mut samples = Vec::with_capacity(positions.len() * REPEATS);
        let mut time = |pos: &Position| {
            let start = Instant::now();
            black_box(master.choose(black_box(pos)));
            samples.push(start.elapsed().as_nanos() as u64);
        };
        if warm {
            for pos in &positions {
                (0..REPEATS).for_each(|_| time(pos));
            }
        } else {
            for _ in 0..REPEATS {
                positions.iter().for_each(&mut time);
            }
        }
        samples.sort_unstable();
        let mean = samples.iter().sum::<u64>() as f64 / samples.len() as f64;
        println!(
            "| {level} | {:.1} | {:.1} | {:.1} |",
            percentile(&samples, 0.5) as f64 / 1000.0,
            percentile(&samples, 0.99) as f64 / 1000.0,
            mean / 1000.0
        );
    }
}
