//! "Did you mean" suggestions: known property names come from the schema itself.

use std::borrow::Cow;

use serde_json::Value;

use super::similarity;
use crate::json::tokens_of;

/// The closest candidate to `word`, when one is close enough to be a likely typo: a Jaro-Winkler
/// score of 0.8 or more, or a Damerau-Levenshtein distance within a third of the longer name.
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let lower = word.to_lowercase();
    let lower_chars = lower.chars().count();
    candidates
        .into_iter()
        .filter_map(|candidate| {
            let candidate_lower = lowercase(candidate);
            let bound = (candidate.len().max(word.len()) / 3).max(1);
            // The distance is at least the difference in length: computed only when it can decide.
            let near = || {
                lower_chars.abs_diff(candidate_lower.chars().count()) <= bound
                    && similarity::damerau_levenshtein_within(&lower, &candidate_lower, bound)
            };
            let score = || similarity::jaro_winkler(&lower, &candidate_lower);
            // The score decides only when it can reach 0.8; otherwise it only ranks a near one.
            if similarity::may_score_high(&lower, &candidate_lower) {
                let score = score();
                (score >= 0.8 || near()).then_some((candidate, score))
            } else {
                near().then(|| (candidate, score()))
            }
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(candidate, _)| candidate)
}

/// `text.to_lowercase()`, borrowed when that changes nothing (property names mostly are
/// lowercase ASCII already: one copy per candidate per error saved).
fn lowercase(text: &str) -> Cow<'_, str> {
    if text
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.to_lowercase())
    }
}

/// The property names the schema declares for the object at instance `pointer`, sorted.
pub fn known_properties(schema: &Value, pointer: &str) -> Vec<String> {
    known_property_names(schema, pointer)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// [`known_properties`] borrowed from the schema (the unknown-property diagnostics only
/// compare and list them).
pub(crate) fn known_property_names<'s>(schema: &'s Value, pointer: &str) -> Vec<&'s str> {
    let mut names: Vec<&str> = subschemas_at(schema, &tokens_of(pointer).collect::<Vec<_>>())
        .iter()
        .filter_map(|sub| sub.get("properties").and_then(Value::as_object))
        .flat_map(|props| props.keys().map(String::as_str))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether an instance could have a value at `tokens`: every step names a declared property,
/// an item of an array, or a key of a map or open object.
pub fn allows_path(schema: &Value, tokens: &[String]) -> bool {
    let mut prefix: Vec<String> = Vec::new();
    for token in tokens {
        let here = subschemas_at(schema, &prefix);
        let declared = here.iter().any(|sub| {
            sub.get("properties").and_then(|p| p.get(token)).is_some()
                || sub
                    .get("additionalProperties")
                    .is_some_and(Value::is_object)
                || (token.parse::<usize>().is_ok() && sub.get("items").is_some())
        });
        let open = !here.is_empty()
            && here.iter().all(|sub| {
                sub.get("additionalProperties") != Some(&Value::Bool(false))
                    && sub.get("properties").is_none()
                    && sub.get("type").is_none_or(|t| t == "object")
                    && sub.get("$ref").is_none()
            });
        if !declared && !open {
            return false;
        }
        if open && !declared {
            return true;
        }
        prefix.push(token.clone());
    }
    true
}

/// The declared property names at instance location `tokens`, in the schema's order.
pub fn property_order(schema: &Value, tokens: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for sub in subschemas_at(schema, tokens) {
        if let Some(props) = sub.get("properties").and_then(Value::as_object) {
            for name in props.keys() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
    }
    names
}

/// The string values an `enum` allows at instance `pointer`, when the schema has one there
/// (the walk the schema's places answer from states; kept as their test's oracle).
#[cfg(test)]
pub(super) fn enum_at<'s>(schema: &'s Value, pointer: &str) -> Vec<&'s str> {
    subschemas_at(schema, &tokens_of(pointer).collect::<Vec<_>>())
        .iter()
        .filter_map(|sub| sub.get("enum").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// Whether the schema describes the value at instance `pointer` as a duration string (the
/// canonical schema says so in the property's description: "... (duration string)"); the oracle
/// of the places' test.
#[cfg(test)]
pub(super) fn is_duration(schema: &Value, pointer: &str) -> bool {
    subschemas_at(schema, &tokens_of(pointer).collect::<Vec<_>>())
        .iter()
        .any(|sub| {
            sub.get("description")
                .and_then(Value::as_str)
                .is_some_and(|text| text.contains("duration string"))
        })
}

/// Every schema that applies to the instance location `tokens`.
///
/// Each schema object's keywords are read once (by [`expand_into`], kept beside it for the
/// next step) and the same three lists serve every step: the hints walk the schema for every
/// error, and re-reading each object and a new list per step were most of that walk
/// (issue #17).
pub(super) fn subschemas_at<'s>(schema: &'s Value, tokens: &[impl AsRef<str>]) -> Vec<&'s Value> {
    let mut current = Vec::new();
    expand_into(schema, &mut vec![schema], &mut current);
    let mut next = Vec::new();
    for token in tokens {
        next.clear();
        step_into(schema, &current, token.as_ref(), &mut next);
        std::mem::swap(&mut current, &mut next);
    }
    current.into_iter().map(|(sub, _)| sub).collect()
}

/// Every schema that applies one step (`token`) below the schemas of `current`, into `out`.
pub(super) fn step_into<'s>(
    root: &'s Value,
    current: &[(&'s Value, Words<'s>)],
    token: &str,
    out: &mut Vec<(&'s Value, Words<'s>)>,
) {
    let index = token.parse::<usize>().is_ok();
    let mut pending = Vec::new();
    for (_, words) in current {
        if let Some(child) = words.properties.and_then(|p| p.get(token)) {
            pending.push(child);
        } else if let Some(child @ Value::Object(_)) = words.additional_properties {
            pending.push(child);
        }
        if index {
            if let Some(items) = words.items {
                pending.push(items);
            }
        }
    }
    expand_into(root, &mut pending, out);
}

/// The keywords of one schema object that lead to other schemas, read in one pass over its
/// entries: a schema object has a handful of keys, and walking them costs less than hashing
/// each keyword to look it up (the corpus's did-you-mean and duration hints walk the schema
/// for every error; issue #17, round three in docs/perf.md).
#[derive(Default, Clone, Copy)]
pub(super) struct Words<'s> {
    reference: Option<&'s Value>,
    all_of: Option<&'s Value>,
    any_of: Option<&'s Value>,
    one_of: Option<&'s Value>,
    then: Option<&'s Value>,
    otherwise: Option<&'s Value>,
    properties: Option<&'s Value>,
    additional_properties: Option<&'s Value>,
    items: Option<&'s Value>,
}

impl<'s> Words<'s> {
    fn of(schema: &'s Value) -> Self {
        let mut words = Words::default();
        let Value::Object(map) = schema else {
            return words;
        };
        for (key, value) in map {
            let slot = match key.as_str() {
                "$ref" => &mut words.reference,
                "allOf" => &mut words.all_of,
                "anyOf" => &mut words.any_of,
                "oneOf" => &mut words.one_of,
                "then" => &mut words.then,
                "else" => &mut words.otherwise,
                "properties" => &mut words.properties,
                "additionalProperties" => &mut words.additional_properties,
                "items" => &mut words.items,
                _ => continue,
            };
            *slot = Some(value);
        }
        words
    }
}

/// What `root.pointer(pointer)` finds, without its copy of every token when none needs
/// unescaping (a `$ref` such as `#/definitions/step` is followed for every error's hint).
fn local_target<'s>(root: &'s Value, pointer: &str) -> Option<&'s Value> {
    if pointer.bytes().any(|b| b == b'~') {
        return root.pointer(pointer);
    }
    if pointer.is_empty() {
        return Some(root);
    }
    pointer.strip_prefix('/')?;
    tokens_of(pointer).try_fold(root, |target, token| match target {
        Value::Object(map) => crate::json::member(map, &token).map(|(_, value)| value),
        Value::Array(list) => array_index(&token).and_then(|i| list.get(i)),
        _ => None,
    })
}

/// An array index as JSON Pointer (and `Value::pointer`) reads one: digits, no leading `+`
/// and no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || token.len() > 1 && token.starts_with('0') {
        return None;
    }
    token.parse().ok()
}

/// Follows local `$ref`s and combinators from the schemas in `pending` (taken from its end)
/// so every schema that applies at one place is listed in `out`, each with its keywords.
pub(super) fn expand_into<'s>(
    root: &'s Value,
    pending: &mut Vec<&'s Value>,
    out: &mut Vec<(&'s Value, Words<'s>)>,
) {
    // The schema is ours and acyclic at any one place, but bound the walk anyway.
    let mut budget = 256;
    while let Some(sub) = pending.pop() {
        budget -= 1;
        if budget == 0 {
            break;
        }
        let words = Words::of(sub);
        if let Some(reference) = words.reference.and_then(Value::as_str) {
            if let Some(target) = reference
                .strip_prefix('#')
                .and_then(|p| local_target(root, p))
            {
                pending.push(target);
            }
        }
        for branches in [words.all_of, words.any_of, words.one_of] {
            if let Some(branches) = branches.and_then(Value::as_array) {
                pending.extend(branches.iter());
            }
        }
        pending.extend(words.then);
        pending.extend(words.otherwise);
        out.push((sub, words));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn suggests_close_names_only() {
        let known = ["needs", "description", "instructions"];
        assert_eq!(closest("neds", known), Some("needs"));
        assert_eq!(closest("instruction", known), Some("instructions"));
        assert_eq!(closest("zzzz", known), None);
    }

    /// The answer of the first version, which scored every candidate both ways.
    fn closest_by_both_scores<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
        let lower = word.to_lowercase();
        candidates
            .iter()
            .map(|candidate| {
                let score = strsim::jaro_winkler(&lower, &candidate.to_lowercase());
                let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
                (*candidate, score, distance)
            })
            .filter(|(candidate, score, distance)| {
                *score >= 0.8 || *distance <= (candidate.len().max(word.len()) / 3).max(1)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(candidate, _, _)| candidate)
    }

    proptest::proptest! {
        #[test]
        fn skipping_the_distance_changes_no_answer(
            word in "[a-zA-Z_é]{0,14}",
            candidates in proptest::collection::vec("[a-zA-Z_é]{0,14}", 0..12),
        ) {
            let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
            proptest::prop_assert_eq!(
                closest(&word, candidates.iter().copied()),
                closest_by_both_scores(&word, &candidates)
            );
        }
    }

    /// The walk of the first version: each keyword looked up in the schema object by name.
    fn subschemas_by_lookup<'s>(schema: &'s Value, tokens: &[String]) -> Vec<&'s Value> {
        fn expand<'s>(root: &'s Value, start: Vec<&'s Value>) -> Vec<&'s Value> {
            let (mut out, mut pending, mut budget) = (Vec::new(), start, 256);
            while let Some(sub) = pending.pop() {
                budget -= 1;
                if budget == 0 {
                    break;
                }
                if let Some(reference) = sub.get("$ref").and_then(Value::as_str) {
                    if let Some(target) = reference.strip_prefix('#').and_then(|p| root.pointer(p))
                    {
                        pending.push(target);
                    }
                }
                for combinator in ["allOf", "anyOf", "oneOf"] {
                    if let Some(branches) = sub.get(combinator).and_then(Value::as_array) {
                        pending.extend(branches.iter());
                    }
                }
                for conditional in ["then", "else"] {
                    if let Some(branch) = sub.get(conditional) {
                        pending.push(branch);
                    }
                }
                out.push(sub);
            }
            out
        }
        let mut current = expand(schema, vec![schema]);
        for token in tokens {
            let mut next = Vec::new();
            for sub in &current {
                if let Some(child) = sub.get("properties").and_then(|p| p.get(token)) {
                    next.push(child);
                } else if let Some(child @ Value::Object(_)) = sub.get("additionalProperties") {
                    next.push(child);
                }
                if token.parse::<usize>().is_ok() {
                    if let Some(items) = sub.get("items") {
                        next.push(items);
                    }
                }
            }
            current = expand(schema, next);
        }
        current
    }

    /// Every instance location of the embedded schemas down to four levels (each declared
    /// property, an array index and an undeclared key) finds the same schemas, in the same
    /// order, as the walk that looked each keyword up by name.
    #[test]
    fn the_one_pass_walk_finds_what_the_lookups_found() {
        // The embedded schemas have few combinators; this one has every keyword the walk
        // follows on the same objects, so the order of discovery is held too.
        let combined = json!({
            "$ref": "#/definitions/a",
            "allOf": [{"properties": {"x": {"$ref": "#/definitions/b"}}}, {"type": "object"}],
            "anyOf": [{"properties": {"x": {"items": {"enum": ["p"]}}}}],
            "oneOf": [{"additionalProperties": {"type": "string"}}],
            "if": {}, "then": {"properties": {"y": {}}}, "else": {"properties": {"x": {}}},
            "definitions": {
                "a": {"properties": {"x": {"anyOf": [{}, {"$ref": "#/definitions/b"}]}}},
                "b": {"properties": {"z": {}}, "then": {"items": {}}, "else": {}}
            }
        });
        let schemas = [crate::schema::schema(), crate::drtl::schema(), &combined];
        for schema in schemas {
            let mut frontier: Vec<Vec<String>> = vec![Vec::new()];
            let mut compared = 0;
            for _ in 0..4 {
                let mut next = Vec::new();
                for tokens in &frontier {
                    let expected = subschemas_by_lookup(schema, tokens);
                    let found = subschemas_at(schema, tokens);
                    assert_eq!(found.len(), expected.len(), "at {tokens:?}");
                    assert!(
                        found
                            .iter()
                            .zip(&expected)
                            .all(|(a, b)| std::ptr::eq(*a, *b)),
                        "at {tokens:?}"
                    );
                    compared += 1;
                    let mut children: Vec<String> = expected
                        .iter()
                        .filter_map(|sub| sub.get("properties").and_then(Value::as_object))
                        .flat_map(|props| props.keys().cloned())
                        .collect();
                    children.sort();
                    children.dedup();
                    children.extend(["0".to_owned(), "undeclared".to_owned()]);
                    for child in children {
                        let mut path = tokens.clone();
                        path.push(child);
                        next.push(path);
                    }
                }
                next.truncate(20_000);
                frontier = next;
            }
            assert!(compared > 10, "only {compared} places compared");
        }
    }

    proptest::proptest! {
        /// Pointers of keys and indexes that exist or not, escaped or not, leading zeros and
        /// signs: the same target as `Value::pointer`.
        #[test]
        fn a_local_target_is_what_value_pointer_finds(
            tokens in proptest::collection::vec("(a|b|~0|~1|0|1|01|\\+1|10|x~1y)", 0..4),
        ) {
            let value = json!({
                "a": {"b": [1, {"a": 2}], "~": 3, "/": 4, "x/y": [5]},
                "b": [[6, 7], {"0": 8, "01": 9}],
                "~": {"a": 10}, "/": 11,
            });
            let pointer: String = tokens.iter().map(|t| format!("/{t}")).collect();
            proptest::prop_assert!(
                match (local_target(&value, &pointer), value.pointer(&pointer)) {
                    (Some(a), Some(b)) => std::ptr::eq(a, b),
                    (a, b) => a.is_none() && b.is_none(),
                },
                "at {}", pointer
            );
        }
    }

    #[test]
    fn walks_refs_and_maps() {
        let schema = json!({
            "properties": {"steps": {"additionalProperties": {"$ref": "#/definitions/step"}}},
            "definitions": {"step": {"properties": {"needs": {}, "description": {}}}}
        });
        assert_eq!(
            known_properties(&schema, "/steps/a"),
            vec!["description", "needs"]
        );
        assert_eq!(known_properties(&schema, ""), vec!["steps"]);
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(allows_path(&schema, &path(&["steps", "x", "needs"])));
        assert!(!allows_path(&schema, &path(&["steps", "x", "neds"])));
    }
}
