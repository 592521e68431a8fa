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
mod files;
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
mod replace;
mod room;
mod run;
mod select;
mod selection;
mod settled;
mod snap;
mod source;
mod splitter;
mod stable;
mod state;
mod templates;
mod toolbar;
mod tools;
mod trees;
mod versions;
mod welcome;
mod wires;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
