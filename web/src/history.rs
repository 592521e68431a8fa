//! Undo and redo: every canvas, inspector and typing change is one entry, and undo restores the
//! previous text byte for byte. An entry is the change itself (where, what was there, what is
//! there now), not a copy of the text: a key typed into a large document records a few bytes,
//! where a copy of the whole text per key (272 KB at 5,000 steps) cost the key its time and the
//! page its memory (issue #38).

#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    undo: Vec<Change>,
    redo: Vec<Change>,
    /// Bytes the undo entries hold.
    undo_bytes: usize,
    /// The group of the last change recorded (a field being typed in), if any.
    group: Option<String>,
}

/// One change of the text: the bytes `at..at + after.len()` of the text after it were `before`
/// in the text before it.
#[derive(Debug, Clone, PartialEq)]
struct Change {
    at: usize,
    before: String,
    after: String,
}

/// Where a change recorded replaced bytes of the text (for what follows the text, such as the
/// source pane's line index, to move past it instead of reading the whole text again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Splice {
    pub at: usize,
    /// Bytes removed and inserted at `at`.
    pub removed: usize,
    pub inserted: usize,
    /// Whether the bytes removed or inserted hold a line break.
    pub breaks: bool,
}

/// Kept changes per direction, and the bytes they hold; older ones are dropped first.
const DEPTH: usize = 200;
const BYTES: usize = 48 << 20;

impl Change {
    /// The change from `old` to `new`: what lies between their common start and common end.
    /// `None` when they are the same text.
    fn between(old: &str, new: &str) -> Option<Change> {
        if old == new {
            return None;
        }
        let mut start = common_prefix(old.as_bytes(), new.as_bytes());
        while !(old.is_char_boundary(start) && new.is_char_boundary(start)) {
            start -= 1;
        }
        let most = old.len().min(new.len()) - start;
        let mut end = common_suffix(&old.as_bytes()[start..], &new.as_bytes()[start..]).min(most);
        while !(old.is_char_boundary(old.len() - end) && new.is_char_boundary(new.len() - end)) {
            end -= 1;
        }
        Some(Change {
            at: start,
            before: old[start..old.len() - end].to_owned(),
            after: new[start..new.len() - end].to_owned(),
        })
    }

    /// The text before the change, from `text` after it; `None` if `text` is not the text after
    /// it (nothing is then changed: never a text undo did not record).
    fn revert(&self, text: &str) -> Option<String> {
        swap(text, self.at, &self.after, &self.before)
    }

    /// The text after the change, from `text` before it (`None` as in [`Change::revert`]).
    fn reapply(&self, text: &str) -> Option<String> {
        swap(text, self.at, &self.before, &self.after)
    }

    /// This change followed by `next`, made on `text` (the text after this one): one change from
    /// the text before this one to the text after `next`.
    fn then(self, next: &Change, text: &str) -> Change {
        let start = self.at.min(next.at);
        let end = (self.at + self.after.len()).max(next.at + next.before.len());
        let around = |at: usize, from: usize, to: &str| {
            let mut out = String::with_capacity(end - start + to.len());
            out.push_str(&text[start..at]);
            out.push_str(to);
            out.push_str(&text[from..end]);
            out
        };
        Change {
            at: start,
            before: around(self.at, self.at + self.after.len(), &self.before),
            after: around(next.at, next.at + next.before.len(), &next.after),
        }
    }

    fn bytes(&self) -> usize {
        self.before.len() + self.after.len()
    }

    fn splice(&self) -> Splice {
        Splice {
            at: self.at,
            removed: self.before.len(),
            inserted: self.after.len(),
            breaks: self.before.contains('\n') || self.after.contains('\n'),
        }
    }
}

/// `text` with `old` at `at` replaced by `new`, if `old` is there.
fn swap(text: &str, at: usize, old: &str, new: &str) -> Option<String> {
    let end = at.checked_add(old.len())?;
    if text.get(at..end)? != old {
        return None;
    }
    let mut out = String::with_capacity(text.len() - old.len() + new.len());
    out.push_str(&text[..at]);
    out.push_str(new);
    out.push_str(&text[end..]);
    Some(out)
}

/// Bytes at the start of `a` and `b` that are the same, compared eight at a time.
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let words = a
        .chunks_exact(8)
        .zip(b.chunks_exact(8))
        .take_while(|(x, y)| x == y)
        .count();
    let at = words * 8;
    at + a[at..]
        .iter()
        .zip(&b[at..])
        .take_while(|(x, y)| x == y)
        .count()
}

/// Bytes at the end of `a` and `b` that are the same, compared eight at a time.
fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let words = a
        .rchunks_exact(8)
        .zip(b.rchunks_exact(8))
        .take_while(|(x, y)| x == y)
        .count();
    let at = words * 8;
    at + a[..a.len() - at]
        .iter()
        .rev()
        .zip(b[..b.len() - at].iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

impl History {
    /// Records the change from `old` to `new` as a step to undo; a new change clears redo.
    /// Where it is, or `None` when `new` is `old` (nothing to record).
    pub fn record(&mut self, old: &str, new: &str) -> Option<Splice> {
        self.record_in(old, new, None)
    }

    /// [`History::record`] for a change of `group`: a change of the same group as the last one
    /// continues it (undo goes back to before the first), so a field typed in with pauses is
    /// one undo step.
    pub fn record_in(&mut self, old: &str, new: &str, group: Option<&str>) -> Option<Splice> {
        let change = Change::between(old, new)?;
        let splice = change.splice();
        let continues = group.is_some() && self.group.as_deref() == group;
        self.group = group.map(str::to_owned);
        self.redo.clear();
        if continues {
            if let Some(last) = self.undo.pop() {
                self.undo_bytes -= last.bytes();
                self.push_undo(last.then(&change, old));
                return Some(splice);
            }
        }
        self.push_undo(change);
        Some(splice)
    }

    fn push_undo(&mut self, change: Change) {
        self.undo_bytes += change.bytes();
        self.undo.push(change);
        let mut dropped = 0;
        while self.undo.len() - dropped > DEPTH
            || (self.undo_bytes > BYTES && self.undo.len() - dropped > 1)
        {
            self.undo_bytes -= self.undo[dropped].bytes();
            dropped += 1;
        }
        self.undo.drain(..dropped);
    }

    /// The change of a group is over (the field was left): the next change is a step of its own.
    pub fn end_group(&mut self) {
        self.group = None;
    }

    /// The text before the last change, from `current` (the text after it).
    pub fn undo(&mut self, current: &str) -> Option<String> {
        self.group = None;
        let previous = self.undo.last()?.revert(current)?;
        let change = self.undo.pop()?;
        self.undo_bytes -= change.bytes();
        self.redo.push(change);
        Some(previous)
    }

    /// The text after the last change undone, from `current` (the text before it).
    pub fn redo(&mut self, current: &str) -> Option<String> {
        self.group = None;
        let next = self.redo.last()?.reapply(current)?;
        let change = self.redo.pop()?;
        self.push_undo(change);
        Some(next)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Records `texts` in turn (each with its group), from `start`.
    fn typed(history: &mut History, start: &str, texts: &[(&str, Option<&str>)]) {
        let mut now = start.to_owned();
        for (text, group) in texts {
            history.record_in(&now, text, *group);
            now = (*text).to_owned();
        }
    }

    #[test]
    fn undo_and_redo_walk_the_texts() {
        let mut history = History::default();
        typed(&mut history, "a", &[("ab", None), ("abc", None)]);
        assert_eq!(history.undo("abc").as_deref(), Some("ab"));
        assert_eq!(history.undo("ab").as_deref(), Some("a"));
        assert_eq!(history.undo("a"), None);
        assert_eq!(history.redo("a").as_deref(), Some("ab"));
        let splice = history.record("ab", "abd");
        assert_eq!(
            splice,
            Some(Splice {
                at: 2,
                removed: 0,
                inserted: 1,
                breaks: false
            })
        );
        assert!(!history.can_redo());
        assert_eq!(history.record("abd", "abd"), None, "no change, no step");
    }

    #[test]
    fn changes_of_one_group_are_one_step() {
        let mut history = History::default();
        let group = Some("/steps/x/description");
        typed(
            &mut history,
            "a",
            &[
                ("ab", None),
                ("abc", group),
                ("abcd", group),
                ("abcde", group),
            ],
        );
        assert_eq!(history.undo("abcde").as_deref(), Some("ab"));
        assert_eq!(history.undo("ab").as_deref(), Some("a"));
        // Another group, or a plain change, starts a new step.
        let mut history = History::default();
        typed(
            &mut history,
            "",
            &[
                ("a", Some("one")),
                ("ab", Some("two")),
                ("abc", None),
                ("abcd", Some("two")),
            ],
        );
        assert_eq!(history.undo("abcd").as_deref(), Some("abc"));
        assert_eq!(history.undo("abc").as_deref(), Some("ab"));
    }

    #[test]
    fn an_entry_holds_the_change_not_the_text() {
        let text = "x".repeat(100_000);
        let mut typed = text.clone();
        typed.insert(50_000, 'é');
        let mut history = History::default();
        history.record(&text, &typed);
        assert_eq!(history.undo_bytes, 2);
        assert_eq!(history.undo(&typed).as_deref(), Some(text.as_str()));
    }

    #[test]
    fn a_text_that_is_not_the_one_recorded_is_never_undone() {
        let mut history = History::default();
        history.record("abc", "abXc");
        assert_eq!(history.undo("abc"), None, "the change is not in this text");
        assert!(history.can_undo(), "and stays to undo");
        assert_eq!(history.undo("abXc").as_deref(), Some("abc"));
    }

    #[test]
    fn changes_split_no_character() {
        // é (C3 A9) and è (C3 A8) share their first byte; 😀 and 😁 their first three.
        for (old, new) in [("aé", "aè"), ("😀b", "😁b"), ("é", ""), ("", "😀")] {
            let change = Change::between(old, new).unwrap();
            assert_eq!(change.revert(new).as_deref(), Some(old));
            assert_eq!(change.reapply(old).as_deref(), Some(new));
        }
    }

    #[test]
    fn the_oldest_steps_go_first() {
        let mut history = History::default();
        let mut now = String::new();
        for i in 0..DEPTH + 5 {
            let next = format!("{now}{}", i % 10);
            history.record(&now, &next);
            now = next;
        }
        let mut undone = 0;
        while let Some(previous) = history.undo(&now) {
            now = previous;
            undone += 1;
        }
        assert_eq!(undone, DEPTH);
        assert_eq!(now.len(), 5, "back to the oldest text kept");
    }

    proptest! {
        /// Whatever the changes and their groups, undo walks back through exactly the texts
        /// recorded (a group's texts in between skipped) and redo forward again.
        #[test]
        fn undo_and_redo_restore_every_text_exactly(
            start in "[ab\né]{0,12}",
            edits in proptest::collection::vec(
                (0usize..20, 0usize..4, "[ab\né😀]{0,3}", proptest::option::of(0u8..2)),
                1..12,
            ),
        ) {
            let mut history = History::default();
            let mut now = start.clone();
            // The texts undo must return to, newest last.
            let mut steps = vec![start];
            let mut last_group = None;
            for (at, len, insert, group) in edits {
                let chars: Vec<char> = now.chars().collect();
                let at = at.min(chars.len());
                let end = (at + len).min(chars.len());
                let next: String = chars[..at].iter().chain(insert.chars().collect::<Vec<_>>().iter()).chain(&chars[end..]).collect();
                let group = group.map(|g| format!("g{g}"));
                if history.record_in(&now, &next, group.as_deref()).is_some() {
                    if group.is_none() || group != last_group || steps.len() == 1 {
                        steps.push(next.clone());
                    } else {
                        *steps.last_mut().unwrap() = next.clone();
                    }
                    last_group = group;
                    now = next;
                }
            }
            let mut undone = Vec::new();
            while let Some(previous) = history.undo(&now) {
                undone.push(std::mem::replace(&mut now, previous));
            }
            prop_assert_eq!(&now, &steps[0]);
            let mut expected: Vec<String> = steps[1..].iter().rev().cloned().collect();
            prop_assert_eq!(&undone, &expected);
            expected.reverse();
            let mut redone = Vec::new();
            while let Some(next) = history.redo(&now) {
                now = next;
                redone.push(now.clone());
            }
            prop_assert_eq!(redone, expected);
        }
    }
}
