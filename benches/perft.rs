//! Perft throughput, side by side in one run: AgentChess, cozy-chess (dev-dependency, only here)
//! and, when installed, Stockfish's `go perft` (/usr/games/stockfish), in standard chess and on
//! the first Chess960 positions of tests/data/chess960.epd (Stockfish with `UCI_Chess960`).
//!
//!     cargo bench --bench perft
//!     PERFT960=1 cargo bench --bench perft    # then all 960 starts at depth 6 (PERFT960=10: every tenth)
//!
//! Each engine runs each position REPEATS times, interleaved, and the best time counts; the
//! ratios (time / Stockfish's time) are what README.md reports.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REPEATS: usize = 3;
const CASES: [(&str, &str, u32, u64); 2] = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
];
/// Chess960 positions measured at depth 6: the first lines of the suite.
const CHESS960: &str = include_str!("../tests/data/chess960.epd");
const CHESS960_CASES: usize = 3;
const STOCKFISH: &str = "/usr/games/stockfish";

fn ours(fen: &str, depth: u32) -> u64 {
    let pos = agentchess::board::Position::from_fen(fen).unwrap();
    agentchess::board::perft::perft(&pos, depth)
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn cozy(fen: &str, depth: u32, chess960: bool) -> u64 {
    let board = cozy_chess::Board::from_fen(fen, chess960).unwrap();
    cozy_perft(&board, depth)
}

/// Runs Stockfish's `go perft`; the time includes its start-up (a few milliseconds).
fn stockfish(fen: &str, depth: u32, chess960: bool) -> Option<u64> {
    let mut child =
        Command::new(STOCKFISH).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().ok()?;
    let mut stdin = child.stdin.take()?;
    writeln!(stdin, "setoption name UCI_Chess960 value {chess960}\nposition fen {fen}\ngo perft {depth}\nquit").ok()?;
    drop(stdin);
    let out = child.wait_with_output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().find_map(|l| l.strip_prefix("Nodes searched: ")).and_then(|n| n.trim().parse().ok())
}

fn time<F: FnMut() -> Option<u64>>(mut f: F, expected: u64, best: &mut Option<Duration>) {
    let start = Instant::now();
    let Some(nodes) = f() else { return };
    let t = start.elapsed();
    assert_eq!(nodes, expected, "wrong node count");
    if best.is_none_or(|b| t < b) {
        *best = Some(t);
    }
}

/// Every `step`th of the 960 starts at depth 6, each once, ours and then Stockfish's: the
/// totals. Stockfish is started afresh for each position (a few milliseconds of its time).
fn chess960_sweep(step: usize, have_sf: bool) {
    let (mut nodes, mut ours_s, mut sf_s, mut count) = (0u64, 0.0, 0.0, 0);
    for (i, line) in CHESS960.lines().enumerate().step_by(step) {
        let case = agentchess::board::perft::parse_suite_line(line).unwrap().unwrap();
        let &(depth, expected) = case.depths.iter().find(|d| d.0 == 6).unwrap();
        let fen = format!("{} 0 1", case.fen);
        let (mut a, mut s) = (None, None);
        time(|| Some(ours(&fen, depth)), expected, &mut a);
        if have_sf {
            time(|| stockfish(&fen, depth, true), expected, &mut s);
        }
        ours_s += a.map_or(0.0, |d| d.as_secs_f64());
        sf_s += s.map_or(f64::NAN, |d| d.as_secs_f64());
        nodes += expected;
        count += 1;
        if count % 24 == 0 {
            eprintln!("  {count} starts (to #{i}): ours {ours_s:.1} s, stockfish {sf_s:.1} s");
        }
    }
    println!(
        "960 sweep: {count} starts at depth 6, {nodes} nodes, all exact; ours {ours_s:.1} s ({:.0} Mnps), \
         stockfish {sf_s:.1} s, ours/sf {:.2}",
        nodes as f64 / ours_s / 1e6,
        ours_s / sf_s
    );
}

fn main() {
    let have_sf = std::path::Path::new(STOCKFISH).exists();
    if !have_sf {
        eprintln!("note: {STOCKFISH} not found (apt-get install stockfish); ratios are against cozy-chess only");
    }
    println!(
        "{:<10} {:>5} {:>12} {:>10} {:>10} {:>10} {:>9} {:>9}",
        "position", "depth", "nodes", "ours s", "cozy s", "sf s", "ours/sf", "ours/cozy"
    );
    let standard =
        CASES.iter().map(|&(name, fen, depth, nodes)| (name.to_string(), fen.to_string(), depth, nodes, false));
    let chess960 = CHESS960.lines().take(CHESS960_CASES).enumerate().map(|(i, line)| {
        let case = agentchess::board::perft::parse_suite_line(line).unwrap().unwrap();
        let &(depth, nodes) = case.depths.iter().find(|d| d.0 == 6).unwrap();
        (format!("960 #{i}"), format!("{} 0 1", case.fen), depth, nodes, true)
    });
    for (name, fen, depth, expected, frc) in standard.chain(chess960) {
        let (mut a, mut c, mut s) = (None, None, None);
        for _ in 0..REPEATS {
            time(|| Some(ours(&fen, depth)), expected, &mut a);
            time(|| Some(cozy(&fen, depth, frc)), expected, &mut c);
            if have_sf {
                time(|| stockfish(&fen, depth, frc), expected, &mut s);
            }
        }
        let secs = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64());
        let (a, c, s) = (secs(a), secs(c), secs(s));
        println!("{name:<10} {depth:>5} {expected:>12} {a:>10.3} {c:>10.3} {s:>10.3} {:>9.2} {:>9.2}", a / s, a / c);
        println!("  ours {:.0} Mnps, cozy-chess {:.0} Mnps", expected as f64 / a / 1e6, expected as f64 / c / 1e6);
    }
    if let Some(step) = std::env::var("PERFT960").ok().and_then(|v| v.parse::<usize>().ok()).filter(|&n| n > 0) {
        chess960_sweep(step, have_sf);
    }
}
