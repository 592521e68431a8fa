//! The API key: carried to the `Authorization` header and nowhere else. It has no `Display`
//! and no `Serialize`, its `Debug` is redacted, and every text that leaves the client (answers,
//! failure messages) has it replaced, in case a server echoes it back.

use std::fmt;

/// What a redacted key is replaced with.
pub const REDACTED: &str = "[redacted]";

/// An API key.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// `None` for an empty key: an empty `Authorization` would only confuse the server.
    pub fn new(key: impl Into<String>) -> Option<Secret> {
        let key = key.into();
        (!key.trim().is_empty()).then_some(Secret(key))
    }

    /// The key itself, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key (overlapping ones too) replaced by
    /// [`REDACTED`], or by a filler the key cannot be read into when the key shares characters
    /// with `[redacted]` in a way that could rebuild it across the replacement.
    pub fn redact(&self, text: &str) -> String {
        let key = self.0.as_str();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut from = 0;
        while let Some(found) = text[from..].find(key) {
            let start = from + found;
            let end = start + key.len();
            match runs.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => runs.push((start, end)),
            }
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
        }
        if runs.is_empty() {
            return text.to_owned();
        }
        let filler = self.filler();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end) in runs {
            out.push_str(&text[at..start]);
            out.push_str(&filler);
            at = end;
        }
        out.push_str(&text[at..]);
        out
    }

    /// `[redacted]`, unless the key could be read across it: then a run of a character the
    /// key does not contain, which no occurrence of the key can overlap.
    fn filler(&self) -> String {
        let key = self.0.as_str();
        if !key.contains(['[', ']']) && !REDACTED.contains(key) {
            return REDACTED.to_owned();
        }
        // A key is finite, so some character is missing from it; `*` almost always.
        let absent = ['*', '#', '~']
            .into_iter()
            .chain((0x2580..=0x10FFFF).filter_map(char::from_u32))
            .find(|c| !key.contains(*c))
            .unwrap_or('*');
        std::iter::repeat_n(absent, 3).collect()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secret({REDACTED})")
    }
}

/// `text` with `secret` redacted, when there is one.
pub(crate) fn redact(secret: Option<&Secret>, text: &str) -> String {
    match secret {
        Some(secret) => secret.redact(text),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn debug_never_shows_the_key() {
        let secret = Secret::new("sk-live-123").unwrap();
        assert_eq!(format!("{secret:?}"), "Secret([redacted])");
        assert_eq!(format!("{:?}", Some(secret)), "Some(Secret([redacted]))");
        assert_eq!(Secret::new("  "), None);
    }

    proptest! {
        /// Wherever and however often the key appears in a text, the redacted text has none of it.
        #[test]
        fn a_redacted_text_never_contains_the_key(
            key in "[A-Za-z0-9_-]{6,40}",
            parts in proptest::collection::vec(".{0,20}", 1..6),
        ) {
            let secret = Secret::new(key.clone()).unwrap();
            let text = parts.join(&key);
            let redacted = secret.redact(&text);
            prop_assert!(!redacted.contains(&key), "{redacted}");
        }

        /// Keys made of the characters of `[redacted]` (the worst case for a replacement) are
        /// redacted too, overlapping occurrences included.
        #[test]
        fn keys_that_look_like_the_replacement_are_redacted(
            key in "[\\[\\]redact*]{1,6}",
            parts in proptest::collection::vec("[\\[\\]redact*x]{0,8}", 1..5),
        ) {
            let secret = Secret::new(key.clone()).unwrap();
            let text = parts.join(&key);
            let redacted = secret.redact(&text);
            prop_assert!(!redacted.contains(&key), "{text} -> {redacted}");
        }
    }

    #[test]
    fn occurrences_are_replaced_by_one_marker_each_run() {
        let secret = Secret::new("sk-abc").unwrap();
        assert_eq!(
            secret.redact("key sk-abc, again sk-abcsk-abc."),
            "key [redacted], again [redacted]."
        );
        assert_eq!(Secret::new("aa").unwrap().redact("xaaax"), "x[redacted]x");
        assert_eq!(Secret::new("red").unwrap().redact("red"), "***");
    }
}
