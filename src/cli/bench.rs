//! `bench`: the behaviour fingerprint.

use super::CliError;
use super::suite::{WAC, parse_suite};
use super::thesis::thesis_players;
use crate::board::perft::perft;
use crate::experiments::{match_jobs, run_jobs};
use crate::players::spec::PlayerSpec;
use std::time::Instant;

const PERFT_SUITE: &str = include_str!("../../tests/data/perft.epd");

/// Level 10's nodes a WAC decision, and a move in the match: small enough for a quick bench,
/// deep enough (several iterations) that a change to the tree shows.
const LEVEL10_BENCH_NODES: u64 = 10_000;
const LEVEL10_MATCH_NODES: u64 = 1_000;

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
    /// The same for level 10 at a fixed node budget (the same play on every machine): its move
    /// on every third WAC position and a seeded 2-game match against level 9.
    pub level10_signature: u64,
    /// Level 10's share of `nodes` on the WAC positions, and the seconds they took: the tree's speed.
    pub level10_nodes: u64,
    pub level10_secs: f64,
    /// The work done, the same on every run: perft's leaves and the nodes (agent queries,
    /// search nodes) the WAC decisions report. OpenBench reads it from `bench`'s last line.
    pub nodes: u64,
}

/// The behaviour fingerprint: perft 3 of every suite position, the move of every level 1-8 and
/// of the searcher at depths 1 and 2 on the 300 WAC positions (seed 1), and a seeded 10-game
/// match of level 7 against level 3; then apart, level 9's move on the WAC positions and a
/// seeded 10-game match of level 9 against level 7; and level 10 at a fixed node budget on every
/// third WAC position and in a seeded 2-game match against level 9.
pub fn bench() -> BenchReport {
    let mut sig = Signature::new();
    let mut report = BenchReport {
        perft_positions: 0,
        perft_nodes: 0,
        decisions: 0,
        games: 0,
        signature: 0,
        level9_signature: 0,
        level10_signature: 0,
        level10_nodes: 0,
        level10_secs: 0.0,
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
            let (nodes, mv) = first_decision(&spec, record.position);
            report.nodes += nodes;
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
        let (nodes, mv) = first_decision(&level(9), record.position);
        report.nodes += nodes;
        sig9.add(&format!("level:9 {} {mv}", record.fen));
        report.decisions += 1;
    }
    for game in run_jobs(&match_jobs(&level(9), &level(7), 10, 1, 0), 2, None, false, &|_| {}) {
        sig9.add(&format!("{} {}", game.san().join(" "), game.result()));
        report.games += 1;
    }
    report.level9_signature = sig9.0;

    let started = Instant::now();
    let mut sig10 = Signature::new();
    let at = |nodes: u64| -> PlayerSpec { format!("level:10,nodes={nodes}").parse().expect("a valid spec") };
    for record in wac.records.iter().step_by(3) {
        let (nodes, mv) = first_decision(&at(LEVEL10_BENCH_NODES), record.position);
        report.level10_nodes += nodes;
        sig10.add(&format!("level:10 {} {mv}", record.fen));
        report.decisions += 1;
    }
    report.level10_secs = started.elapsed().as_secs_f64();
    for game in run_jobs(&match_jobs(&at(LEVEL10_MATCH_NODES), &level(9), 2, 1, 0), 2, None, false, &|_| {}) {
        sig10.add(&format!("{} {}", game.san().join(" "), game.result()));
        report.games += 1;
    }
    report.level10_signature = sig10.0;
    report.nodes += report.level10_nodes;
    report.nodes += report.perft_nodes;
    report
}

/// A freshly built player's move from `position` (seed 1), as text ("none" without one), and
/// the nodes it reported.
fn first_decision(spec: &PlayerSpec, position: crate::board::Position) -> (u64, String) {
    let decision = spec.build(1).decide(&crate::board::Game::new(position));
    (decision.as_ref().map_or(0, |d| d.nodes), decision.map_or("none".to_string(), |d| d.mv.to_string()))
}

pub fn run() -> Result<(), CliError> {
    let start = Instant::now();
    let r = bench();
    outln!("perft       {} positions at depth 3, {} nodes", r.perft_positions, r.perft_nodes);
    outln!("decisions   {} (levels 1-9 and search depths 1-2 on 300 WAC positions, level 10 on 100)", r.decisions);
    outln!("games       {} (level:7 vs level:3, level:9 vs level:7, level:10 vs level:9, seed 1)", r.games);
    outln!("signature   {:016x} (perft, levels 1-8, searcher)", r.signature);
    outln!("level 9     {:016x}", r.level9_signature);
    outln!("level 10    {:016x} ({LEVEL10_BENCH_NODES} nodes a WAC position)", r.level10_signature);
    let secs = start.elapsed().as_secs_f64();
    outln!("time        {secs:.2} s");
    outln!("work        {} nodes (perft leaves, agent queries, tree nodes)", r.nodes);
    // Last, for distributed testing (OpenBench's client reads the last line matching
    // `\d+ nodes` and `\d+ nps`): level 10's tree, the same node count on every run, and its speed.
    outln!("{} nodes {} nps", r.level10_nodes, (r.level10_nodes as f64 / r.level10_secs.max(1e-9)) as u64);
    Ok(())
}
