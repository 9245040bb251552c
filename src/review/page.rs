//! The annotated games as one HTML page (`annotate --out DIR` writes DIR/index.html): for each
//! game the players' summaries, the evaluation chart, the moves, a board that follows the
//! keyboard (← → a move, ↑ ↓ a marked move, Home, End) and every marked move with its board,
//! where the move played, the better move, the opponent's answer and the piece in danger are
//! drawn. Self-contained like the report (`report/html.rs`): inline CSS, SVG and a short
//! script, nothing fetched.

use super::board::{Arrow, ArrowKind, Drawing, board_svg, defs};
use super::chances::{Mark, Score};
use super::chart::{eval_chart, mark_colour, white_percent};
use super::summary::{PlayerSummary, summarise};
use super::{Annotated, MoveNote, line_san};
use crate::board::{Bitboard, Color};
use crate::experiments::formats::xml_text;
use std::fmt::Write;

/// Plies of the better line shown.
const LINE_PLIES: usize = 10;

const STYLE: &str = "
body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #222; margin: 0 auto; max-width: 1260px; padding: 0 16px 40px; }
h1 { font-size: 24px; margin: 16px 0 2px; }
h2 { font-size: 19px; border-bottom: 1px solid #ccc; margin: 18px 0 8px; padding-bottom: 2px; }
h3 { font-size: 16px; margin: 22px 0 6px; }
p { margin: 4px 0; }
.muted { color: #666; }
.small { font-size: 12px; color: #555; }
.index a { margin-right: 10px; white-space: nowrap; }
table { border-collapse: collapse; margin: 4px 0 8px; font-size: 13px; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d8d8d8; padding: 3px 7px; text-align: right; }
th { background: #f2f2f2; }
th.l, td.l { text-align: left; }
.top { display: grid; grid-template-columns: 640px 1fr; gap: 18px; align-items: start; }
.chart { display: block; max-width: 100%; height: auto; cursor: pointer; }
.moves { font-size: 14px; line-height: 1.7; margin-top: 6px; }
.mv { cursor: pointer; padding: 1px 3px; border-radius: 3px; }
.mv.current { background: #1f77b4; color: #fff; }
.mv.m0 { color: #a07800; font-weight: 600; }
.mv.m1 { color: #d06000; font-weight: 600; }
.mv.m2 { color: #c4161c; font-weight: 700; }
.mv.current.m0, .mv.current.m1, .mv.current.m2 { color: #fff; }
.viewer { position: sticky; top: 8px; }
.viewer .pos svg, .card svg { display: block; width: 352px; height: 352px; }
.words { max-width: 36em; }
.words .head { font-size: 17px; }
.tag { display: inline-block; color: #fff; border-radius: 3px; padding: 0 6px; font-size: 13px; margin-left: 6px; }
.reason { font-weight: 600; }
.keys span { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin: 0 3px 0 8px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(600px, 1fr)); gap: 14px 20px; }
.card { display: flex; gap: 14px; align-items: flex-start; border: 1px solid #ddd; border-radius: 4px; padding: 8px; cursor: pointer; }
.help { font-size: 12px; color: #555; margin-top: 6px; }
@media (max-width: 1100px) { .top { grid-template-columns: 1fr; } .viewer { position: static; } }
@media print {
  .viewer, .help, .index { display: none; }
  .top { grid-template-columns: 1fr; }
  .card { break-inside: avoid; }
}
";

const SCRIPT: &str = "
(function () {
  var games = Array.prototype.slice.call(document.querySelectorAll('section.game'));
  var active = games[0];
  function each(root, sel, f) { Array.prototype.forEach.call(root.querySelectorAll(sel), f); }
  function show(game, k) {
    var n = +game.dataset.states;
    k = Math.max(0, Math.min(n, k));
    game.dataset.at = k;
    each(game, '.viewer .pos, .viewer .words', function (e) { e.hidden = +e.dataset.ply !== k; });
    each(game, '.moves .mv', function (e) { e.classList.toggle('current', +e.dataset.ply === k); });
    var chart = game.querySelector('svg.chart');
    if (chart) {
      var x = +chart.dataset.x0 + k * +chart.dataset.dx, c = chart.querySelector('.cursor');
      c.setAttribute('x1', x); c.setAttribute('x2', x);
    }
  }
  function marked(game) {
    return Array.prototype.map.call(game.querySelectorAll('.moves .mv.marked'), function (e) { return +e.dataset.ply; });
  }
  games.forEach(function (g) { show(g, +g.dataset.start); });
  document.addEventListener('click', function (e) {
    var t = e.target.closest('[data-ply]');
    var g = t && t.closest('section.game');
    if (!g) { return; }
    active = g;
    show(g, +t.dataset.ply);
  });
  document.addEventListener('keydown', function (e) {
    if (!active || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var k = +active.dataset.at, n = +active.dataset.states, m = marked(active), next;
    switch (e.key) {
      case 'ArrowRight': next = k + 1; break;
      case 'ArrowLeft': next = k - 1; break;
      case 'Home': next = 0; break;
      case 'End': next = n; break;
      case 'ArrowDown': case 'n': next = m.filter(function (p) { return p > k; })[0]; break;
      case 'ArrowUp': case 'p': next = m.filter(function (p) { return p < k; }).pop(); break;
      default: return;
    }
    e.preventDefault();
    if (next !== undefined) { show(active, next); }
  });
})();
";

/// HTML text: XML's escapes and quotes for attributes.
fn esc(s: &str) -> String {
    xml_text(s).replace('"', "&quot;")
}

/// The page of `games`.
pub fn page(games: &[Annotated]) -> String {
    let mut body = String::new();
    let judge = games.first().map_or("", |g| g.judge.as_str());
    let _ = writeln!(
        body,
        "<h1>AgentChess annotation</h1>\n<p class=\"muted\">{} game{} &middot; judged by {} &middot; a move is marked by the winning chances it loses (0% lost to 100% won): ?! 5 points, ? 10, ?? 15 &middot; {}</p>",
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        esc(judge),
        crate::experiments::pgn::today()
    );
    if games.len() > 1 {
        body.push_str("<p class=\"index\">Games: ");
        for (i, g) in games.iter().enumerate() {
            let _ = write!(
                body,
                "<a href=\"#game-{}\">{}. {} &ndash; {} {}</a> ",
                i + 1,
                i + 1,
                esc(g.player(Color::White)),
                esc(g.player(Color::Black)),
                esc(&g.game.result)
            );
        }
        body.push_str("</p>\n");
    }
    for (i, g) in games.iter().enumerate() {
        body.push_str(&game_section(i + 1, g));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>AgentChess annotation</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{}{body}<script>{SCRIPT}</script>\n</body>\n</html>\n",
        defs()
    )
}

/// The state the page opens a game at: its first mistake or blunder, else its first marked
/// move, else the start.
fn opening_state(notes: &[MoveNote]) -> usize {
    let first = |f: &dyn Fn(&MoveNote) -> bool| notes.iter().position(f).map(|i| i + 1);
    first(&|n| n.mark.is_some_and(|m| m >= Mark::Mistake)).or_else(|| first(&|n| n.mark.is_some())).unwrap_or(0)
}

fn game_section(number: usize, g: &Annotated) -> String {
    let notes = &g.notes;
    let mut s = format!(
        "<section class=\"game\" id=\"game-{number}\" data-states=\"{}\" data-start=\"{}\">\n",
        notes.len(),
        opening_state(notes)
    );
    let place: Vec<&str> =
        ["Event", "Date"].iter().filter_map(|t| g.game.tag(t)).filter(|v| !v.is_empty() && !v.contains('?')).collect();
    let _ = writeln!(
        s,
        "<h2>{number}. {} &ndash; {} &nbsp;{}<span class=\"muted\"> &nbsp;{}</span></h2>",
        esc(g.player(Color::White)),
        esc(g.player(Color::Black)),
        esc(&g.game.result),
        esc(&place.join(", "))
    );
    s.push_str("<div class=\"top\">\n<div>\n");
    s.push_str(&summary_table(number, &[summarise(g, Color::White), summarise(g, Color::Black)], notes));
    let _ = writeln!(s, "<figure id=\"chart-{number}\" style=\"margin:0\">{}</figure>", eval_chart(notes));
    s.push_str(&move_list(g));
    s.push_str(
        "<p class=\"help\">Keys: &larr; &rarr; a move, &uarr; &darr; (or p, n) the previous or next marked move, Home, End. Click a move, a dot or a board.</p>\n",
    );
    s.push_str("</div>\n<div class=\"viewer\">\n");
    for k in 0..=notes.len() {
        let hidden = if k == opening_state(notes) { "" } else { " hidden" };
        let _ = writeln!(s, "<div class=\"pos\" data-ply=\"{k}\"{hidden}>{}</div>", board_svg(&drawing(g, k), "board"));
        let _ = writeln!(s, "<div class=\"words\" data-ply=\"{k}\"{hidden}>{}</div>", words(notes, k));
    }
    s.push_str("</div>\n</div>\n");
    let marked: Vec<usize> = (1..=notes.len()).filter(|&k| notes[k - 1].mark.is_some()).collect();
    let _ = writeln!(s, "<h3 id=\"marked-{number}\">Marked moves ({})</h3>", marked.len());
    if marked.is_empty() {
        s.push_str("<p class=\"muted\">No move lost 5 points of winning chances.</p>\n");
    } else {
        s.push_str("<div class=\"cards\">\n");
        for k in marked {
            let _ = writeln!(
                s,
                "<div class=\"card\" data-ply=\"{k}\">{}<div class=\"words\">{}</div></div>",
                board_svg(&drawing(g, k), "board"),
                words(notes, k)
            );
        }
        s.push_str("</div>\n");
    }
    s.push_str("</section>\n");
    s
}

fn summary_table(number: usize, rows: &[PlayerSummary], notes: &[MoveNote]) -> String {
    let mut s = format!(
        "<table id=\"summary-{number}\"><thead><tr><th class=\"l\">player</th><th>?! inaccuracies</th><th>? mistakes</th><th>?? blunders</th><th>average loss a move</th><th class=\"l\">lost most in</th><th class=\"l\">costliest move</th></tr></thead><tbody>\n"
    );
    for r in rows {
        let costliest = r.costliest.and_then(|ply| notes.get(ply)).map_or("-".to_string(), |n| {
            format!(
                "<span class=\"mv\" data-ply=\"{}\">{} {}{}</span>",
                n.ply + 1,
                n.number(),
                esc(&n.san),
                n.mark.map_or("", |m| m.suffix())
            )
        });
        let _ = writeln!(
            s,
            "<tr><td class=\"l\">{} {}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.0} cp, {:.1}%</td><td class=\"l\">{}</td><td class=\"l\">{costliest}</td></tr>",
            r.color,
            esc(&r.name),
            r.count(Mark::Inaccuracy),
            r.count(Mark::Mistake),
            r.count(Mark::Blunder),
            r.average_cp,
            r.average_chances,
            r.phase_lost().map_or("-", |p| p.name()),
        );
    }
    s.push_str("</tbody></table>\n");
    s
}

fn move_list(g: &Annotated) -> String {
    let mut s = String::from("<p class=\"moves\">");
    s.push_str("<span class=\"mv\" data-ply=\"0\">start</span> ");
    for (i, n) in g.notes.iter().enumerate() {
        if n.mover() == Color::White || i == 0 {
            let _ = write!(s, "{} ", n.number());
        }
        let (class, suffix) = match n.mark {
            Some(m) => (format!(" marked m{}", m as usize), m.suffix()),
            None => (String::new(), ""),
        };
        let _ = write!(s, "<span class=\"mv{class}\" data-ply=\"{}\">{}{suffix}</span> ", i + 1, esc(&n.san));
    }
    let _ = writeln!(s, "{}</p>", esc(&g.game.result));
    s
}

/// The board of state `k`: the start; a marked move as it was about to be played, with the
/// move played, the better move, the opponent's answer the reason turns on and the pieces in
/// danger drawn; any other move's position after it, its squares tinted.
fn drawing(g: &Annotated, k: usize) -> Drawing {
    let Some(n) = k.checked_sub(1).and_then(|i| g.notes.get(i)) else {
        return Drawing {
            pos: g.game.start,
            tinted: Bitboard::EMPTY,
            arrows: Vec::new(),
            rings: Bitboard::EMPTY,
            title: "the start position".into(),
        };
    };
    if n.mark.is_none() {
        return Drawing {
            pos: n.pos.play(n.mv),
            tinted: n.mv.from().bb().with(n.mv.to()),
            arrows: Vec::new(),
            rings: Bitboard::EMPTY,
            title: format!("after {} {}", n.number(), n.san),
        };
    }
    let mut arrows = vec![Arrow { from: n.mv.from(), to: n.mv.to(), kind: ArrowKind::Played }];
    if let Some(&b) = n.better.first().filter(|_| n.has_better()) {
        arrows.push(Arrow { from: b.from(), to: b.to(), kind: ArrowKind::Better });
    }
    let mut rings = Bitboard::EMPTY;
    if let Some(c) = &n.critique {
        if c.key_is_reply {
            arrows.push(Arrow { from: c.key_move.from(), to: c.key_move.to(), kind: ArrowKind::Reply });
        }
        rings = if c.danger.is_empty() { c.square.bb() } else { c.danger };
    }
    Drawing { pos: n.pos, tinted: Bitboard::EMPTY, arrows, rings, title: format!("before {} {}", n.number(), n.san) }
}

/// A score and White's winning chances in words: "+1.25 (White's winning chances 61%)".
fn score_words(n: &MoveNote, s: Score) -> String {
    let white = if n.mover() == Color::White { s } else { s.flip() };
    format!("{white} for White, winning chances {:.0}%", n.percent(white))
}

/// What the page says of state `k`.
fn words(notes: &[MoveNote], k: usize) -> String {
    let Some(n) = k.checked_sub(1).and_then(|i| notes.get(i)) else {
        let start = notes.first().map_or("".to_string(), |n| score_words(n, n.before));
        return format!("<p class=\"head\"><b>Start</b></p><p>{}</p>", esc(&start));
    };
    let mut s = format!("<p class=\"head\"><b>{} {}{}</b>", n.number(), esc(&n.san), n.mark.map_or("", |m| m.suffix()));
    if let Some(m) = n.mark {
        let _ = write!(s, "<span class=\"tag\" style=\"background:{}\">{}</span>", mark_colour(m), m.name());
    }
    s.push_str("</p>");
    let _ = write!(s, "<p>After it: {}.</p>", esc(&score_words(n, n.after)));
    if n.mark.is_none() {
        if !n.has_better() {
            s.push_str("<p class=\"muted\">The judge's own move.</p>");
        }
        let _ = write!(s, "<p class=\"small\">White's winning chances {:.0}% after it.</p>", white_percent(notes, k));
        return s;
    }
    let _ = write!(
        s,
        "<p>{}'s score went from {} to {} (winning chances {:.0}% to {:.0}%).</p>",
        n.mover(),
        n.before,
        n.after,
        n.percent(n.before),
        n.percent(n.after)
    );
    if let Some(c) = &n.critique {
        let _ = write!(s, "<p class=\"reason\">{}.</p>", esc(&c.to_string()));
    }
    if n.has_better() {
        let line = line_san(&n.pos, &n.better, LINE_PLIES);
        let _ = write!(s, "<p>Better: <b>{}</b></p>", esc(&line));
    }
    let key = |colour: &str, what: &str| format!("<span style=\"background:{colour}\"></span>{what}");
    let _ = write!(
        s,
        "<p class=\"small keys\">{}{}{}{}</p>",
        key("#d62728", "played"),
        key("#2ca02c", "better"),
        key("#1f4e9c", "their answer"),
        key("rgba(214,39,40,0.35)", "in danger")
    );
    s
}

#[cfg(test)]
mod tests {
    use super::super::chances::Scale;
    use super::super::{View, notes};
    use super::*;
    use crate::board::pgn_reader::read_games;

    fn annotated() -> Annotated {
        let text = "[White \"W <1>\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
        let game = read_games(text).remove(0).unwrap();
        let mut at = game.start;
        let mut views = Vec::new();
        for (i, &mv) in game.moves.iter().enumerate() {
            let best = if i == 5 { at.parse_san("g6").unwrap() } else { mv };
            views.push(View { score: Score::Cp(if i == 5 { -50 } else { 20 }), line: vec![best] });
            at = at.play(mv);
        }
        views[6] = View { score: Score::Mate(1), line: vec![game.moves[6]] };
        views.push(View { score: Score::Lost, line: Vec::new() });
        let notes = notes(&game, &views, Scale::SAME);
        Annotated { game, notes, judge: "judge".into() }
    }

    #[test]
    fn the_page_opens_at_the_blunder_with_its_board_and_words() {
        let html = page(&[annotated()]);
        assert!(html.contains("data-states=\"7\" data-start=\"6\""), "the game opens at 3... Nf6??");
        // A board and words for every state, one card for the one marked move.
        assert_eq!(html.matches("<div class=\"pos\"").count(), 8);
        assert_eq!(html.matches("<div class=\"card\"").count(), 1);
        // The card's board: the move played, the better move, the answer, the piece in danger.
        let card = &html[html.find("<div class=\"card\"").unwrap()..];
        for part in ["arrow played", "arrow better", "arrow reply", "class=\"ring\""] {
            assert!(card.contains(part), "{part}");
        }
        assert!(html.contains("Ng8-f6 allows mate in 1: Qh5xf7, the queen on f7 mates."));
        assert!(html.contains("W &lt;1&gt;"), "names are escaped");
        // Nothing from outside: no external reference of any kind.
        for outside in ["http:", "https:", "src=", "url(", "@import"] {
            assert!(!html.replace("http://www.w3.org/2000/svg", "").contains(outside), "{outside}");
        }
    }

    #[test]
    fn a_game_without_marks_opens_at_the_start() {
        let mut a = annotated();
        a.notes.iter_mut().for_each(|n| n.mark = None);
        assert_eq!(opening_state(&a.notes), 0);
        assert!(page(&[a]).contains("No move lost 5 points"));
    }
}
