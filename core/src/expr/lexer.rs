//! Tokens of the expression language, with byte offsets into the source text.

use super::ExprError;

/// One token of an expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// A number literal.
    Number(f64),
    /// A string literal, escapes resolved.
    String(String),
    /// A name (also `true`, `false`, `null`, `undefined`).
    Identifier(String),
    /// Operators and punctuation, as written.
    Punct(&'static str),
    /// The end of the source.
    End,
}

/// A token and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Lexeme {
    /// The token.
    pub token: Token,
    /// Byte offset of its first character in the template text.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

/// Longest first, so `===` wins over `==` and `=`.
const PUNCTUATION: &[&str] = &[
    "===", "!==", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "<", ">", "+", "-", "*", "/",
    "%", "!", "?", ":", ".", ",", "(", ")", "[", "]",
];

/// Splits `source` (which starts at byte `base` of the template) into tokens.
pub fn tokenize(source: &str, base: usize) -> Result<Vec<Lexeme>, ExprError> {
    let mut tokens = Vec::new();
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < source.len() {
        let c = source[i..].chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        let token = if c.is_ascii_digit()
            || (c == '.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let (value, end) = number(source, i, base)?;
            i = end;
            Token::Number(value)
        } else if c == '"' || c == '\'' {
            let (value, end) = string(source, i, base)?;
            i = end;
            Token::String(value)
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let end = source[i..]
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '$'))
                .map_or(source.len(), |n| i + n);
            let name = source[i..end].to_owned();
            i = end;
            Token::Identifier(name)
        } else if let Some(p) = PUNCTUATION.iter().find(|p| source[i..].starts_with(**p)) {
            i += p.len();
            Token::Punct(p)
        } else {
            if source[i..].starts_with("}}") {
                return Err(ExprError::new(
                    "expression-syntax",
                    "`}}` closes no `{{`",
                    base + i,
                    2,
                ));
            }
            let hint = match c {
                '=' => " (assignment is not allowed; compare with `==` or `===`)",
                '&' | '|' => " (use `&&` or `||`)",
                '`' => " (template literals are not supported; use quotes)",
                _ => "",
            };
            return Err(ExprError::new(
                "expression-syntax",
                format!("unexpected character `{c}`{hint}"),
                base + i,
                c.len_utf8(),
            ));
        };
        tokens.push(Lexeme {
            token,
            start: base + start,
            end: base + i,
        });
    }
    tokens.push(Lexeme {
        token: Token::End,
        start: base + source.len(),
        end: base + source.len(),
    });
    Ok(tokens)
}

fn number(source: &str, start: usize, base: usize) -> Result<(f64, usize), ExprError> {
    let rest = &source[start..];
    if let Some((digits, radix)) = super::value::radix_digits(rest) {
        // The prefix (`0x`, `0o`, `0b`) is two bytes.
        let len = digits
            .find(|c: char| !c.is_digit(radix))
            .unwrap_or(digits.len());
        let value = u64::from_str_radix(&digits[..len], radix).map_err(|_| {
            ExprError::new(
                "expression-syntax",
                "invalid number literal",
                base + start,
                2 + len,
            )
        })?;
        return Ok((value as f64, start + 2 + len));
    }
    let bytes = rest.as_bytes();
    let mut end = 0;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end < bytes.len() && bytes[end] == b'.' {
        end += 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
    }
    if end < bytes.len() && (bytes[end] == b'e' || bytes[end] == b'E') {
        let mut exp = end + 1;
        if exp < bytes.len() && (bytes[exp] == b'+' || bytes[exp] == b'-') {
            exp += 1;
        }
        if exp < bytes.len() && bytes[exp].is_ascii_digit() {
            while exp < bytes.len() && bytes[exp].is_ascii_digit() {
                exp += 1;
            }
            end = exp;
        }
    }
    if end < bytes.len() && (bytes[end].is_ascii_alphabetic() || bytes[end] == b'_') {
        return Err(ExprError::new(
            "expression-syntax",
            "a number cannot be followed directly by a name",
            base + start,
            end + 1,
        ));
    }
    let value = rest[..end].parse::<f64>().map_err(|_| {
        ExprError::new(
            "expression-syntax",
            "invalid number literal",
            base + start,
            end,
        )
    })?;
    Ok((value, start + end))
}

fn string(source: &str, start: usize, base: usize) -> Result<(String, usize), ExprError> {
    let quote = source.as_bytes()[start] as char;
    let mut out = String::new();
    let mut chars = source[start + 1..].char_indices();
    while let Some((offset, c)) = chars.next() {
        let at = start + 1 + offset;
        match c {
            c if c == quote => return Ok((out, at + 1)),
            '\n' | '\r' => break,
            '\\' => {
                let Some((_, escaped)) = chars.next() else {
                    break;
                };
                match escaped {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'v' => out.push('\u{b}'),
                    '0' => out.push('\0'),
                    '\n' => {}
                    'x' => {
                        let hex: String = (0..2)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        out.push(code_point(&hex, at, base)?);
                    }
                    'u' => {
                        let rest = &source[at + 2..];
                        let hex = if let Some(braced) = rest.strip_prefix('{') {
                            let close = braced.find('}').ok_or_else(|| bad_escape(at, base))?;
                            let hex = braced[..close].to_owned();
                            for _ in 0..close + 2 {
                                chars.next();
                            }
                            hex
                        } else {
                            let hex: String = rest.chars().take(4).collect();
                            for _ in 0..4 {
                                chars.next();
                            }
                            hex
                        };
                        push_utf16_aware(&mut out, &hex, at, base, source, &mut chars)?;
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
    }
    Err(ExprError::new(
        "expression-syntax",
        format!("unterminated string: expected a closing {quote}"),
        base + start,
        1,
    ))
}

fn bad_escape(at: usize, base: usize) -> ExprError {
    ExprError::new("expression-syntax", "invalid escape sequence", base + at, 2)
}

fn code_point(hex: &str, at: usize, base: usize) -> Result<char, ExprError> {
    u32::from_str_radix(hex, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| bad_escape(at, base))
}

/// `\uD83D\uDE00` (a surrogate pair written as two escapes) becomes one character.
fn push_utf16_aware(
    out: &mut String,
    hex: &str,
    at: usize,
    base: usize,
    source: &str,
    chars: &mut std::str::CharIndices<'_>,
) -> Result<(), ExprError> {
    let unit = u32::from_str_radix(hex, 16).map_err(|_| bad_escape(at, base))?;
    if (0xD800..0xDC00).contains(&unit) {
        let next = chars.clone().as_str();
        let _ = source;
        if let Some(low_hex) = next.strip_prefix("\\u").and_then(|r| r.get(..4)) {
            if let Ok(low) = u32::from_str_radix(low_hex, 16) {
                if (0xDC00..0xE000).contains(&low) {
                    for _ in 0..6 {
                        chars.next();
                    }
                    let combined = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    out.push(char::from_u32(combined).ok_or_else(|| bad_escape(at, base))?);
                    return Ok(());
                }
            }
        }
        out.push('\u{FFFD}');
        return Ok(());
    }
    out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
    Ok(())
}
