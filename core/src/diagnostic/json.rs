//! Diagnostics written as JSON text directly, byte for byte what `serde_json::to_string` writes
//! for them.
//!
//! The npm package's `validate` returns its result as one JSON text (issue #17). Through serde
//! each key and each string went through `serde_json`'s escaper and its writer one at a time:
//! about a tenth of a call's instructions on the corpus of small documents, whose diagnostics
//! are most of the result. Here the keys are constant text and a string is copied whole unless
//! it holds a character JSON escapes. The tests compare both writers on arbitrary diagnostics,
//! so a field added to [`Diagnostic`] without its line here fails them.

use super::Diagnostic;
use crate::json::push_decimal;

/// Appends the JSON array of `diagnostics` to `out`, as `serde_json::to_string` writes it.
pub fn write_json_array(diagnostics: &[Diagnostic], out: &mut String) {
    out.push('[');
    for (i, diagnostic) in diagnostics.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_json_object(diagnostic, out);
    }
    out.push(']');
}

/// One diagnostic: the fields in declaration order, `span` skipped, `help` only when present.
fn write_json_object(diagnostic: &Diagnostic, out: &mut String) {
    out.push_str("{\"severity\":\"");
    out.push_str(diagnostic.severity.as_str());
    out.push_str("\",\"code\":");
    push_json_string(&diagnostic.code, out);
    out.push_str(",\"message\":");
    push_json_string(&diagnostic.message, out);
    out.push_str(",\"path\":");
    push_json_string(&diagnostic.path, out);
    out.push_str(",\"keyword\":");
    match &diagnostic.keyword {
        Some(keyword) => push_json_string(keyword, out),
        None => out.push_str("null"),
    }
    out.push_str(",\"line\":");
    push_decimal(out, u64::from(diagnostic.line));
    out.push_str(",\"column\":");
    push_decimal(out, u64::from(diagnostic.column));
    if let Some(help) = &diagnostic.help {
        out.push_str(",\"help\":");
        push_json_string(help, out);
    }
    out.push('}');
}

/// `text` as a JSON string, escaped as `serde_json` escapes: `"` and `\` with a backslash, the
/// control characters below U+0020 as `\b \t \n \f \r` or `\u00xx` (lowercase hex); everything
/// else, U+007F and non-ASCII included, as it is.
pub fn push_json_string(text: &str, out: &mut String) {
    out.push('"');
    let mut rest = text;
    while let Some(at) = first_to_escape(rest.as_bytes()) {
        // A byte that needs an escape is ASCII, so `at` and `at + 1` are character boundaries.
        let (clean, escaped) = rest.split_at(at);
        out.push_str(clean);
        push_escape(escaped.as_bytes()[0], out);
        rest = &escaped[1..];
    }
    out.push_str(rest);
    out.push('"');
}

fn needs_escape(byte: u8) -> bool {
    byte < 0x20 || byte == b'"' || byte == b'\\'
}

/// The index of the first byte [`needs_escape`], looking at eight bytes per step: most
/// strings (codes, paths, messages) have none, and a byte-by-byte test was half the writer.
fn first_to_escape(bytes: &[u8]) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut offset = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        if may_need_escape(word) {
            return chunk
                .iter()
                .position(|&b| needs_escape(b))
                .map(|at| offset + at);
        }
        offset += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| needs_escape(b))
        .map(|at| offset + at)
}

/// Whether some byte of `word` is below 0x20, `"` or `\\`. Exact for "some byte": a byte
/// below `n` (at most 0x80) makes `byte - n` borrow into its high bit while its own high bit
/// is clear, and a borrow only starts at such a byte, so a byte without it cannot set its flag
/// unless a lower byte already did.
fn may_need_escape(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH;
    below(word, 0x20)
        | below(word ^ (ONES * u64::from(b'"')), 1)
        | below(word ^ (ONES * u64::from(b'\\')), 1)
        != 0
}

fn push_escape(byte: u8, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match byte {
        b'"' => out.push_str("\\\""),
        b'\\' => out.push_str("\\\\"),
        b'\x08' => out.push_str("\\b"),
        b'\t' => out.push_str("\\t"),
        b'\n' => out.push_str("\\n"),
        b'\x0c' => out.push_str("\\f"),
        b'\r' => out.push_str("\\r"),
        control => {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(control >> 4)]));
            out.push(char::from(HEX[usize::from(control & 0xf)]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use crate::source::Span;
    use proptest::prelude::*;

    fn written(diagnostics: &[Diagnostic]) -> String {
        let mut out = String::new();
        write_json_array(diagnostics, &mut out);
        out
    }

    proptest! {
        /// The eight-byte test finds the first byte to escape wherever it is, in a string
        /// of bytes near the limits (0x1f, 0x20, quotes, backslash, high bytes).
        #[test]
        fn the_wide_search_finds_the_first_byte_to_escape(
            bytes in proptest::collection::vec(
                prop_oneof![Just(0x1f_u8), Just(0x20), Just(b'"'), Just(b'\\'), Just(0x21), Just(0x5d), Just(0x80), Just(0xff), Just(0), any::<u8>()],
                0..40,
            ),
        ) {
            prop_assert_eq!(first_to_escape(&bytes), bytes.iter().position(|&b| needs_escape(b)));
        }
    }

    #[test]
    fn an_empty_list_and_every_escape() {
        assert_eq!(written(&[]), "[]");
        let text: String = (0_u8..0x80)
            .map(char::from)
            .chain(['é', '✓', '😀'])
            .collect();
        let mut out = String::new();
        push_json_string(&text, &mut out);
        assert_eq!(out, serde_json::to_string(&text).unwrap_or_default());
    }

    fn any_text() -> impl Strategy<Value = String> {
        // Mostly plain words, with quotes, backslashes, control characters and non-ASCII.
        prop_oneof![
            "[a-z `/.-]{0,30}",
            "[\\x00-\\x1f\"\\\\\\x7fé✓a]{0,12}",
            any::<String>(),
        ]
    }

    fn any_diagnostic() -> impl Strategy<Value = Diagnostic> {
        (
            prop_oneof![
                Just(Severity::Error),
                Just(Severity::Warning),
                Just(Severity::Info)
            ],
            (any_text(), any_text(), any_text()),
            proptest::option::of(any_text()),
            (any::<u32>(), any::<u32>()),
            proptest::option::of((0_usize..100, 0_usize..100)),
            proptest::option::of(any_text()),
        )
            .prop_map(
                |(severity, (code, message, path), keyword, (line, column), span, help)| {
                    Diagnostic {
                        severity,
                        code,
                        message,
                        path,
                        keyword,
                        line,
                        column,
                        span: span.map(|(start, length)| Span::new(start, start + length)),
                        help,
                    }
                },
            )
    }

    proptest! {
        /// The same text as serde's, whatever the diagnostics hold.
        #[test]
        fn writes_what_serde_json_writes(diagnostics in proptest::collection::vec(any_diagnostic(), 0..4)) {
            prop_assert_eq!(written(&diagnostics), serde_json::to_string(&diagnostics).unwrap_or_default());
        }
    }
}
