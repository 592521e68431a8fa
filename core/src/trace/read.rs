//! Reading a trace from JSON Lines (what `logicmd run --trace` writes): one event a line, each
//! a JSON object with an `event` name. Bounded in bytes and events; a bad line is named by its
//! number.

use serde_json::Value;

/// Bounds on a trace read from outside.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceLimits {
    /// The largest trace text read, in bytes.
    pub max_bytes: usize,
    /// The most events read.
    pub max_events: usize,
}

impl TraceLimits {
    /// 256 MiB and a million events: ten times the 100,000-event traces checks are measured on.
    pub const DEFAULT: TraceLimits = TraceLimits {
        max_bytes: 256 * 1024 * 1024,
        max_events: 1_000_000,
    };
}

/// A trace: its events, and the line of the file each came from (1-based).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trace {
    /// The events in file order, each a JSON object with an `event` name.
    pub events: Vec<Value>,
    /// For each event, the 1-based line of the file it came from (blank lines are skipped).
    pub lines: Vec<usize>,
}

/// Why a trace could not be read; `line` is 1-based when a line is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// The 1-based line to blame, if one is.
    pub line: Option<usize>,
    /// What is wrong, for a person to read.
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ReadError {}

fn at_line(line: usize, message: String) -> ReadError {
    ReadError {
        line: Some(line),
        message,
    }
}

/// Reads JSON Lines: blank lines are skipped, a UTF-8 byte order mark and `\r\n` endings are
/// accepted.
pub fn read_jsonl(bytes: &[u8], limits: TraceLimits) -> Result<Trace, ReadError> {
    if bytes.len() > limits.max_bytes {
        return Err(ReadError {
            line: None,
            message: format!(
                "the trace is larger than the limit of {} bytes",
                limits.max_bytes
            ),
        });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut trace = Trace::default();
    for (index, line) in bytes.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if trace.events.len() == limits.max_events {
            return Err(at_line(
                number,
                format!(
                    "the trace has more than {} events (the limit)",
                    limits.max_events
                ),
            ));
        }
        trace.events.push(read_line(line, number)?);
        trace.lines.push(number);
    }
    Ok(trace)
}

fn read_line(line: &[u8], number: usize) -> Result<Value, ReadError> {
    let text = std::str::from_utf8(line).map_err(|error| {
        let column = String::from_utf8_lossy(&line[..error.valid_up_to()])
            .chars()
            .count()
            + 1;
        at_line(
            number,
            format!("not UTF-8 text (the first invalid byte is at column {column})"),
        )
    })?;
    let value: Value = serde_json::from_str(text).map_err(|error| {
        let message = error.to_string();
        // serde_json ends its message with the place; the line is ours, the column is kept.
        let message = message
            .rfind(" at line ")
            .map_or(message.as_str(), |end| &message[..end]);
        at_line(
            number,
            format!("column {}: not JSON: {message}", error.column()),
        )
    })?;
    match value.get("event") {
        Some(Value::String(_)) => Ok(value),
        _ => Err(at_line(
            number,
            format!(
                "expected a trace event, a JSON object with an `event` name; found {}",
                describe(&value)
            ),
        )),
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Object(map) if map.contains_key("event") => {
            "an object whose `event` is not a string"
        }
        Value::Object(_) => "an object without `event`",
        Value::Array(_) => "an array",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(bytes: &[u8]) -> String {
        read_jsonl(bytes, TraceLimits::DEFAULT)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_events_with_their_lines() {
        let trace = read_jsonl(
            b"\xEF\xBB\xBF{\"event\":\"run_started\"}\r\n\n  \n{\"event\":\"run_finished\",\"status\":\"completed\"}",
            TraceLimits::DEFAULT,
        )
        .unwrap();
        assert_eq!(trace.lines, [1, 4]);
        assert_eq!(trace.events[1]["status"], "completed");
        assert_eq!(
            read_jsonl(b"", TraceLimits::DEFAULT).unwrap(),
            Trace::default()
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        assert_eq!(
            error(b"{\"event\":\"a\"}\n{\"event\": }\n"),
            "line 2: column 11: not JSON: expected value"
        );
        assert_eq!(
            error(b"{\"event\":\"a\"}\n[1]"),
            "line 2: expected a trace event, a JSON object with an `event` name; found an array"
        );
        assert_eq!(
            error(b"{\"seq\":1}"),
            "line 1: expected a trace event, a JSON object with an `event` name; found an object without `event`"
        );
        assert_eq!(
            error(b"{\"event\":3}"),
            "line 1: expected a trace event, a JSON object with an `event` name; found an object whose `event` is not a string"
        );
        assert_eq!(
            error(b"\n\n{\"event\":\"caf\xe9\"}"),
            "line 3: not UTF-8 text (the first invalid byte is at column 14)"
        );
        assert_eq!(
            error(b"{\"event\":\"a\"} trailing"),
            "line 1: column 15: not JSON: trailing characters"
        );
    }

    #[test]
    fn size_and_event_count_are_bounded() {
        let limits = TraceLimits {
            max_bytes: 40,
            max_events: 2,
        };
        let three = b"{\"event\":\"a\"}\n{\"event\":\"b\"}\n{\"event\":\"c\"}\n";
        assert_eq!(
            read_jsonl(three, limits).unwrap_err().to_string(),
            "the trace is larger than the limit of 40 bytes"
        );
        let limits = TraceLimits {
            max_bytes: 1000,
            max_events: 2,
        };
        assert_eq!(
            read_jsonl(three, limits).unwrap_err().to_string(),
            "line 3: the trace has more than 2 events (the limit)"
        );
    }
}
