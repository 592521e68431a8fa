//! Property tests of lossless editing and formatting over every fixture: a no-op is
//! byte-identical; random edit sequences give exactly the intended JSON or are refused with the
//! text unchanged; undoing them in reverse restores the original bytes; `fmt` is idempotent and
//! keeps the meaning; nothing panics.

use std::path::PathBuf;
use std::sync::OnceLock;

use logicmd::edit::{apply, Edit};
use logicmd::format::format;
use logicmd::Document;
use logicmd_tests::commented;
use logicmd_tests::fixture::collect;
use logicmd_tests::workspace_root;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Every fixture whose frontmatter parses, with the conformance suite when present.
fn corpus() -> &'static Vec<String> {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut dirs = vec![
            workspace_root().join("tests/fixtures"),
            workspace_root().join("examples"),
        ];
        dirs.push(workspace_root().join("../shared/conformance"));
        let topologies: Vec<PathBuf> = std::fs::read_dir(workspace_root().join("tests/drtl"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.to_string_lossy().ends_with(".drtl.yaml"))
            .collect();
        let mut texts: Vec<String> = dirs
            .iter()
            .flat_map(|d| collect(d))
            .map(|f| f.input)
            .chain(example_files())
            .chain(topologies)
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .filter(|t| json_of(t).is_some())
            .collect();
        texts.sort();
        texts.dedup();
        texts
    })
}

fn example_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![workspace_root().join("examples")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.to_string_lossy().ends_with(".logic.md") {
                files.push(path);
            }
        }
    }
    files
}

/// The JSON of a LOGIC.md frontmatter or a DRTL topology that parses without errors.
fn json_of(text: &str) -> Option<Value> {
    if text.starts_with("---") {
        let parsed = Document::parse(text);
        let clean = !parsed.has_errors();
        return parsed.document.filter(|_| clean).map(|d| d.json().clone());
    }
    let (topology, diagnostics) = logicmd::drtl::parse(text);
    topology
        .filter(|_| diagnostics.iter().all(|d| !d.is_error()))
        .map(|t| t.json().clone())
}

/// Every pointer in a JSON value, with the value there.
fn pointers(value: &Value, at: String, out: &mut Vec<(String, Value)>) {
    out.push((at.clone(), value.clone()));
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                pointers(
                    v,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// A random edit of `json`, chosen by the numbers `pick`, `op` and `salt`.
fn random_edit(json: &Value, pick: usize, op: u8, salt: u32) -> Edit {
    let mut all = Vec::new();
    pointers(json, String::new(), &mut all);
    all.retain(|(p, _)| !p.is_empty());
    let (pointer, value) = all[pick % all.len()].clone();
    let text = format!("edited {salt}");
    match (op % 5, &value) {
        (0, Value::String(_)) => Edit::Set {
            path: pointer,
            value: json!(text),
        },
        (0, Value::Number(_)) => Edit::Set {
            path: pointer,
            value: json!(f64::from(salt % 100) / 100.0),
        },
        (0, Value::Bool(b)) => Edit::Set {
            path: pointer,
            value: json!(!b),
        },
        (1, _) => Edit::Remove { path: pointer },
        (2, Value::Array(_)) => Edit::Insert {
            path: pointer,
            index: Some(0),
            value: json!(text),
        },
        (3, Value::Object(_)) => Edit::Set {
            path: format!("{pointer}/k{salt}"),
            value: json!({"note": text, "n": salt}),
        },
        _ => Edit::Set {
            path: format!("/metadata/edit_{salt}"),
            value: json!([salt, text]),
        },
    }
}

/// The path of a `Remove` of a whole step (`/steps/NAME`) or topology node (`/nodes/I`): that
/// removal takes the references to it along, so the result is more than the primitive removal.
fn structural_removal(edit: &Edit) -> Option<String> {
    let Edit::Remove { path } = edit else {
        return None;
    };
    let tokens: Vec<&str> = path.split('/').skip(1).collect();
    matches!(tokens.as_slice(), ["steps" | "nodes", _]).then(|| path.clone())
}

/// The JSON the edit should produce, for the primitive edits `random_edit` makes.
fn expected(before: &Value, edit: &Edit) -> Option<Value> {
    let mut after = before.clone();
    match edit {
        Edit::Set { path, value } => {
            let tokens: Vec<&str> = path.split('/').skip(1).collect();
            let (last, parents) = tokens.split_last()?;
            let mut target = &mut after;
            for token in parents {
                if target.is_null() {
                    *target = json!({});
                }
                target = match target {
                    Value::Object(map) => map
                        .entry(token.replace("~1", "/").replace("~0", "~"))
                        .or_insert(Value::Null),
                    Value::Array(items) => items.get_mut(token.parse::<usize>().ok()?)?,
                    _ => return None,
                };
            }
            if target.is_null() {
                *target = json!({});
            }
            match target {
                Value::Object(map) => {
                    map.insert(last.replace("~1", "/").replace("~0", "~"), value.clone());
                }
                Value::Array(items) => *items.get_mut(last.parse::<usize>().ok()?)? = value.clone(),
                _ => return None,
            }
        }
        Edit::Remove { path } => {
            let (parent, last) = path.rsplit_once('/')?;
            match after.pointer_mut(parent)? {
                Value::Object(map) => {
                    map.shift_remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Value::Array(items) => {
                    items.remove(last.parse::<usize>().ok()?);
                }
                _ => return None,
            }
        }
        Edit::Insert { path, index, value } => match after.pointer_mut(path)? {
            Value::Array(items) => items.insert(index.unwrap_or(items.len()), value.clone()),
            _ => return None,
        },
        _ => return None,
    }
    Some(after)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn edits_are_exact_and_undo_restores_bytes(
        which in any::<usize>(),
        steps in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u32>()), 1..8),
    ) {
        let corpus = corpus();
        let original = &corpus[which % corpus.len()];
        let mut text = original.clone();
        let mut inverses = Vec::new();
        for (pick, op, salt) in steps {
            let before = json_of(&text).expect("parses");
            let edit = random_edit(&before, pick, op, salt);
            match apply(&text, &edit) {
                Ok(applied) => {
                    let after = json_of(&applied.text).expect("edited text parses");
                    match structural_removal(&edit) {
                        // Removing a step or node also removes what points at it.
                        Some(path) => {
                            let gone = match before.pointer(&path).and_then(|n| n.get("id")) {
                                Some(id) => after["nodes"]
                                    .as_array()
                                    .is_none_or(|nodes| nodes.iter().all(|n| n.get("id") != Some(id))),
                                None => after.pointer(&path).is_none(),
                            };
                            prop_assert!(gone, "{:?} left it in place", edit);
                        }
                        None => {
                            if let Some(want) = expected(&before, &edit) {
                                prop_assert_eq!(&after, &want, "edit {:?}", edit);
                            }
                        }
                    }
                    // Only the patched regions changed.
                    let mut rebuilt = text.clone();
                    for patch in applied.patches.iter().rev() {
                        rebuilt.replace_range(patch.start..patch.end, &patch.text);
                    }
                    prop_assert_eq!(&rebuilt, &applied.text);
                    inverses.push(applied.inverse);
                    text = applied.text;
                }
                Err(diagnostic) => prop_assert_eq!(diagnostic.code.as_str(), "edit-refused"),
            }
        }
        for inverse in inverses.iter().rev() {
            text = apply(&text, inverse).expect("undo applies").text;
        }
        prop_assert_eq!(&text, original);
    }
}

#[test]
fn no_op_round_trip_is_byte_identical() {
    for text in corpus() {
        let applied = apply(
            text,
            &Edit::ReplaceText {
                start: 0,
                end: 0,
                text: String::new(),
            },
        )
        .expect("no-op");
        assert_eq!(&applied.text, text);
        assert!(applied
            .patches
            .iter()
            .all(|p| p.start == p.end && p.text.is_empty()));
    }
}

#[test]
fn fmt_is_idempotent_and_meaning_preserving() {
    let mut formatted_count = 0;
    for text in corpus() {
        let Ok(once) = format(text) else { continue };
        formatted_count += 1;
        let twice = format(&once).expect("formatted text formats");
        assert_eq!(twice, once, "fmt is not idempotent on:\n{text}");
        let before = Document::parse(text).document.unwrap();
        let after = Document::parse(&once).document.unwrap();
        assert_eq!(before.json(), after.json());
        let count = |t: &str| {
            t.lines()
                .filter(|l| l.trim_start().starts_with('#'))
                .count()
        };
        assert!(
            count(&once) >= count(text).min(count(&once)),
            "comments kept"
        );
    }
    assert!(
        formatted_count * 10 >= corpus().len() * 9,
        "fmt handled {formatted_count} of {}",
        corpus().len()
    );
}

/// Comments on every kind of line: head, trailing, between items, near flow collections, last.
const COMMENTED: &str = r#"---
# head comment
spec_version: "1.0"   # trailing on a scalar
name: commented
# before a mapping
reasoning:
  strategy: cot # trailing in a nested map
  max_iterations: 4
steps:
  # leading comment of a step
  gather:
    description: Gather   # trailing
    needs: []             # next to an empty flow list
    allowed_tools: [web_search, reader]   # next to a flow list
  rank:
    needs:
      # between the key and the first item
      - gather   # on an item
      # between items
    description: "Rank"
quality_gates:
  pre_output:
    - name: grounded   # on a sequence item's first key
      check: "{{ output.ok }}"
    # between sequence items
    - name: second
      check: "{{ true }}"
metadata: {owner: team, tags: [a, b]}   # next to a flow map
# before the closing delimiter
---
Body.
"#;

fn comments(text: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| !l.starts_with("Body"))
        .filter_map(|l| l.find('#').map(|i| l[i..].trim().to_owned()))
        .filter(|c| !c.starts_with("#{"))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn comments_survive_a_hundred_edits(steps in prop::collection::vec((any::<usize>(), 0u8..5, any::<u32>()), 100)) {
        let original = comments(COMMENTED);
        let mut text = COMMENTED.to_owned();
        let mut applied_count = 0;
        for (pick, op, salt) in steps {
            let json = Document::parse(&text).document.expect("parses").json().clone();
            let edit = match random_edit(&json, pick, op, salt) {
                Edit::Remove { .. } => continue,
                other => other,
            };
            if let Ok(applied) = apply(&text, &edit) {
                text = applied.text;
                applied_count += 1;
            }
        }
        prop_assert!(applied_count > 20, "only {} edits applied", applied_count);
        prop_assert_eq!(comments(&text), original, "{}", text);
    }
}

#[test]
fn removing_a_step_takes_only_its_own_comment() {
    let applied = apply(
        COMMENTED,
        &Edit::RemoveStep {
            name: "gather".into(),
        },
    )
    .expect("removes");
    let mut expected = comments(COMMENTED);
    for gone in [
        "# leading comment of a step",
        "# trailing",
        "# next to an empty flow list",
        "# next to a flow list",
    ] {
        expected.retain(|c| c != gone);
    }
    // `rank` needed only `gather`: its `needs` goes, with the comments inside the list.
    for gone in ["# between the key and the first item", "# on an item"] {
        expected.retain(|c| c != gone);
    }
    assert_eq!(comments(&applied.text), expected, "{}", applied.text);
}

/// One random edit inside `/metadata` of a generated document, with the pointers of the entries
/// and items it removes (whose comments may go with them).
struct PlannedEdit {
    edit: Edit,
    expected: Value,
    removed: Vec<String>,
}

fn scalar_value(rng: &mut commented::Rng) -> Value {
    match rng.below(4) {
        0 => json!(rng.below(1000)),
        1 => json!(rng.chance(50)),
        _ => json!(*rng.pick(commented::TRICKY)),
    }
}

fn plan_edit(json: &Value, rng: &mut commented::Rng) -> Option<PlannedEdit> {
    let mut all = Vec::new();
    pointers(&json["metadata"], "/metadata".to_owned(), &mut all);
    let (pointer, value) = all[rng.below(all.len())].clone();
    let set = |path: &str, value: Value, removed: Vec<String>| {
        let edit = Edit::Set {
            path: path.to_owned(),
            value,
        };
        let expected = expected(json, &edit)?;
        Some(PlannedEdit {
            edit,
            expected,
            removed,
        })
    };
    match (rng.below(6), &value) {
        (0, Value::Array(_) | Value::Object(_)) | (0, _)
            if !value.is_array() && !value.is_object() =>
        {
            set(&pointer, scalar_value(rng), Vec::new())
        }
        (1, _) => {
            let edit = Edit::Remove {
                path: pointer.clone(),
            };
            let expected = expected(json, &edit)?;
            Some(PlannedEdit {
                edit,
                expected,
                removed: vec![pointer],
            })
        }
        (2, Value::Array(items)) => {
            let edit = Edit::Insert {
                path: pointer,
                index: Some(rng.below(items.len() + 1)),
                value: scalar_value(rng),
            };
            let expected = expected(json, &edit)?;
            Some(PlannedEdit {
                edit,
                expected,
                removed: Vec::new(),
            })
        }
        (3, Value::Object(map)) if !map.is_empty() => {
            // Drop one key, change another, add a new one.
            let mut new = map.clone();
            let keys: Vec<String> = map.keys().cloned().collect();
            let dropped = keys[rng.below(keys.len())].clone();
            new.shift_remove(&dropped);
            let mut removed = vec![logicmd::json::pointer_push(&pointer, &dropped)];
            if let Some(changed) = keys.iter().find(|k| **k != dropped) {
                new.insert(changed.clone(), scalar_value(rng));
                removed.extend(inside(
                    &map[changed],
                    &logicmd::json::pointer_push(&pointer, changed),
                ));
            }
            new.insert(format!("added{}", rng.below(100)), scalar_value(rng));
            set(&pointer, Value::Object(new), removed)
        }
        (4, Value::Array(items)) if !items.is_empty() => {
            let mut new = items.clone();
            let at = rng.below(items.len());
            let removed = match rng.below(3) {
                0 => {
                    new.remove(at);
                    // Of equal neighbours, any one may be the one removed.
                    let same = |j: &usize| items[*j] == items[at];
                    let first = (0..=at).rev().take_while(same).last().unwrap_or(at);
                    let last = (at..items.len()).take_while(same).last().unwrap_or(at);
                    (first..=last).map(|j| format!("{pointer}/{j}")).collect()
                }
                1 => {
                    new.push(json!(format!("appended{}", rng.below(100))));
                    Vec::new()
                }
                _ => {
                    new[at] = json!(format!("changed{}", rng.below(100)));
                    inside(&items[at], &format!("{pointer}/{at}"))
                }
            };
            set(&pointer, Value::Array(new), removed)
        }
        // `metadata` must stay an object.
        (5, Value::Array(_) | Value::Object(_)) if pointer != "/metadata" => {
            let removed = inside(&value, &pointer);
            set(&pointer, scalar_value(rng), removed)
        }
        (5, _) if !value.is_object() => set(&pointer, json!({"new": 1}), Vec::new()),
        _ => set(
            &logicmd::json::pointer_push(&pointer_to_object(json, &pointer), "fresh"),
            json!({"a": [1, "two"]}),
            Vec::new(),
        ),
    }
}

/// The pointers of everything inside `value` (at `pointer`): what goes when it is replaced by a
/// scalar.
fn inside(value: &Value, pointer: &str) -> Vec<String> {
    let mut children = Vec::new();
    pointers(value, pointer.to_owned(), &mut children);
    children.into_iter().skip(1).map(|(p, _)| p).collect()
}

/// `pointer` when it names an object, else `/metadata`.
fn pointer_to_object(json: &Value, pointer: &str) -> String {
    match json.pointer(pointer) {
        Some(Value::Object(_)) => pointer.to_owned(),
        _ => "/metadata".to_owned(),
    }
}

/// Whether a comment belonging to `owner` may disappear when the nodes at `removed` go: it
/// belongs to one of them or to something inside one; a comment inside a flow collection also
/// goes when one of the collection's items goes.
fn may_go(comment: &commented::Placed, removed: &[String]) -> bool {
    let within =
        |pointer: &str, root: &str| pointer == root || pointer.starts_with(&format!("{root}/"));
    removed.iter().any(|r| {
        within(&comment.owner, r)
            || comment.place == commented::Place::InsideFlow && within(r, &comment.owner)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Issue #13: edits never lose a comment except those of what they remove, give exactly the
    /// intended JSON, and undo restores the bytes. Every one of these edits must apply.
    #[test]
    fn edits_keep_every_comment_not_removed(seed in any::<u64>(), density in 5usize..95) {
        let doc = commented::document(seed, density);
        let mut rng = commented::Rng::new(seed ^ 0x5EED);
        let Some(plan) = plan_edit(&doc.json, &mut rng) else {
            return Err(TestCaseError::reject("no edit planned"));
        };
        let applied = match apply(&doc.text, &plan.edit) {
            Ok(applied) => applied,
            Err(refusal) => {
                return Err(TestCaseError::fail(format!(
                    "{:?} refused: {}\n{}", plan.edit, refusal.message, doc.text
                )));
            }
        };
        let after = json_of(&applied.text).expect("edited text parses");
        prop_assert_eq!(&after, &plan.expected, "{:?}\n{}\n=>\n{}", plan.edit, doc.text, applied.text);
        for comment in &doc.comments {
            let count = applied.text.matches(comment.text.as_str()).count();
            if may_go(comment, &plan.removed) {
                prop_assert!(count <= 1, "{:?} doubled", comment.text);
            } else {
                prop_assert_eq!(
                    count, 1,
                    "{:?} (of {}) lost by {:?}:\n{}\n=>\n{}",
                    comment.text, comment.owner, plan.edit, doc.text, applied.text
                );
            }
        }
        let undone = apply(&applied.text, &applied.inverse).expect("undo applies").text;
        prop_assert_eq!(undone, doc.text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Step edits made of several primitive ones (add after, rename, remove) keep every comment
    /// but those of what they remove: the step itself, and `needs` lists left empty.
    #[test]
    fn step_edits_keep_every_comment_not_removed(seed in any::<u64>(), density in 5usize..95, op in 0u8..3) {
        let doc = commented::document_with_steps(seed, density);
        let steps = doc.json["steps"].as_object().expect("steps are generated");
        let first = steps.keys().next().cloned().unwrap_or_default();
        let last = steps.keys().next_back().cloned().unwrap_or_default();
        let (edit, removed) = match op {
            0 => (Edit::AddStep { name: "added".into(), after: Some(first.clone()), step: json!({"description": "new"}) }, Vec::new()),
            1 => (Edit::RenameStep { from: first.clone(), to: "renamed".into() }, Vec::new()),
            _ => {
                let needs: Vec<String> = steps.keys().map(|s| format!("/steps/{s}/needs")).collect();
                (Edit::RemoveStep { name: last.clone() }, [vec![format!("/steps/{last}")], needs].concat())
            }
        };
        let applied = match apply(&doc.text, &edit) {
            Ok(applied) => applied,
            Err(refusal) => {
                return Err(TestCaseError::fail(format!("{edit:?} refused: {}\n{}", refusal.message, doc.text)));
            }
        };
        let after = json_of(&applied.text).expect("edited text parses");
        match &edit {
            Edit::AddStep { .. } => {
                let order: Vec<&String> = after["steps"].as_object().unwrap().keys().collect();
                prop_assert_eq!(order.get(1).map(|s| s.as_str()), Some("added"));
            }
            Edit::RenameStep { .. } => prop_assert!(after["steps"].get("renamed").is_some()),
            _ => prop_assert!(after["steps"].get(&last).is_none()),
        }
        for comment in &doc.comments {
            let count = applied.text.matches(comment.text.as_str()).count();
            if may_go(comment, &removed) {
                prop_assert!(count <= 1, "{:?} doubled", comment.text);
            } else {
                prop_assert_eq!(count, 1, "{:?} lost by {:?}:\n{}\n=>\n{}", comment.text, edit, doc.text, applied.text);
            }
        }
        let undone = apply(&applied.text, &applied.inverse).expect("undo applies").text;
        prop_assert_eq!(undone, doc.text);
    }
}

/// A document whose comments are all marked `Ω`, a character the random values below never hold.
const MULTI_LINE_TARGETS: &str = r#"---
# Ω head
spec_version: "1.0"
name: multi   # Ω name
steps:
  # Ω above a
  a:
    instructions: "old"   # Ω after a
    description: plain text # Ω description
  b:
    instructions: |   # Ω header
      Old block.
    # Ω below the block
  c: {}
metadata:
  notes:
    - first   # Ω item
    - second
---
Body.
"#;

fn marked_comments(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.find("# Ω").map(|i| &l[i..]))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Issue #18: a multi-line string set anywhere (over a quoted, plain or block value, as a
    /// new entry, as a list item, in a flow mapping) reads back as exactly that string, every
    /// comment stays, and undo restores the bytes.
    #[test]
    fn multi_line_values_read_back_exactly_and_keep_comments(
        lines in prop::collection::vec("[ a-z#:'\"{}\\-\t|>]{0,8}", 2..5),
        breaks in 0usize..3,
        target in 0usize..7,
    ) {
        let value = format!("{}{}", lines.join("\n"), "\n".repeat(breaks));
        let path = [
            "/steps/a/instructions",
            "/steps/a/description",
            "/steps/b/instructions",
            "/steps/b/description",
            "/steps/c/instructions",
            "/metadata/notes/0",
            "/name",
        ][target];
        let edit = Edit::Set { path: path.to_owned(), value: json!(value) };
        let applied = apply(MULTI_LINE_TARGETS, &edit).map_err(|d| TestCaseError::fail(d.message))?;
        let json = Document::parse(&applied.text).document.expect("parses").json().clone();
        prop_assert_eq!(json.pointer(path), Some(&json!(value)), "{}", applied.text);
        prop_assert_eq!(marked_comments(&applied.text), marked_comments(MULTI_LINE_TARGETS), "{}", applied.text);
        let undone = apply(&applied.text, &applied.inverse).map_err(|d| TestCaseError::fail(d.message))?;
        prop_assert_eq!(undone.text, MULTI_LINE_TARGETS);
    }
}
