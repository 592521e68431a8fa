//! The API key: carried to the `Authorization` header and nowhere else. It has no `Display`
//! and no `Serialize`, its `Debug` is redacted, and the texts the client composes (failure
//! messages, which may quote a server's error body) have it replaced, in case a server echoes it
//! back. A model's answer is never altered: an answer that holds a real key is not recorded at
//! all (the client's `guard` makes it a failed call), and a placeholder key — one shorter than
//! [`PLACEHOLDER_BELOW`] characters, like `ollama`, `lm-studio` or `EMPTY`, which the local
//! servers that take one ignore — is not looked for in answers, so they stay whole.

use std::fmt;

/// What a redacted key is replaced with.
pub const REDACTED: &str = "[redacted]";

/// Keys shorter than this many characters are placeholders, not secrets: the shortest keys real
/// services issue are over twice as long (OpenAI's `sk-…` 51 and more, Mistral's 32), while
/// servers that ignore the key are given words (`ollama`, `lm-studio`, `EMPTY`, `token-abc123`).
pub const PLACEHOLDER_BELOW: usize = 16;

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

    /// A placeholder (see [`PLACEHOLDER_BELOW`]), not a secret.
    pub fn is_placeholder(&self) -> bool {
        self.0.chars().count() < PLACEHOLDER_BELOW
    }

    /// Whether a model's answer `text` holds the key (a placeholder is never looked for).
    pub fn appears_in(&self, text: &str) -> bool {
        !self.is_placeholder() && text.contains(self.0.as_str())
    }

    /// A model's text to show while it streams (it is never recorded): a real key masked, a
    /// placeholder left alone.
    pub fn mask(&self, text: &str) -> String {
        if self.is_placeholder() {
            return text.to_owned();
        }
        self.redact(text)
    }

    /// A text logicmd composes (a failure message quoting a server) without the key: every
    /// occurrence (overlapping ones too) replaced by [`REDACTED`], or by a filler the key cannot
    /// be read into when the key shares characters with `[redacted]` in a way that could
    /// rebuild it across the replacement. A placeholder is replaced where it stands as a word of
    /// its own, so a key `a` does not turn `can` into `c***n`.
    pub fn redact(&self, text: &str) -> String {
        let key = self.0.as_str();
        let whole_words = self.is_placeholder();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut from = 0;
        while let Some(found) = text[from..].find(key) {
            let start = from + found;
            let end = start + key.len();
            from = start + text[start..].chars().next().map_or(1, char::len_utf8);
            if whole_words && !stands_alone(text, start, end) {
                continue;
            }
            match runs.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => runs.push((start, end)),
            }
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
        // Where `redact` would find the key inside the marker itself, the marker cannot be used.
        let inside_marker = REDACTED.match_indices(key).any(|(start, found)| {
            !self.is_placeholder() || stands_alone(REDACTED, start, start + found.len())
        });
        if !key.contains(['[', ']']) && !inside_marker {
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

/// Whether `text[start..end]` is a word of its own: no letter, digit, `-` or `_` touches it.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    !text[..start].chars().next_back().is_some_and(word)
        && !text[end..].chars().next().is_some_and(word)
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
        /// Wherever and however often a real key appears in a text, the redacted text has none
        /// of it.
        #[test]
        fn a_redacted_text_never_contains_the_key(
            key in "[A-Za-z0-9_-]{16,40}",
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
            key in "[\\[\\]redact*]{16,20}",
            parts in proptest::collection::vec("[\\[\\]redact*x]{0,8}", 1..5),
        ) {
            let secret = Secret::new(key.clone()).unwrap();
            let text = parts.join(&key);
            let redacted = secret.redact(&text);
            prop_assert!(!redacted.contains(&key), "{text} -> {redacted}");
        }

        /// A placeholder key is taken out where it is a word of its own, and a text where it is
        /// not is left exactly as it was; a model's text is never masked for it.
        #[test]
        fn a_placeholder_is_redacted_as_a_word_and_nowhere_else(
            key in "[a-z]{1,8}",
            words in proptest::collection::vec("[a-z]{0,6}", 1..6),
        ) {
            let secret = Secret::new(key.clone()).unwrap();
            let text = words.join(" ");
            let redacted = secret.redact(&text);
            prop_assert!(!redacted.split(' ').any(|w| w == key), "{text} -> {redacted}");
            if !text.split(' ').any(|w| w == key) {
                prop_assert_eq!(&redacted, &text);
            }
            prop_assert_eq!(secret.mask(&text), text.clone());
            prop_assert!(!secret.appears_in(&text));
        }
    }

    #[test]
    fn occurrences_are_replaced_by_one_marker_each_run() {
        let secret = Secret::new("sk-abc-0123456789").unwrap();
        assert_eq!(
            secret.redact("key sk-abc-0123456789, again sk-abc-0123456789sk-abc-0123456789."),
            "key [redacted], again [redacted]."
        );
        let overlapping = Secret::new("aaaaaaaaaaaaaaaa").unwrap();
        assert_eq!(overlapping.redact("xaaaaaaaaaaaaaaaaax"), "x[redacted]x");
        assert_eq!(Secret::new("red").unwrap().redact("red"), "[redacted]");
        assert_eq!(Secret::new("redacted").unwrap().redact("redacted"), "***");
    }

    #[test]
    fn placeholder_keys_leave_words_that_contain_them_alone() {
        let a = Secret::new("a").unwrap();
        assert_eq!(
            a.redact("Incorrect API key provided: a. You can find yours."),
            "Incorrect API key provided: [redacted]. You can find yours."
        );
        assert_eq!(a.redact(r#"{"answer": 1}"#), r#"{"answer": 1}"#);
        let ollama = Secret::new("ollama").unwrap();
        assert!(ollama.is_placeholder());
        assert!(!ollama.appears_in("ollama is a local model runner"));
        assert_eq!(
            ollama.mask("ollama is a local model runner"),
            "ollama is a local model runner"
        );
        let real = Secret::new("sk-proj-0123456789abcdef").unwrap();
        assert!(!real.is_placeholder());
        assert!(real.appears_in("the key is sk-proj-0123456789abcdef"));
    }
}
