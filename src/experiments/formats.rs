//! Writing values into the report formats: CSV fields, JSON strings and numbers, XML text.

/// A CSV field: quoted (quotes doubled) when it holds a comma, quote or line break, as RFC 4180
/// has it. Player specs such as `search:depth=1,range=30` contain commas.
pub fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\"")).into()
    } else {
        s.into()
    }
}

/// Text for an SVG (XML) element.
pub fn xml_text(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A JSON string literal (player specs are plain ASCII, but quotes and backslashes are legal in
/// them and must not break the file).
pub fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn json_num(x: f64) -> String {
    if x.is_finite() { format!("{x:.2}") } else { "null".to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(csv_field("level:7"), "level:7");
        assert_eq!(csv_field("search:depth=1,range=30"), "\"search:depth=1,range=30\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("level:7"), "\"level:7\"");
        assert_eq!(json_str("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(xml_text("a<b&c>"), "a&lt;b&amp;c&gt;");
    }
}
