//! Atoms of trace formulas: `event_name` or `event_name(field=value, other.path!=value, …)`.
//! An atom holds at an event whose `event` is the name and whose fields pass every test.
//! Fields are dotted paths into the event (`output.ok`, `plan.nodes.0.id`); values are JSON
//! literals (`"failed"`, `3`, `true`, `null`, `[1, 2]`) or bare words read as strings
//! (`status=failed`). Tests: `=` (also `==`), `!=`, and for numbers `<`, `<=`, `>`, `>=`.

use serde_json::Value;

use super::ltl::ParseError;

/// One field test of an atom.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FieldTest {
    /// The dotted path, split (`output.ok` → `["output", "ok"]`).
    pub(crate) path: Vec<String>,
    pub(crate) op: Compare,
    pub(crate) value: Value,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compare {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Compare {
    fn symbol(self) -> &'static str {
        match self {
            Compare::Eq => "=",
            Compare::Ne => "!=",
            Compare::Lt => "<",
            Compare::Le => "<=",
            Compare::Gt => ">",
            Compare::Ge => ">=",
        }
    }
}

/// `event_name(field=value, …)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Atom {
    pub(crate) event: String,
    pub(crate) tests: Vec<FieldTest>,
}

impl std::fmt::Display for Atom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.event)?;
        if self.tests.is_empty() {
            return Ok(());
        }
        let tests: Vec<String> = self
            .tests
            .iter()
            .map(|t| format!("{}{}{}", t.path.join("."), t.op.symbol(), t.value))
            .collect();
        write!(f, "({})", tests.join(", "))
    }
}

impl Atom {
    /// Whether every field test holds at `event` (its name aside).
    pub(crate) fn fields_hold(&self, event: &Value) -> bool {
        self.tests.iter().all(|test| test.holds(event))
    }
}

impl FieldTest {
    fn holds(&self, event: &Value) -> bool {
        let found = field(event, &self.path);
        match (self.op, found) {
            (Compare::Eq, Some(value)) => same(value, &self.value),
            (Compare::Eq, None) => false,
            // A missing field is not equal to anything.
            (Compare::Ne, found) => !found.is_some_and(|value| same(value, &self.value)),
            (op, Some(Value::Number(a))) => match (a.as_f64(), self.value.as_f64()) {
                (Some(a), Some(b)) => match op {
                    Compare::Lt => a < b,
                    Compare::Le => a <= b,
                    Compare::Gt => a > b,
                    _ => a >= b,
                },
                _ => false,
            },
            _ => false,
        }
    }
}

/// The value at a dotted path; a segment of digits indexes an array.
pub(crate) fn field<'a>(event: &'a Value, path: &[String]) -> Option<&'a Value> {
    let mut at = event;
    for segment in path {
        at = match at {
            Value::Object(map) => map.get(segment)?,
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(at)
}

/// JSON equality where numbers compare by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        _ => a == b,
    }
}

fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Reads a name (`[A-Za-z_][A-Za-z0-9_]*`) at byte `at`; its end, or `None`.
pub(crate) fn name_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let first = rest.chars().next()?;
    if !is_name_start(first) {
        return None;
    }
    Some(at + rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len()))
}

fn skip_spaces(text: &str, at: usize) -> usize {
    let rest = &text[at..];
    at + rest
        .find(|c: char| !c.is_whitespace())
        .unwrap_or(rest.len())
}

/// Reads the field tests of an atom: `text[at]` is `(`. Returns the tests and the byte after
/// the closing `)`.
pub(crate) fn parse_tests(text: &str, at: usize) -> Result<(Vec<FieldTest>, usize), ParseError> {
    let mut tests = Vec::new();
    let mut at = skip_spaces(text, at + 1);
    if text[at..].starts_with(')') {
        return Ok((tests, at + 1));
    }
    loop {
        let (test, end) = parse_test(text, at)?;
        tests.push(test);
        at = skip_spaces(text, end);
        match text[at..].chars().next() {
            Some(',') => at = skip_spaces(text, at + 1),
            Some(')') => return Ok((tests, at + 1)),
            _ => {
                return Err(ParseError::at(
                    text,
                    at,
                    "expected `,` or `)` after a field test",
                ))
            }
        }
    }
}

fn parse_test(text: &str, at: usize) -> Result<(FieldTest, usize), ParseError> {
    let mut path = Vec::new();
    let mut end = at;
    loop {
        let segment_end = name_end(text, end)
            .or_else(|| digits_end(text, end).filter(|_| !path.is_empty()))
            .ok_or_else(|| {
                ParseError::at(
                    text,
                    end,
                    "expected a field name (letters, digits and `_`, dotted for nested fields)",
                )
            })?;
        path.push(text[end..segment_end].to_owned());
        end = segment_end;
        if !text[end..].starts_with('.') {
            break;
        }
        end += 1;
    }
    let at_op = skip_spaces(text, end);
    let rest = &text[at_op..];
    let (op, width) = [
        ("==", Compare::Eq),
        ("!=", Compare::Ne),
        ("<=", Compare::Le),
        (">=", Compare::Ge),
        ("=", Compare::Eq),
        ("<", Compare::Lt),
        (">", Compare::Gt),
    ]
    .iter()
    .find(|(symbol, _)| rest.starts_with(symbol))
    .map(|(symbol, op)| (*op, symbol.len()))
    .ok_or_else(|| {
        ParseError::at(
            text,
            at_op,
            "expected a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`) after the field name",
        )
    })?;
    let at_value = skip_spaces(text, at_op + width);
    let (value, end) = parse_value(text, at_value)?;
    if !matches!(op, Compare::Eq | Compare::Ne) && !value.is_number() {
        return Err(ParseError::at(
            text,
            at_value,
            "`<`, `<=`, `>` and `>=` compare numbers: expected a number",
        ));
    }
    Ok((FieldTest { path, op, value }, end))
}

fn digits_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    (end > 0).then_some(at + end)
}

/// A JSON literal or a bare word at `at`, and the byte after it.
fn parse_value(text: &str, at: usize) -> Result<(Value, usize), ParseError> {
    const EXPECTED: &str = "expected a value: a JSON literal (\"text\", 3, true, false, null, [..], {..}) or a bare word";
    let rest = &text[at..];
    let end = match rest.chars().next() {
        Some('"') => string_end(rest).map(|e| at + e),
        Some('[' | '{') => bracket_end(rest).map(|e| at + e),
        Some(_) => {
            let len = rest
                .find(|c: char| c == ',' || c == ')' || c.is_whitespace())
                .unwrap_or(rest.len());
            (len > 0).then_some(at + len)
        }
        None => None,
    }
    .ok_or_else(|| ParseError::at(text, at, EXPECTED))?;
    let token = &text[at..end];
    match serde_json::from_str::<Value>(token) {
        Ok(value) => Ok((value, end)),
        Err(error) if token.starts_with(['"', '[', '{']) => Err(ParseError::at(
            text,
            at,
            &format!("not a JSON value: {error}"),
        )),
        Err(_) if is_bare_word(token) => Ok((Value::String(token.to_owned()), end)),
        Err(_) => Err(ParseError::at(text, at, EXPECTED)),
    }
}

/// Words written without quotes: `failed`, `verify_claims`, `researcher/search`, `tree:route`.
fn is_bare_word(token: &str) -> bool {
    token.starts_with(|c: char| c.is_alphabetic() || c == '_')
        && token
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':'))
}

/// The byte after the closing quote of the JSON string `text` starts with.
fn string_end(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices().skip(1) {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// The byte after the bracket that closes the one `text` starts with (strings skipped).
fn bracket_end(text: &str) -> Option<usize> {
    // Brackets and quotes are ASCII, which never occurs inside a multi-byte UTF-8 character.
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => {
                i += string_end(&text[i..])?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn atom(text: &str) -> Atom {
        let end = name_end(text, 0).unwrap();
        let tests = if text[end..].starts_with('(') {
            parse_tests(text, end).unwrap().0
        } else {
            Vec::new()
        };
        Atom {
            event: text[..end].to_owned(),
            tests,
        }
    }

    fn holds(text: &str, event: Value) -> bool {
        let name = event["event"].as_str().unwrap_or("").to_owned();
        let atom = atom(text);
        name == atom.event && atom.fields_hold(&event)
    }

    #[test]
    fn an_atom_matches_the_event_name_and_every_field_test() {
        let event = json!({"event": "node_finished", "node": "verify_claims", "status": "succeeded", "output": {"ok": true, "items": [1, 2.5]}});
        assert!(holds("node_finished", event.clone()));
        assert!(!holds("node_started", event.clone()));
        assert!(holds(
            r#"node_finished(node="verify_claims")"#,
            event.clone()
        ));
        assert!(holds(
            "node_finished(node=verify_claims, status=succeeded)",
            event.clone()
        ));
        assert!(!holds(
            "node_finished(node=verify_claims, status=failed)",
            event.clone()
        ));
        assert!(holds("node_finished(output.ok=true)", event.clone()));
        assert!(holds("node_finished(output.items.1 = 2.5)", event.clone()));
        assert!(holds("node_finished(output.items.0 == 1.0)", event.clone()));
        assert!(holds("node_finished(output.items=[1, 2.5])", event.clone()));
        assert!(holds(
            "node_finished(output.items.1 > 2, output.items.1 <= 2.5)",
            event.clone()
        ));
        assert!(!holds("node_finished(output.items.1 < 2)", event.clone()));
        assert!(!holds("node_finished(status > 2)", event.clone()));
        // A missing field equals nothing, so `!=` holds and `=` does not.
        assert!(holds("node_finished(missing!=1)", event.clone()));
        assert!(!holds("node_finished(missing=null)", event.clone()));
        assert!(holds("node_finished(status!=failed)", event.clone()));
        assert!(holds(
            r#"node_finished(output={"ok": true, "items": [1, 2.5]})"#,
            event
        ));
    }

    #[test]
    fn values_are_json_literals_or_bare_words() {
        let parsed = atom(r#"e(a="x,)y", b=-1.5e2, c=null, d=tree:route, e={"k": "]"})"#);
        let values: Vec<&Value> = parsed.tests.iter().map(|t| &t.value).collect();
        assert_eq!(
            values,
            [
                &json!("x,)y"),
                &json!(-150.0),
                &json!(null),
                &json!("tree:route"),
                &json!({"k": "]"})
            ]
        );
        assert_eq!(
            parsed.to_string(),
            r#"e(a="x,)y", b=-150.0, c=null, d="tree:route", e={"k":"]"})"#
        );
    }

    #[test]
    fn bad_field_tests_name_the_column() {
        let error = |text: &str| {
            let end = name_end(text, 0).unwrap();
            parse_tests(text, end).unwrap_err().to_string()
        };
        assert_eq!(
            error("e(=1)"),
            "column 3: expected a field name (letters, digits and `_`, dotted for nested fields)"
        );
        assert_eq!(
            error("e(a 1)"),
            "column 5: expected a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`) after the field name"
        );
        assert_eq!(
            error("e(a=\"open"),
            "column 5: expected a value: a JSON literal (\"text\", 3, true, false, null, [..], {..}) or a bare word"
        );
        assert_eq!(
            error("e(a>x)"),
            "column 5: `<`, `<=`, `>` and `>=` compare numbers: expected a number"
        );
        assert_eq!(
            error("e(a=1 b=2)"),
            "column 7: expected `,` or `)` after a field test"
        );
        assert_eq!(
            error("e(a=[1,)"),
            "column 5: expected a value: a JSON literal (\"text\", 3, true, false, null, [..], {..}) or a bare word"
        );
        assert!(error("e(a={\"k\" 1})").starts_with("column 5: not a JSON value: "));
    }
}
