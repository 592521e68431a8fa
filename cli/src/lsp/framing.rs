//! Reading one JSON-RPC message from standard input, bounded, telling a message that is not
//! JSON-RPC (answered, and the server goes on) from a stream whose framing is broken (the server
//! cannot find the next message: named on standard error, and it stops).

use std::io::{self, BufRead, Read};

use lsp_server::Message;
use serde_json::Value;

/// The largest message read: a document is at most 8 MiB by default, and JSON's escapes can
/// make its text several times longer.
const MAX_MESSAGE_BYTES: usize = 256 * 1024 * 1024;
/// The longest header line, and the most header lines, of one message.
const MAX_HEADER_LINE: usize = 1024;
const MAX_HEADERS: usize = 32;

/// What one framed message held.
pub enum Incoming {
    Message(Message),
    /// Not a JSON-RPC message: the JSON-RPC error code and why, for an answer with id `null`.
    Invalid {
        code: i32,
        reason: String,
    },
}

/// The next message, `None` at the end of the input; an error when the framing is broken.
pub fn read(input: &mut impl BufRead) -> io::Result<Option<Incoming>> {
    let Some(length) = content_length(input)? else {
        return Ok(None);
    };
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(parse(&body)))
}

fn parse(body: &[u8]) -> Incoming {
    let invalid = |code: i32, reason: String| Incoming::Invalid { code, reason };
    let Ok(text) = std::str::from_utf8(body) else {
        return invalid(PARSE_ERROR, "the message is not UTF-8 text".to_owned());
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => return invalid(PARSE_ERROR, format!("the message is not JSON: {error}")),
    };
    let id = value.get("id");
    let usable_id =
        id.is_none_or(|id| id.is_null() || id.is_string() || id.is_i64() || id.is_u64());
    if !usable_id {
        return invalid(
            INVALID_REQUEST,
            "a message's `id` must be an integer or a string".to_owned(),
        );
    }
    match serde_json::from_value(value) {
        Ok(message) => Incoming::Message(message),
        Err(error) => invalid(
            INVALID_REQUEST,
            format!("the message is not a JSON-RPC request, response or notification: {error}"),
        ),
    }
}

/// JSON-RPC's codes for text that is not JSON and for JSON that is not a message.
const PARSE_ERROR: i32 = -32700;
const INVALID_REQUEST: i32 = -32600;

/// The headers up to the empty line, and their `Content-Length`.
fn content_length(input: &mut impl BufRead) -> io::Result<Option<usize>> {
    let mut length = None;
    for count in 0.. {
        let mut line = Vec::new();
        let read = input
            .by_ref()
            .take(MAX_HEADER_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return match count {
                0 => Ok(None),
                _ => Err(broken("the input ended inside a message's headers")),
            };
        }
        let line = String::from_utf8_lossy(&line);
        let Some(header) = line.strip_suffix("\r\n") else {
            return Err(broken(format!(
                "a header line must end with CR LF and be at most {MAX_HEADER_LINE} bytes: {:?}",
                clip(&line)
            )));
        };
        if header.is_empty() {
            return length
                .map(Some)
                .ok_or_else(|| broken("a message has no `Content-Length` header"));
        }
        if count >= MAX_HEADERS {
            return Err(broken(format!(
                "a message has over {MAX_HEADERS} header lines"
            )));
        }
        let (name, value) = header
            .split_once(':')
            .ok_or_else(|| broken(format!("a header is not `Name: value`: {:?}", clip(header))))?;
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            length = Some(size(value.trim())?);
        }
    }
    unreachable!("the loop returns")
}

fn size(value: &str) -> io::Result<usize> {
    let size: usize = value.parse().map_err(|_| {
        broken(format!(
            "`Content-Length` must be a number of bytes, not {:?}",
            clip(value)
        ))
    })?;
    if size > MAX_MESSAGE_BYTES {
        return Err(broken(format!(
            "a message of {size} bytes is over the bound of {MAX_MESSAGE_BYTES} bytes"
        )));
    }
    Ok(size)
}

fn clip(text: &str) -> String {
    text.chars().take(80).collect()
}

fn broken(reason: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, reason.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<Result<String, String>> {
        let mut input = io::Cursor::new(input.to_vec());
        let mut out = Vec::new();
        loop {
            match read(&mut input) {
                Ok(None) => return out,
                Ok(Some(Incoming::Message(m))) => {
                    out.push(Ok(format!("{m:?}").chars().take(20).collect()))
                }
                Ok(Some(Incoming::Invalid { code, .. })) => out.push(Ok(code.to_string())),
                Err(error) => {
                    out.push(Err(error.to_string()));
                    return out;
                }
            }
        }
    }

    fn framed(body: &[u8]) -> Vec<u8> {
        let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn a_body_that_is_not_a_message_is_answered_and_the_next_one_read() {
        let mut input = Vec::new();
        for body in [
            &b"not json"[..],
            b"[]",
            b"{}",
            b"\xff\xfe",
            // A request whose id is neither a number nor a string (read as a notification, it
            // was never answered).
            br#"{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":{}}"#,
            br#"{"jsonrpc":"2.0","id":1.5,"method":"textDocument/hover","params":{}}"#,
            br#"{"jsonrpc":"2.0","id":true,"method":"shutdown"}"#,
            br#"{"jsonrpc":"2.0","method":"exit"}"#,
        ] {
            input.extend(framed(body));
        }
        assert_eq!(
            all(&input),
            vec![
                Ok("-32700".to_owned()),
                Ok("-32600".to_owned()),
                Ok("-32600".to_owned()),
                Ok("-32700".to_owned()),
                Ok("-32600".to_owned()),
                Ok("-32600".to_owned()),
                Ok("-32600".to_owned()),
                Ok("Notification(Notific".to_owned()),
            ]
        );
    }

    #[test]
    fn a_broken_frame_is_named() {
        let cases: [(&[u8], &str); 5] = [
            (b"Content-Length: abc\r\n\r\n{}", "`Content-Length` must be a number of bytes, not \"abc\""),
            (b"Content-Type: x\r\n\r\n{}", "a message has no `Content-Length` header"),
            (b"Content-Length: 2\n\n{}", "a header line must end with CR LF and be at most 1024 bytes: \"Content-Length: 2\\n\""),
            (b"Content-Length: 999999999999\r\n\r\n", "a message of 999999999999 bytes is over the bound of 268435456 bytes"),
            (b"Content-Length: 2\r\n", "the input ended inside a message's headers"),
        ];
        for (input, reason) in cases {
            assert_eq!(all(input), vec![Err(reason.to_owned())]);
        }
    }
}
