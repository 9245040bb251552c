//! Chess boards as SVG, for the annotation page: the squares and the pieces are drawn once in
//! a hidden block of symbols (`defs`), each board places them (`<use>`) and adds what the
//! reader should see: the last move's squares, arrows for the move played, the better move and
//! the opponent's answer, and a ring around each piece in danger. The piece shapes are drawn
//! here, by hand; nothing is fetched.

use crate::board::{Bitboard, Color, Piece, Position, Square};
use crate::experiments::formats::xml_text;
use std::fmt::Write;

/// A square's side, in pixels.
pub const SQUARE: f64 = 44.0;

/// The board's side.
pub const SIDE: f64 = 8.0 * SQUARE;

const LIGHT: &str = "#eed9b6";
const DARK: &str = "#b88a62";

/// What an arrow shows, which sets its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// The move played (a marked one).
    Played,
    /// The judge's better move.
    Better,
    /// The opponent's answer the reason turns on.
    Reply,
}

impl ArrowKind {
    fn colour(self) -> &'static str {
        match self {
            ArrowKind::Played => "#d62728",
            ArrowKind::Better => "#2ca02c",
            ArrowKind::Reply => "#1f4e9c",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub from: Square,
    pub to: Square,
    pub kind: ArrowKind,
}

/// One board to draw.
#[derive(Clone, Debug)]
pub struct Drawing {
    pub pos: Position,
    /// Squares tinted (the last move's).
    pub tinted: Bitboard,
    pub arrows: Vec<Arrow>,
    /// Pieces in danger, ringed.
    pub rings: Bitboard,
    /// Read by screen readers and shown as a tooltip.
    pub title: String,
}

/// Top-left corner of a square, White at the bottom.
fn corner(sq: Square) -> (f64, f64) {
    (f64::from(sq.file()) * SQUARE, f64::from(7 - sq.rank()) * SQUARE)
}

fn centre(sq: Square) -> (f64, f64) {
    let (x, y) = corner(sq);
    (x + SQUARE / 2.0, y + SQUARE / 2.0)
}

/// The board as an SVG element (the symbols of `defs` must be on the page).
pub fn board_svg(d: &Drawing, class: &str) -> String {
    let mut s = format!(
        "<svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {SIDE} {SIDE}\" width=\"{SIDE}\" height=\"{SIDE}\" role=\"img\"><title>{}</title><use href=\"#ac-board\"/>",
        xml_text(&d.title)
    );
    for sq in d.tinted {
        let (x, y) = corner(sq);
        let _ = write!(
            s,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"#f6e04b\" fill-opacity=\"0.5\"/>"
        );
    }
    for sq in d.rings {
        let (x, y) = centre(sq);
        let _ = write!(
            s,
            "<circle class=\"ring\" cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"#d62728\" fill-opacity=\"0.18\" stroke=\"#d62728\" stroke-width=\"3.5\"/>",
            SQUARE / 2.0 - 2.5
        );
    }
    for sq in Square::all() {
        if let Some((color, piece)) = d.pos.piece_at(sq) {
            let (x, y) = corner(sq);
            let _ = write!(
                s,
                "<use href=\"#ac-{}{}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\"/>",
                if color == Color::White { 'w' } else { 'b' },
                piece.to_char().to_ascii_uppercase()
            );
        }
    }
    for a in &d.arrows {
        s.push_str(&arrow(a));
    }
    s.push_str("</svg>");
    s
}

/// An arrow from square to square: a shaft and a head, drawn as one polygon.
fn arrow(a: &Arrow) -> String {
    let ((x1, y1), (x2, y2)) = (centre(a.from), centre(a.to));
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    let (px, py) = (-uy, ux);
    let (shaft, head_w, head_l) = (3.5, 10.0, 16.0);
    let tip = (x2 - ux * 6.0, y2 - uy * 6.0);
    let base = (tip.0 - ux * head_l, tip.1 - uy * head_l);
    let start = (x1 + ux * 8.0, y1 + uy * 8.0);
    let points = [
        (start.0 + px * shaft, start.1 + py * shaft),
        (base.0 + px * shaft, base.1 + py * shaft),
        (base.0 + px * head_w, base.1 + py * head_w),
        tip,
        (base.0 - px * head_w, base.1 - py * head_w),
        (base.0 - px * shaft, base.1 - py * shaft),
        (start.0 - px * shaft, start.1 - py * shaft),
    ];
    let list: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    format!(
        "<polygon class=\"arrow {}\" points=\"{}\" fill=\"{}\" fill-opacity=\"0.78\"/>",
        match a.kind {
            ArrowKind::Played => "played",
            ArrowKind::Better => "better",
            ArrowKind::Reply => "reply",
        },
        list.join(" "),
        a.kind.colour()
    )
}

/// The shapes of one piece on a 45 x 45 box: the body, and the details drawn in the other
/// colour (an eye, a slit).
fn shape(piece: Piece) -> (&'static str, &'static str) {
    match piece {
        Piece::Pawn => {
            ("M17 21h11l-2 3q4 6 5 12h-17q1-6 5-12z M11 36h23v4h-23z M28 15a5.5 5.5 0 1 1-11 0a5.5 5.5 0 1 1 11 0z", "")
        }
        Piece::Knight => (
            "M13 38H33C33 30 31 24 30 20C29 13 24 9 19 8L18 5L16 9C13 11 11 15 10 19L9 25L13 27L16 23L20 22C19 26 14 30 13 38Z",
            "M17.3 14a1.3 1.3 0 1 1-2.6 0a1.3 1.3 0 1 1 2.6 0z",
        ),
        Piece::Bishop => (
            "M15 35C15 30 17 28 18 26C13 22 14 15 22.5 9C31 15 32 22 27 26C28 28 30 30 30 35Z M11 36h23v4h-23z M25 7a2.5 2.5 0 1 1-5 0a2.5 2.5 0 1 1 5 0z",
            "M25 14L20.5 19.5",
        ),
        Piece::Rook => {
            ("M12 10H16V13H20V10H25V13H29V10H33V18H12Z M14 34L15 18H30L31 34Z M12 33h21v3h-21z M10 36h25v4h-25z", "")
        }
        Piece::Queen => (
            "M12 35L9 13L15 25L15.5 10L20 24L22.5 8L25 24L29.5 10L30 25L36 13L33 35Z M10 36h25v4h-25z M11 13a2 2 0 1 1-4 0a2 2 0 1 1 4 0z M17.5 10a2 2 0 1 1-4 0a2 2 0 1 1 4 0z M24.5 8a2 2 0 1 1-4 0a2 2 0 1 1 4 0z M31.5 10a2 2 0 1 1-4 0a2 2 0 1 1 4 0z M38 13a2 2 0 1 1-4 0a2 2 0 1 1 4 0z",
            "",
        ),
        Piece::King => (
            "M13 35C11 27 10 21 15 18C19 16 22 19 22.5 22C23 19 26 16 30 18C35 21 34 27 32 35Z M10 36h25v4h-25z M21 5H24V9H28V12H24V17H21V12H17V9H21Z",
            "",
        ),
    }
}

/// The symbols every board uses: the squares with their coordinates, and the twelve pieces.
/// One hidden SVG for the whole page.
pub fn defs() -> String {
    let mut s = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>",
    );
    let _ = write!(
        s,
        "<symbol id=\"ac-board\" viewBox=\"0 0 {SIDE} {SIDE}\"><rect width=\"{SIDE}\" height=\"{SIDE}\" fill=\"{LIGHT}\"/>"
    );
    for sq in Square::all() {
        let (x, y) = corner(sq);
        let dark = (sq.file() + sq.rank()) % 2 == 0;
        if dark {
            let _ = write!(s, "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{DARK}\"/>");
        }
        let ink = if dark { LIGHT } else { DARK };
        if sq.file() == 0 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" font-family=\"sans-serif\" fill=\"{ink}\">{}</text>",
                x + 2.0,
                y + 11.0,
                sq.rank_char()
            );
        }
        if sq.rank() == 0 {
            let _ = write!(
                s,
                "<text x=\"{}\" y=\"{}\" font-size=\"10\" font-family=\"sans-serif\" fill=\"{ink}\" text-anchor=\"end\">{}</text>",
                x + SQUARE - 2.0,
                y + SQUARE - 3.0,
                sq.file_char()
            );
        }
    }
    s.push_str("</symbol>");
    for color in [Color::White, Color::Black] {
        let (fill, ink) = if color == Color::White { ("#fdfdfd", "#222") } else { ("#262626", "#f2f2f2") };
        for piece in Piece::ALL {
            let (body, detail) = shape(piece);
            let id =
                format!("ac-{}{}", if color == Color::White { 'w' } else { 'b' }, piece.to_char().to_ascii_uppercase());
            let _ = write!(
                s,
                "<symbol id=\"{id}\" viewBox=\"0 0 45 45\"><path d=\"{body}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"1.4\" stroke-linejoin=\"round\"/>"
            );
            if !detail.is_empty() {
                let _ = write!(
                    s,
                    "<path d=\"{detail}\" fill=\"{ink}\" stroke=\"{ink}\" stroke-width=\"1.6\" stroke-linecap=\"round\"/>"
                );
            }
            s.push_str("</symbol>");
        }
    }
    s.push_str("</defs></svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_places_every_piece_and_draws_what_it_is_asked() {
        let pos = Position::startpos();
        let e2 = Square::parse("e2").unwrap();
        let e4 = Square::parse("e4").unwrap();
        let d = Drawing {
            pos,
            tinted: e2.bb().with(e4),
            arrows: vec![Arrow { from: e2, to: e4, kind: ArrowKind::Better }],
            rings: Square::parse("d1").unwrap().bb(),
            title: "start <1>".into(),
        };
        let svg = board_svg(&d, "b");
        let count = |side: char| -> usize {
            "PNBRQK".chars().map(|p| svg.matches(&format!("href=\"#ac-{side}{p}\"")).count()).sum()
        };
        assert_eq!((count('w'), count('b')), (16, 16));
        assert_eq!(svg.matches("class=\"arrow better\"").count(), 1);
        assert_eq!(svg.matches("class=\"ring\"").count(), 1);
        assert!(svg.contains("<title>start &lt;1&gt;</title>"));
        // The white king on e1: the fifth file, the bottom rank.
        assert!(svg.contains(&format!("href=\"#ac-wK\" x=\"{}\" y=\"{}\"", 4.0 * SQUARE, 7.0 * SQUARE)), "{svg}");
    }

    #[test]
    fn the_symbols_hold_the_board_and_twelve_pieces() {
        let d = defs();
        assert_eq!(d.matches("<symbol").count(), 13);
        assert_eq!(d.matches("fill=\"#b88a62\"/>").count(), 32);
    }
}
