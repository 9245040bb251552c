//! SVG charts for the reports, written by hand (no plotting dependency): line charts as small
//! multiples, at most about eight lines a panel, and an interval chart for the rating list.
//!
//! A line chart is meant to be read, not decoded: every panel has a legend, both axes have titles
//! with units, the y-axis ends above the data, and a curve fades where fewer than
//! `min_running` games are still running (its mean then rests on a handful of games); a strip
//! under each panel shows how many games are running, on a log scale.

use super::formats::xml_text;
use std::fmt::Write;

/// Lines per panel at most; more series are split over several panels.
pub const MAX_LINES: usize = 8;

/// Tableau's ten colours: distinct on white and in print.
pub(crate) const PALETTE: [&str; 10] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

/// A curve point: x (a move number), the value, and the number of games it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub running: u32,
}

#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    /// Index into the palette, so that one player keeps its colour from panel to panel.
    pub colour: usize,
    pub points: Vec<Point>,
}

#[derive(Clone, Debug)]
pub struct Panel {
    pub title: String,
    pub series: Vec<Series>,
}

#[derive(Clone, Debug)]
pub struct Chart {
    /// Prefix of the element ids (clip paths), unique within a page that holds several charts.
    pub id: String,
    pub title: String,
    /// One line under the title saying how to read the chart.
    pub note: String,
    pub x_title: String,
    pub y_title: String,
    pub panels: Vec<Panel>,
    /// Below this many games a curve fades (0: never).
    pub min_running: u32,
    /// Draw the games-running strip under each panel.
    pub strip: bool,
    /// A bound the values cannot pass (100 for a percentage), which then ends the y-axis.
    pub y_cap: Option<f64>,
}

const PANEL_W: f64 = 620.0;
const PLOT_L: f64 = 66.0;
const PLOT_R: f64 = 455.0;
const PLOT_T: f64 = 30.0;
const PLOT_B: f64 = 236.0;
const STRIP_T: f64 = 256.0;
const STRIP_B: f64 = 316.0;
const HEADER: f64 = 64.0;

impl Chart {
    fn panel_height(&self) -> f64 {
        if self.strip { 368.0 } else { 290.0 }
    }

    /// Splits series into panels of at most `MAX_LINES` lines, as evenly as possible; the
    /// panels are titled "title" or "title (1 of 2)".
    pub fn split(title: &str, series: Vec<Series>) -> Vec<Panel> {
        let parts = series.len().div_ceil(MAX_LINES).max(1);
        let size = series.len().div_ceil(parts).max(1);
        let mut panels = Vec::new();
        let mut rest = series.into_iter().peekable();
        while rest.peek().is_some() {
            panels.push(Panel { title: title.to_string(), series: rest.by_ref().take(size).collect() });
        }
        if panels.len() > 1 {
            let n = panels.len();
            for (i, p) in panels.iter_mut().enumerate() {
                p.title = format!("{title} ({} of {n})", i + 1);
            }
        }
        panels
    }

    /// The part of a series drawn solid: its points up to the first that rests on too few games.
    fn solid_len(&self, s: &Series) -> usize {
        s.points.iter().position(|p| p.running < self.min_running).unwrap_or(s.points.len())
    }

    /// One x range for every panel, so that panels compare at a glance; it ends where the last
    /// solid curve ends (the faded tails run on, clipped).
    fn x_axis(&self) -> Axis {
        let solid_x = self
            .panels
            .iter()
            .flat_map(|p| &p.series)
            .filter_map(|s| s.points[..self.solid_len(s)].last().map(|p| p.x));
        let all_x = self.panels.iter().flat_map(|p| &p.series).filter_map(|s| s.points.last().map(|p| p.x));
        let x_end = solid_x.fold(f64::NAN, f64::max);
        let x_end = if x_end.is_nan() { all_x.fold(1.0, f64::max) } else { x_end };
        nice_range(0.0, x_end.max(1.0))
    }

    fn svg_open(w: f64, h: f64) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        )
    }

    /// The whole chart as one SVG: title, note and the panels two abreast.
    pub fn render(&self) -> String {
        let cols = if self.panels.len() > 1 { 2 } else { 1 };
        let rows = self.panels.len().div_ceil(cols).max(1);
        let (w, h) = (cols as f64 * PANEL_W + 10.0, HEADER + rows as f64 * self.panel_height());
        let mut s = Self::svg_open(w, h);
        let _ = writeln!(
            s,
            "<text x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">{}</text>\n<text x=\"10\" y=\"46\" fill=\"#444\">{}</text>",
            xml_text(&self.title),
            xml_text(&self.note)
        );
        if self.panels.is_empty() {
            let _ = writeln!(
                s,
                "<text x=\"10\" y=\"{}\" fill=\"#444\">(nothing to show in this run)</text>",
                HEADER + 20.0
            );
        }
        let x_axis = self.x_axis();
        for (i, panel) in self.panels.iter().enumerate() {
            let (ox, oy) = ((i % cols) as f64 * PANEL_W, HEADER + (i / cols) as f64 * self.panel_height());
            let _ = writeln!(s, "<g transform=\"translate({ox},{oy})\">");
            self.panel(&mut s, panel, i, x_axis);
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }

    /// Each panel as an SVG of its own (on the same axes as the others), for a page that lays
    /// them out and lets them break across printed pages.
    pub fn render_panels(&self) -> Vec<String> {
        let x_axis = self.x_axis();
        self.panels
            .iter()
            .enumerate()
            .map(|(i, panel)| {
                let mut s = Self::svg_open(PANEL_W, self.panel_height());
                self.panel(&mut s, panel, i, x_axis);
                s.push_str("</svg>\n");
                s
            })
            .collect()
    }

    fn panel(&self, s: &mut String, panel: &Panel, index: usize, x_axis: Axis) {
        let solid: Vec<f64> = panel
            .series
            .iter()
            .flat_map(|sr| sr.points[..self.solid_len(sr)].iter().filter(|p| p.x <= x_axis.hi).map(|p| p.y))
            .collect();
        let ys = if solid.is_empty() {
            panel.series.iter().flat_map(|sr| sr.points.iter().map(|p| p.y)).collect()
        } else {
            solid
        };
        let (lo, hi) = ys.iter().fold((0.0f64, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
        let mut y_axis = nice_range(lo, hi);
        if let Some(cap) = self.y_cap.filter(|&c| c >= hi && c < y_axis.hi) {
            y_axis.hi = cap;
        }
        let sx = |x: f64| PLOT_L + (x - x_axis.lo) / (x_axis.hi - x_axis.lo) * (PLOT_R - PLOT_L);
        let sy = |v: f64| PLOT_B - (v - y_axis.lo) / (y_axis.hi - y_axis.lo) * (PLOT_B - PLOT_T);
        let clip = format!("{}-clip-{index}", self.id);
        let _ = writeln!(
            s,
            "<text x=\"{PLOT_L}\" y=\"18\" font-size=\"13\" font-weight=\"bold\">{}</text>\n<clipPath id=\"{clip}\"><rect x=\"{PLOT_L}\" y=\"{PLOT_T}\" width=\"{}\" height=\"{}\"/></clipPath>",
            xml_text(&panel.title),
            PLOT_R - PLOT_L,
            PLOT_B - PLOT_T
        );
        for v in y_axis.ticks() {
            let _ = writeln!(
                s,
                "<line x1=\"{PLOT_L}\" y1=\"{0:.1}\" x2=\"{PLOT_R}\" y2=\"{0:.1}\" stroke=\"#e4e4e4\"/><text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\">{3}</text>",
                sy(v),
                PLOT_L - 5.0,
                sy(v) + 4.0,
                tick_label(v)
            );
        }
        let x_labels_at = if self.strip { STRIP_B } else { PLOT_B };
        for v in x_axis.ticks() {
            let _ = writeln!(
                s,
                "<line x1=\"{0:.1}\" y1=\"{PLOT_T}\" x2=\"{0:.1}\" y2=\"{PLOT_B}\" stroke=\"#f0f0f0\"/><text x=\"{0:.1}\" y=\"{1:.1}\" text-anchor=\"middle\">{2}</text>",
                sx(v),
                x_labels_at + 15.0,
                tick_label(v)
            );
        }
        if y_axis.lo < 0.0 && y_axis.hi > 0.0 {
            let _ = writeln!(
                s,
                "<line x1=\"{PLOT_L}\" y1=\"{0:.1}\" x2=\"{PLOT_R}\" y2=\"{0:.1}\" stroke=\"#888\"/>",
                sy(0.0)
            );
        }
        let _ = writeln!(
            s,
            "<rect x=\"{PLOT_L}\" y=\"{PLOT_T}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>",
            PLOT_R - PLOT_L,
            PLOT_B - PLOT_T
        );
        let mid_y = (PLOT_T + PLOT_B) / 2.0;
        let _ = writeln!(
            s,
            "<text transform=\"translate(14,{mid_y}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            xml_text(&self.y_title)
        );
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            (PLOT_L + PLOT_R) / 2.0,
            x_labels_at + 32.0,
            xml_text(&self.x_title)
        );
        for sr in &panel.series {
            let c = PALETTE[sr.colour % PALETTE.len()];
            let k = self.solid_len(sr);
            let path = |pts: &[Point]| {
                pts.iter().map(|p| format!("{:.1},{:.1}", sx(p.x), sy(p.y))).collect::<Vec<_>>().join(" ")
            };
            if k > 0 {
                let _ = writeln!(
                    s,
                    "<polyline clip-path=\"url(#{clip})\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.8\" points=\"{}\"/>",
                    path(&sr.points[..k])
                );
            }
            if k < sr.points.len() {
                let _ = writeln!(
                    s,
                    "<polyline clip-path=\"url(#{clip})\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1\" stroke-opacity=\"0.35\" stroke-dasharray=\"3 3\" points=\"{}\"/>",
                    path(&sr.points[k.saturating_sub(1)..])
                );
            }
        }
        for (i, sr) in panel.series.iter().enumerate() {
            let c = PALETTE[sr.colour % PALETTE.len()];
            let ly = PLOT_T + 8.0 + 17.0 * i as f64;
            let _ = writeln!(
                s,
                "<line x1=\"{0}\" y1=\"{1:.1}\" x2=\"{2}\" y2=\"{1:.1}\" stroke=\"{c}\" stroke-width=\"3\"/><text x=\"{3}\" y=\"{4:.1}\">{5}</text>",
                PLOT_R + 10.0,
                ly,
                PLOT_R + 30.0,
                PLOT_R + 35.0,
                ly + 4.0,
                xml_text(&sr.label)
            );
        }
        if self.strip {
            self.strip(s, panel, &sx);
        }
    }

    /// Games still running under each curve, log scale, with the fading threshold marked.
    fn strip(&self, s: &mut String, panel: &Panel, sx: &dyn Fn(f64) -> f64) {
        let most = panel.series.iter().flat_map(|sr| sr.points.iter().map(|p| p.running)).max().unwrap_or(1).max(10);
        let decades = (most as f64).log10().ceil().max(1.0);
        let sy = |n: f64| STRIP_B - (n.max(1.0).log10() / decades) * (STRIP_B - STRIP_T);
        let _ = writeln!(
            s,
            "<rect x=\"{PLOT_L}\" y=\"{STRIP_T}\" width=\"{}\" height=\"{}\" fill=\"#fafafa\" stroke=\"#333\"/>",
            PLOT_R - PLOT_L,
            STRIP_B - STRIP_T
        );
        for d in 0..=decades as i32 {
            let v = 10f64.powi(d);
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"10\">{}</text>",
                PLOT_L - 5.0,
                sy(v) + 3.0,
                v
            );
        }
        if self.min_running > 1 {
            let _ = writeln!(
                s,
                "<line x1=\"{PLOT_L}\" y1=\"{0:.1}\" x2=\"{PLOT_R}\" y2=\"{0:.1}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>",
                sy(self.min_running as f64)
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" font-size=\"10\" fill=\"#444\">games</text><text x=\"{}\" y=\"{:.1}\" font-size=\"10\" fill=\"#444\">running</text>",
            PLOT_R + 10.0,
            STRIP_T + 22.0,
            PLOT_R + 10.0,
            STRIP_T + 34.0
        );
        for sr in &panel.series {
            let c = PALETTE[sr.colour % PALETTE.len()];
            let pts: Vec<String> = sr
                .points
                .iter()
                .filter(|p| p.running > 0)
                .map(|p| format!("{:.1},{:.1}", sx(p.x).min(PLOT_R), sy(p.running as f64)))
                .collect();
            let _ = writeln!(
                s,
                "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"1.2\" points=\"{}\"/>",
                pts.join(" ")
            );
        }
    }
}

/// One row of an interval chart: a label, the estimate and its interval.
pub struct IntervalRow {
    pub label: String,
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

/// Estimates with their intervals, one row each, top to bottom (the rating list as a chart).
/// An infinite estimate is drawn as an arrow at the edge.
pub fn interval_chart(title: &str, note: &str, x_title: &str, rows: &[IntervalRow]) -> String {
    let (left, right, top, row_h) = (170.0, 180.0, 60.0, 24.0);
    let plot_w = 560.0;
    let w = left + plot_w + right;
    let h = top + row_h * rows.len() as f64 + 50.0;
    let finite: Vec<f64> = rows.iter().flat_map(|r| [r.value, r.low, r.high]).filter(|v| v.is_finite()).collect();
    let (lo, hi) = finite.iter().fold((0.0f64, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
    let axis = nice_range(lo, hi);
    let sx = |v: f64| left + (v.clamp(axis.lo, axis.hi) - axis.lo) / (axis.hi - axis.lo) * plot_w;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"24\" font-size=\"17\" font-weight=\"bold\">{}</text>\n<text x=\"10\" y=\"44\" fill=\"#444\">{}</text>\n",
        xml_text(title),
        xml_text(note)
    );
    let bottom = top + row_h * rows.len() as f64;
    for v in axis.ticks() {
        let _ = writeln!(
            s,
            "<line x1=\"{0:.1}\" y1=\"{top}\" x2=\"{0:.1}\" y2=\"{bottom}\" stroke=\"{1}\"/><text x=\"{0:.1}\" y=\"{2}\" text-anchor=\"middle\">{3}</text>",
            sx(v),
            if v == 0.0 { "#888" } else { "#e4e4e4" },
            bottom + 16.0,
            tick_label(v)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        left + plot_w / 2.0,
        bottom + 36.0,
        xml_text(x_title)
    );
    for (i, r) in rows.iter().enumerate() {
        let y = top + row_h * (i as f64 + 0.5);
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 10.0,
            y + 4.0,
            xml_text(&r.label)
        );
        let text = if r.value.is_finite() && r.low == r.high {
            format!("{:+.0} (fixed)", r.value)
        } else if r.value.is_finite() {
            format!("{:+.0} [{:+.0}, {:+.0}]", r.value, r.low, r.high)
        } else if r.value.is_nan() {
            "unrated".to_string()
        } else {
            format!(
                "{}∞ (all games {})",
                if r.value > 0.0 { "+" } else { "−" },
                if r.value > 0.0 { "won" } else { "lost" }
            )
        };
        let _ = writeln!(s, "<text x=\"{}\" y=\"{:.1}\">{}</text>", left + plot_w + 10.0, y + 4.0, xml_text(&text));
        if r.value.is_nan() {
            continue;
        }
        if r.value.is_finite() {
            let _ = writeln!(
                s,
                "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#1f77b4\" stroke-width=\"2\"/><circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"#1f77b4\"/>",
                sx(r.low),
                sx(r.high),
                sx(r.value)
            );
        } else {
            let (x, d) = if r.value > 0.0 { (sx(axis.hi), -8.0) } else { (sx(axis.lo), 8.0) };
            let _ = writeln!(s, "<path d=\"M{x:.1},{y:.1} l{d},-5 l0,10 z\" fill=\"#d62728\"/>");
        }
    }
    s.push_str("</svg>\n");
    s
}

/// An axis range with round ends and a round step between ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

impl Axis {
    pub(crate) fn ticks(self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step).round() as i64;
        // `+ 0.0` turns a -0.0 into 0.0, which would print as "-0".
        (0..=n).map(|i| self.lo + i as f64 * self.step + 0.0).collect()
    }
}

/// Four to eight round ticks (1, 2 or 5 times a power of ten apart) covering lo..hi with room
/// to spare: an end that the data reach or nearly reach moves out by one more step, so that no
/// curve runs along the frame.
pub(crate) fn nice_range(lo: f64, hi: f64) -> Axis {
    let (lo, hi) = if hi - lo < 1e-9 { (lo, lo + 1.0) } else { (lo, hi) };
    let span = hi - lo;
    let mag = 10f64.powf((span / 5.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| span / s <= 6.0).unwrap_or(10.0 * mag);
    let mut a = (lo / step + 1e-9).floor() * step;
    let mut b = (hi / step - 1e-9).ceil() * step;
    if b - hi < 0.04 * span {
        b += step;
    }
    if lo < 0.0 && lo - a < 0.04 * span {
        a -= step;
    }
    Axis { lo: a, hi: b, step }
}

pub(crate) fn tick_label(v: f64) -> String {
    if v.fract().abs() < 1e-9 {
        format!("{v:.0}")
    } else if (v * 10.0).fract().abs() < 1e-9 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_are_round_and_leave_headroom() {
        // Data up to 93: ticks of 20 up to 100 (7 above the data is room enough).
        let a = nice_range(0.0, 93.0);
        assert_eq!((a.lo, a.hi, a.step), (0.0, 100.0, 20.0));
        // Data reaching a tick exactly get one more step above it.
        assert_eq!(nice_range(0.0, 100.0).hi, 120.0);
        let b = nice_range(-601.0, 2223.0);
        assert_eq!((b.lo, b.hi, b.step), (-1000.0, 2500.0, 500.0));
        assert_eq!(b.ticks().len(), 8);
        let small = nice_range(0.0, 0.2).ticks();
        assert_eq!(small.len(), 6);
        assert!(small.iter().zip([0.0, 0.05, 0.1, 0.15, 0.2, 0.25]).all(|(a, b)| (a - b).abs() < 1e-12), "{small:?}");
        assert_eq!(nice_range(1.0, 1.0).lo, 1.0);
    }

    fn series(label: &str, ys: &[(f64, u32)]) -> Series {
        Series {
            label: label.to_string(),
            colour: 0,
            points: ys.iter().enumerate().map(|(i, &(y, running))| Point { x: i as f64 + 1.0, y, running }).collect(),
        }
    }

    fn chart(panels: Vec<Panel>) -> Chart {
        Chart {
            id: "t".into(),
            title: "t & u".into(),
            note: String::new(),
            x_title: "move".into(),
            y_title: "y".into(),
            panels,
            min_running: 10,
            strip: true,
            y_cap: None,
        }
    }

    #[test]
    fn curves_fade_where_few_games_run_and_every_panel_has_a_legend() {
        let s = series("a <b>", &[(0.0, 100), (5.0, 40), (7.0, 9), (500.0, 1)]);
        let svg = chart(vec![Panel { title: "p".into(), series: vec![s.clone(), series("c", &[(1.0, 50)])] }]).render();
        // a: one solid and one faded line; c: one solid; both in the strip too.
        assert_eq!(svg.matches("<polyline").count(), 5, "{svg}");
        assert_eq!(svg.matches("stroke-opacity=\"0.35\"").count(), 1);
        assert!(svg.contains("a &lt;b&gt;") && svg.contains("t &amp; u"));
        // The faded spike to 500 does not set the y-axis: its top stays near the solid data.
        assert!(svg.contains(">6<") || svg.contains(">8<"), "{svg}");
        assert!(!svg.contains(">500<"), "{svg}");
    }

    #[test]
    fn many_series_are_split_into_panels_of_at_most_eight() {
        let many: Vec<Series> = (0..9).map(|i| series(&format!("s{i}"), &[(1.0, 20)])).collect();
        let panels = Chart::split("all", many);
        assert_eq!(panels.iter().map(|p| p.series.len()).collect::<Vec<_>>(), vec![5, 4]);
        assert_eq!(panels[1].title, "all (2 of 2)");
        assert_eq!(Chart::split("few", vec![series("x", &[])]).len(), 1);
        let c = chart(panels);
        assert_eq!(c.render().matches("<clipPath").count(), 2);
        let one_each = c.render_panels();
        assert_eq!(one_each.len(), 2);
        assert!(one_each.iter().all(|s| s.starts_with("<svg") && s.matches("<clipPath").count() == 1));
    }

    #[test]
    fn interval_chart_has_a_whisker_per_finite_row() {
        let rows = [
            IntervalRow { label: "a".into(), value: 10.0, low: -5.0, high: 25.0 },
            IntervalRow { label: "b".into(), value: f64::INFINITY, low: f64::INFINITY, high: f64::INFINITY },
            IntervalRow { label: "c".into(), value: 0.0, low: 0.0, high: 0.0 },
        ];
        let svg = interval_chart("r", "n", "Elo", &rows);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert_eq!(svg.matches("<path").count(), 1);
        assert!(svg.contains("+10 [-5, +25]") && svg.contains("+∞"));
    }
}
