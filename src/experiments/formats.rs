//! Writing values into the report formats: CSV fields, JSON strings and numbers, XML text.

/// A CSV field: quoted (quotes doubled) when it holds a comma, quote or line break, as RFC 4180
/// has it. Player specs such as `search:depth=1,range=30` contain commas.
pub fn csv_field(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")).into() } else { s.into() }
}

/// The fields of one CSV line, the inverse of `csv_field`: quoted fields may hold commas and
/// doubled quotes. A quote left open is an error.
pub fn csv_fields(line: &str) -> Result<Vec<String>, UnclosedQuote> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => fields.push(std::mem::take(&mut field)),
            (_, c) => field.push(c),
        }
    }
    if quoted {
        return Err(UnclosedQuote(line.to_string()));
    }
    fields.push(field);
    Ok(fields)
}

/// A CSV line whose quote is left open.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unclosed quote in: {0}")]
pub struct UnclosedQuote(pub String);

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
    fn csv_lines_split_back_into_their_fields() {
        let specs = ["level:7", "search:depth=1,range=30", "say \"hi\"", ""];
        let line = specs.iter().map(|s| csv_field(s)).collect::<Vec<_>>().join(",");
        assert_eq!(csv_fields(&line).unwrap(), specs);
        assert_eq!(csv_fields("a,,b").unwrap(), ["a", "", "b"]);
        assert!(csv_fields("a,\"b").is_err());
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("level:7"), "\"level:7\"");
        assert_eq!(json_str("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
        assert_eq!(xml_text("a<b&c>"), "a&lt;b&amp;c&gt;");
    }
}
