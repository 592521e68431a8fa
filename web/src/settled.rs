//! "The text has settled": one quiet period after typing, for what follows the text at the pace
//! of a pause rather than of keystrokes (the autosave, the kept history). Writing a large document
//! to the browser's storage takes milliseconds; doing it on every keystroke would slow typing.

use leptos::leptos_dom::helpers::TimeoutHandle;
use leptos::prelude::*;

use crate::state::Studio;

/// Milliseconds of quiet after the last change before the text counts as settled.
const QUIET_MS: u64 = 300;

/// How many times the text has settled since the page opened (provided as context by the app).
#[derive(Clone, Copy)]
pub struct Settled(ReadSignal<u32>);

impl Settled {
    /// Starts watching the studio's text: it settles `QUIET_MS` after each change stops (and once
    /// after the page opens).
    pub fn watch(studio: Studio) -> Settled {
        let (count, set_count) = signal(0u32);
        let pending = StoredValue::new(None::<TimeoutHandle>);
        Effect::new(move |_| {
            studio.text.track();
            if let Some(handle) = pending.get_value() {
                handle.clear();
            }
            let handle = set_timeout_with_handle(
                move || set_count.update(|n| *n += 1),
                std::time::Duration::from_millis(QUIET_MS),
            )
            .ok();
            pending.set_value(handle);
        });
        Settled(count)
    }

    /// Runs `action` every time the text settles.
    pub fn on_settle(self, action: impl Fn() + 'static) {
        Effect::new(move |_| {
            if self.0.get() > 0 {
                action();
            }
        });
    }
}
