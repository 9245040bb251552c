//! The judgement's weights as Rust source (`src/agents/judgement/weights.rs`): written by the
//! tuner, and read back so that a fit can go on from any weights file it wrote.

use crate::agents::judgement::Style;
use crate::agents::judgement::score::S;
use crate::agents::judgement::terms::{COUNT, TERMS};
use std::fmt::Write as _;

/// The source of the weights file of `style` holding `weights`, one commented line group per
/// term.
pub fn write(weights: &[S], style: Style) -> String {
    let mut out = String::new();
    out.push_str(match style {
        Style::Agents => "//! The agents' judgement's weights, (middlegame, endgame) in centipawns, by `terms`.\n",
        Style::Tables => "//! The conventional judgement's weights (`Style::Tables`), in centipawns, by `terms`.\n",
    });
    out.push_str("//! Written by `agentchess tune` (docs/tuning.md); the tuner reads and rewrites this file.\n\n");
    out.push_str(
        "use super::score::S;\nuse super::terms::COUNT;\n\n#[rustfmt::skip]\npub const WEIGHTS: [S; COUNT] = [\n",
    );
    for &(at, len, name) in TERMS {
        let _ = writeln!(out, "    // {name}");
        let mut line = String::from("    ");
        for w in &weights[at..at + len] {
            let item = format!("S({}, {}), ", w.0, w.1);
            if line.len() + item.len() > 100 {
                out.push_str(line.trim_end());
                out.push('\n');
                line = String::from("    ");
            }
            line.push_str(&item);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("];\n");
    out
}

/// Why a weights file cannot be read back.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    #[error("a weight is not two whole numbers: 'S({0})'")]
    BadWeight(String),
    #[error("{found} weights where the judgement has {COUNT}")]
    Count { found: usize },
}

/// The weights of a file `write` wrote (every `S(mg, eg)` in order; comments are skipped).
pub fn read(text: &str) -> Result<Vec<S>, SourceError> {
    let mut weights = Vec::with_capacity(COUNT);
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        for part in code.split("S(").skip(1) {
            let inside = part.split(')').next().unwrap_or("");
            let mut numbers = inside.split(',').map(|n| n.trim().parse::<i32>());
            match (numbers.next(), numbers.next(), numbers.next()) {
                (Some(Ok(mg)), Some(Ok(eg)), None) => weights.push(S(mg, eg)),
                _ => return Err(SourceError::BadWeight(inside.to_string())),
            }
        }
    }
    if weights.len() != COUNT {
        return Err(SourceError::Count { found: weights.len() });
    }
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The checked-in files are what `write` makes of their own weights, and read back to them.
    #[test]
    fn the_weights_files_round_trip() {
        for (style, checked_in) in [
            (Style::Agents, include_str!("../agents/judgement/weights.rs")),
            (Style::Tables, include_str!("../agents/judgement/tables.rs")),
        ] {
            let text = write(style.weights(), style);
            assert_eq!(read(&text).unwrap(), style.weights().to_vec());
            assert_eq!(checked_in, text, "{style:?}'s file is not in the tuner's format");
        }
    }

    #[test]
    fn a_damaged_file_is_refused() {
        assert_eq!(read("S(1, 2), S(a, 3)"), Err(SourceError::BadWeight("a, 3".to_string())));
        assert_eq!(read("// S(9, 9)\nS(1, 2)"), Err(SourceError::Count { found: 1 }));
    }
}
