//! The far canvas's colours, read from the stylesheet rather than repeated in Rust: a hidden probe
//! element takes the classes the SVG nodes and wires use (`node kind-decision`, `wire-group
//! wire-pass`, `data-run-state`…) and `getComputedStyle` says what they resolve to, so both themes
//! and any later restyling apply to both levels of detail. Read once per theme; a kind or wire
//! kind is probed the first time it is drawn.

use rustc_hash::FxHashMap;
use web_sys::Element;

/// The colours (CSS colour strings) the far canvas paints with.
#[derive(Debug, Default, Clone)]
pub struct Palette {
    pub body: String,
    pub border: String,
    pub accent: String,
    pub error: String,
    pub warning: String,
    pub text: String,
    pub font: String,
    kinds: FxHashMap<String, String>,
    wires: FxHashMap<String, String>,
    runs: FxHashMap<&'static str, String>,
}

/// A `<g>` with one `<path>` child, in a hidden SVG, whose classes are set to ask the
/// stylesheet a question.
pub struct Probe {
    pub group: Element,
    pub path: Element,
}

impl Probe {
    fn ask(&self, group: &str, path: &str, property: &str, on_path: bool) -> String {
        let _ = self.group.set_attribute("class", group);
        let _ = self.path.set_attribute("class", path);
        let element = if on_path { &self.path } else { &self.group };
        let value = web_sys::window()
            .and_then(|w| w.get_computed_style(element).ok().flatten())
            .and_then(|style| style.get_property_value(property).ok())
            .unwrap_or_default();
        value.trim().to_owned()
    }

    fn run_state(&self, state: &str) -> String {
        let _ = self.group.set_attribute("data-run-state", state);
        let colour = self.ask("node", "node-body", "--run-state", false);
        let _ = self.group.remove_attribute("data-run-state");
        colour
    }
}

impl Palette {
    /// The colours of the current theme.
    pub fn read(probe: &Probe) -> Palette {
        Palette {
            body: probe.ask("node", "node-body", "fill", true),
            border: probe.ask("node", "node-body", "stroke", true),
            accent: probe.ask("node selected", "node-body", "stroke", true),
            error: probe.ask("badge", "", "--error", false),
            warning: probe.ask("badge", "", "--warning", false),
            text: probe.ask("node", "node-title", "fill", true),
            font: probe.ask("node", "node-title", "font-family", true),
            ..Palette::default()
        }
    }

    /// Whether the colours were read (a palette is empty until the probe is in the page).
    pub fn is_read(&self) -> bool {
        !self.body.is_empty()
    }

    /// The stripe colour of a node kind (`--node-color` of `.node.kind-…`).
    pub fn kind(&mut self, probe: &Probe, kind: &str) -> &str {
        self.kinds
            .entry(kind.to_owned())
            .or_insert_with(|| probe.ask(&format!("node kind-{kind}"), "", "--node-color", false))
    }

    /// The stroke of a wire kind (`.wire-group.wire-… .wire`).
    pub fn wire(&mut self, probe: &Probe, kind: &str) -> &str {
        self.wires.entry(kind.to_owned()).or_insert_with(|| {
            probe.ask(&format!("wire-group wire-{kind}"), "wire", "stroke", true)
        })
    }

    /// The outline of a node in a run state (`--run-state` of `.node[data-run-state=…]`).
    pub fn run(&mut self, probe: &Probe, state: &'static str) -> &str {
        self.runs
            .entry(state)
            .or_insert_with(|| probe.run_state(state))
    }
}
