//! The text of a string scalar: a range of the document's shared source when the scalar is
//! written there as it reads (most plain and quoted scalars), so parsing copies no string; its
//! own copy otherwise (escapes, folded lines, edits). It reads, compares, hashes and prints as
//! its text, exactly as a `String` would.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// A string scalar's text (see the module's documentation). Two words: a language server
/// keeps a tree per open file, and a third word in every key and scalar was a tenth of it.
#[derive(Clone)]
pub struct Text {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// `source[start..end]`.
    Shared {
        source: Source,
        start: u32,
        /// [`WHOLE`] for a text that is all of its own source (of any length).
        end: u32,
    },
    /// One of the vocabulary's words ([`super::words`]), by its slot in the vocabulary's
    /// table: no reference count to keep.
    Word(&'static &'static str),
}

/// A source text as texts share it: one pointer (to the shared `Arc<str>`, which keeps the
/// caller's copy: the language server's text is not copied). A parse makes one and every text
/// it reads clones it.
#[derive(Clone)]
pub(crate) struct Source(Arc<Arc<str>>);

impl Source {
    /// The handle the texts read from `text` share.
    pub(crate) fn new(text: &Arc<str>) -> Source {
        Source(Arc::new(Arc::clone(text)))
    }

    #[inline]
    fn text(&self) -> &str {
        &self.0
    }
}

/// The `end` of a text that is all of its source.
const WHOLE: u32 = u32::MAX;

impl Text {
    /// The text `source[start..end]`, sharing `source`; `None` when the range is not one of
    /// `source`'s character ranges or ends at 4 GiB or beyond. (A handle is made per call; a
    /// parse shares one among all its texts: [`Text::within`].)
    pub fn shared(source: &Arc<str>, start: usize, end: usize) -> Option<Text> {
        source.get(start..end)?;
        let end = u32::try_from(end).ok().filter(|&end| end != WHOLE)?;
        Some(Text {
            repr: Repr::Shared {
                source: Source::new(source),
                start: u32::try_from(start).ok()?,
                end,
            },
        })
    }

    /// The text of `part`, a slice of `source` itself (as a reader slicing the source has
    /// it), sharing `source`; `None` when `part` is not within `source`'s bytes, is empty
    /// off a character boundary, or ends at 4 GiB or beyond. *Why beside [`Text::shared`]:*
    /// the fast reader shares every key and scalar it reads, and `str::get`'s two boundary
    /// checks per text were a tenth of its scalar work. The range needs no such check: `part`
    /// is a `&str` lying in `source`'s bytes, so it is valid UTF-8 made of those bytes; a
    /// non-empty one can neither start on a continuation byte nor end before one (its first
    /// or last character would be cut), so its range falls on `source`'s characters, which
    /// is what `as_str` relies on. An empty slice proves nothing and is checked.
    pub(crate) fn within(source: &Source, part: &str) -> Option<Text> {
        let whole = source.text();
        let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
        let end = start.checked_add(part.len())?;
        if end > whole.len() || part.is_empty() && !whole.is_char_boundary(start) {
            return None;
        }
        let end = u32::try_from(end).ok().filter(|&end| end != WHOLE)?;
        Some(Text {
            repr: Repr::Shared {
                source: source.clone(),
                start: u32::try_from(start).ok()?,
                end,
            },
        })
    }

    /// The text as a string slice.
    #[inline]
    pub fn as_str(&self) -> &str {
        let (source, start, end) = match &self.repr {
            Repr::Word(word) => return word,
            Repr::Shared { source, start, end } => (source.text(), *start, *end),
        };
        if end == WHOLE {
            return source;
        }
        // SAFETY: `shared` and `within`, the only constructors of a shared text with `end != WHOLE`,
        // made sure that `start..end` is a range of `source` falling on character boundaries
        // (`shared` by `str::get`, `within` by the proof in its documentation), and
        // the `Arc<str>` it holds never changes, so the range still is one. Reads are the hot
        // path (every key comparison of validation and of pointer lookups): checking the range
        // again on each cost the round-four regression (docs/perf.md, "The check, round
        // two").
        unsafe { source.get_unchecked(start as usize..end as usize) }
    }

    /// Whether both texts are the same range of the same source: then they are equal without
    /// comparing their bytes (two reads of one key of the source, a key and its own copy in a
    /// duplicate-key table).
    #[inline]
    fn same_range(&self, other: &Text) -> bool {
        match (&self.repr, &other.repr) {
            (
                Repr::Shared { source, start, end },
                Repr::Shared {
                    source: other_source,
                    start: other_start,
                    end: other_end,
                },
            ) => {
                Arc::ptr_eq(&source.0, &other_source.0) && start == other_start && end == other_end
            }
            (Repr::Word(word), Repr::Word(other)) => std::ptr::eq(*word, *other),
            _ => false,
        }
    }

    /// The vocabulary's own text of `text` when it is one of its words ([`super::words`]).
    #[inline]
    pub(crate) fn word(text: &str) -> Option<Text> {
        super::words::word_in_table(text).map(|word| Text {
            repr: Repr::Word(word),
        })
    }
}

/// A copy of `text`, or the vocabulary's own word (no allocation) when it is one.
impl From<&str> for Text {
    fn from(text: &str) -> Self {
        if let Some(word) = Text::word(text) {
            return word;
        }
        Text {
            repr: Repr::Shared {
                source: Source::new(&Arc::from(text)),
                start: 0,
                end: WHOLE,
            },
        }
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text::from(text.as_str())
    }
}

/// Serialized as its text, exactly as a `String`.
impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        text.as_str().to_owned()
    }
}

impl Deref for Text {
    type Target = str;

    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Text {
    #[inline]
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.same_range(other) || self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    #[inline]
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    #[inline]
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

    #[test]
    fn texts_of_one_source_compare_by_range_and_then_by_bytes() {
        let source: Arc<str> = Arc::from("a: x\nb: x\n");
        let first = Text::shared(&source, 3, 4).expect("x");
        let again = Text::shared(&source, 3, 4).expect("x");
        let second = Text::shared(&source, 8, 9).expect("x");
        let key = Text::shared(&source, 0, 1).expect("a");
        assert_eq!(first, again, "the same range");
        assert_eq!(first, second, "another range with the same text");
        assert_ne!(first, key);
        assert_eq!(first, Text::from("x"), "an own copy");
    }

    /// What a language server holds per open file is mostly these (as measured on 64-bit
    /// targets, where the benches run): a text is two words, a word of the vocabulary taking no
    /// room of its own, a node six and a mapping entry nine.
    #[cfg(target_pointer_width = "64")]
    #[test]
    fn a_text_is_two_words_a_node_six_and_an_entry_nine() {
        let word = std::mem::size_of::<usize>();
        assert_eq!(std::mem::size_of::<Text>(), 2 * word);
        assert_eq!(std::mem::size_of::<crate::yaml::NodeValue>(), 4 * word);
        assert_eq!(std::mem::size_of::<crate::yaml::Node>(), 6 * word);
        assert_eq!(std::mem::size_of::<crate::yaml::Entry>(), 9 * word);
    }

    #[test]
    fn a_word_reads_compares_hashes_and_prints_as_its_string() {
        use std::hash::BuildHasher;
        let source: Arc<str> = Arc::from("type: object\n");
        let word = Text::word("object").expect("a word of the vocabulary");
        let shared = Text::shared(&source, 6, 12).expect("object");
        assert_eq!(&*word, "object");
        assert_eq!(word, shared);
        assert_eq!(word, Text::word("object").expect("again"));
        assert_ne!(word, Text::word("string").expect("another word"));
        assert_eq!(word, "object");
        assert_eq!(format!("{word:?} {word}"), r#""object" object"#);
        let hasher = std::collections::hash_map::RandomState::new();
        assert_eq!(hasher.hash_one(&word), hasher.hash_one("object"));
        assert!(Text::word("step_1").is_none(), "not a word");
        assert!(Text::word("").is_none());
    }

    proptest! {
        /// What the unchecked read in `as_str` relies on: a shared text exists only for a range
        /// `str::get` accepts, and reads exactly that slice, whatever the characters around it.
        #[test]
        fn a_shared_text_exists_only_for_a_checked_range_and_reads_it(
            text in "(a|é|€|😀|\n){0,12}", start in 0usize..60, end in 0usize..60,
        ) {
            let source: Arc<str> = Arc::from(text.as_str());
            let shared = Text::shared(&source, start, end);
            prop_assert_eq!(shared.as_deref(), source.get(start..end));
        }

        /// `within` shares exactly the slices of the source `shared` accepts, read the same,
        /// and no slice of another string: the other way `as_str`'s unchecked read is fed.
        #[test]
        fn a_text_within_the_source_is_the_shared_text_of_its_range(
            text in "(a|é|€|😀|\n){0,12}", start in 0usize..60, end in 0usize..60,
        ) {
            let source: Arc<str> = Arc::from(text.as_str());
            let bytes = source.as_bytes();
            let (start, end) = (start.min(bytes.len()), end.min(bytes.len()));
            // Any `&str` safe code can make from the source's bytes, empty ones off a boundary included.
            if let Some(part) = bytes.get(start..end).and_then(|b| std::str::from_utf8(b).ok()) {
                let within = Text::within(&Source::new(&source), part);
                prop_assert_eq!(within.as_deref(), source.get(start..end));
                prop_assert_eq!(within, Text::shared(&source, start, end));
            }
            let copy = text.clone();
            prop_assert!(Text::within(&Source::new(&source), &copy).is_none(), "a copy is not the source");
        }

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
