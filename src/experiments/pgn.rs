//! PGN export of finished games.

use super::game::GameRecord;
use std::fmt::Write;

fn tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    let _ = writeln!(out, "[{name} \"{escaped}\"]");
}

/// One game in PGN (seven-tag roster plus Termination, and FEN when not from the start).
pub fn to_pgn(g: &GameRecord, event: &str, date: &str) -> String {
    let mut out = String::new();
    tag(&mut out, "Event", event);
    tag(&mut out, "Site", "AgentChess");
    tag(&mut out, "Date", date);
    tag(&mut out, "Round", &(g.index + 1).to_string());
    tag(&mut out, "White", &g.white);
    tag(&mut out, "Black", &g.black);
    tag(&mut out, "Result", g.result());
    tag(&mut out, "Termination", &g.termination.describe());
    tag(&mut out, "Seed", &g.seed.to_string());
    if g.start_fen != crate::board::STARTPOS {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &g.start_fen);
    }
    out.push('\n');
    let mut line = String::new();
    for (i, san) in g.san.iter().enumerate() {
        let token = if i % 2 == 0 { format!("{}. {san}", i / 2 + 1) } else { san.clone() };
        if line.len() + token.len() + 1 > 79 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(g.result());
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// Today's date as PGN wants it (YYYY.MM.DD), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}
