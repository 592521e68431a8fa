//! The logicmd studio: a client-side Leptos app over the `logicmd` core.

mod a11y;
mod analysis;
mod app;
mod browser;
mod canvas;
mod clipboard;
mod connect;
mod defaults;
mod examples;
mod geometry;
mod highlight;
mod history;
mod indent;
mod inspector;
mod menu;
mod minimap;
mod palette_search;
mod panels;
mod problems;
mod rename;
mod room;
mod run;
mod select;
mod settled;
mod snap;
mod source;
mod splitter;
mod stable;
mod state;
mod templates;
mod versions;
mod wires;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
