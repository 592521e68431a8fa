//! Typing in an inspector field never loses a keystroke: what was typed is written 400 ms after
//! the last keystroke, and at once on every way of leaving the field — Enter (a change), Tab, a
//! click elsewhere, or the form being replaced because another node was selected. The writes of
//! one visit to a field are one undo step.
//!
//! The pending text lives outside the reactive arena (an `Arc`), so the form's cleanup can still
//! write it when the form is torn down.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;

/// Milliseconds of quiet after which what was typed is written.
const QUIET_MS: u64 = 400;

struct Inner {
    /// Typed and not written yet.
    pending: Mutex<Option<String>>,
    /// What the field holds while it has the keyboard (written or not): shown as typed.
    raw: Mutex<Option<String>>,
    timer: Mutex<Option<TimeoutHandle>>,
    /// Written once typing pauses too (else only on leaving).
    while_typing: bool,
    write: Box<dyn Fn(String) + Send + Sync>,
}

/// One field's typing.
#[derive(Clone)]
pub struct Typed(Arc<Inner>);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Typed {
    /// `write` is called with the raw text to write (it checks and writes it, or shows why not).
    pub fn new(write: impl Fn(String) + Send + Sync + 'static) -> Typed {
        Self::with(true, write)
    }

    /// A field written only when it is left (a rename, which rebuilds the form it is in).
    pub fn on_leaving(write: impl Fn(String) + Send + Sync + 'static) -> Typed {
        Self::with(false, write)
    }

    fn with(while_typing: bool, write: impl Fn(String) + Send + Sync + 'static) -> Typed {
        let typed = Typed(Arc::new(Inner {
            pending: Mutex::new(None),
            raw: Mutex::new(None),
            timer: Mutex::new(None),
            while_typing,
            write: Box::new(write),
        }));
        let on_cleanup_typed = typed.clone();
        on_cleanup(move || on_cleanup_typed.flush());
        typed
    }

    /// A keystroke: the field now holds `raw`; it is written once typing pauses.
    pub fn input(&self, raw: String) {
        *lock(&self.0.raw) = Some(raw.clone());
        *lock(&self.0.pending) = Some(raw);
        if !self.0.while_typing {
            return;
        }
        let later = self.clone();
        let handle =
            set_timeout_with_handle(move || later.flush(), Duration::from_millis(QUIET_MS));
        if let Some(old) = std::mem::replace(&mut *lock(&self.0.timer), handle.ok()) {
            old.clear();
        }
    }

    /// Writes what is pending now (a change, leaving, the form torn down).
    pub fn flush(&self) {
        if let Some(timer) = lock(&self.0.timer).take() {
            timer.clear();
        }
        let pending = lock(&self.0.pending).take();
        if let Some(raw) = pending {
            (self.0.write)(raw);
        }
    }

    /// Drops what is pending without writing it (the caller writes the field's value itself).
    pub fn cancel(&self) {
        if let Some(timer) = lock(&self.0.timer).take() {
            timer.clear();
        }
        lock(&self.0.pending).take();
    }

    /// The field lost the keyboard: what is pending is written, and the field shows the
    /// document's value again.
    pub fn leave(&self) {
        self.flush();
        *lock(&self.0.raw) = None;
    }

    /// What the field shows: the text as typed while it means the document's value (so a
    /// trailing space or a list's commas are not rewritten under the caret), else `document`.
    pub fn shown(&self, document: String, means_it: impl Fn(&str) -> bool) -> String {
        match lock(&self.0.raw).clone() {
            Some(raw) if means_it(&raw) => raw,
            _ => document,
        }
    }
}
