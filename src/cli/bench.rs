//! `bench`: the behaviour fingerprint.

use super::CliError;
use super::suite::{WAC, parse_suite};
use super::thesis::thesis_players;
use crate::board::perft::perft;
use crate::experiments::{match_jobs, run_jobs};
use crate::players::spec::PlayerSpec;
use std::time::Instant;

const PERFT_SUITE: &str = include_str!("../../tests/data/perft.epd");

/// FNV-1a, 64 bits: a stable fold of everything `bench` saw into one number.
struct Signature(u64);

impl Signature {
    fn new() -> Signature {
        Signature(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, text: &str) {
        for b in text.bytes().chain(std::iter::once(b'\n')) {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// What `bench` measured, for the report and for tests.
pub struct BenchReport {
    pub perft_positions: usize,
    pub perft_nodes: u64,
    pub decisions: usize,
    pub games: usize,
    /// Changes when and only when some move, count or game of perft, levels 1-8 or the searcher
    /// changes: commits that change behaviour say so by the new signature (as Stockfish's
    /// `bench` does). Levels 1-8 follow the thesis, so this one should stay put.
    pub signature: u64,
    /// The same for level 9: its move on the WAC positions and a seeded match against level 7.
    pub level9_signature: u64,
    /// The work done, the same on every run: perft's leaves and the nodes (agent queries,
    /// search nodes) the WAC decisions report. OpenBench reads it from `bench`'s last line.
    pub nodes: u64,
}

/// The behaviour fingerprint: perft 3 of every suite position, the move of every level 1-8 and
/// of the searcher at depths 1 and 2 on the 300 WAC positions (seed 1), and a seeded 10-game
/// match of level 7 against level 3; then apart, level 9's move on the WAC positions and a
/// seeded 10-game match of level 9 against level 7.
pub fn bench() -> BenchReport {
    let mut sig = Signature::new();
    let mut report = BenchReport {
        perft_positions: 0,
        perft_nodes: 0,
        decisions: 0,
        games: 0,
        signature: 0,
        level9_signature: 0,
        nodes: 0,
    };
    let perft_cases = PERFT_SUITE.lines().filter_map(|l| crate::board::epd::parse(l).ok().flatten());
    for case in perft_cases.filter(|e| e.perft_counts().is_ok()) {
        let nodes = perft(&case.position, 3);
        sig.add(&format!("{} {nodes}", case.fen));
        report.perft_positions += 1;
        report.perft_nodes += nodes;
    }
    let wac = parse_suite("wac", "built-in wac.epd", WAC);
    for spec in thesis_players(1..=2) {
        for record in &wac.records {
            let mut player = spec.build(1);
            let decision = player.decide(&crate::board::Game::new(record.position));
            report.nodes += decision.as_ref().map_or(0, |d| d.nodes);
            let mv = decision.map_or("none".to_string(), |d| d.mv.to_string());
            sig.add(&format!("{spec} {} {mv}", record.fen));
            report.decisions += 1;
        }
    }
    let level = |n| PlayerSpec::level(n).expect("levels 1 to 9 exist");
    let jobs = match_jobs(&level(7), &level(3), 10, 1, 0);
    for game in run_jobs(&jobs, 2, None, false, &|_| {}) {
        sig.add(&format!("{} {}", game.san().join(" "), game.result()));
        report.games += 1;
    }
    report.signature = sig.0;

    let mut sig9 = Signature::new();
    for record in &wac.records {
        let mut player = level(9).build(1);
        let decision = player.decide(&crate::board::Game::new(record.position));
        report.nodes += decision.as_ref().map_or(0, |d| d.nodes);
        let mv = decision.map_or("none".to_string(), |d| d.mv.to_string());
        sig9.add(&format!("level:9 {} {mv}", record.fen));
        report.decisions += 1;
    }
    for game in run_jobs(&match_jobs(&level(9), &level(7), 10, 1, 0), 2, None, false, &|_| {}) {
        sig9.add(&format!("{} {}", game.san().join(" "), game.result()));
        report.games += 1;
    }
    report.level9_signature = sig9.0;
    report.nodes += report.perft_nodes;
    report
}

pub fn run() -> Result<(), CliError> {
    let start = Instant::now();
    let r = bench();
    outln!("perft       {} positions at depth 3, {} nodes", r.perft_positions, r.perft_nodes);
    outln!("decisions   {} (levels 1-9 and search depths 1-2 on 300 WAC positions)", r.decisions);
    outln!("games       {} (level:7 vs level:3 and level:9 vs level:7, seed 1)", r.games);
    outln!("signature   {:016x} (perft, levels 1-8, searcher)", r.signature);
    outln!("level 9     {:016x}", r.level9_signature);
    let secs = start.elapsed().as_secs_f64();
    outln!("time        {secs:.2} s");
    // Last, for distributed testing (OpenBench's client reads the last line matching
    // `\d+ nodes` and `\d+ nps`): the same node count on every run, and the speed.
    outln!("{} nodes {} nps", r.nodes, (r.nodes as f64 / secs.max(1e-9)) as u64);
    Ok(())
}
