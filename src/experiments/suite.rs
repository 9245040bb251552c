//! EPD test suites (WAC, ECM, ...): the player's move is checked against `bm` (any listed move)
//! or `am` (must avoid). SAN in the EPD is parsed in the position.

use crate::board::epd::{self, EpdError};
use crate::board::{Game, Move, Position};
use crate::players::SearchLimits;
use crate::players::spec::PlayerSpec;
use thiserror::Error;

#[derive(Clone, Debug)]
pub struct EpdRecord {
    pub line: usize,
    pub id: String,
    pub position: Position,
    pub fen: String,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
}

/// A suite line that cannot be used, with its number.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SuiteLineError {
    #[error("line {line}: {source}")]
    Epd { line: usize, source: EpdError },
    #[error("line {line}: no bm or am operation")]
    NothingToCheck { line: usize },
}

/// Parses an EPD line of a test suite: the position, its `bm` and `am` moves and its `id`.
pub fn parse_epd_line(line: &str, line_no: usize) -> Result<Option<EpdRecord>, SuiteLineError> {
    let at_line = |source| SuiteLineError::Epd { line: line_no, source };
    let Some(epd) = epd::parse(line).map_err(at_line)? else { return Ok(None) };
    let best = epd.moves("bm").map_err(at_line)?;
    let avoid = epd.moves("am").map_err(at_line)?;
    if best.is_empty() && avoid.is_empty() {
        return Err(SuiteLineError::NothingToCheck { line: line_no });
    }
    let id = epd.id().unwrap_or("").to_string();
    Ok(Some(EpdRecord { line: line_no, id, position: epd.position, fen: epd.position.to_fen(), best, avoid }))
}

/// How many positions of a suite a player solved: a cell of Table 3.10.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteCount {
    pub suite: String,
    pub player: String,
    pub solved: usize,
    pub positions: usize,
}

impl SuiteCount {
    pub fn percent(&self) -> f64 {
        100.0 * self.solved as f64 / self.positions.max(1) as f64
    }
}

/// Table 3.10 as text lines: a header, then suite, player, solved, positions, percentage.
pub fn table_lines(counts: &[SuiteCount]) -> Vec<String> {
    let mut lines = vec![format!("{:<16} {:<28} {:>8} {:>8} {:>8}", "suite", "player", "solved", "of", "%")];
    lines.extend(
        counts.iter().map(|c| {
            format!("{:<16} {:<28} {:>8} {:>8} {:>8.1}", c.suite, c.player, c.solved, c.positions, c.percent())
        }),
    );
    lines
}

#[derive(Clone, Debug)]
pub struct SuiteResult {
    pub id: String,
    pub fen: String,
    pub played: String,
    pub solved: bool,
}

/// Runs `spec` over the records; returns one result per record. Every position gets a player of
/// its own, so a position's result does not depend on where it stands in the file.
pub fn run_suite(records: &[EpdRecord], spec: &PlayerSpec, seed: u64) -> Vec<SuiteResult> {
    run_suite_within(records, spec, seed, &SearchLimits::default())
}

/// `run_suite` with each decision given `limits` (the time a position, for players that think
/// ahead; the agents of levels 1-9 decide at once whatever it says).
pub fn run_suite_within(
    records: &[EpdRecord],
    spec: &PlayerSpec,
    seed: u64,
    limits: &SearchLimits,
) -> Vec<SuiteResult> {
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        let pos = r.position;
        // A player of its own for every position (an engine comes back from the pool): each
        // position is decided as a fresh engine would, whatever came before it, so a suite can
        // be shared out over threads in parts.
        let mut player = spec.build(seed);
        let game = Game::new(pos);
        let (played, solved) = match player.decide_within(&game, limits) {
            Some(d) => {
                let ok = (r.best.is_empty() || r.best.contains(&d.mv)) && !r.avoid.contains(&d.mv);
                (pos.to_san(d.mv), ok)
            }
            None => ("-".to_string(), false),
        };
        out.push(SuiteResult { id: r.id.clone(), fen: r.fen.clone(), played, solved });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bm_am_and_reports_bad_lines() {
        let r = parse_epd_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"m1\";", 1).unwrap().unwrap();
        assert_eq!(r.id, "m1");
        assert_eq!(r.best[0].to_string(), "a1a8");
        let err = parse_epd_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Rb9; id \"x\";", 7).unwrap_err().to_string();
        assert!(err.starts_with("line 7: bm Rb9: "), "{err}");
        assert!(parse_epd_line("6k1/5ppp/8 w - -", 2).is_err());
        assert!(parse_epd_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"x\";", 3).is_err());
        assert!(parse_epd_line("", 4).unwrap().is_none());
    }
}
