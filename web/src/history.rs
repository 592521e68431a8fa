//! Undo and redo over whole texts: every canvas, inspector and typing change is one entry, and
//! undo restores the previous text byte for byte.

#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    undo: Vec<String>,
    redo: Vec<String>,
    /// The group of the last change recorded (a field being typed in), if any.
    group: Option<String>,
}

/// Kept texts per direction, and their total size; older ones are dropped first.
const DEPTH: usize = 200;
const BYTES: usize = 48 << 20;

impl History {
    /// Records `before` as the state to return to; a new change clears redo.
    pub fn record(&mut self, before: String) {
        self.record_in(before, None);
    }

    /// [`History::record`] for a change of `group`: a change of the same group as the last one
    /// continues it (undo goes back to before the first), so a field typed in with pauses is
    /// one undo step.
    pub fn record_in(&mut self, before: String, group: Option<&str>) {
        let continues = group.is_some() && self.group.as_deref() == group && !self.undo.is_empty();
        self.group = group.map(str::to_owned);
        self.redo.clear();
        if continues {
            return;
        }
        if self.undo.last() != Some(&before) {
            self.undo.push(before);
            let mut total: usize = self.undo.iter().map(String::len).sum();
            while self.undo.len() > DEPTH || (total > BYTES && self.undo.len() > 1) {
                total -= self.undo.remove(0).len();
            }
        }
    }

    /// The change of a group is over (the field was left): the next change is a step of its own.
    pub fn end_group(&mut self) {
        self.group = None;
    }

    pub fn undo(&mut self, current: String) -> Option<String> {
        self.group = None;
        let previous = self.undo.pop()?;
        self.redo.push(current);
        Some(previous)
    }

    pub fn redo(&mut self, current: String) -> Option<String> {
        self.group = None;
        let next = self.redo.pop()?;
        self.undo.push(current);
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

    #[test]
    fn undo_and_redo_walk_the_texts() {
        let mut history = History::default();
        history.record("a".into());
        history.record("ab".into());
        assert_eq!(history.undo("abc".into()).as_deref(), Some("ab"));
        assert_eq!(history.undo("ab".into()).as_deref(), Some("a"));
        assert_eq!(history.undo("a".into()), None);
        assert_eq!(history.redo("a".into()).as_deref(), Some("ab"));
        history.record("ab".into());
        assert!(!history.can_redo());
    }

    #[test]
    fn changes_of_one_group_are_one_step() {
        let mut history = History::default();
        history.record("a".into());
        history.record_in("ab".into(), Some("/steps/x/description"));
        history.record_in("abc".into(), Some("/steps/x/description"));
        history.record_in("abcd".into(), Some("/steps/x/description"));
        assert_eq!(history.undo("abcde".into()).as_deref(), Some("ab"));
        assert_eq!(history.undo("ab".into()).as_deref(), Some("a"));
        // Another group, or a plain change, starts a new step.
        let mut history = History::default();
        history.record_in("a".into(), Some("one"));
        history.record_in("ab".into(), Some("two"));
        history.record("abc".into());
        history.record_in("abcd".into(), Some("two"));
        assert_eq!(history.undo("x".into()).as_deref(), Some("abcd"));
        assert_eq!(history.undo("abcd".into()).as_deref(), Some("abc"));
    }
}
