//! `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP date in any of the three
//! forms a recipient must accept (IMF-fixdate, RFC 850, asctime). Core reads no clock, so a
//! date is turned into a wait against the `now` its caller passes.

/// The longest wait a `Retry-After` may ask for: a server that asks for more is waited on
/// this long, and the document's retry policy still bounds the attempts.
pub const MAX_RETRY_AFTER_MS: u64 = 10 * 60 * 1_000;

/// The wait `value` asks for, in milliseconds (at most [`MAX_RETRY_AFTER_MS`]); `None` when
/// it is neither seconds nor a date (or a date and no `now_unix_ms` is known).
pub fn retry_after_ms(value: &str, now_unix_ms: Option<u64>) -> Option<u64> {
    let value = value.trim();
    if let Some(ms) = seconds_ms(value) {
        return Some(ms.min(MAX_RETRY_AFTER_MS));
    }
    let at = parse_http_date(value)?;
    Some(at.saturating_sub(now_unix_ms?).min(MAX_RETRY_AFTER_MS))
}

/// `retry-after-ms` (OpenAI's): milliseconds, possibly fractional.
pub fn retry_after_ms_header(value: &str) -> Option<u64> {
    let ms: f64 = value.trim().parse().ok()?;
    (ms.is_finite() && ms >= 0.0).then(|| (ms.ceil() as u64).min(MAX_RETRY_AFTER_MS))
}

/// Whole or fractional seconds (`120`, `1.5`), rounded up to the millisecond.
fn seconds_ms(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let seconds: f64 = value.parse().ok()?;
    seconds
        .is_finite()
        .then(|| (seconds * 1_000.0).ceil().min(u64::MAX as f64) as u64)
}

/// An HTTP date as milliseconds since the Unix epoch.
pub fn parse_http_date(value: &str) -> Option<u64> {
    let parts: Vec<&str> = value.split_whitespace().collect();
    let (day, month, year, time) = match parts.as_slice() {
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        [weekday, day, month, year, time, "GMT"] if weekday.ends_with(',') => {
            (*day, *month, year.parse::<u64>().ok()?, *time)
        }
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        [weekday, date, time, "GMT"] if weekday.ends_with(',') => {
            let mut fields = date.split('-');
            let (day, month, year) = (fields.next()?, fields.next()?, fields.next()?);
            if fields.next().is_some() || year.len() != 2 {
                return None;
            }
            let yy: u64 = year.parse().ok()?;
            // Two-digit years: the nearest century not far in the future (RFC 9110 §5.6.7).
            (
                day,
                month,
                if yy < 70 { 2000 + yy } else { 1900 + yy },
                *time,
            )
        }
        // asctime: Sun Nov  6 08:49:37 1994
        [_weekday, month, day, time, year] => (*day, *month, year.parse::<u64>().ok()?, *time),
        _ => return None,
    };
    let day: u64 = day.parse().ok()?;
    let month = month_number(month)?;
    let mut clock = time.split(':').map(|f| f.parse::<u64>().ok());
    let (hour, minute, second) = (clock.next()??, clock.next()??, clock.next()??);
    if clock.next().is_some()
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
        || !(1970..=9999).contains(&year)
    {
        return None;
    }
    let days = days_since_epoch(year, month, day);
    Some((((days * 24 + hour) * 60 + minute) * 60 + second) * 1_000)
}

fn month_number(name: &str) -> Option<u64> {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    MONTHS.iter().position(|m| *m == name).map(|i| i as u64 + 1)
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's algorithm),
/// for years from 1970 on.
fn days_since_epoch(year: u64, month: u64, day: u64) -> u64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year / 400;
    let year_of_era = year - era * 400;
    let month_from_march = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1994-11-06T08:49:37Z, the RFC's example.
    const EXAMPLE_MS: u64 = 784_111_777_000;

    #[test]
    fn the_three_date_forms_read_the_same_instant() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 1994",
        ] {
            assert_eq!(parse_http_date(text), Some(EXAMPLE_MS), "{text}");
        }
        assert_eq!(
            parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"),
            Some(0),
            "the epoch"
        );
        assert_eq!(
            parse_http_date("Tue, 29 Feb 2028 12:00:00 GMT"),
            Some(1_835_438_400_000),
            "a leap day"
        );
    }

    #[test]
    fn seconds_dates_and_garbage() {
        assert_eq!(retry_after_ms("2", None), Some(2_000));
        assert_eq!(retry_after_ms(" 0.25 ", None), Some(250));
        assert_eq!(retry_after_ms("99999999", None), Some(MAX_RETRY_AFTER_MS));
        let now = EXAMPLE_MS - 3_000;
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", Some(now)),
            Some(3_000)
        );
        assert_eq!(
            retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", Some(EXAMPLE_MS + 5)),
            Some(0),
            "a date in the past asks for no wait"
        );
        assert_eq!(retry_after_ms("Sun, 06 Nov 1994 08:49:37 GMT", None), None);
        for garbage in [
            "",
            "-1",
            "soon",
            "1e3",
            "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 32 Nov 1994 08:49:37 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT",
        ] {
            assert_eq!(
                retry_after_ms(garbage, Some(EXAMPLE_MS)),
                None,
                "{garbage:?}"
            );
        }
        assert_eq!(retry_after_ms_header("1500"), Some(1_500));
        assert_eq!(retry_after_ms_header("12.2"), Some(13));
        assert_eq!(retry_after_ms_header("-4"), None);
    }
}
