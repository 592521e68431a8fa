//! Room to work: which panels are shown and which way Auto-layout goes, remembered in the
//! browser between visits (only these flags are stored, never the document's content). The
//! canvas gets most of the screen: the inspector and the source share one side column (tabs, or
//! stacked), and the Run panel opens when a run starts.

use leptos::prelude::*;
use logicmd::graph::Direction;

use crate::browser;

/// Where the flags are kept in the browser's storage.
const KEY: &str = "logicmd.studio.room";

/// What the side column shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Inspector,
    Source,
    /// The inspector above the source.
    Both,
}

#[derive(Clone, Copy)]
pub struct Room {
    pub palette_open: RwSignal<bool>,
    /// The side column (inspector and source) is shown.
    pub side_open: RwSignal<bool>,
    pub side: RwSignal<Side>,
    /// The Run panel under the canvas; closed until a run starts (not remembered: a first
    /// screen gives the canvas its room).
    pub run_open: RwSignal<bool>,
    /// Which way Auto-layout (and a document opened) lays the graph out.
    pub direction: RwSignal<Direction>,
    /// The minimap is shown (its own flag, `logicmd.studio.minimap`).
    pub minimap: RwSignal<bool>,
}

/// Where the minimap's flag is kept.
const MINIMAP_KEY: &str = "logicmd.studio.minimap";

/// The remembered choices, as stored.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Flags {
    palette: bool,
    side_open: bool,
    side: Side,
    direction: Direction,
}

impl Room {
    /// The remembered flags (the palette and both side panels shown, top-down the first time),
    /// saved on every change.
    pub fn remembered() -> Room {
        let storage = || browser::window().and_then(|w| w.local_storage().ok().flatten());
        let saved = storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .unwrap_or_default();
        let flags = parse(&saved);
        let minimap = storage()
            .and_then(|s| s.get_item(MINIMAP_KEY).ok().flatten())
            .as_deref()
            == Some("shown");
        let room = Room {
            palette_open: RwSignal::new(flags.palette),
            side_open: RwSignal::new(flags.side_open),
            side: RwSignal::new(flags.side),
            run_open: RwSignal::new(false),
            direction: RwSignal::new(flags.direction),
            minimap: RwSignal::new(minimap),
        };
        Effect::new(move |_| {
            let value = if room.minimap.get() {
                "shown"
            } else {
                "hidden"
            };
            if let Some(storage) = storage() {
                let _ = storage.set_item(MINIMAP_KEY, value);
            }
        });
        Effect::new(move |_| {
            let value = format(Flags {
                palette: room.palette_open.get(),
                side_open: room.side_open.get(),
                side: room.side.get(),
                direction: room.direction.get(),
            });
            if let Some(storage) = storage() {
                let _ = storage.set_item(KEY, &value);
            }
        });
        room
    }

    /// Whether the inspector is shown (tracked).
    pub fn inspector_shown(self) -> bool {
        self.side_open.get() && self.side.get() != Side::Source
    }

    /// Whether the source is shown (tracked).
    pub fn source_shown(self) -> bool {
        self.side_open.get() && self.side.get() != Side::Inspector
    }

    /// The View menu's toggle of one side panel: shown → hidden (the other stays), hidden →
    /// shown beside the other.
    pub fn toggle(self, panel: Side) {
        let shown = match panel {
            Side::Inspector => self.inspector_shown_untracked(),
            _ => self.source_shown_untracked(),
        };
        let other = match panel {
            Side::Inspector => Side::Source,
            _ => Side::Inspector,
        };
        let other_shown = match other {
            Side::Inspector => self.inspector_shown_untracked(),
            _ => self.source_shown_untracked(),
        };
        match (shown, other_shown) {
            (true, true) => self.side.set(other),
            (true, false) => self.side_open.set(false),
            (false, true) => self.side.set(Side::Both),
            (false, false) => {
                self.side_open.set(true);
                self.side.set(panel);
            }
        }
    }

    fn inspector_shown_untracked(self) -> bool {
        self.side_open.get_untracked() && self.side.get_untracked() != Side::Source
    }

    fn source_shown_untracked(self) -> bool {
        self.side_open.get_untracked() && self.side.get_untracked() != Side::Inspector
    }
}

/// `palette=0;side=1;tabs=both;direction=lr` → the flags; anything unknown shows the panels
/// stacked and lays out top-down.
fn parse(saved: &str) -> Flags {
    let has = |part: &str| saved.split(';').any(|p| p == part);
    Flags {
        palette: !has("palette=0"),
        side_open: !has("side=0"),
        side: if has("tabs=inspector") {
            Side::Inspector
        } else if has("tabs=source") {
            Side::Source
        } else {
            Side::Both
        },
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
    let side = match flags.side {
        Side::Inspector => "inspector",
        Side::Source => "source",
        Side::Both => "both",
    };
    format!(
        "palette={};side={};tabs={side};direction={direction}",
        u8::from(flags.palette),
        u8::from(flags.side_open),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_survive_a_round_trip_and_default_to_shown_and_top_down() {
        for bits in 0..24u8 {
            let flags = Flags {
                palette: bits & 1 != 0,
                side_open: bits & 2 != 0,
                direction: if bits & 4 != 0 {
                    Direction::LeftRight
                } else {
                    Direction::TopDown
                },
                side: [Side::Inspector, Side::Source, Side::Both][usize::from(bits / 8)],
            };
            assert_eq!(parse(&format(flags)), flags);
        }
        let shown = Flags {
            palette: true,
            side_open: true,
            side: Side::Both,
            direction: Direction::TopDown,
        };
        assert_eq!(parse(""), shown);
        assert_eq!(parse("garbage"), shown);
        // What an earlier studio stored keeps its meaning where it can.
        assert_eq!(
            parse("palette=0;inspector=1;run=1;direction=lr"),
            Flags {
                palette: false,
                direction: Direction::LeftRight,
                ..shown
            }
        );
    }
}
