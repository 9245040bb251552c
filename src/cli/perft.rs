//! `perft`: leaf counts of the legal move tree, or a perft suite checked.

use super::CliError;
use super::args::PerftArgs;
use crate::board::Position;
use crate::board::epd::{self, EpdError};
use crate::board::perft::{divide, perft};
use std::time::Instant;

pub fn run(args: &PerftArgs) -> Result<(), CliError> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.max_depth.unwrap_or(u32::MAX));
    }
    let depth = args.depth.ok_or(CliError::NoDepth)?;
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).map_err(CliError::BadFen)?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    // Depth 0 counts the position itself (1), and has no moves to divide by.
    let nodes = if args.divide && depth > 0 {
        let rows = divide(&pos, depth);
        for (mv, n) in &rows {
            outln!("{mv}: {n}");
        }
        outln!();
        outln!("Nodes searched: {}", rows.iter().map(|r| r.1).sum::<u64>());
        rows.iter().map(|r| r.1).sum()
    } else {
        let n = perft(&pos, depth);
        outln!("{n}");
        n
    };
    let secs = start.elapsed().as_secs_f64();
    log::info!("perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} Mnps)", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

/// Checks every count of a perft suite. An error when a count is wrong (exit status 1), or when
/// the file or one of its lines cannot be read (2; each bad line is named on stderr).
fn run_suite(path: &str, max_depth: u32) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path).map_err(|source| CliError::Read { path: path.into(), source })?;
    let (mut checked, mut failed, mut unreadable, mut positions) = (0u32, 0u32, 0u32, 0u32);
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        let parsed = epd::parse(line).and_then(|e| e.map(|e| e.perft_counts().map(|c| (e, c))).transpose());
        let (epd, counts) = match parsed {
            Ok(Some(case)) => case,
            Ok(None) => continue,
            Err(EpdError::Position { fen, source }) => {
                errln!("error: {path} line {}: bad FEN '{fen}': {source}", i + 1);
                unreadable += 1;
                continue;
            }
            Err(e) => {
                errln!("error: {path} line {}: malformed: {e}", i + 1);
                unreadable += 1;
                continue;
            }
        };
        positions += 1;
        for &(depth, expected) in counts.iter().filter(|d| d.0 <= max_depth) {
            let got = perft(&epd.position, depth);
            checked += 1;
            if got != expected {
                failed += 1;
                outln!("MISMATCH line {}: {} depth {depth}: expected {expected}, got {got}", i + 1, epd.fen);
            }
        }
    }
    if positions == 0 && unreadable == 0 {
        return Err(CliError::EmptySuite { path: path.into() });
    }
    outln!(
        "{checked} counts checked, {failed} failed, {unreadable} unreadable lines, {:.2} s",
        start.elapsed().as_secs_f64()
    );
    match (failed, unreadable) {
        (0, 0) => Ok(()),
        (_, 0) => Err(CliError::PerftMismatch(failed)),
        _ => Err(CliError::PerftUnreadable(unreadable)),
    }
}
