//! JSON Schemas of the values core serialises (diagnostics, edits, fixes, patches): core does not
//! depend on `schemars`, so the tools' schemas describe them here, field for field as core's
//! `Serialize` writes them (a test reads every tool's output against its schema).

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::json;

/// `logicmd::Diagnostic` as it is serialised.
#[allow(dead_code)]
#[derive(JsonSchema)]
pub struct DiagnosticSchema {
    /// How serious: `error` (the document is invalid), `warning`, or `info`.
    severity: SeveritySchema,
    /// Stable machine-readable code (`unknown-need`, `step-cycle`, ...); `explain_rule` tells
    /// what it means.
    code: String,
    /// The explanation for a person.
    message: String,
    /// JSON Pointer of the place in the frontmatter or topology ("" is its root).
    path: String,
    /// The JSON Schema keyword that failed, for schema diagnostics.
    keyword: Option<String>,
    /// 1-based line in the document; 0 when the problem has no place.
    line: u32,
    /// 1-based column in characters; 0 when the problem has no place.
    column: u32,
    /// A hint on how to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    help: Option<String>,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum SeveritySchema {
    Error,
    Warning,
    Info,
}

/// `logicmd::edit::TextPatch` as it is serialised.
#[allow(dead_code)]
#[derive(JsonSchema)]
pub struct PatchSchema {
    /// Byte offset where the replaced range starts.
    start: usize,
    /// Byte offset just past the replaced range.
    end: usize,
    /// `start` in UTF-16 code units.
    start_utf16: usize,
    /// `end` in UTF-16 code units.
    end_utf16: usize,
    /// The text that replaces the range.
    text: String,
}

/// One structured edit (`logicmd::edit::Edit`), tagged by `op`.
pub struct EditSchema;

impl JsonSchema for EditSchema {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Edit".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let string = json!({ "type": "string" });
        let any = json!({});
        let object = json!({ "type": "object" });
        let op = |name: &str, about: &str, fields: &[(&str, &serde_json::Value, bool)]| {
            let mut properties = serde_json::Map::new();
            properties.insert("op".into(), json!({ "const": name }));
            let mut required = vec![json!("op")];
            for (field, schema, needed) in fields {
                properties.insert((*field).into(), (*schema).clone());
                if *needed {
                    required.push(json!(field));
                }
            }
            json!({
                "type": "object",
                "description": about,
                "properties": properties,
                "required": required,
                "additionalProperties": false,
            })
        };
        let index = json!({ "type": "integer", "minimum": 0 });
        let number = json!({ "type": "number" });
        let names = json!({ "type": "array", "items": { "type": "string" } });
        let path = json!({ "type": "string", "description": "A JSON Pointer (`/steps/a/needs`) or a dotted path (`steps.a.needs`, `gates[0].name`)." });
        json_schema!({
            "description": "One structured edit; comments and formatting are kept and the document must stay valid.",
            "oneOf": [
                op("set", "Set the value at a path, creating missing mapping entries.", &[("path", &path, true), ("value", &any, true)]),
                op("remove", "Remove the entry or list item at a path (with its leading comment).", &[("path", &path, true)]),
                op("insert", "Insert into the list at a path; `index` defaults to the end.", &[("path", &path, true), ("index", &index, false), ("value", &any, true)]),
                op("replace_text", "Replace a byte range of the text; the result must parse.", &[("start", &index, true), ("end", &index, true), ("text", &string, true)]),
                op("add_step", "Add a step after `after` (or at the end).", &[("name", &string, true), ("after", &string, false), ("step", &object, false)]),
                op("remove_step", "Remove a step and drop it from other steps' `needs`.", &[("name", &string, true)]),
                op("remove_steps", "Remove several steps as one edit and every reference to them.", &[("names", &names, true)]),
                op("rename_step", "Rename a step and every reference to it.", &[("from", &string, true), ("to", &string, true)]),
                op("connect", "Make `to` need `from` (LOGIC.md), or add an edge from `from` to `to` (DRTL).", &[("from", &string, true), ("to", &string, true), ("from_port", &string, false), ("to_port", &string, false)]),
                op("disconnect", "Remove `from` from the `needs` of `to`.", &[("from", &string, true), ("to", &string, true)]),
                op("set_position", "Record a node's canvas position.", &[("node", &string, true), ("x", &number, true), ("y", &number, true)]),
                op("add_node", "DRTL: add a node (an object with `id` and `type`) after `after`, or at the end.", &[("node", &object, true), ("after", &string, false)]),
                op("remove_node", "DRTL: remove a node and the edges that touch it.", &[("id", &string, true)]),
                op("set_route", "DRTL: point a gate's `on_pass`/`on_fail`, or a review action, at `target`.", &[("node", &string, true), ("route", &string, true), ("target", &string, true)]),
            ]
        })
    }
}

/// `logicmd::fix::Fix` as it is serialised.
#[allow(dead_code)]
#[derive(JsonSchema)]
pub struct FixSchema {
    /// The code of the diagnostic it repairs.
    code: String,
    /// What it does, for a person.
    title: String,
    /// `safe`: what the author evidently meant (applied by `fix: "safe"`); `unsafe`: a guess.
    safety: SafetySchema,
    /// The edits, applied in turn (the `edit` tool takes them as they are).
    edits: Vec<EditSchema>,
}

#[allow(dead_code)]
#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum SafetySchema {
    Safe,
    Unsafe,
}

/// A diagnostic of `lint` with the quick fixes the language server offers for it.
#[allow(dead_code)]
#[derive(JsonSchema)]
pub struct LintDiagnosticSchema {
    #[serde(flatten)]
    diagnostic: DiagnosticSchema,
    /// Ways to repair it (the language server's quick fixes); empty when there is none.
    fixes: Vec<FixSchema>,
}
