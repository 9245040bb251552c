//! EPD test suites (WAC, ECM, ...): the player's move is checked against `bm` (any listed move)
//! or `am` (must avoid). SAN in the EPD is parsed in the position.

use crate::board::{Game, Move, Position};
use crate::players::spec::player_from_spec;

#[derive(Clone, Debug)]
pub struct EpdRecord {
    pub line: usize,
    pub id: String,
    pub fen: String,
    pub best: Vec<Move>,
    pub avoid: Vec<Move>,
}

/// Parses an EPD line: four FEN fields, then `opcode operands;` pairs.
pub fn parse_epd_line(line: &str, line_no: usize) -> Result<Option<EpdRecord>, String> {
    let text = line.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let mut fields = text.splitn(5, ' ');
    let fen4: Vec<&str> = fields.by_ref().take(4).collect();
    if fen4.len() < 4 {
        return Err(format!("line {line_no}: fewer than four FEN fields"));
    }
    let fen = format!("{} 0 1", fen4.join(" "));
    let pos = Position::from_fen(&fen).map_err(|e| format!("line {line_no}: bad position: {e}"))?;
    let rest = fields.next().unwrap_or("");
    let mut rec =
        EpdRecord { line: line_no, id: String::new(), fen: pos.to_fen(), best: Vec::new(), avoid: Vec::new() };
    for op in rest.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (code, operands) = op.split_once(' ').unwrap_or((op, ""));
        match code {
            "bm" | "am" => {
                for san in operands.split_whitespace() {
                    let mv = pos.parse_move(san).map_err(|e| format!("line {line_no}: {code} {san}: {e}"))?;
                    if code == "bm" { rec.best.push(mv) } else { rec.avoid.push(mv) }
                }
            }
            "id" => rec.id = operands.trim().trim_matches('"').to_string(),
            _ => {}
        }
    }
    if rec.best.is_empty() && rec.avoid.is_empty() {
        return Err(format!("line {line_no}: no bm or am operation"));
    }
    Ok(Some(rec))
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

/// Runs `spec` over the records; returns one result per record. The player is reseeded for
/// every position, so a position's result does not depend on where it stands in the file.
pub fn run_suite(records: &[EpdRecord], spec: &str, seed: u64) -> Result<Vec<SuiteResult>, String> {
    let mut player = player_from_spec(spec, seed)?;
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        let pos = Position::from_fen(&r.fen).map_err(|e| e.to_string())?;
        player.set_seed(seed);
        player.new_game();
        let game = Game::new(pos);
        let (played, solved) = match player.decide(&game) {
            Some(d) => {
                let ok = (r.best.is_empty() || r.best.contains(&d.mv)) && !r.avoid.contains(&d.mv);
                (pos.to_san(d.mv), ok)
            }
            None => ("-".to_string(), false),
        };
        out.push(SuiteResult { id: r.id.clone(), fen: r.fen.clone(), played, solved });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_bm_am_and_reports_bad_lines() {
        let r = parse_epd_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"m1\";", 1).unwrap().unwrap();
        assert_eq!(r.id, "m1");
        assert_eq!(r.best[0].to_string(), "a1a8");
        let err = parse_epd_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Rb9; id \"x\";", 7).unwrap_err();
        assert!(err.contains("line 7"), "{err}");
        assert!(parse_epd_line("6k1/5ppp/8 w - -", 2).is_err());
        assert!(parse_epd_line("6k1/5ppp/8/8/8/8/8/R5K1 w - - id \"x\";", 3).is_err());
        assert!(parse_epd_line("", 4).unwrap().is_none());
    }
}
