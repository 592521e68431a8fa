//! Zoom controls over the canvas: out, the zoom in % (click for 100%), in. Buttons zoom about
//! the canvas's centre.

use leptos::prelude::*;

use super::gesture::zoom_at;
use crate::state::Studio;

/// Each button press zooms by this factor.
const STEP: f64 = 1.25;

#[component]
pub fn ZoomControls(size: RwSignal<(f64, f64)>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let zoom_to = move |scale: f64| {
        let (width, height) = size.get_untracked();
        studio
            .viewport
            .update(|view| *view = zoom_at(*view, (width / 2.0, height / 2.0), scale));
    };
    let current = move || studio.viewport.with_untracked(|v| v.scale);
    let level = move || format!("{:.0}%", studio.viewport.with(|v| v.scale) * 100.0);
    view! {
        <div class="zoom-controls" role="group" aria-label="Zoom">
            <button data-testid="zoom-out" aria-label="Zoom out" on:click=move |_| zoom_to(current() / STEP)>"−"</button>
            <button data-testid="zoom-level" title="Zoom to 100%"
                aria-label=move || format!("{}: the zoom level, click for 100%", level())
                on:click=move |_| zoom_to(1.0)>
                {level}
            </button>
            <button data-testid="zoom-in" aria-label="Zoom in" on:click=move |_| zoom_to(current() * STEP)>"+"</button>
        </div>
    }
}
