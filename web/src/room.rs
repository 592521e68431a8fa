//! Room to work: which side panels are shown, remembered in the browser between visits (only
//! these flags are stored, never the document's content).

use leptos::prelude::*;

use crate::browser;

/// Where the panel flags are kept in the browser's storage.
const KEY: &str = "logicmd.studio.room";

#[derive(Clone, Copy)]
pub struct Room {
    pub palette_open: RwSignal<bool>,
    pub inspector_open: RwSignal<bool>,
}

impl Room {
    /// The remembered flags (every panel shown the first time), saved on every change.
    pub fn remembered() -> Room {
        let saved = browser::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .unwrap_or_default();
        let (palette, inspector) = parse(&saved);
        let room = Room {
            palette_open: RwSignal::new(palette),
            inspector_open: RwSignal::new(inspector),
        };
        Effect::new(move |_| {
            let value = format(room.palette_open.get(), room.inspector_open.get());
            if let Some(storage) = browser::window().and_then(|w| w.local_storage().ok().flatten())
            {
                let _ = storage.set_item(KEY, &value);
            }
        });
        room
    }
}

/// `palette=0;inspector=1` → (palette shown, inspector shown); anything unknown shows them.
fn parse(saved: &str) -> (bool, bool) {
    let hidden = |name: &str| saved.split(';').any(|part| part == format!("{name}=0"));
    (!hidden("palette"), !hidden("inspector"))
}

fn format(palette: bool, inspector: bool) -> String {
    format!(
        "palette={};inspector={}",
        u8::from(palette),
        u8::from(inspector)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_survive_a_round_trip_and_default_to_shown() {
        for flags in [(true, true), (false, true), (true, false), (false, false)] {
            assert_eq!(parse(&format(flags.0, flags.1)), flags);
        }
        assert_eq!(parse(""), (true, true));
        assert_eq!(parse("garbage"), (true, true));
    }
}
