//! Every judged move as a CSV row (`annotate --out DIR` writes DIR/moves.csv), for tables and
//! comparisons with other judges: the scores around the move from the mover's side, the
//! winning chances lost, the mark, the judge's move and the agents' reason.

use super::Annotated;
use super::chances::Score;
use crate::experiments::formats::csv_field;
use std::fmt::Write;

pub const HEADER: &str = "game,ply,move,mover,before,after,loss,mark,judge_move,better,motif,piece,square,reason\n";

/// A score for a table: centipawns, or `#n` / `#-n` for a mate, `won` / `lost` at the end.
fn cell(s: Score) -> String {
    match s {
        Score::Cp(c) => c.to_string(),
        Score::Mate(n) => format!("#{n}"),
        Score::Won => "won".into(),
        Score::Lost => "lost".into(),
    }
}

/// The rows of one game, numbered `game` (from 1).
pub fn rows(game: usize, a: &Annotated) -> String {
    let mut out = String::new();
    for n in &a.notes {
        let better = n.better.first().map_or(String::new(), |&b| n.pos.to_san(b));
        let (motif, piece, square, reason) = match &n.critique {
            Some(c) => (
                c.motif.name().to_string(),
                c.piece.to_char().to_ascii_uppercase().to_string(),
                c.square.to_string(),
                c.to_string(),
            ),
            None => Default::default(),
        };
        let _ = writeln!(
            out,
            "{game},{},{},{},{},{},{:.4},{},{},{},{},{},{},{}",
            n.ply + 1,
            csv_field(&n.san),
            n.mover(),
            cell(n.before),
            cell(n.after),
            n.loss,
            n.mark.map_or("", |m| m.suffix()),
            !n.has_better(),
            csv_field(&better),
            csv_field(&motif),
            piece,
            square,
            csv_field(&reason)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::chances::Scale;
    use super::super::{View, notes};
    use super::*;
    use crate::board::pgn_reader::read_games;
    use crate::experiments::formats::csv_fields;

    #[test]
    fn a_row_a_move_with_the_reason_quoted() {
        let game = read_games("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n").remove(0).unwrap();
        let mut at = game.start;
        let mut views = Vec::new();
        for (i, &mv) in game.moves.iter().enumerate() {
            let best = if i == 5 { at.parse_san("g6").unwrap() } else { mv };
            views.push(View { score: Score::Cp(if i == 5 { -50 } else { 20 }), line: vec![best] });
            at = at.play(mv);
        }
        views[6] = View { score: Score::Mate(1), line: vec![game.moves[6]] };
        views.push(View { score: Score::Lost, line: Vec::new() });
        let a = Annotated { notes: notes(&game, &views, Scale::SAME), game, judge: "j".into() };
        let text = rows(3, &a);
        let lines: Vec<Vec<String>> = text.lines().map(|l| csv_fields(l).unwrap()).collect();
        assert_eq!(lines.len(), 7);
        assert!(lines.iter().all(|f| f.len() == HEADER.trim_end().split(',').count()), "{text}");
        let blunder = &lines[5];
        assert_eq!(&blunder[..5], ["3", "6", "Nf6", "Black", "-50"]);
        assert_eq!((blunder[5].as_str(), blunder[7].as_str(), blunder[8].as_str()), ("#-1", "??", "false"));
        assert_eq!((blunder[10].as_str(), blunder[11].as_str(), blunder[12].as_str()), ("mate allowed", "Q", "f7"));
        assert!(blunder[13].contains("allows mate in 1"), "{text}");
        assert_eq!(lines[6][5], "won");
    }
}
