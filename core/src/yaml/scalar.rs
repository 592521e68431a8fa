//! YAML 1.2 core schema resolution of plain scalars (yaml.org/spec/1.2.2 §10.3.2).

use super::node::NodeValue;
use super::Text;

/// Resolves a plain (unquoted) scalar by the core schema's rules.
pub fn resolve_plain(text: &str) -> NodeValue {
    resolve_plain_with(text, |text| Text::from(text))
}

/// [`resolve_plain`], with `string` making the text of a scalar that is a string (the readers
/// share it from the source rather than copy it).
pub(crate) fn resolve_plain_with(text: &str, string: impl FnOnce(&str) -> Text) -> NodeValue {
    // Every null, boolean, integer and float starts with one of these; most text does not.
    if !matches!(
        text.as_bytes().first(),
        None | Some(
            b'0'..=b'9' | b'-' | b'+' | b'.' | b'~' | b'n' | b'N' | b't' | b'T' | b'f' | b'F'
        )
    ) {
        return NodeValue::String(string(text));
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return NodeValue::Null,
        "true" | "True" | "TRUE" => return NodeValue::Bool(true),
        "false" | "False" | "FALSE" => return NodeValue::Bool(false),
        _ => {}
    }
    if let Some(value) = resolve_int(text) {
        return value;
    }
    if let Some(value) = resolve_float(text) {
        return NodeValue::Float(value);
    }
    NodeValue::String(string(text))
}

fn resolve_int(text: &str) -> Option<NodeValue> {
    let (radix, digits) = if let Some(octal) = text.strip_prefix("0o") {
        (8, octal)
    } else if let Some(hex) = text.strip_prefix("0x") {
        (16, hex)
    } else {
        let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        return Some(match text.parse::<i64>() {
            Ok(i) => NodeValue::Int(i),
            // Beyond 64 bits the value still is a number, as in JavaScript.
            Err(_) => NodeValue::Float(text.parse::<f64>().ok()?),
        });
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    Some(match i64::from_str_radix(digits, radix) {
        Ok(i) => NodeValue::Int(i),
        Err(_) => NodeValue::Float(u128::from_str_radix(digits, radix).ok()? as f64),
    })
}

fn resolve_float(text: &str) -> Option<f64> {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let negative = text.starts_with('-');
    match unsigned {
        ".inf" | ".Inf" | ".INF" => {
            return Some(if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            })
        }
        ".nan" | ".NaN" | ".NAN" if unsigned.len() == text.len() => return Some(f64::NAN),
        _ => {}
    }
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    let bytes = unsigned.as_bytes();
    let mut i = 0;
    let int_digits = count_digits(&bytes[i..]);
    i += int_digits;
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = count_digits(&bytes[i..]);
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_digits = count_digits(&bytes[i..]);
        if exp_digits == 0 {
            return None;
        }
        i += exp_digits;
    }
    if i != bytes.len() {
        return None;
    }
    text.parse::<f64>().ok()
}

fn count_digits(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|b| b.is_ascii_digit()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_nulls_and_booleans() {
        for text in ["", "~", "null", "Null", "NULL"] {
            assert_eq!(resolve_plain(text), NodeValue::Null, "{text:?}");
        }
        assert_eq!(resolve_plain("TRUE"), NodeValue::Bool(true));
        assert_eq!(resolve_plain("False"), NodeValue::Bool(false));
        // YAML 1.1 booleans are strings in 1.2.
        for text in ["yes", "no", "on", "off", "y", "n", "nULL", "tRUE"] {
            assert_eq!(
                resolve_plain(text),
                NodeValue::String(text.into()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn core_schema_integers() {
        assert_eq!(resolve_plain("42"), NodeValue::Int(42));
        assert_eq!(resolve_plain("-7"), NodeValue::Int(-7));
        assert_eq!(resolve_plain("+7"), NodeValue::Int(7));
        assert_eq!(resolve_plain("0o17"), NodeValue::Int(15));
        assert_eq!(resolve_plain("0x1F"), NodeValue::Int(31));
        assert_eq!(resolve_plain("007"), NodeValue::Int(7));
        assert_eq!(
            resolve_plain("99999999999999999999"),
            NodeValue::Float(1e20)
        );
        // Not integers in the core schema.
        for text in ["0b101", "1_000", "0x", "0o9", "1:30"] {
            assert_eq!(
                resolve_plain(text),
                NodeValue::String(text.into()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn core_schema_floats() {
        assert_eq!(resolve_plain("0.5"), NodeValue::Float(0.5));
        assert_eq!(resolve_plain("2.0"), NodeValue::Float(2.0));
        assert_eq!(resolve_plain(".5"), NodeValue::Float(0.5));
        assert_eq!(resolve_plain("5."), NodeValue::Float(5.0));
        assert_eq!(resolve_plain("1e3"), NodeValue::Float(1000.0));
        assert_eq!(resolve_plain("-1.5E-2"), NodeValue::Float(-0.015));
        assert_eq!(resolve_plain("-.inf"), NodeValue::Float(f64::NEG_INFINITY));
        assert!(matches!(resolve_plain(".NaN"), NodeValue::Float(f) if f.is_nan()));
        for text in ["1.2.3", "e3", ".", "1e", "-.nan", "1.0s", "30s"] {
            assert_eq!(
                resolve_plain(text),
                NodeValue::String(text.into()),
                "{text:?}"
            );
        }
    }
}
