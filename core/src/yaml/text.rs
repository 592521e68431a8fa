//! The text of a string scalar: a range of the document's shared source when the scalar is
//! written there as it reads (most plain and quoted scalars), so parsing copies no string; its
//! own copy otherwise (escapes, folded lines, edits). It reads, compares, hashes and prints as
//! its text, exactly as a `String` would.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// A string scalar's text (see the module's documentation).
#[derive(Clone)]
pub struct Text {
    source: Arc<str>,
    start: u32,
    /// [`WHOLE`] for a text that is all of its own source (of any length).
    end: u32,
}

/// The `end` of a text that is its whole source.
const WHOLE: u32 = u32::MAX;

impl Text {
    /// The text `source[start..end]`, sharing `source`; `None` when the range is not one of
    /// `source`'s character ranges or ends at 4 GiB or beyond.
    pub fn shared(source: &Arc<str>, start: usize, end: usize) -> Option<Text> {
        source.get(start..end)?;
        let end = u32::try_from(end).ok().filter(|&end| end != WHOLE)?;
        Some(Text {
            source: Arc::clone(source),
            start: u32::try_from(start).ok()?,
            end,
        })
    }

    /// The text as a string slice.
    pub fn as_str(&self) -> &str {
        if self.end == WHOLE {
            return &self.source;
        }
        // The range was checked when the text was made, and the source never changes.
        self.source
            .get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text {
            source: Arc::from(text),
            start: 0,
            end: WHOLE,
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text::from(text.as_str())
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        text.as_str().to_owned()
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

/// As a `String` prints: the snapshots of trees read the same whichever way a text is held.
impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_shared_range_must_fall_on_characters() {
        let source: Arc<str> = Arc::from("née: 1");
        assert_eq!(Text::shared(&source, 0, 4).as_deref(), Some("née"));
        assert!(Text::shared(&source, 0, 2).is_none(), "inside é");
        assert!(Text::shared(&source, 3, 99).is_none());
    }

    proptest! {
        #[test]
        fn shared_and_owned_texts_read_compare_and_print_as_their_string(
            text in ".{0,40}", cut in 0usize..40,
        ) {
            let source: Arc<str> = Arc::from(format!("key: {text}").as_str());
            let shared = Text::shared(&source, 5, source.len()).expect("a whole tail");
            let owned = Text::from(text.clone());
            prop_assert_eq!(&*shared, text.as_str());
            prop_assert_eq!(&shared, &owned);
            prop_assert_eq!(format!("{shared:?}"), format!("{text:?}"));
            prop_assert_eq!(shared.to_string(), text.clone());
            let cut = cut.min(text.len());
            if let Some(part) = Text::shared(&source, 5, 5 + cut) {
                prop_assert_eq!(&*part, &text[..cut]);
            }
        }
    }
}
