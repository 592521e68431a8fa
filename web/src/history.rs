//! Undo and redo over whole texts: every canvas, inspector and typing change is one entry, and
//! undo restores the previous text byte for byte.

#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    undo: Vec<String>,
    redo: Vec<String>,
}

/// Kept texts per direction, and their total size; older ones are dropped first.
const DEPTH: usize = 200;
const BYTES: usize = 48 << 20;

impl History {
    /// Records `before` as the state to return to; a new change clears redo.
    pub fn record(&mut self, before: String) {
        if self.undo.last() != Some(&before) {
            self.undo.push(before);
            let mut total: usize = self.undo.iter().map(String::len).sum();
            while self.undo.len() > DEPTH || (total > BYTES && self.undo.len() > 1) {
                total -= self.undo.remove(0).len();
            }
        }
        self.redo.clear();
    }

    pub fn undo(&mut self, current: String) -> Option<String> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        Some(previous)
    }

    pub fn redo(&mut self, current: String) -> Option<String> {
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
}
