//! SVG line charts for the curves of a report, written by hand (no plotting dependency).

use super::formats::xml_text;
use std::fmt::Write;

/// A curve point: (move number, value, second value); a chart plots one of the two.
pub type Point = (usize, f64, f64);

/// A line chart, one polyline per series, with a grid, round ticks and a legend.
pub fn svg_chart(title: &str, series: &[(String, Vec<Point>)], y: impl Fn(&Point) -> f64) -> String {
    let (w, h, left, right, top, bottom) = (900.0, 500.0, 70.0, 250.0, 50.0, 50.0);
    let max_x = series.iter().flat_map(|s| s.1.iter().map(|p| p.0)).max().unwrap_or(1).max(1) as f64;
    let ys: Vec<f64> = series.iter().flat_map(|s| s.1.iter().map(&y)).collect();
    let (lo, mut hi) = ys.iter().fold((0.0f64, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let sx = |x: f64| left + x / max_x * (w - left - right);
    let sy = |v: f64| h - bottom - (v - lo) / (hi - lo) * (h - top - bottom);
    let colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{left}\" y=\"28\" font-size=\"16\">{}</text>\n",
        xml_text(title)
    );
    // Grid and ticks: five steps on each axis, at round numbers.
    let (x_end, y_top, y_bottom) = (w - right, sy(hi), sy(lo));
    for v in ticks(lo, hi) {
        let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{x_end}\" y2=\"{0:.1}\" stroke=\"#ddd\"/><text x=\"{1}\" y=\"{2:.1}\" text-anchor=\"end\">{3}</text>", sy(v), left - 6.0, sy(v) + 4.0, tick_label(v));
    }
    for v in ticks(0.0, max_x) {
        let _ = writeln!(s, "<line x1=\"{0:.1}\" y1=\"{y_top:.1}\" x2=\"{0:.1}\" y2=\"{y_bottom:.1}\" stroke=\"#eee\"/><text x=\"{0:.1}\" y=\"{1:.1}\" text-anchor=\"middle\">{2}</text>", sx(v), y_bottom + 16.0, tick_label(v));
    }
    let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">move</text>", (left + x_end) / 2.0, h - 10.0);
    let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{x_end}\" y2=\"{0:.1}\" stroke=\"black\"/>", sy(0.0));
    let _ = writeln!(s, "<line x1=\"{left}\" y1=\"{y_top:.1}\" x2=\"{left}\" y2=\"{y_bottom:.1}\" stroke=\"black\"/>");
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = colours[i % colours.len()];
        let path: Vec<String> = pts.iter().map(|p| format!("{:.1},{:.1}", sx(p.0 as f64), sy(y(p)))).collect();
        let _ = writeln!(s, "<polyline fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\" points=\"{}\"/>", path.join(" "));
        // The legend, right of the plot; too many series would only be noise.
        if series.len() <= 30 {
            let ly = top + 14.0 * i as f64;
            let _ = writeln!(
                s,
                "<line x1=\"{0}\" y1=\"{1:.1}\" x2=\"{2}\" y2=\"{1:.1}\" stroke=\"{c}\" stroke-width=\"3\"/><text x=\"{3}\" y=\"{4:.1}\">{5}</text>",
                x_end + 15.0,
                ly,
                x_end + 35.0,
                x_end + 40.0,
                ly + 4.0,
                xml_text(name)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// Four to six round tick values (1, 2 or 5 times a power of ten apart) within lo..=hi.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let mag = 10f64.powf((span / 5.0).log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| span / s <= 6.0).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    // `+ 0.0` turns a -0.0 into 0.0, which would print as "-0".
    (first..=last).map(|i| i as f64 * step + 0.0).collect()
}

fn tick_label(v: f64) -> String {
    if v.fract().abs() < 1e-9 { format!("{v:.0}") } else { format!("{v:.2}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_ticks_are_round() {
        assert_eq!(ticks(0.0, 100.0), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(-601.0, 2223.0), vec![-500.0, 0.0, 500.0, 1000.0, 1500.0, 2000.0]);
        assert_eq!(ticks(0.0, 0.2).len(), 5);
        assert_eq!(ticks(1.0, 1.0), vec![1.0]);
    }

    #[test]
    fn a_chart_has_a_line_and_a_legend_entry_per_series() {
        let series = vec![("a <b>".to_string(), vec![(1, 0.0, 0.0), (2, 5.0, 0.0)]), ("c".to_string(), vec![(1, -1.0, 0.0)])];
        let svg = svg_chart("t & u", &series, |p| p.1);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("a &lt;b&gt;") && svg.contains("t &amp; u"));
    }
}
