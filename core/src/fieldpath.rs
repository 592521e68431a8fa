//! Dotted field paths as LOGIC.md writes them in `nodes.*.overrides` and `visual.inspector[].key`:
//! `reasoning.max_iterations`, `quality_gates.pre_output[0].severity`.

use serde_json::{Map, Value};

use crate::json::pointer_push;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    Key(String),
    Index(usize),
}

/// A parsed dotted path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldPath(pub(crate) Vec<Segment>);

impl FieldPath {
    /// Parses `a.b[0].c`. A key that holds `.`, `[` or `]` (spec §9.1's override keys such as
    /// `reasoning.max_iterations`) is written quoted in brackets: `overrides["reasoning.x"]` or
    /// `overrides['reasoning.x']` (a backslash escapes the quote or itself).
    pub(crate) fn parse(text: &str) -> Result<FieldPath, String> {
        if text.is_empty() {
            return Err("empty field path".to_owned());
        }
        let chars: Vec<char> = text.chars().collect();
        let mut segments = Vec::new();
        let mut at = 0;
        let mut key_expected = true;
        while at < chars.len() {
            match chars[at] {
                '[' => {
                    let (segment, next) = bracket(text, &chars, at)?;
                    if segments.is_empty() && matches!(segment, Segment::Index(_)) {
                        return Err(format!("`{text}`: a path starts with a field name"));
                    }
                    segments.push(segment);
                    at = next;
                    key_expected = false;
                }
                '.' if !key_expected => {
                    at += 1;
                    key_expected = true;
                    if at == chars.len() {
                        return Err(format!(
                            "`{text}`: expected a field name after the last `.`"
                        ));
                    }
                }
                _ if key_expected => {
                    let end = (at..chars.len())
                        .find(|&i| matches!(chars[i], '.' | '['))
                        .unwrap_or(chars.len());
                    let key: String = chars[at..end].iter().collect();
                    if key.is_empty() || key.contains([']', '"', '\'']) {
                        return Err(format!(
                            "`{text}`: expected a field name in part {} (a key with `.`, `[`, `]` or quotes is written `[\"...\"]`)",
                            segments.len() + 1
                        ));
                    }
                    segments.push(Segment::Key(key));
                    at = end;
                    key_expected = false;
                }
                other => {
                    let rest: String = chars[at..].iter().collect();
                    return Err(format!(
                        "`{text}`: unexpected `{other}` in `{rest}`: expected `.` or `[`"
                    ));
                }
            }
        }
        Ok(FieldPath(segments))
    }

    /// The path as it is written: plain keys joined by `.`, others quoted in brackets.
    pub(crate) fn to_text(&self) -> String {
        self.prefix(self.0.len())
    }

    /// The JSON Pointer of this path.
    pub(crate) fn to_pointer(&self) -> String {
        self.0
            .iter()
            .fold(String::new(), |pointer, segment| match segment {
                Segment::Key(key) => pointer_push(&pointer, key),
                Segment::Index(i) => format!("{pointer}/{i}"),
            })
    }

    /// Sets the value at this path in `target`, creating missing objects along the way. An index
    /// must address an existing item (or the next one, to append).
    pub(crate) fn set(&self, target: &mut Value, value: Value) -> Result<(), String> {
        let mut current = target;
        for (position, segment) in self.0.iter().enumerate() {
            let last = position + 1 == self.0.len();
            current = match segment {
                Segment::Key(key) => {
                    if current.is_null() {
                        *current = Value::Object(Map::new());
                    }
                    let Value::Object(map) = current else {
                        return Err(format!(
                            "cannot set `{key}`: `{}` is not an object",
                            self.prefix(position)
                        ));
                    };
                    let slot = map.entry(key.clone()).or_insert(Value::Null);
                    if last {
                        *slot = value;
                        return Ok(());
                    }
                    slot
                }
                Segment::Index(index) => {
                    let Value::Array(items) = current else {
                        return Err(format!(
                            "cannot index `{}`: it is not a list",
                            self.prefix(position)
                        ));
                    };
                    if *index == items.len() {
                        items.push(Value::Null);
                    }
                    let len = items.len();
                    let Some(slot) = items.get_mut(*index) else {
                        return Err(format!(
                            "`{}` has {len} item(s); index {index} is out of range",
                            self.prefix(position)
                        ));
                    };
                    if last {
                        *slot = value;
                        return Ok(());
                    }
                    slot
                }
            };
        }
        Ok(())
    }

    fn prefix(&self, end: usize) -> String {
        let mut text = String::new();
        for segment in &self.0[..end] {
            match segment {
                Segment::Key(key) if !is_plain_key(key) => {
                    text.push('[');
                    text.push_str(&serde_json::to_string(key).unwrap_or_default());
                    text.push(']');
                }
                Segment::Key(key) if text.is_empty() => text.push_str(key),
                Segment::Key(key) => {
                    text.push('.');
                    text.push_str(key);
                }
                Segment::Index(i) => text.push_str(&format!("[{i}]")),
            }
        }
        text
    }
}

/// Whether `key` can be written without brackets.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty() && !key.contains(['.', '[', ']', '"', '\''])
}

/// The bracketed segment starting at `chars[open]` (`[0]`, `["a.b"]`, `['a.b']`) and where the
/// text goes on after it.
fn bracket(text: &str, chars: &[char], open: usize) -> Result<(Segment, usize), String> {
    let unclosed = || format!("`{text}`: `[` without a closing `]`");
    match chars.get(open + 1) {
        Some(&quote @ ('"' | '\'')) => {
            let mut key = String::new();
            let mut at = open + 2;
            loop {
                match chars.get(at) {
                    None => return Err(format!("`{text}`: the quoted key is never closed")),
                    Some('\\') => {
                        key.push(*chars.get(at + 1).ok_or_else(unclosed)?);
                        at += 2;
                    }
                    Some(&c) if c == quote => break,
                    Some(&c) => {
                        key.push(c);
                        at += 1;
                    }
                }
            }
            if chars.get(at + 1) != Some(&']') {
                return Err(unclosed());
            }
            Ok((Segment::Key(key), at + 2))
        }
        _ => {
            let close = (open + 1..chars.len())
                .find(|&i| chars[i] == ']')
                .ok_or_else(unclosed)?;
            let inner: String = chars[open + 1..close].iter().collect();
            let index = inner
                .parse::<usize>()
                .map_err(|_| format!("`{text}`: `[{inner}]` is not an array index (a key is quoted: `[\"{inner}\"]`)"))?;
            Ok((Segment::Index(index), close + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_keys_and_indices() {
        let path = FieldPath::parse("quality_gates.pre_output[0].severity").unwrap();
        assert_eq!(
            path.0,
            vec![
                Segment::Key("quality_gates".into()),
                Segment::Key("pre_output".into()),
                Segment::Index(0),
                Segment::Key("severity".into())
            ]
        );
        assert_eq!(path.to_pointer(), "/quality_gates/pre_output/0/severity");
    }

    #[test]
    fn rejects_malformed_paths() {
        for bad in [
            "",
            ".a",
            "a..b",
            "a.",
            "a[",
            "a[x]",
            "a[0]b",
            "[0]",
            "a[\"b",
            "a[\"b\"",
            "a[\"b\"]c",
            "a]b",
            "a'b",
        ] {
            assert!(FieldPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn quoted_keys_hold_dots_and_brackets() {
        let key = |k: &str| Segment::Key(k.to_owned());
        for (text, segments) in [
            (
                "overrides[\"reasoning.max_iterations\"]",
                vec![key("overrides"), key("reasoning.max_iterations")],
            ),
            (
                "o['quality_gates.pre_output[0].severity'].x",
                vec![
                    key("o"),
                    key("quality_gates.pre_output[0].severity"),
                    key("x"),
                ],
            ),
            ("[\"a.b\"][2]", vec![key("a.b"), Segment::Index(2)]),
            (
                "a['it\\'s'][\"q\\\"\"]",
                vec![key("a"), key("it's"), key("q\"")],
            ),
        ] {
            let path = FieldPath::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(path.0, segments, "{text}");
            // Written back, it reads the same.
            assert_eq!(FieldPath::parse(&path.to_text()).unwrap(), path, "{text}");
        }
        assert_eq!(
            FieldPath::parse("nodes.r.overrides['reasoning.max_iterations']")
                .unwrap()
                .to_pointer(),
            "/nodes/r/overrides/reasoning.max_iterations"
        );
    }

    #[test]
    fn sets_values_creating_objects() {
        let mut doc = json!({"quality_gates": {"pre_output": [{"severity": "error"}]}});
        FieldPath::parse("quality_gates.pre_output[0].severity")
            .unwrap()
            .set(&mut doc, json!("warning"))
            .unwrap();
        FieldPath::parse("reasoning.max_iterations")
            .unwrap()
            .set(&mut doc, json!(5))
            .unwrap();
        assert_eq!(doc["quality_gates"]["pre_output"][0]["severity"], "warning");
        assert_eq!(doc["reasoning"]["max_iterations"], 5);
        let err = FieldPath::parse("quality_gates.pre_output[3].x")
            .unwrap()
            .set(&mut doc, json!(1))
            .unwrap_err();
        assert!(err.contains("out of range"), "{err}");
    }
}
