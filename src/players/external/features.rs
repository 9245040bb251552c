//! XBoard `feature` lines, `feature usermove=1 myname="Fairy-Max 5.0" done=1`: the one reader
//! of their name/value pairs, used by the XBoard client here and by the protocol's
//! `Response::parse`; `Display` writes a value as the protocol wants it.

use std::borrow::Cow;
use std::fmt;
use thiserror::Error;

/// A feature's value: integers bare, strings quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FeatureValue {
    Int(i64),
    Str(String),
    /// A bare value that is no integer (`variants=normal`): not what the protocol allows, but
    /// some engines write it, and the client takes it as text.
    Word(String),
}

impl FeatureValue {
    /// The value as text, as an engine's feature is compared (`usermove` is on when "1").
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            FeatureValue::Int(n) => Cow::Owned(n.to_string()),
            FeatureValue::Str(s) | FeatureValue::Word(s) => Cow::Borrowed(s),
        }
    }
}

impl fmt::Display for FeatureValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FeatureValue::Int(n) => write!(f, "{n}"),
            // xboard 4.9.1 only takes quoted strings; a quote inside would end the value early.
            FeatureValue::Str(s) => write!(f, "\"{}\"", s.replace('"', "'")),
            FeatureValue::Word(s) => f.write_str(s),
        }
    }
}

/// The part of a feature line that is no `name=value` (a name without `=`, a string without
/// its closing quote), with the pairs read before it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("malformed feature text '{rest}'")]
pub struct MalformedFeatures {
    pub read: Vec<(String, FeatureValue)>,
    pub rest: String,
}

/// The name/value pairs of the text after `feature `, in order.
pub fn parse_features(text: &str) -> Result<Vec<(String, FeatureValue)>, MalformedFeatures> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let malformed = |read: Vec<_>| MalformedFeatures { read, rest: rest.to_string() };
        let Some((name, after)) = rest.split_once('=') else { return Err(malformed(out)) };
        let (value, tail) = match after.strip_prefix('"') {
            Some(quoted) => match quoted.split_once('"') {
                Some((v, tail)) => (FeatureValue::Str(v.to_string()), tail),
                None => return Err(malformed(out)),
            },
            None => {
                let end = after.find(char::is_whitespace).unwrap_or(after.len());
                let word = &after[..end];
                let value = word.parse().map_or_else(|_| FeatureValue::Word(word.to_string()), FeatureValue::Int);
                (value, &after[end..])
            }
        };
        out.push((name.trim().to_string(), value));
        rest = tail.trim_start();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(name: &str, value: FeatureValue) -> (String, FeatureValue) {
        (name.to_string(), value)
    }

    #[test]
    fn features_are_read_with_quotes() {
        assert_eq!(
            parse_features("usermove=1 myname=\"Fairy-Max 5.0b\" setboard=1 variants=normal done=1"),
            Ok(vec![
                pair("usermove", FeatureValue::Int(1)),
                pair("myname", FeatureValue::Str("Fairy-Max 5.0b".into())),
                pair("setboard", FeatureValue::Int(1)),
                pair("variants", FeatureValue::Word("normal".into())),
                pair("done", FeatureValue::Int(1)),
            ])
        );
        assert_eq!(parse_features(""), Ok(Vec::new()));
        assert_eq!(FeatureValue::Int(1).text(), "1");
        assert_eq!(FeatureValue::Str("Hash -spin 16 1 1024".into()).text(), "Hash -spin 16 1 1024");
    }

    #[test]
    fn what_cannot_be_read_is_kept_apart() {
        let err = parse_features("ping=1 myname=\"AgentChess done=1").unwrap_err();
        assert_eq!(err.read, [pair("ping", FeatureValue::Int(1))]);
        assert_eq!(err.rest, "myname=\"AgentChess done=1");
        let err = parse_features("ping=1 stray").unwrap_err();
        assert_eq!((err.read.len(), err.rest.as_str()), (1, "stray"));
    }

    #[test]
    fn values_are_written_as_the_protocol_wants() {
        for (value, text) in [
            (FeatureValue::Int(-3), "-3"),
            (FeatureValue::Str("a \"b\"".into()), "\"a 'b'\""),
            (FeatureValue::Word("normal".into()), "normal"),
        ] {
            assert_eq!(value.to_string(), text);
        }
    }
}
