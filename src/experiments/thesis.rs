//! The thesis's chapter 3 as data: every number of Tables 3.1-3.10 and what the text says about
//! Figures 3.1-3.5, kept once in `docs/thesis-chapter3.csv` (built into the binary) and read
//! here, so that reports compare against the file and never against numbers copied into code.

use super::formats::{UnclosedQuote, csv_fields};
use super::stats::Wdl;
use crate::players::spec::PlayerSpec;
use std::sync::OnceLock;

/// The data file, as shipped in docs/.
pub const DATA: &str = include_str!("../../docs/thesis-chapter3.csv");

/// One number (or statement) of the thesis.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// "Table 3.1" ... "Figure 3.5".
    pub source: String,
    /// As the thesis names them: "Level 7", "Crafty", "Crafty depth 2".
    pub player: String,
    /// The opponent, or the suite in Table 3.10.
    pub against: String,
    pub measure: String,
    /// None for statements.
    pub value: Option<f64>,
    pub note: String,
}

/// What is wrong with the data file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    #[error("no header")]
    NoHeader,
    #[error("unexpected header: {0}")]
    Header(String),
    #[error("line {line}: {source}")]
    Csv { line: usize, source: UnclosedQuote },
    #[error("line {line}: {fields} fields, not 6")]
    FieldCount { line: usize, fields: usize },
    #[error("line {line}: value '{value}': {source}")]
    Value { line: usize, value: String, source: std::num::ParseFloatError },
}

/// Parses the data file: `#` lines are comments, the first other line is the header.
pub fn parse(text: &str) -> Result<Vec<Entry>, DataError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (i, header) = lines.next().ok_or(DataError::NoHeader)?;
    let fields = csv_fields(header).map_err(|source| DataError::Csv { line: i + 1, source })?;
    if fields != ["source", "player", "against", "measure", "value", "note"] {
        return Err(DataError::Header(header.to_string()));
    }
    lines
        .map(|(i, line)| {
            let line_no = i + 1;
            let f = csv_fields(line).map_err(|source| DataError::Csv { line: line_no, source })?;
            let [source, player, against, measure, value, note] =
                <[String; 6]>::try_from(f).map_err(|f| DataError::FieldCount { line: line_no, fields: f.len() })?;
            let value = if value.is_empty() {
                None
            } else {
                Some(value.parse::<f64>().map_err(|source| DataError::Value {
                    line: line_no,
                    value: value.clone(),
                    source,
                })?)
            };
            Ok(Entry { source, player, against, measure, value, note })
        })
        .collect()
}

/// The built-in data, parsed once. The file is checked by the tests below, so a broken file
/// cannot ship; should it anyway, the comparisons are left out and the error logged.
pub fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        parse(DATA).unwrap_or_else(|e| {
            log::error!("docs/thesis-chapter3.csv: {e}");
            Vec::new()
        })
    })
}

/// A number of the thesis, if it reports one.
pub fn value(source: &str, player: &str, against: &str, measure: &str) -> Option<f64> {
    entries()
        .iter()
        .find(|e| e.source == source && e.player == player && e.against == against && e.measure == measure)
        .and_then(|e| e.value)
}

/// A W/L/D cell of the thesis, from `player`'s side.
pub fn wdl(source: &str, player: &str, against: &str) -> Option<Wdl> {
    let n = |m: &str| value(source, player, against, m).map(|v| v as u32);
    Some(Wdl { wins: n("wins")?, losses: n("losses")?, draws: n("draws")? })
}

/// Who stands in for Crafty at depths 1, 2 and 3 when a run is compared with the thesis: the
/// searcher at that depth, unless `thesis --opponent` puts a real engine there.
#[derive(Clone, Debug, PartialEq)]
pub struct Crafty {
    at_depths: [PlayerSpec; 3],
}

impl Default for Crafty {
    /// `search:depth=1`, `2` and `3`.
    fn default() -> Crafty {
        Crafty { at_depths: [1, 2, 3].map(searcher) }
    }
}

fn searcher(depth: u8) -> PlayerSpec {
    PlayerSpec::search(&format!("depth={depth}")).expect("depths 1 to 8 exist")
}

impl Crafty {
    /// `specs[0]` at depth 1, `specs[1]` at depth 2, `specs[2]` at depth 3.
    pub fn new(specs: [PlayerSpec; 3]) -> Crafty {
        Crafty { at_depths: specs }
    }

    /// The stand-in at `depth` (1-3), by its name in the tables.
    pub fn at_depth(&self, depth: u8) -> String {
        match depth {
            1..=3 => self.at_depths[depth as usize - 1].to_string(),
            _ => searcher(depth).to_string(),
        }
    }

    /// Our player for a thesis name, by its name in the tables: "Level N" is `level:N`;
    /// Crafty, limited to depth 1 in the games (section 3.1.1), and "Crafty depth N" in Table
    /// 3.10 are the stand-in at that depth. Crafty's timed run has no counterpart.
    pub fn spec_of(&self, name: &str) -> Option<String> {
        if let Some(n) = name.strip_prefix("Level ") {
            return n.parse::<u8>().ok().map(|n| format!("level:{n}"));
        }
        if name == "Crafty" {
            return Some(self.at_depth(1));
        }
        name.strip_prefix("Crafty depth ").and_then(|d| d.parse::<u8>().ok()).map(|d| self.at_depth(d))
    }

    /// The thesis's name for our player, for tables that show both ("Crafty" for the stand-in
    /// at depth 1, as in the thesis's match tables).
    pub fn name_of(&self, spec: &str) -> Option<String> {
        if let Some(n) = spec.strip_prefix("level:") {
            return Some(format!("Level {n}"));
        }
        (spec == self.at_depth(1)).then(|| "Crafty".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(source: &str) -> Vec<&'static Entry> {
        entries().iter().filter(|e| e.source == source).collect()
    }

    #[test]
    fn the_data_file_parses_whole() {
        assert_eq!(parse(DATA).map(|e| e.len()), Ok(476));
        // 32 played cells of Table 3.1 (Level 8 met only levels 5-7 and Crafty), three numbers each.
        assert_eq!(of("Table 3.1").len(), 96);
        // Table 3.10: six suite sizes, then 11 players by 6 suites, count and share.
        assert_eq!(of("Table 3.10").len(), 6 + 11 * 6 * 2);
        assert_eq!(wdl("Table 3.1", "Level 3", "Level 7"), Some(Wdl { wins: 11, losses: 48, draws: 41 }));
        assert_eq!(value("Table 3.10", "Crafty depth 3", "WAC", "solved"), Some(131.0));
        assert_eq!(value("Table 3.1", "Level 1", "Level 8", "wins"), None);
        assert!(parse("source,player,against,measure,value,note\nTable 3.1,a,b,wins,x,\n").is_err());
        assert!(parse("nonsense\n").is_err());
    }

    /// Every W/L/D row of Tables 3.2-3.7 is a Table 3.1 cell seen from one side or the other, and
    /// the tables that repeat a pairing's draw detail agree: the transcription is checked by the
    /// thesis's own redundancy.
    #[test]
    fn the_tables_agree_with_each_other() {
        let mut checked = 0;
        for e in entries().iter().filter(|e| e.measure == "wins" && e.source != "Table 3.1") {
            let cell = wdl(&e.source, &e.player, &e.against).unwrap();
            let mirror = |w: Wdl| Wdl { wins: w.losses, losses: w.wins, draws: w.draws };
            let table31 =
                wdl("Table 3.1", &e.player, &e.against).or_else(|| wdl("Table 3.1", &e.against, &e.player).map(mirror));
            // Level 6 against level 7 is in Table 3.1 too; every row of these tables is.
            assert_eq!(Some(cell), table31, "{} {} vs {}", e.source, e.player, e.against);
            checked += 1;
        }
        assert_eq!(checked, 7 + 4 + 7 + 7 + 1 + 5);
        let detail = |s: &str, p: &str, a: &str| (value(s, p, a, "draw_wins"), value(s, p, a, "draw_losses"));
        let swap = |(a, b): (Option<f64>, Option<f64>)| (b, a);
        assert_eq!(detail("Table 3.2", "Level 7", "Level 6"), swap(detail("Table 3.4", "Level 6", "Level 7")));
        assert_eq!(detail("Table 3.5", "Level 6", "Crafty"), detail("Table 3.4", "Level 6", "Crafty"));
        assert_eq!(detail("Table 3.5", "Level 7", "Crafty"), detail("Table 3.2", "Level 7", "Crafty"));
        for e in of("Table 3.7") {
            assert_eq!(
                Some(e.value),
                entries()
                    .iter()
                    .find(|f| f.source == "Table 3.4"
                        && f.player == e.player
                        && f.against == e.against
                        && f.measure == e.measure)
                    .map(|f| f.value)
            );
        }
    }

    /// Every percentage the thesis prints is its counts' share to the rounding, but for the one
    /// slip the data file's header names (Table 3.3, Level 8 against Level 7: 23 of 67 is 34%,
    /// printed 37%).
    #[test]
    fn printed_percentages_match_their_counts() {
        let mut slips = Vec::new();
        let mut checked = 0;
        for e in entries().iter().filter(|e| e.measure.ends_with("_pct")) {
            let count = e.measure.trim_end_matches("_pct");
            let part = value(&e.source, &e.player, &e.against, count).unwrap();
            let whole = match count {
                "draw_wins" | "draw_losses" => value(&e.source, &e.player, &e.against, "draws"),
                "move_attacks_performed" => value(&e.source, &e.player, &e.against, "move_attacks_planned"),
                "solved" => value(&e.source, "", &e.against, "positions"),
                other => panic!("no base for {other}"),
            }
            .unwrap();
            let share = if whole == 0.0 { 0.0 } else { 100.0 * part / whole };
            checked += 1;
            if (share - e.value.unwrap()).abs() > 0.5 + 1e-9 {
                slips.push(format!("{} {} vs {} {}", e.source, e.player, e.against, e.measure));
            }
        }
        assert_eq!(checked, 2 * (7 + 4 + 7 + 1 + 5) + 8 + 66);
        assert_eq!(slips, ["Table 3.3 Level 8 vs Level 7 draw_losses_pct"]);
    }

    #[test]
    fn thesis_names_map_to_our_players() {
        let crafty = Crafty::default();
        assert_eq!(crafty.spec_of("Level 7").as_deref(), Some("level:7"));
        assert_eq!(crafty.spec_of("Crafty").as_deref(), Some("search:depth=1"));
        assert_eq!(crafty.spec_of("Crafty depth 3").as_deref(), Some("search:depth=3"));
        assert_eq!(crafty.spec_of("Crafty depth 5").as_deref(), Some("search:depth=5"));
        assert_eq!(crafty.spec_of("Crafty time 5"), None);
        assert_eq!(crafty.name_of("search:depth=1").as_deref(), Some("Crafty"));
        assert_eq!(crafty.name_of("level:3").as_deref(), Some("Level 3"));
        // Every player the tables name is one of ours, but for Crafty's timed run.
        for e in entries().iter().filter(|e| e.source.starts_with("Table") && !e.player.is_empty()) {
            assert!(crafty.spec_of(&e.player).is_some() || e.player == "Crafty time 5", "{}", e.player);
        }
    }

    /// A real engine in Crafty's place is who the thesis's Crafty rows are compared with.
    #[test]
    fn an_opponent_stands_in_for_crafty() {
        let engine: PlayerSpec = "uci:sf,depth=1".parse().unwrap();
        let crafty = Crafty::new([1, 2, 3].map(|d| engine.at_depth(d)));
        assert_eq!(crafty.spec_of("Crafty").as_deref(), Some("uci:sf,depth=1"));
        assert_eq!(crafty.spec_of("Crafty depth 3").as_deref(), Some("uci:sf,depth=3"));
        assert_eq!(crafty.name_of("uci:sf,depth=1").as_deref(), Some("Crafty"));
        assert_eq!(crafty.name_of("search:depth=1"), None);
        assert_eq!(Crafty::default().spec_of("Crafty").as_deref(), Some("search:depth=1"), "no setting left behind");
    }
}
