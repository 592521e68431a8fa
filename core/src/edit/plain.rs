//! When a string may be written as a plain (unquoted) YAML scalar: only when every common reader
//! reads the plain form back as the same string. `fmt` drops quotes and edits write values by
//! this one rule.

use crate::yaml::{resolve_plain, NodeValue};

/// Whether `text` can be written plain, in block or flow context, and be read back as the same
/// string by every common YAML reader:
///
/// - **YAML 1.2, core schema** (this crate; most 1.2 libraries): not a null (`~`, `null`, empty),
///   boolean (`true`, `False`), integer (`12`, `0o17`, `0x1F`) or float (`1.5`, `1e3`, `.inf`);
/// - **YAML 1.1** (PyYAML's resolver, the 1.1 type repository, go-yaml v2): not a boolean
///   `y|Y|yes|Yes|YES|n|N|no|No|NO|true|…|on|On|ON|off|Off|OFF`, an integer with `0b`, a leading
///   `0` (octal), `_` separators or base 60 (`1:30`), a float with `_` or base 60, a timestamp
///   (`2026-03-31`, `2026-03-31T10:00:00Z`), the value key `=` or the merge key `<<`;
/// - **js-yaml's default schema** (the reference implementation): not an integer or float with
///   `_` separators or `0b`, a timestamp or `<<`;
///
/// and the text must be plain syntax in all of them: not empty, no leading or trailing space,
/// no indicator first (`-?:,[]{}#&*!|>'"%@` and backquote), no `: ` or ` #`, no trailing `:`,
/// no flow indicator (`,[]{}`) anywhere, no control character and no character a YAML 1.1
/// reader takes as a line break (U+0085, U+2028, U+2029) or refuses (U+FEFF, U+FFFE, U+FFFF).
pub fn plain_is_safe(text: &str) -> bool {
    plain_syntax(text)
        && matches!(resolve_plain(text), NodeValue::String(_))
        && !special_word(text)
        && !numeric_in_any_reader(text)
        && !timestamp(text)
}

/// What a YAML 1.1 reader or js-yaml takes a plain scalar for, when YAML 1.2 (this crate)
/// reads it as a string but they do not: "a boolean", "a number", "a date", "null" or "a key
/// of its own" (`=`, `<<`). `None` when they all read the string.
pub fn read_otherwise(text: &str) -> Option<&'static str> {
    if !matches!(resolve_plain(text), NodeValue::String(_)) {
        return None;
    }
    if special_word(text) {
        return Some(match text {
            "=" | "<<" => "a key of its own",
            "" | "~" | "null" | "Null" | "NULL" => "null",
            _ => "a boolean",
        });
    }
    if numeric_in_any_reader(text) {
        return Some("a number");
    }
    timestamp(text).then_some("a date")
}

/// Plain-scalar syntax that reads the same in block and flow context, in YAML 1.1 and 1.2.
fn plain_syntax(text: &str) -> bool {
    if text.is_empty() || text.trim() != text {
        return false;
    }
    let first = text.chars().next().unwrap_or(' ');
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return false;
    }
    if text.contains(": ") || text.contains(" #") || text.ends_with(':') {
        return false;
    }
    !text.chars().any(|c| {
        c.is_control()
            || ",[]{}".contains(c)
            || matches!(
                c,
                '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
            )
    })
}

/// Nulls, booleans, the value key and the merge key of YAML 1.1 and js-yaml.
fn special_word(text: &str) -> bool {
    matches!(
        text,
        "" | "~"
            | "null"
            | "Null"
            | "NULL"
            | "y"
            | "Y"
            | "yes"
            | "Yes"
            | "YES"
            | "n"
            | "N"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
            | "="
            | "<<"
    )
}

/// An integer or float in any of the readers (their forms merged, so a few strings no single
/// reader takes as a number, like `1:30e5`, are counted too): an optional sign, then `0b`/`0o`/
/// `0x` digits with `_`, or decimal digits with `_`, base-60 parts (`:5`, `:59`), a fraction
/// and an exponent; or `.inf`/`.nan`.
fn numeric_in_any_reader(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if matches!(
        unsigned,
        ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN"
    ) {
        return true;
    }
    for (prefix, radix) in [("0b", 2), ("0o", 8), ("0x", 16)] {
        if let Some(digits) = unsigned.strip_prefix(prefix) {
            if !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix) || c == '_') {
                return true;
            }
        }
    }
    decimal_number(unsigned.as_bytes())
}

/// `D (:S)* (. F)? (e X)?` or `. F (e X)?` where D starts with a digit and continues with digits
/// or `_`, S is one digit or two with the first 0-5, F is digits or `_` (at least one without D),
/// X is an optionally signed run of digits.
fn decimal_number(bytes: &[u8]) -> bool {
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    let digit_or_underscore = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|b| b.is_ascii_digit() || *b == b'_')
    };
    let mut i = 0;
    let whole = digit(0);
    if whole {
        while digit_or_underscore(i) {
            i += 1;
        }
        while bytes.get(i) == Some(&b':') && digit(i + 1) {
            let two = digit(i + 2) && matches!(bytes[i + 1], b'0'..=b'5');
            i += if two { 3 } else { 2 };
        }
    }
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        while digit_or_underscore(i) {
            i += 1;
            fraction += 1;
        }
    }
    if !whole && fraction == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        if !digit(i) {
            return false;
        }
        while digit(i) {
            i += 1;
        }
    }
    i == bytes.len()
}

/// A YAML 1.1 timestamp (also js-yaml's): `YYYY-MM-DD`, or `YYYY-M-D` followed by `T`, `t` or
/// spaces, `H:MM:SS`, an optional fraction and an optional zone (`Z`, `+2`, `-05:30`).
fn timestamp(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize, min: usize, max: usize| {
        let start = *i;
        while *i - start < max && b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start >= min
    };
    let literal = |i: &mut usize, c: u8| {
        let found = b.get(*i) == Some(&c);
        if found {
            *i += 1;
        }
        found
    };
    if !(digits(&mut i, 4, 4) && literal(&mut i, b'-')) {
        return false;
    }
    let month_start = i;
    if !(digits(&mut i, 1, 2) && literal(&mut i, b'-') && digits(&mut i, 1, 2)) {
        return false;
    }
    if i == b.len() {
        // A date alone needs two-digit month and day.
        return i - month_start == 5;
    }
    let separated = if matches!(b[i], b'T' | b't') {
        i += 1;
        true
    } else {
        let start = i;
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i > start
    };
    if !(separated
        && digits(&mut i, 1, 2)
        && literal(&mut i, b':')
        && digits(&mut i, 2, 2)
        && literal(&mut i, b':')
        && digits(&mut i, 2, 2))
    {
        return false;
    }
    if literal(&mut i, b'.') {
        digits(&mut i, 0, usize::MAX);
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if i == b.len() {
        return true;
    }
    if literal(&mut i, b'Z') {
        return i == b.len();
    }
    if !matches!(b[i], b'-' | b'+') {
        return false;
    }
    i += 1;
    if !digits(&mut i, 1, 2) {
        return false;
    }
    if literal(&mut i, b':') && !digits(&mut i, 2, 2) {
        return false;
    }
    i == b.len()
}
