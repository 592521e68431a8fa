//! What a visual builder registers for a LOGIC.md file (spec §10.1, §13): one palette node per
//! file, with its category, icon, colour, inspector fields and typed ports.

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::fieldpath::FieldPath;
use crate::graph::{declared_field, ports_of, InspectorField, Port};
use crate::Document;

/// The palette category of a file that names none (spec §10.1's own example).
pub const DEFAULT_CATEGORY: &str = "reasoning";

/// One palette entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NodeDefinition {
    /// The file's path, as given.
    pub path: String,
    /// The document's `name`; empty when absent.
    pub name: String,
    /// The document's `description`.
    pub description: Option<String>,
    /// `visual.category`, or [`DEFAULT_CATEGORY`].
    pub category: String,
    /// `visual.icon`: the icon name the palette shows.
    pub icon: Option<String>,
    /// `visual.color`, as CSS colour text.
    pub color: Option<String>,
    /// `visual.inspector`, each field bound to its document pointer and current value.
    pub inspector: Vec<InspectorField>,
    /// The node's typed inputs and outputs.
    pub ports: Ports,
    /// `reasoning.strategy` (`cot`, `react`, ...), shown on the palette entry.
    pub strategy: Option<String>,
}

/// The typed ports of a palette node.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ports {
    /// From `visual.ports.inputs`, else `contracts.inputs`.
    pub inputs: Vec<Port>,
    /// From `visual.ports.outputs`, else `contracts.outputs`.
    pub outputs: Vec<Port>,
}

/// Whether `path` follows §13's naming: `LOGIC.md`, `*.logic.md`, or `.logic/index.md`.
pub(crate) fn is_logic_path(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let file = path.rsplit('/').next().unwrap_or(&path);
    file == "LOGIC.md" || file.ends_with(".logic.md") || path.ends_with(".logic/index.md")
}

/// The palette entry of one validated document. Ports come from `visual.ports`, else from
/// `contracts.inputs` / `contracts.outputs`.
pub fn node_definition(path: &str, document: &Document) -> NodeDefinition {
    let json = document.json();
    let visual = json.get("visual");
    let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_owned);
    let ports = |direction: &str| {
        let declared = visual.and_then(|v| v.pointer(&format!("/ports/{direction}")));
        ports_of(declared.or_else(|| json.pointer(&format!("/contracts/{direction}"))))
    };
    let inspector = visual
        .and_then(|v| v.get("inspector"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|field| {
            let key = field.get("key")?.as_str()?;
            let pointer = FieldPath::parse(key).ok()?.to_pointer();
            Some(declared_field(field, key, pointer, json))
        })
        .collect();
    NodeDefinition {
        path: path.to_owned(),
        name: text(json.get("name")).unwrap_or_default(),
        description: text(json.get("description")),
        category: text(visual.and_then(|v| v.get("category")))
            .unwrap_or_else(|| DEFAULT_CATEGORY.to_owned()),
        icon: text(visual.and_then(|v| v.get("icon"))),
        color: text(visual.and_then(|v| v.get("color"))),
        inspector,
        ports: Ports {
            inputs: ports("inputs"),
            outputs: ports("outputs"),
        },
        strategy: text(json.pointer("/reasoning/strategy")),
    }
}

/// Palette entries for every LOGIC.md file among `files` (`(path, text)`); files that do not
/// validate give their diagnostics, prefixed with the path, instead of an entry.
pub fn discover<'a>(
    files: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> (Vec<NodeDefinition>, Vec<Diagnostic>) {
    let mut nodes = Vec::new();
    let mut diagnostics = Vec::new();
    for (path, text) in files {
        if !is_logic_path(path) {
            continue;
        }
        let report = crate::validate(text);
        match report.document.filter(|_| report.valid) {
            Some(document) => nodes.push(node_definition(path, &document)),
            None => diagnostics.extend(report.diagnostics.into_iter().map(|mut d| {
                d.message = format!("{path}: {}", d.message);
                d
            })),
        }
    }
    (nodes, diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NODE: &str = "---\nspec_version: \"1.0\"\nname: researcher\nvisual:\n  icon: search\n  category: research\n  color: \"#0EA5E9\"\n  inspector:\n    - key: reasoning.max_iterations\n      label: Max Iterations\n      type: number\n      min: 1\n      max: 50\n      default: 8\nreasoning:\n  strategy: react\n  max_iterations: 12\ncontracts:\n  inputs:\n    - name: query\n      type: string\n      required: true\n  outputs:\n    - name: report\n      type: object\n---\n";

    #[test]
    fn recognises_the_section_13_names() {
        for path in [
            "LOGIC.md",
            "a/b.logic.md",
            "p/.logic/index.md",
            "C:\\x\\y.logic.md",
        ] {
            assert!(is_logic_path(path), "{path}");
        }
        for path in ["README.md", "logic.md.bak", "x.drtl.yaml", "index.md"] {
            assert!(!is_logic_path(path), "{path}");
        }
    }

    #[test]
    fn builds_a_palette_entry_from_visual_and_contracts() {
        let (nodes, diagnostics) = discover([("nodes/researcher.logic.md", NODE)]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let node = &nodes[0];
        assert_eq!(
            (node.name.as_str(), node.category.as_str()),
            ("researcher", "research")
        );
        assert_eq!(node.icon.as_deref(), Some("search"));
        assert_eq!(node.strategy.as_deref(), Some("react"));
        assert_eq!(node.ports.inputs[0].name, "query");
        assert!(node.ports.inputs[0].required);
        assert_eq!(node.ports.outputs[0].kind, "object");
        let field = &node.inspector[0];
        assert_eq!(field.pointer, "/reasoning/max_iterations");
        assert_eq!(field.value, serde_json::json!(12));
        assert_eq!(field.max, Some(50.0));
    }

    #[test]
    fn invalid_files_give_diagnostics_named_by_path_and_other_files_are_skipped() {
        let broken = "---\nspec_version: \"1.0\"\n---\n";
        let (nodes, diagnostics) = discover([("bad.logic.md", broken), ("notes.md", "x")]);
        assert!(nodes.is_empty());
        assert!(diagnostics[0].message.starts_with("bad.logic.md: "));
    }
}
