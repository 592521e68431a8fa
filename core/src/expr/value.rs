//! JavaScript values and the conversions the operators use (ECMA-262 ToNumber, ToString,
//! ToBoolean, loose and strict equality, relational comparison).

use serde_json::{Map, Number, Value};

use super::ExprError;

/// A JavaScript value, as expressions compute with it.
#[derive(Debug, Clone, PartialEq)]
pub enum JsValue {
    /// `undefined`: what a missing member or variable reads as.
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (an IEEE double, possibly NaN or infinite).
    Number(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsValue>),
    /// An object, kept as JSON (its members convert when read).
    Object(Map<String, Value>),
}

impl JsValue {
    /// The JavaScript value of a JSON value; numbers become doubles.
    pub fn from_json(value: &Value) -> JsValue {
        match value {
            Value::Null => JsValue::Null,
            Value::Bool(b) => JsValue::Bool(*b),
            Value::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(s) => JsValue::String(s.clone()),
            Value::Array(items) => JsValue::Array(items.iter().map(JsValue::from_json).collect()),
            Value::Object(map) => JsValue::Object(map.clone()),
        }
    }

    /// JSON, as `JSON.stringify` would write it; a non-finite number at the top is an error
    /// (inside collections it becomes `null`, as in JavaScript).
    pub fn to_json(&self, offset: usize, len: usize) -> Result<Value, ExprError> {
        match self {
            JsValue::Number(n) if !n.is_finite() => Err(ExprError::new(
                "expression-not-finite",
                format!(
                    "the result is {}, which is not a finite number",
                    number_to_string(*n)
                ),
                offset,
                len,
            )),
            other => Ok(other.json()),
        }
    }

    fn json(&self) -> Value {
        match self {
            JsValue::Undefined | JsValue::Null => Value::Null,
            JsValue::Bool(b) => Value::Bool(*b),
            JsValue::Number(n) => number_json(*n),
            JsValue::String(s) => Value::String(s.clone()),
            JsValue::Array(items) => Value::Array(items.iter().map(JsValue::json).collect()),
            JsValue::Object(map) => Value::Object(map.clone()),
        }
    }

    /// The `typeof`-like name used in messages: `undefined`, `null`, `boolean`, `number`, `string`,
    /// `array` or `object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            JsValue::Undefined => "undefined",
            JsValue::Null => "null",
            JsValue::Bool(_) => "boolean",
            JsValue::Number(_) => "number",
            JsValue::String(_) => "string",
            JsValue::Array(_) => "array",
            JsValue::Object(_) => "object",
        }
    }

    /// Whether it is `null` or `undefined` (what `??` replaces).
    pub fn is_nullish(&self) -> bool {
        matches!(self, JsValue::Undefined | JsValue::Null)
    }

    /// JavaScript truthiness (ToBoolean): false for `undefined`, `null`, `false`, `0`, NaN and
    /// `""`.
    pub fn truthy(&self) -> bool {
        match self {
            JsValue::Undefined | JsValue::Null => false,
            JsValue::Bool(b) => *b,
            JsValue::Number(n) => *n != 0.0 && !n.is_nan(),
            JsValue::String(s) => !s.is_empty(),
            JsValue::Array(_) | JsValue::Object(_) => true,
        }
    }

    /// ToPrimitive with hint "default": arrays join, objects are "[object Object]".
    pub fn to_primitive(&self) -> JsValue {
        match self {
            JsValue::Array(_) | JsValue::Object(_) => JsValue::String(self.to_js_string()),
            other => other.clone(),
        }
    }

    /// JavaScript ToNumber: `undefined` and unparsable strings give NaN, `null` gives 0.
    pub fn to_number(&self) -> f64 {
        match self {
            JsValue::Undefined => f64::NAN,
            JsValue::Null => 0.0,
            JsValue::Bool(b) => f64::from(u8::from(*b)),
            JsValue::Number(n) => *n,
            JsValue::String(s) => string_to_number(s),
            JsValue::Array(_) | JsValue::Object(_) => self.to_primitive().to_number(),
        }
    }

    /// JavaScript ToString: numbers as JavaScript prints them, arrays joined by commas, objects as
    /// `[object Object]`.
    pub fn to_js_string(&self) -> String {
        match self {
            JsValue::Undefined => "undefined".to_owned(),
            JsValue::Null => "null".to_owned(),
            JsValue::Bool(b) => b.to_string(),
            JsValue::Number(n) => number_to_string(*n),
            JsValue::String(s) => s.clone(),
            JsValue::Array(items) => items
                .iter()
                .map(|item| {
                    if item.is_nullish() {
                        String::new()
                    } else {
                        item.to_js_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(","),
            JsValue::Object(_) => "[object Object]".to_owned(),
        }
    }

    /// `===`. Arrays and objects are never equal here: JavaScript compares them by reference,
    /// and an expression has no references to compare (see docs/decisions.md).
    pub fn strict_equals(&self, other: &JsValue) -> bool {
        match (self, other) {
            (JsValue::Undefined, JsValue::Undefined) | (JsValue::Null, JsValue::Null) => true,
            (JsValue::Bool(a), JsValue::Bool(b)) => a == b,
            (JsValue::Number(a), JsValue::Number(b)) => a == b,
            (JsValue::String(a), JsValue::String(b)) => a == b,
            _ => false,
        }
    }

    /// `==` (IsLooselyEqual).
    pub fn loose_equals(&self, other: &JsValue) -> bool {
        use JsValue::*;
        match (self, other) {
            (Undefined | Null, Undefined | Null) => true,
            (Undefined | Null, _) | (_, Undefined | Null) => false,
            (Number(_), String(_)) | (String(_), Number(_)) => {
                self.to_number() == other.to_number()
            }
            (Bool(_), _) => Number(self.to_number()).loose_equals(other),
            (_, Bool(_)) => self.loose_equals(&Number(other.to_number())),
            (Array(_) | Object(_), Number(_) | String(_)) => {
                self.to_primitive().loose_equals(other)
            }
            (Number(_) | String(_), Array(_) | Object(_)) => {
                self.loose_equals(&other.to_primitive())
            }
            _ => self.strict_equals(other),
        }
    }

    /// SameValueZero, as `Array.prototype.includes` uses: NaN equals NaN.
    pub fn same_value_zero(&self, other: &JsValue) -> bool {
        match (self, other) {
            (JsValue::Number(a), JsValue::Number(b)) if a.is_nan() && b.is_nan() => true,
            _ => self.strict_equals(other),
        }
    }

    /// `<`: `Some(true/false)`, or `None` when a NaN makes the comparison undefined.
    pub fn less_than(&self, other: &JsValue) -> Option<bool> {
        let (a, b) = (self.to_primitive(), other.to_primitive());
        if let (JsValue::String(a), JsValue::String(b)) = (&a, &b) {
            return Some(a.encode_utf16().lt(b.encode_utf16()));
        }
        let (a, b) = (a.to_number(), b.to_number());
        if a.is_nan() || b.is_nan() {
            None
        } else {
            Some(a < b)
        }
    }
}

/// An f64 as JSON: integral values within ±2^53 as integers.
pub fn number_json(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_992.0 {
        if n == 0.0 {
            return Value::Number(0.into());
        }
        return Value::Number((n as i64).into());
    }
    Number::from_f64(n).map_or(Value::Null, Value::Number)
}

/// The digits after a `0x`/`0o`/`0b` prefix (either case), with their radix.
pub(super) fn radix_digits(text: &str) -> Option<(&str, u32)> {
    let radix = match text.get(..2)? {
        "0x" | "0X" => 16,
        "0o" | "0O" => 8,
        "0b" | "0B" => 2,
        _ => return None,
    };
    Some((&text[2..], radix))
}

/// StringToNumber: trimmed; empty is 0; decimal, `Infinity`, or 0x/0o/0b integers; else NaN.
fn string_to_number(text: &str) -> f64 {
    let trimmed = text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if trimmed.is_empty() {
        return 0.0;
    }
    if let Some((digits, radix)) = radix_digits(trimmed) {
        return u64::from_str_radix(digits, radix).map_or(f64::NAN, |v| v as f64);
    }
    match trimmed {
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    let valid = trimmed
        .trim_start_matches(['+', '-'])
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    if !valid || trimmed.ends_with(['e', 'E', '+', '-']) {
        return f64::NAN;
    }
    trimmed.parse::<f64>().unwrap_or(f64::NAN)
}

/// Number::toString (ECMA-262 §6.1.6.1.20) for radix 10.
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n == 0.0 {
        return "0".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // Shortest round-trip digits and exponent, from Rust's `{:e}`: "d.ddde±x".
    let scientific = format!("{:e}", n.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let n_exp = exponent.parse::<i32>().unwrap_or(0) + 1;
    let body = if k <= n_exp && n_exp <= 21 {
        format!("{digits}{}", "0".repeat((n_exp - k) as usize))
    } else if 0 < n_exp && n_exp <= 21 {
        format!(
            "{}.{}",
            &digits[..n_exp as usize],
            &digits[n_exp as usize..]
        )
    } else if -6 < n_exp && n_exp <= 0 {
        format!("0.{}{digits}", "0".repeat((-n_exp) as usize))
    } else {
        let e = n_exp - 1;
        let sign_e = if e >= 0 { "+" } else { "-" };
        if k == 1 {
            format!("{digits}e{sign_e}{}", e.abs())
        } else {
            format!("{}.{}e{sign_e}{}", &digits[..1], &digits[1..], e.abs())
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_does() {
        let cases = [
            (1.0, "1"),
            (1.5, "1.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (-42.0, "-42"),
            (123456789.125, "123456789.125"),
            (f64::NAN, "NaN"),
            (-0.0, "0"),
        ];
        for (n, text) in cases {
            assert_eq!(number_to_string(n), text, "{n}");
        }
    }

    #[test]
    fn strings_convert_to_numbers_as_javascript_does() {
        assert_eq!(string_to_number(" 12 "), 12.0);
        assert_eq!(string_to_number(""), 0.0);
        assert_eq!(string_to_number("0x1F"), 31.0);
        assert!(string_to_number("12px").is_nan());
        assert_eq!(string_to_number("1e3"), 1000.0);
        assert_eq!(string_to_number("-Infinity"), f64::NEG_INFINITY);
    }

    #[test]
    fn loose_equality_corner_cases() {
        use JsValue::*;
        assert!(Null.loose_equals(&Undefined));
        assert!(!Null.loose_equals(&Number(0.0)));
        assert!(String("1".into()).loose_equals(&Number(1.0)));
        assert!(Bool(true).loose_equals(&String("1".into())));
        assert!(Array(vec![Number(1.0)]).loose_equals(&String("1".into())));
        assert!(!Number(f64::NAN).loose_equals(&Number(f64::NAN)));
    }
}
