//! Durations as LOGIC.md writes them: `"500ms"`, `"30s"`, `"2m"`, `"1h"`, `"1.5s"`, or a combination
//! such as `"1m30s"`. A bare number is seconds (YAML `timeout: 30`).

use std::time::Duration;

/// Parses a duration string; `Err` says what was expected.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("empty duration; expected e.g. \"30s\", \"2m\" or \"500ms\"".to_owned());
    }
    if let Ok(seconds) = trimmed.parse::<f64>() {
        return seconds_to_duration(seconds, text);
    }
    let mut total = 0.0f64;
    let mut rest = trimmed;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_len);
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, next) = after.split_at(unit_len);
        let value: f64 = number.parse().map_err(|_| {
            format!("`{text}` is not a duration; expected e.g. \"30s\", \"2m\" or \"500ms\"")
        })?;
        let scale = match unit.trim() {
            "ms" => 0.001,
            "s" | "sec" | "secs" => 1.0,
            "m" | "min" | "mins" => 60.0,
            "h" | "hr" | "hrs" => 3600.0,
            "d" => 86_400.0,
            other => {
                return Err(format!(
                    "`{text}` has an unknown unit `{other}`; use ms, s, m, h or d"
                ))
            }
        };
        total += value * scale;
        rest = next;
    }
    seconds_to_duration(total, text)
}

fn seconds_to_duration(seconds: f64, text: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("`{text}` is not a valid duration"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_common_forms() {
        assert_eq!(parse_duration("1s"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_duration("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        assert!(parse_duration("soon")
            .unwrap_err()
            .contains("not a duration"));
        assert!(parse_duration("5 fortnights")
            .unwrap_err()
            .contains("unknown unit"));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("-3s").is_err());
        assert!(parse_duration("1e400").is_err());
    }
}
