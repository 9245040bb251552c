//! The evaluation over a game as a chart: White's winning chances after every move (the light
//! area is White's share, the dark Black's), each marked move a dot in its mark's colour, and a
//! cursor the page moves to the move shown. Axes as the reports' charts draw them (`svg`).

use super::MoveNote;
use super::chances::{Mark, Score};
use crate::board::Color;
use crate::experiments::formats::xml_text;
use crate::experiments::svg::{nice_range, tick_label};
use std::fmt::Write;

const W: f64 = 620.0;
const H: f64 = 236.0;
const L: f64 = 50.0;
const R: f64 = 606.0;
const T: f64 = 12.0;
const B: f64 = 196.0;

/// A mark's colour, on the chart and in the move list.
pub fn mark_colour(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "#d9a400",
        Mark::Mistake => "#ff7f0e",
        Mark::Blunder => "#d62728",
    }
}

/// White's winning chances in percent after `k` moves of the game (`k = 0`: the start).
pub fn white_percent(notes: &[MoveNote], k: usize) -> f64 {
    let white = |n: &MoveNote, s: Score| if n.mover() == Color::White { s } else { s.flip() };
    match k {
        0 => notes.first().map_or(50.0, |n| n.percent(white(n, n.before))),
        k => notes.get(k - 1).map_or(50.0, |n| n.percent(white(n, n.after))),
    }
}

/// The chart; `data-x0` and `data-dx` on it say where move `k`'s cursor stands (x0 + k dx).
pub fn eval_chart(notes: &[MoveNote]) -> String {
    let states = notes.len();
    let dx = (R - L) / states.max(1) as f64;
    let sx = |k: usize| L + k as f64 * dx;
    let sy = |p: f64| B - p / 100.0 * (B - T);
    let mut s = format!(
        "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" font-family=\"sans-serif\" font-size=\"12\" data-x0=\"{L}\" data-dx=\"{dx:.4}\" role=\"img\"><title>White's winning chances after each move</title>\n"
    );
    let _ = writeln!(s, "<rect x=\"{L}\" y=\"{T}\" width=\"{}\" height=\"{}\" fill=\"#4a4a4a\"/>", R - L, B - T);
    let mut area = format!("{L:.1},{B:.1}");
    for k in 0..=states {
        let _ = write!(area, " {:.1},{:.1}", sx(k), sy(white_percent(notes, k)));
    }
    let _ = write!(area, " {:.1},{B:.1}", sx(states));
    let _ = writeln!(s, "<polygon points=\"{area}\" fill=\"#f7f7f7\" stroke=\"#888\" stroke-width=\"1\"/>");
    for p in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let dash = if p == 50.0 { " stroke-dasharray=\"4 3\"" } else { "" };
        let _ = writeln!(
            s,
            "<line x1=\"{L}\" y1=\"{0:.1}\" x2=\"{R}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-opacity=\"0.6\"{dash}/><text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\">{p:.0}%</text>",
            sy(p),
            L - 5.0,
            sy(p) + 4.0
        );
    }
    // Move numbers under the plies where White's moves begin.
    let first = notes.first().map_or(1, |n| n.pos.fullmove_number()) as f64;
    let last = notes.last().map_or(1, |n| n.pos.fullmove_number()) as f64;
    let axis = nice_range(first - 1.0, last.max(first));
    for m in axis.ticks().into_iter().filter(|&m| m >= first && m <= last) {
        let ply = notes.iter().position(|n| f64::from(n.pos.fullmove_number()) == m && n.mover() == Color::White);
        let Some(ply) = ply.or_else(|| notes.iter().position(|n| f64::from(n.pos.fullmove_number()) == m)) else {
            continue;
        };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            sx(ply),
            B + 15.0,
            tick_label(m)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">move</text><text transform=\"translate(13,{:.1}) rotate(-90)\" text-anchor=\"middle\">White's winning chances</text>",
        (L + R) / 2.0,
        B + 32.0,
        (T + B) / 2.0
    );
    // Click targets, one a move, under the dots.
    for k in 0..=states {
        let _ = write!(
            s,
            "<rect class=\"hit\" data-ply=\"{k}\" x=\"{:.1}\" y=\"{T}\" width=\"{dx:.1}\" height=\"{}\" fill=\"transparent\"/>",
            sx(k) - dx / 2.0,
            B - T
        );
    }
    s.push('\n');
    let _ = writeln!(
        s,
        "<line class=\"cursor\" x1=\"{L}\" y1=\"{T}\" x2=\"{L}\" y2=\"{B}\" stroke=\"#1f77b4\" stroke-width=\"2\"/>"
    );
    for (i, n) in notes.iter().enumerate() {
        if let Some(mark) = n.mark {
            let _ = writeln!(
                s,
                "<circle class=\"dot\" data-ply=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"1.5\"><title>{}</title></circle>",
                i + 1,
                sx(i + 1),
                sy(white_percent(notes, i + 1)),
                mark_colour(mark),
                xml_text(&format!("{} {}{} {}", n.number(), n.san, mark.suffix(), mark.name()))
            );
        }
    }
    s.push_str("</svg>\n");
    s
}
