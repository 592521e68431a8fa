//! Room to work: which panels are shown and which way Auto-layout goes, remembered in the
//! browser between visits (only these flags are stored, never the document's content).

use leptos::prelude::*;
use logicmd::graph::Direction;

use crate::browser;

/// Where the flags are kept in the browser's storage.
const KEY: &str = "logicmd.studio.room";

#[derive(Clone, Copy)]
pub struct Room {
    pub palette_open: RwSignal<bool>,
    pub inspector_open: RwSignal<bool>,
    /// The Run panel under the canvas; hidden, the canvas takes its height.
    pub run_open: RwSignal<bool>,
    /// Which way Auto-layout (and a document opened) lays the graph out.
    pub direction: RwSignal<Direction>,
}

/// The remembered choices, as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Flags {
    palette: bool,
    inspector: bool,
    run: bool,
    direction: Direction,
}

impl Room {
    /// The remembered flags (every panel shown and top-down the first time), saved on every
    /// change.
    pub fn remembered() -> Room {
        let saved = browser::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .unwrap_or_default();
        let flags = parse(&saved);
        let room = Room {
            palette_open: RwSignal::new(flags.palette),
            inspector_open: RwSignal::new(flags.inspector),
            run_open: RwSignal::new(flags.run),
            direction: RwSignal::new(flags.direction),
        };
        Effect::new(move |_| {
            let value = format(Flags {
                palette: room.palette_open.get(),
                inspector: room.inspector_open.get(),
                run: room.run_open.get(),
                direction: room.direction.get(),
            });
            if let Some(storage) = browser::window().and_then(|w| w.local_storage().ok().flatten())
            {
                let _ = storage.set_item(KEY, &value);
            }
        });
        room
    }
}

/// `palette=0;inspector=1;run=1;direction=lr` → the flags; anything unknown shows the panels
/// and lays out top-down.
fn parse(saved: &str) -> Flags {
    let has = |part: &str| saved.split(';').any(|p| p == part);
    Flags {
        palette: !has("palette=0"),
        inspector: !has("inspector=0"),
        run: !has("run=0"),
        direction: if has("direction=lr") {
            Direction::LeftRight
        } else {
            Direction::TopDown
        },
    }
}

fn format(flags: Flags) -> String {
    let direction = match flags.direction {
        Direction::TopDown => "td",
        Direction::LeftRight => "lr",
    };
    format!(
        "palette={};inspector={};run={};direction={direction}",
        u8::from(flags.palette),
        u8::from(flags.inspector),
        u8::from(flags.run),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_survive_a_round_trip_and_default_to_shown_and_top_down() {
        for bits in 0..16u8 {
            let flags = Flags {
                palette: bits & 1 != 0,
                inspector: bits & 2 != 0,
                run: bits & 4 != 0,
                direction: if bits & 8 != 0 {
                    Direction::LeftRight
                } else {
                    Direction::TopDown
                },
            };
            assert_eq!(parse(&format(flags)), flags);
        }
        let shown = Flags {
            palette: true,
            inspector: true,
            run: true,
            direction: Direction::TopDown,
        };
        assert_eq!(parse(""), shown);
        assert_eq!(parse("garbage"), shown);
        // What an earlier studio stored (no run or direction) keeps its meaning.
        assert_eq!(
            parse("palette=0;inspector=1"),
            Flags {
                palette: false,
                ..shown
            }
        );
    }
}
