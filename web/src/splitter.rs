//! Room to work, part two: the side panels are resized by dragging the splitter at their inner
//! edge, or from the keyboard (a focusable `role="separator"` with its size as
//! `aria-valuenow`; arrows step, Shift steps further, Home/End go to the limits). Sizes are
//! remembered in the browser (only these numbers are stored, never the document's content).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser;

/// Where the sizes are kept in the browser's storage.
const KEY: &str = "logicmd.studio.sizes";

/// A resizable panel: its name, width limits in pixels, and which way a drag to the right goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Panel {
    pub name: &'static str,
    pub label: &'static str,
    pub min: f64,
    pub max: f64,
    /// The splitter is on the panel's left edge: a drag to the right makes it narrower.
    pub left_edge: bool,
}

pub const PALETTE: Panel = Panel {
    name: "palette",
    label: "Resize the palette",
    min: 90.0,
    max: 320.0,
    left_edge: false,
};
/// The side column: the inspector and the source (tabs, or stacked).
pub const SIDE: Panel = Panel {
    name: "side",
    label: "Resize the inspector and source column",
    min: 220.0,
    max: 900.0,
    left_edge: true,
};
const PANELS: [Panel; 2] = [PALETTE, SIDE];

/// The widths the user gave the panels (none until a splitter is moved).
#[derive(Clone, Copy)]
pub struct Sizes(pub RwSignal<Vec<(String, f64)>>);

impl Sizes {
    /// The remembered sizes, saved on every change.
    pub fn remembered() -> Sizes {
        let saved = storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .unwrap_or_default();
        let sizes = Sizes(RwSignal::new(parse(&saved)));
        Effect::new(move |_| {
            let value = sizes.0.with(|s| format(s));
            if let Some(storage) = storage() {
                let _ = storage.set_item(KEY, &value);
            }
        });
        sizes
    }

    /// CSS custom properties for the workspace: `--side-size: 320px; ...`.
    pub fn style(self) -> String {
        self.0.with(|sizes| {
            sizes
                .iter()
                .map(|(name, px)| format!("--{name}-size: {px:.0}px;"))
                .collect::<Vec<_>>()
                .join(" ")
        })
    }

    fn set(self, panel: Panel, px: f64) {
        let px = px.clamp(panel.min, panel.max).round();
        self.0.update(
            |sizes| match sizes.iter().position(|(name, _)| name == panel.name) {
                Some(i) => sizes[i].1 = px,
                None => sizes.push((panel.name.to_owned(), px)),
            },
        );
    }
}

fn storage() -> Option<web_sys::Storage> {
    browser::window().and_then(|w| w.local_storage().ok().flatten())
}

/// `palette=120;side=480` → sizes of known panels within their limits; the rest ignored.
fn parse(saved: &str) -> Vec<(String, f64)> {
    saved
        .split(';')
        .filter_map(|part| {
            let (name, px) = part.split_once('=')?;
            let panel = PANELS.iter().find(|p| p.name == name)?;
            let px: f64 = px.parse().ok().filter(|v: &f64| v.is_finite())?;
            Some((name.to_owned(), px.clamp(panel.min, panel.max)))
        })
        .collect()
}

fn format(sizes: &[(String, f64)]) -> String {
    sizes
        .iter()
        .map(|(name, px)| format!("{name}={px:.0}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// The panel's drawn width, read from the page (it may be the stylesheet's default).
fn drawn_width(panel: Panel) -> f64 {
    // The side column's width is its tabs' (always drawn while the column is shown).
    let drawn = match panel.name {
        "side" => ".studio > .side-tabs".to_owned(),
        name => format!(".studio > .{name}"),
    };
    browser::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(&drawn).ok().flatten())
        .map_or(panel.min, |e| e.get_bounding_client_rect().width())
}

/// The splitter of `panel`; `open` says whether the panel is shown.
#[component]
pub fn Splitter(panel: Panel, open: Signal<bool>) -> impl IntoView {
    let sizes = expect_context::<Sizes>();
    // While dragging: where the press was and the width then.
    let pressed = StoredValue::new(None::<(f64, f64)>);
    let now = RwSignal::new(0.0f64);
    let refresh = move || now.set(drawn_width(panel).round());
    request_animation_frame(refresh);
    let direction = if panel.left_edge { -1.0 } else { 1.0 };
    let on_down = move |ev: web_sys::PointerEvent| {
        ev.prevent_default();
        pressed.set_value(Some((f64::from(ev.client_x()), drawn_width(panel))));
        if let Some(target) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            let _ = target.set_pointer_capture(ev.pointer_id());
        }
    };
    let on_move = move |ev: web_sys::PointerEvent| {
        if let Some((x, width)) = pressed.get_value() {
            sizes.set(panel, width + direction * (f64::from(ev.client_x()) - x));
            refresh();
        }
    };
    let on_up = move |_: web_sys::PointerEvent| {
        pressed.set_value(None);
        refresh();
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let step = if ev.shift_key() { 64.0 } else { 16.0 };
        let width = drawn_width(panel);
        let next = match ev.key().as_str() {
            "ArrowRight" => width + direction * step,
            "ArrowLeft" => width - direction * step,
            "Home" => panel.min,
            "End" => panel.max,
            _ => return,
        };
        ev.prevent_default();
        sizes.set(panel, next);
        request_animation_frame(refresh);
    };
    view! {
        <Show when=move || open.get()>
            // A region of its own (laid out as if it were not there): every part of the page is
            // in a landmark.
            <div class="splitter-region" role="region" aria-label=panel.label>
            <div class=format!("splitter splitter-{}", panel.name) role="separator" tabindex="0"
                aria-orientation="vertical" aria-label=panel.label
                aria-valuemin=panel.min.to_string() aria-valuemax=panel.max.to_string()
                aria-valuenow=move || format!("{:.0}", now.get())
                data-splitter=panel.name
                on:pointerdown=on_down on:pointermove=on_move on:pointerup=on_up on:pointercancel=on_up
                on:keydown=on_key></div>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_survive_a_round_trip_within_their_limits() {
        let sizes = vec![("palette".to_owned(), 120.0), ("side".to_owned(), 480.0)];
        assert_eq!(parse(&format(&sizes)), sizes);
        assert_eq!(
            parse("side=5000;palette=10"),
            vec![("side".to_owned(), 900.0), ("palette".to_owned(), 90.0)]
        );
        // Sizes of panels an earlier studio had are ignored.
        assert_eq!(parse("garbage;inspector=300;side=x"), vec![]);
    }
}
