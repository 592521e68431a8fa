//! Writing JSON values as YAML text that reads as if a person wrote it: plain scalars where
//! every common reader reads them back unchanged ([`plain_is_safe`]), block collections and
//! literal block scalars for multi-line strings ([`literal`]) by default.

use serde_json::Value;

pub use super::literal::literal;
pub use super::plain::plain_is_safe;

/// Quoting preference for strings, taken from the text being edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quote {
    /// Plain when safe, else double quotes.
    #[default]
    Plain,
    Single,
    Double,
}

/// A scalar (string, number, boolean, null) as YAML text.
pub fn scalar(value: &Value, quote: Quote) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s, quote),
        Value::Array(_) | Value::Object(_) => flow(value),
    }
}

fn string(text: &str, quote: Quote) -> String {
    match quote {
        Quote::Plain if plain_is_safe(text) => text.to_owned(),
        Quote::Single
            if !text.contains(['\n', '\r', '\t']) && !text.chars().any(char::is_control) =>
        {
            format!("'{}'", text.replace('\'', "''"))
        }
        _ => double_quoted(text),
    }
}

/// JSON string syntax is valid YAML double-quoted syntax.
fn double_quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("\"{}\"", text.escape_default()))
}

/// A value in flow style, on one line: `{a: 1, b: [x, y]}`.
pub fn flow(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(map) => {
            let inner: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", key(k), flow(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        scalar_value => scalar(scalar_value, Quote::Plain),
    }
}

/// A mapping key.
pub fn key(name: &str) -> String {
    string(name, Quote::Plain)
}

/// Whether `value` is written on the line of its key (`key: value`) rather than below it.
pub fn is_inline(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => true,
    }
}

/// The lines of a block collection, each indented by `indent` spaces, without a final newline.
/// Scalars and empty collections render inline.
pub fn block(value: &Value, indent: usize) -> String {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) if !map.is_empty() => map
            .iter()
            .map(|(k, v)| entry(&pad, &key(k), v, indent))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|item| format!("{pad}- {}", item_text(item, indent + 2)))
            .collect::<Vec<_>>()
            .join("\n"),
        other => format!("{pad}{}", flow(other)),
    }
}

/// `key: value` at `pad`, with a block value on the following lines.
pub fn entry(pad: &str, key: &str, value: &Value, indent: usize) -> String {
    // The key sits at the parent mapping's indentation, so the content's indicator is 2.
    if let Some(block) = value.as_str().and_then(|t| literal(t, indent + 2, Some(2))) {
        format!("{pad}{key}: {}{}", block.header, block.body)
    } else if is_inline(value) {
        format!("{pad}{key}: {}", flow(value))
    } else {
        format!("{pad}{key}:\n{}", block(value, indent + 2))
    }
}

/// A sequence item's text after `- `: a mapping continues on the item's own line. A multi-line
/// string is a literal block whose lines start at `indent`.
pub fn item_text(value: &Value, indent: usize) -> String {
    match value {
        Value::String(text) => literal(text, indent, None).map_or_else(
            || flow(value),
            |block| format!("{}{}", block.header, block.body),
        ),
        Value::Object(map) if !map.is_empty() => {
            let text = block(value, indent);
            text.trim_start().to_owned()
        }
        Value::Array(items) if !items.is_empty() => block(value, indent).trim_start().to_owned(),
        other => flow(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_only_when_it_reads_back_the_same() {
        for safe in ["hello", "gather_sources", "a b c", "3x", "hello world"] {
            assert!(plain_is_safe(safe), "{safe:?}");
        }
        for unsafe_text in [
            "",
            " a",
            "true",
            "1.5",
            "null",
            "~",
            "a: b",
            "- x",
            "#c",
            "x #c",
            "{a}",
            "a,b",
            "*x",
            "é\n",
            "yes",
            "Hello, world",
        ] {
            assert!(!plain_is_safe(unsafe_text), "{unsafe_text:?}");
        }
        assert_eq!(scalar(&json!("1.5"), Quote::Plain), "\"1.5\"");
        assert_eq!(scalar(&json!("it's"), Quote::Single), "'it''s'");
        assert_eq!(scalar(&json!("a\nb"), Quote::Single), "\"a\\nb\"");
    }

    /// Issue #13, defect 2: every form a YAML 1.1 reader (PyYAML, the 1.1 type repository) or
    /// js-yaml resolves to something other than the same string stays quoted.
    #[test]
    fn plain_only_when_every_reader_reads_the_same_string() {
        for tricky in [
            "2026-03-31",
            "2026-3-31 10:00:00",
            "2026-03-31T10:00:00Z",
            "2026-03-31t10:00:00.5 +02:00",
            "1:30",
            "-1:30:05",
            "190:20:30.15",
            "1_000",
            "1_",
            "0b101",
            "0b1_0",
            "0o17",
            "0x_1F",
            "017",
            "1_0.5",
            ".5",
            "1.",
            "1e5",
            "y",
            "Y",
            "n",
            "N",
            "yes",
            "No",
            "ON",
            "off",
            "Off",
            "=",
            "<<",
            "~",
            "Null",
            ".NaN",
            "-.inf",
            "a\u{2028}b",
            "a\u{85}b",
        ] {
            assert!(!plain_is_safe(tricky), "{tricky:?} must stay quoted");
        }
        for harmless in [
            "1.2.3",
            "2026-3-1",
            "2026-03-31 release",
            "1:60",
            "1:3_0",
            "_1",
            "yes please",
            "y2k",
            "onward",
            "0b2",
            "0x",
            "1e",
            "==",
            "<<<",
            "v1.0",
            "30s",
        ] {
            assert!(plain_is_safe(harmless), "{harmless:?} can be plain");
        }
    }

    #[test]
    fn block_and_flow_rendering() {
        let value =
            json!({"needs": ["a", "b"], "confidence": {"minimum": 0.6}, "tags": [], "x": "1"});
        assert_eq!(
            block(&value, 2),
            "  needs:\n    - a\n    - b\n  confidence:\n    minimum: 0.6\n  tags: []\n  x: \"1\""
        );
        assert_eq!(
            flow(&value),
            "{needs: [a, b], confidence: {minimum: 0.6}, tags: [], x: \"1\"}"
        );
        let items = json!([{"name": "q", "type": "string"}, "plain"]);
        assert_eq!(block(&items, 0), "- name: q\n  type: string\n- plain");
    }
}
