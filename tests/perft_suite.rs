//! The perft suite: every (position, depth) count in tests/data/perft.epd up to a node budget,
//! and the six Chess Programming Wiki positions at depth 5 or deeper.
//! The test profile is optimised (Cargo.toml), so plain `cargo test` runs these at full speed.

use agentchess::board::Position;
use agentchess::board::perft::{parse_suite_line, perft, perft_portable};

const SUITE: &str = include_str!("data/perft.epd");
/// Counts above this are left to the CPW test below and to `agentchess perft --suite`.
const NODE_BUDGET: u64 = 5_000_000;

#[test]
fn whole_suite_within_node_budget() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in SUITE.lines() {
        let Some(case) = parse_suite_line(line).expect("suite line parses") else { continue };
        let pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.depths {
            if expected > NODE_BUDGET {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!("{} depth {depth}: expected {expected}, got {got}", case.fen));
            }
        }
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked > 700, "only {checked} counts checked");
}

#[test]
fn cpw_positions_depth_five_and_deeper() {
    let cases: &[(&str, u32, u64)] = &[
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11_030_083),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15_833_292),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89_941_194),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 164_075_551),
    ];
    for &(fen, depth, expected) in cases {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(perft(&pos, depth), expected, "{fen} depth {depth}");
    }
}

#[test]
fn portable_generator_matches_on_the_suite() {
    // The POPCNT build and the portable one must agree; compare them on every position.
    for line in SUITE.lines() {
        let Some(case) = parse_suite_line(line).unwrap() else { continue };
        let pos = Position::from_fen(&case.fen).unwrap();
        if let Some(&(depth, expected)) = case.depths.iter().find(|d| d.0 == 3) {
            assert_eq!(perft_portable(&pos, depth), expected, "{}", case.fen);
        }
    }
}
