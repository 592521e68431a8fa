//! An incremental reader of a streamed chat completion (server-sent events): bytes in as they
//! arrive, in chunks cut anywhere (inside a line, a UTF-8 character or a CRLF); each `data:`
//! event's delta out as text. `[DONE]` ends the stream; the last chunk's `usage` is kept. A
//! stream that ends before `[DONE]`, or without a finish reason, was cut: an error.

use serde_json::Value;

use super::completion::{excerpt, usage_of, Completion};
use super::failure;
use super::secret::{redact, Secret};
use crate::run::action::{ModelFailure, Usage};

/// The longest line a stream may send (one event's data).
const MAX_LINE: usize = 4 * 1024 * 1024;
/// The most a stream may send in all.
const MAX_STREAM: usize = 32 * 1024 * 1024;

/// The incremental reader of one streamed chat completion (see the module docs); bounded at 4 MiB a
/// line and 32 MiB a stream.
#[derive(Debug, Default)]
pub struct StreamParser {
    /// Bytes of a line not yet ended.
    line: Vec<u8>,
    /// The data lines of the event being read.
    data: Option<String>,
    text: String,
    usage: Option<Usage>,
    finish_reason: Option<String>,
    /// The response's `model` and `id`, from the first chunk that names them.
    model: Option<String>,
    id: Option<String>,
    done: bool,
    received: usize,
    events: usize,
    /// How much of `text` has been handed out as deltas (bytes).
    shown: usize,
    secret: Option<Secret>,
}

impl StreamParser {
    /// A parser for one stream; `secret`, when given, is redacted from any error text.
    pub fn new(secret: Option<Secret>) -> StreamParser {
        StreamParser {
            secret,
            ..StreamParser::default()
        }
    }

    /// Reads `bytes`; returns the answer's text that arrived with them, delta by delta. After
    /// `[DONE]` the rest is ignored.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<String>, ModelFailure> {
        let mut deltas = Vec::new();
        if self.done {
            return Ok(deltas);
        }
        self.received = self.received.saturating_add(bytes.len());
        if self.received > MAX_STREAM {
            return Err(failure::invalid_response(&format!(
                "the stream is over the {} MiB limit",
                MAX_STREAM >> 20
            )));
        }
        self.line.extend_from_slice(bytes);
        let mut start = 0;
        while let Some(offset) = self.line[start..]
            .iter()
            .position(|b| *b == b'\n' || *b == b'\r')
        {
            let end = start + offset;
            // A CR at the end of what arrived may be the first half of a CRLF.
            if self.line[end] == b'\r' && end + 1 == self.line.len() {
                break;
            }
            let next = if self.line[end] == b'\r' && self.line[end + 1] == b'\n' {
                end + 2
            } else {
                end + 1
            };
            let line = self.line[start..end].to_vec();
            start = next;
            self.line_ended(&line, &mut deltas)?;
            if self.done {
                break;
            }
        }
        self.line.drain(..start);
        if self.line.len() > MAX_LINE {
            return Err(failure::invalid_response(&format!(
                "a stream line is over the {} MiB limit",
                MAX_LINE >> 20
            )));
        }
        Ok(deltas)
    }

    /// The text held back at the end of the stream (it could have been the start of the key),
    /// masked: call once the stream has ended, before [`StreamParser::finish`].
    pub fn flush_withheld(&mut self) -> Option<String> {
        let rest = match &self.secret {
            Some(secret) => secret.mask(&self.text[self.shown..]),
            None => self.text[self.shown..].to_owned(),
        };
        self.shown = self.text.len();
        (!rest.is_empty()).then_some(rest)
    }

    /// The text that can be shown now, a real key masked (the answer that holds it is refused
    /// anyway, see `Client::guard`). With such a key, the end of the text that could be the
    /// key's beginning is held back until what follows tells, so a key split across deltas is
    /// never shown in pieces; so is an occurrence that would be cut in two. A placeholder key
    /// is not a secret: the text is shown as it comes.
    fn release(&mut self) -> Option<String> {
        let Some(secret) = self.secret.as_ref().filter(|s| !s.is_placeholder()) else {
            let ready = self.text[self.shown..].to_owned();
            self.shown = self.text.len();
            return (!ready.is_empty()).then_some(ready);
        };
        let key = secret.expose();
        let text = self.text.as_str();
        let back = |from: usize| {
            let mut at = from.max(self.shown);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let mut end = (back(text.len().saturating_sub(key.len() - 1))..text.len())
            .find(|&i| text.is_char_boundary(i) && key.starts_with(&text[i..]))
            .unwrap_or(text.len());
        // An occurrence that `end` would cut moves `end` to its start (each move goes back).
        while let Some(start) =
            overlapping_start(text, back(end.saturating_sub(key.len() - 1)), end, key)
        {
            end = start;
        }
        let ready = secret.redact(&text[self.shown..end]);
        self.shown = end;
        (!ready.is_empty()).then_some(ready)
    }

    /// `[DONE]` has arrived: the driver may stop reading.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The whole answer, once the stream has ended; an error when it was cut.
    pub fn finish(mut self) -> Result<Completion, ModelFailure> {
        if !self.done {
            // An unterminated last line and event count (some servers close without the final
            // blank line), unless they do not parse: then the stream was cut inside them.
            let line = std::mem::take(&mut self.line);
            let mut deltas = Vec::new();
            let trimmed = line.strip_suffix(b"\r").unwrap_or(&line);
            let tail = self
                .line_ended(trimmed, &mut deltas)
                .and_then(|()| self.line_ended(b"", &mut deltas));
            match tail {
                Err(failure) if failure.kind != failure::kind::INVALID_RESPONSE => {
                    return Err(failure)
                }
                _ => {}
            }
        }
        let answered = match self.text.chars().count() {
            0 => "no answer yet".to_owned(),
            1 => "1 character of answer".to_owned(),
            n => format!("{n} characters of answer"),
        };
        if !self.done {
            return Err(failure::stream_interrupted(&format!(
                "the stream ended before `[DONE]` ({} events, {answered})",
                self.events
            )));
        }
        if self.finish_reason.is_none() {
            return Err(failure::stream_interrupted(&format!(
                "the stream ended without a finish reason ({} events, {answered})",
                self.events
            )));
        }
        Ok(Completion {
            text: std::mem::take(&mut self.text),
            usage: self.usage,
            finish_reason: self.finish_reason,
            model: self.model,
            id: self.id,
        })
    }

    fn line_ended(&mut self, line: &[u8], deltas: &mut Vec<String>) -> Result<(), ModelFailure> {
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                self.event(&data, deltas)?;
            }
            return Ok(());
        }
        let line = std::str::from_utf8(line).map_err(|error| {
            failure::invalid_response(&format!("a stream line is not UTF-8 ({error})"))
        })?;
        let (field, value) = match line.split_once(':') {
            // A comment (keep-alive).
            Some(("", _)) => return Ok(()),
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        if field == "data" {
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_owned()),
            }
        }
        // `event`, `id`, `retry` and unknown fields carry nothing a completion needs.
        Ok(())
    }

    fn event(&mut self, data: &str, deltas: &mut Vec<String>) -> Result<(), ModelFailure> {
        let number = self.events + 1;
        if data.trim() == "[DONE]" {
            self.events = number;
            self.done = true;
            return Ok(());
        }
        let value: Value = serde_json::from_str(data).map_err(|error| {
            failure::invalid_response(&redact(
                self.secret.as_ref(),
                &format!(
                    "stream event {number} is not JSON ({error}): {}",
                    excerpt(data)
                ),
            ))
        })?;
        self.events = number;
        if let Some(error) = value.get("error").filter(|e| !e.is_null()) {
            return Err(failure::from_error_object(error, self.secret.as_ref()));
        }
        if let Some(usage) = value.get("usage").and_then(usage_of) {
            self.usage = Some(usage);
        }
        for (key, slot) in [("model", &mut self.model), ("id", &mut self.id)] {
            if slot.is_none() {
                *slot = value.get(key).and_then(Value::as_str).map(str::to_owned);
            }
        }
        for choice in value
            .get("choices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0)
        {
            if let Some(delta) = choice
                .get("delta")
                .and_then(|d| d.get("content"))
                .and_then(Value::as_str)
                .filter(|d| !d.is_empty())
            {
                self.text.push_str(delta);
                if let Some(ready) = self.release() {
                    deltas.push(ready);
                }
            }
            if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
                self.finish_reason = Some(reason.to_owned());
            }
        }
        Ok(())
    }
}

/// The start of an occurrence of `key` in `text` that begins in `from..end` and ends after
/// `end`.
fn overlapping_start(text: &str, from: usize, end: usize, key: &str) -> Option<usize> {
    (from..end).find(|&at| {
        text.is_char_boundary(at) && text[at..].starts_with(key) && end < at + key.len()
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::run::openai::failure::kind;

    fn chunk(content: &str) -> String {
        format!(
            "data: {}\n\n",
            serde_json::json!({"id": "chatcmpl-1", "model": "gpt-x", "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": null}]})
        )
    }

    const END: &str = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: {\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n";

    fn stream(parts: &[&str]) -> String {
        let mut text = String::from(": keep-alive\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"},\"finish_reason\":null}]}\n\n");
        for part in parts {
            text.push_str(&chunk(part));
        }
        text.push_str(END);
        text
    }

    fn read_in(bytes: &[u8], cuts: &[usize]) -> (Vec<String>, Result<Completion, ModelFailure>) {
        let mut parser = StreamParser::new(None);
        let mut deltas = Vec::new();
        let mut at = 0;
        let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        points.sort_unstable();
        points.push(bytes.len());
        for point in points {
            match parser.push(&bytes[at..point]) {
                Ok(d) => deltas.extend(d),
                Err(e) => return (deltas, Err(e)),
            }
            at = point;
        }
        (deltas, parser.finish())
    }

    #[test]
    fn deltas_arrive_in_order_and_the_end_carries_usage() {
        let text = stream(&["{\"n\"", ": 4", "2}"]);
        let (deltas, completion) = read_in(text.as_bytes(), &[]);
        assert_eq!(deltas, ["{\"n\"", ": 4", "2}"]);
        assert_eq!(
            completion,
            Ok(Completion {
                text: "{\"n\": 42}".into(),
                usage: Some(Usage {
                    input_tokens: 9,
                    output_tokens: 3,
                    cost: None,
                }),
                finish_reason: Some("stop".into()),
                // The response's model and id, from the first chunk that names them.
                model: Some("gpt-x".into()),
                id: Some("chatcmpl-1".into()),
            })
        );
    }

    #[test]
    fn line_endings_multiline_data_and_other_fields() {
        let text = "event: message\r\nid: 1\r\ndata: {\"choices\":[{\"delta\":\r\ndata: {\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\r\n\r\nretry: 10\rdata: [DONE]\r\r";
        let (deltas, completion) = read_in(text.as_bytes(), &[]);
        assert_eq!(deltas, ["a"]);
        assert_eq!(completion.unwrap().text, "a");
    }

    #[test]
    fn a_stream_cut_midway_is_interrupted() {
        let whole = stream(&["hello", " world"]);
        let cut = &whole[..whole.find(" world").unwrap()];
        let (deltas, completion) = read_in(cut.as_bytes(), &[]);
        assert_eq!(deltas, ["hello"]);
        let failure = completion.unwrap_err();
        assert_eq!(
            (
                failure.kind.as_str(),
                failure.message.as_str(),
                failure.retryable
            ),
            (
                kind::STREAM_INTERRUPTED,
                "the stream ended before `[DONE]` (2 events, 5 characters of answer)",
                true
            )
        );
        let no_reason = format!("{}data: [DONE]\n\n", chunk("x"));
        let failure = read_in(no_reason.as_bytes(), &[]).1.unwrap_err();
        assert_eq!(
            failure.message,
            "the stream ended without a finish reason (2 events, 1 character of answer)"
        );
        let failure = read_in(b"", &[]).1.unwrap_err();
        assert_eq!(
            failure.message,
            "the stream ended before `[DONE]` (0 events, no answer yet)"
        );
    }

    #[test]
    fn a_last_event_without_its_blank_line_still_counts() {
        let text = format!("{}{}", chunk("ok"), END.trim_end());
        assert_eq!(read_in(text.as_bytes(), &[]).1.unwrap().text, "ok");
    }

    #[test]
    fn malformed_events_and_error_events_are_failures() {
        let (_, result) = read_in(b"data: {\"choices\": [\n\n", &[]);
        let failure = result.unwrap_err();
        assert_eq!(
            (failure.kind.as_str(), failure.message.as_str()),
            (kind::INVALID_RESPONSE, "stream event 1 is not JSON (EOF while parsing a list at line 1 column 13): `{\"choices\": [`")
        );
        let (_, result) = read_in(b"data: {\"error\": {\"message\": \"model overloaded\", \"type\": \"server_error\"}}\n\n", &[]);
        let failure = result.unwrap_err();
        assert_eq!(
            (failure.kind.as_str(), failure.message.as_str()),
            (
                kind::SERVER,
                "the server reported an error: model overloaded"
            )
        );
        let (_, result) = read_in(b"data: \xff\n\n", &[]);
        assert_eq!(result.unwrap_err().kind, kind::INVALID_RESPONSE);
    }

    #[test]
    fn an_endless_line_is_refused() {
        let mut parser = StreamParser::new(None);
        let block = vec![b'x'; 1024 * 1024];
        let mut outcome = Ok(Vec::new());
        for _ in 0..5 {
            outcome = parser.push(&block);
            if outcome.is_err() {
                break;
            }
        }
        assert_eq!(
            outcome.unwrap_err().message,
            "a stream line is over the 4 MiB limit"
        );
    }

    #[test]
    fn what_follows_done_is_ignored() {
        let text = format!("{}{END}data: not json\n\n", chunk("a"));
        assert_eq!(read_in(text.as_bytes(), &[]).1.unwrap().text, "a");
    }

    /// Feeds `deltas` as a stream with `key` set; what is shown, including the tail.
    fn shown_with_key(key: &str, deltas: &[String]) -> (String, Completion) {
        let mut parser = StreamParser::new(Secret::new(key));
        let mut shown = String::new();
        for delta in deltas {
            shown.extend(parser.push(chunk(delta).as_bytes()).unwrap());
        }
        shown.extend(parser.push(END.as_bytes()).unwrap());
        shown.extend(parser.flush_withheld());
        (shown, parser.finish().unwrap())
    }

    #[test]
    fn a_key_split_across_deltas_is_never_shown_and_the_answer_is_kept_whole() {
        let key = "sk-abc-123-456789";
        let deltas: Vec<String> = ["my key: sk-", "abc", "-1", "23-456789 ok sk-ab", "x done"]
            .iter()
            .map(|d| d.to_string())
            .collect();
        let (shown, completion) = shown_with_key(key, &deltas);
        assert_eq!(shown, "my key: [redacted] ok sk-abx done");
        assert_eq!(
            completion.text,
            deltas.concat(),
            "the answer is never altered"
        );
    }

    #[test]
    fn a_placeholder_key_is_shown_as_it_comes() {
        let deltas: Vec<String> = ["ollama", " is a ", "local model runner"]
            .iter()
            .map(|d| d.to_string())
            .collect();
        let (shown, completion) = shown_with_key("ollama", &deltas);
        assert_eq!(shown, "ollama is a local model runner");
        assert_eq!(completion.text, shown);
    }

    proptest! {
        /// Wherever a real key falls in the deltas, split or whole, repeated or overlapping, no
        /// shown text contains it, the answer is the text as sent, and a text without the key
        /// is shown whole.
        #[test]
        fn the_key_is_never_shown_however_the_deltas_cut_it(
            key in "[ab-]{16,18}",
            pieces in proptest::collection::vec(("[abc -]{0,20}", any::<bool>()), 1..8),
            cuts in proptest::collection::vec(0usize..100, 0..8),
        ) {
            let text: String = pieces
                .iter()
                .map(|(filler, with_key)| if *with_key { format!("{filler}{key}") } else { filler.clone() })
                .collect();
            let mut points: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
            points.sort_unstable();
            points.push(text.len());
            let mut deltas = Vec::new();
            let mut at = 0;
            for point in points {
                deltas.push(text[at..point].to_owned());
                at = point;
            }
            let (shown, completion) = shown_with_key(&key, &deltas);
            prop_assert!(!shown.contains(&key), "shown {:?} for {:?}", shown, text);
            prop_assert_eq!(&completion.text, &text);
            if !text.contains(&key) {
                prop_assert_eq!(&shown, &text);
            }
        }

        /// However the bytes are cut into chunks, the same deltas come out and the same answer.
        #[test]
        fn chunking_does_not_change_what_is_read(
            parts in proptest::collection::vec("[a-zé\u{1F600}\"\\\\\n ]{0,6}", 1..6),
            cuts in proptest::collection::vec(0usize..10_000, 0..12),
            crlf in any::<bool>(),
        ) {
            let mut text = stream(&parts.iter().map(String::as_str).collect::<Vec<_>>());
            if crlf {
                text = text.replace('\n', "\r\n");
            }
            let (whole_deltas, whole) = read_in(text.as_bytes(), &[]);
            let (deltas, completion) = read_in(text.as_bytes(), &cuts);
            prop_assert_eq!(deltas.concat(), whole_deltas.concat());
            prop_assert_eq!(completion.clone(), whole);
            prop_assert_eq!(completion.unwrap().text, parts.concat());
        }

        /// A stream cut anywhere before its `[DONE]` is interrupted, never an answer.
        #[test]
        fn a_stream_cut_anywhere_is_interrupted(
            parts in proptest::collection::vec("[a-z ]{1,6}", 1..4),
            at in 0usize..10_000,
        ) {
            let text = stream(&parts.iter().map(String::as_str).collect::<Vec<_>>());
            let done = text.find("data: [DONE]").unwrap();
            let cut = at % done;
            let (_, completion) = read_in(&text.as_bytes()[..cut], &[]);
            let failure = completion.unwrap_err();
            prop_assert_eq!(failure.kind.as_str(), kind::STREAM_INTERRUPTED, "{:?}", failure);
        }
    }
}
