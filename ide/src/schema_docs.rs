//! The canonical schema (and the DRTL schema) read as documentation: what a key at a path is
//! (its description, its type, the spec section it belongs to), which keys an object may have,
//! which values an enum allows.

use logicmd::analysis::Kind;
use serde_json::Value;

/// One step of a path into the data: a key or a list index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// A schema found at a path: the subschema (its `$ref` followed) and what names it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found<'s> {
    /// The schema as written at the property (may hold `$ref` and a description beside it).
    pub written: &'s Value,
    /// The schema with `$ref` followed.
    pub resolved: &'s Value,
    /// The definition `$ref` named, if any (`Step`, `Gate`, …).
    pub definition: Option<&'s str>,
    /// The nearest definition on the way (for the section of a plain property).
    pub within: Option<&'s str>,
}

/// The schema of a document kind.
pub(crate) fn root(kind: Kind) -> &'static Value {
    match kind {
        Kind::Logic => logicmd::schema::schema(),
        Kind::Drtl => logicmd::drtl::schema(),
    }
}

fn follow<'s>(root: &'s Value, schema: &'s Value) -> (&'s Value, Option<&'s str>) {
    let mut current = schema;
    let mut name = None;
    for _ in 0..8 {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(definition) = reference.strip_prefix("#/definitions/") else {
            break;
        };
        match root.get("definitions").and_then(|d| d.get(definition)) {
            Some(next) => {
                current = next;
                name = Some(definition);
            }
            None => break,
        }
    }
    (current, name)
}

/// The schema at `path` of a document of `kind` whose data is `data` (used to pick the
/// conditional branches of a DRTL node by its `type`).
pub(crate) fn at<'s>(kind: Kind, path: &[Seg], data: Option<&Value>) -> Option<Found<'s>>
where
    's: 'static,
{
    let root = root(kind);
    let mut found = Found {
        written: root,
        resolved: root,
        definition: None,
        within: None,
    };
    let mut instance = data;
    for seg in path {
        let child = match seg {
            Seg::Key(key) => property(root, found.resolved, key, instance)?,
            Seg::Index(_) => found.resolved.get("items")?,
        };
        let (resolved, definition) = follow(root, child);
        found = Found {
            written: child,
            resolved,
            definition,
            within: definition.or(found.within),
        };
        instance = instance.and_then(|value| match seg {
            Seg::Key(key) => value.get(key),
            Seg::Index(index) => value.get(*index),
        });
    }
    Some(found)
}

/// The schema of property `key` of an object schema: declared, in a conditional branch that
/// applies to `instance`, or the schema of additional properties.
fn property<'s>(
    root: &'s Value,
    object: &'s Value,
    key: &str,
    instance: Option<&Value>,
) -> Option<&'s Value> {
    properties(root, object, instance)
        .into_iter()
        .find(|(name, _)| *name == key)
        .map(|(_, schema)| schema)
        .or_else(|| object.get("additionalProperties").filter(|a| a.is_object()))
}

/// The properties an object schema declares, with those of the conditional branches (`allOf`
/// items' `if`/`then`) whose `if` holds for `instance` (all of them when it is unknown).
pub(crate) fn properties<'s>(
    root: &'s Value,
    object: &'s Value,
    instance: Option<&Value>,
) -> Vec<(&'s str, &'s Value)> {
    let mut found: Vec<(&str, &Value)> = Vec::new();
    let mut add = |schema: &'s Value| {
        for (name, value) in schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if !found.iter().any(|(n, _)| *n == name) {
                found.push((name, value));
            }
        }
    };
    add(object);
    for branch in object
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (branch, _) = follow(root, branch);
        match (branch.get("if"), branch.get("then")) {
            (Some(condition), Some(then)) => {
                if instance.is_none_or(|i| holds(condition, i)) {
                    add(follow(root, then).0);
                }
            }
            _ => add(branch),
        }
    }
    found
}

/// Whether an `if` of `const` properties holds for `instance`.
fn holds(condition: &Value, instance: &Value) -> bool {
    condition
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .all(|(name, schema)| match schema.get("const") {
            Some(expected) => instance.get(name) == Some(expected),
            None => true,
        })
}

/// The values an enum (or const) schema allows.
pub(crate) fn enum_values(schema: &Value) -> Vec<&Value> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values.iter().collect();
    }
    schema.get("const").into_iter().collect()
}

/// The description of a property: written beside its `$ref`, else the target's.
pub(crate) fn description<'s>(found: &Found<'s>) -> Option<&'s str> {
    found
        .written
        .get("description")
        .or_else(|| found.resolved.get("description"))
        .and_then(Value::as_str)
}

/// A schema's type, as a person reads it: `string`, `array of Step`, `map of Step`, `one of
/// react | cot`, `Verification`.
pub(crate) fn type_name(found: &Found<'_>) -> String {
    let root_schema = found.resolved;
    if let Some(name) = found.definition {
        return name.to_owned();
    }
    let values = enum_values(root_schema);
    if !values.is_empty() {
        let shown: Vec<String> = values.iter().map(|v| plain(v)).collect();
        return format!("one of {}", shown.join(" | "));
    }
    let types: Vec<&str> = match root_schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types == ["array"] {
        if let Some(items) = root_schema.get("items") {
            return format!("array of {}", element_name(items));
        }
    }
    if types == ["object"] {
        if let Some(values) = root_schema
            .get("additionalProperties")
            .filter(|a| a.is_object())
        {
            return format!("map of {}", element_name(values));
        }
    }
    if types.is_empty() {
        "any".to_owned()
    } else {
        types.join(" | ")
    }
}

fn element_name(schema: &Value) -> String {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("any")
        .to_owned()
}

/// A JSON value as it is written in YAML (strings without quotes).
pub(crate) fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The spec section a definition is described in.
pub(crate) fn section(kind: Kind, definition: Option<&str>) -> Option<&'static str> {
    let definition = definition?;
    let table: &[(&str, &str)] = match kind {
        Kind::Logic => &[
            ("Import", "§2.2 Imports"),
            ("Reasoning", "§3.1 Strategy Selection"),
            ("Step", "§4.1 Step Schema"),
            ("ConfidenceConfig", "§4.1 Step Schema (confidence)"),
            ("Branch", "§4.1 Step Schema (branches)"),
            ("RetryConfig", "§4.1 Step Schema (retry)"),
            ("Verification", "§4.1.1 Verification Properties"),
            ("Expression", "§4.2 Expression Syntax"),
            ("JsonSchemaObject", "§4.1 Step Schema (input/output typing)"),
            ("Contracts", "§5.1 Contract Schema"),
            ("ContractField", "§5.1 Contract Schema"),
            ("Capabilities", "§5.1 Contract Schema (capabilities)"),
            ("ContractValidation", "§5.2 Contract Validation Modes"),
            ("QualityGates", "§6 Quality Gates"),
            ("Gate", "§6.1 Global Quality Gates"),
            ("Invariant", "§6.1 Global Quality Gates (invariants)"),
            ("SelfVerification", "§6.2 Self-Verification Loops"),
            (
                "ReflectionConfig",
                "§6.2 Self-Verification Loops (reflection)",
            ),
            ("RubricConfig", "§6.2 Self-Verification Loops (rubric)"),
            ("RubricCriterion", "§6.2 Self-Verification Loops (rubric)"),
            ("DecisionTree", "§7 Decision Trees"),
            ("DecisionNode", "§7 Decision Trees"),
            ("DecisionBranch", "§7 Decision Trees"),
            ("Terminal", "§7 Decision Trees (terminals)"),
            ("Fallback", "§8 Fallback & Escalation"),
            ("EscalationLevel", "§8 Fallback & Escalation (escalation)"),
            ("DegradationRule", "§8 Fallback & Escalation (degradation)"),
            ("GlobalConfig", "§9.1 Workflow-Level LOGIC.md"),
            ("NodeRef", "§9.1 Workflow-Level LOGIC.md"),
            ("Edge", "§9.1 Workflow-Level LOGIC.md (edges)"),
            ("Visual", "§10.1 Node Registration"),
            ("InspectorField", "§10.1 Node Registration (inspector)"),
            ("VisualPorts", "§10.1 Node Registration (ports)"),
            ("VisualPort", "§10.1 Node Registration (ports)"),
        ],
        Kind::Drtl => &[
            ("Node", "DRTL §3 Node Types"),
            ("Participant", "DRTL §3.2 fan_out"),
            ("DebateParticipant", "DRTL §3.6 debate"),
            ("Rule", "DRTL §3.4 verify"),
            ("Route", "DRTL §3.5 gate"),
            ("Operation", "DRTL §3.7 transform"),
            ("Action", "DRTL §3.8 review"),
            ("Edge", "DRTL §4 Edge Semantics"),
        ],
    };
    table
        .iter()
        .find(|(name, _)| *name == definition)
        .map(|(_, section)| *section)
}

/// The section of a top-level LOGIC.md key without a definition of its own.
pub(crate) fn root_section(kind: Kind, key: &str) -> Option<&'static str> {
    let table: &[(&str, &str)] = match kind {
        Kind::Logic => &[
            ("spec_version", "§2.1 Root Properties"),
            ("name", "§2.1 Root Properties"),
            ("description", "§2.1 Root Properties"),
            ("imports", "§2.2 Imports"),
            ("steps", "§4 Steps"),
            ("decision_trees", "§7 Decision Trees"),
            ("nodes", "§9.1 Workflow-Level LOGIC.md"),
            ("edges", "§9.1 Workflow-Level LOGIC.md"),
            ("metadata", "§2.1 Root Properties"),
        ],
        Kind::Drtl => &[
            ("name", "DRTL §8 Topology Structure"),
            ("description", "DRTL §8 Topology Structure"),
            ("version", "DRTL §8 Topology Structure"),
            ("artifacts", "DRTL §6 Artifacts and References"),
            ("state_defaults", "DRTL §8 Topology Structure"),
            ("nodes", "DRTL §3 Node Types"),
            ("edges", "DRTL §4 Edge Semantics"),
            ("metadata", "DRTL §8 Topology Structure"),
        ],
    };
    table.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(keys: &[&str]) -> Vec<Seg> {
        keys.iter()
            .map(|k| match k.parse::<usize>() {
                Ok(i) => Seg::Index(i),
                Err(_) => Seg::Key((*k).to_owned()),
            })
            .collect()
    }

    #[test]
    fn a_step_field_is_found_through_the_map_of_steps() {
        let found = at(
            Kind::Logic,
            &path(&["steps", "gather", "verification", "on_fail"]),
            None,
        )
        .unwrap();
        assert_eq!(found.within, Some("Verification"));
        assert_eq!(
            type_name(&found),
            "one of retry | escalate | skip | abort | revise"
        );
        let steps = at(Kind::Logic, &path(&["steps"]), None).unwrap();
        assert_eq!(type_name(&steps), "map of Step");
        assert_eq!(
            description(&steps),
            Some("Named reasoning steps (Section 4)")
        );
    }

    #[test]
    fn a_drtl_node_has_the_properties_of_its_type() {
        let data = serde_json::json!({"nodes": [{"id": "g", "type": "gate"}]});
        let found = at(Kind::Drtl, &path(&["nodes", "0"]), Some(&data)).unwrap();
        let names: Vec<&str> =
            properties(root(Kind::Drtl), found.resolved, data.pointer("/nodes/0"))
                .into_iter()
                .map(|(n, _)| n)
                .collect();
        assert!(
            names.contains(&"on_pass") && names.contains(&"condition"),
            "{names:?}"
        );
        assert!(!names.contains(&"participants"), "{names:?}");
    }
}
