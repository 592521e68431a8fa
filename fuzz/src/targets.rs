//! What the fuzzer exercises, and the properties it holds each run to (beyond "no panic"):
//! - parse: the front door at lint depth, graph and layout, compile, obligations, rendering;
//! - reparse: `Document::reparse` answers only what a full parse gives;
//! - expr: parsing and evaluating `{{ }}` templates;
//! - edit: an applied edit's inverse restores the text byte for byte;
//! - fmt: formatting keeps the data, is idempotent.

use logicmd::analysis::{analyze, obligations, Options, Parsed};
use logicmd::edit::{apply, Edit};
use logicmd::expr::Template;
use logicmd::loader::MemoryLoader;
use logicmd::Document;
use serde_json::{json, Value};

use crate::mutate::{mutate, random_text, Rng};

pub const ALL: &[&str] = &["parse", "reparse", "expr", "edit", "fmt"];

/// Separates the two parts of an input that has two: the previous and the next text (reparse),
/// the text and the edit (edit).
pub const PAIR: char = '\u{1e}';

/// A broken property: what the input did wrong, as a message.
pub type Finding = String;

/// Makes one input for `target` from the corpus.
pub fn input(target: &str, rng: &mut Rng, corpus: &[String], expressions: &[String]) -> String {
    match target {
        "expr" => {
            let base = rng.pick(expressions).clone();
            if rng.chance(4) {
                random_text(rng)
            } else {
                mutate(rng, &base, expressions)
            }
        }
        "edit" => {
            let base = rng.pick(corpus).clone();
            let text = if rng.chance(2) {
                base
            } else {
                mutate(rng, &base, corpus)
            };
            let edit = random_edit(&text, rng);
            format!("{text}{PAIR}{edit}")
        }
        "reparse" => {
            // The previous text and the next one, a small edit of it (what typing does) or a
            // bigger mutation, kept together so a find can be replayed.
            let base = rng.pick(corpus).clone();
            let next = if rng.chance(2) {
                let at = boundary(&base, rng.below(base.len() + 1));
                let piece: String = random_text(rng).chars().take(1 + rng.below(3)).collect();
                format!("{}{piece}{}", &base[..at], &base[at..])
            } else {
                mutate(rng, &base, corpus)
            };
            format!("{base}{PAIR}{next}")
        }
        _ => {
            let base = rng.pick(corpus).clone();
            mutate(rng, &base, corpus)
        }
    }
}

/// Runs `target` on `text`; `Err` when a property broke (a panic is caught by the caller).
pub fn run(target: &str, text: &str) -> Result<(), Finding> {
    match target {
        "parse" => parse(text),
        "reparse" => reparse(text),
        "expr" => expr(text),
        "edit" => edit(text),
        "fmt" => fmt(text),
        other => Err(format!("unknown target `{other}`")),
    }
}

fn parse(text: &str) -> Result<(), Finding> {
    let loader = MemoryLoader::new();
    let analysis = analyze(text, &Options::lint("fuzz.logic.md"), &loader);
    for diagnostic in &analysis.diagnostics {
        let index = logicmd::source::LineIndex::new(text);
        let _ = logicmd::render::render(diagnostic, "fuzz", text, &index);
    }
    match &analysis.parsed {
        Some(Parsed::Logic(document)) => {
            let mut graph = logicmd::graph::from_document(document);
            logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
            let _ = logicmd::compile::compile(document.json());
        }
        Some(Parsed::Drtl(topology)) => {
            let mut graph = logicmd::graph::from_topology(topology);
            logicmd::graph::layout(&mut graph, logicmd::graph::LayoutOptions::default());
        }
        None => {}
    }
    let _ = obligations(text, &Options::lint("fuzz.logic.md"), &loader);
    Ok(())
}

fn reparse(text: &str) -> Result<(), Finding> {
    let Some((base, next)) = text.split_once(PAIR) else {
        return Ok(());
    };
    let Some(previous) = Document::parse(base).document else {
        return Ok(());
    };
    if let Some(derived) = previous.reparse(next) {
        let full = Document::parse(next).document;
        if full.as_ref() != Some(&derived) {
            return Err("reparse answered differently from a full parse".to_owned());
        }
    }
    Ok(())
}

fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn expr(text: &str) -> Result<(), Finding> {
    let context = json!({
        "output": {"items": [1, 2, {"a": null}], "confidence": 0.7, "text": "héllo"},
        "input": {"n": 3, "s": "x"},
        "steps": {"a": {"output": [true, "1", 1.5]}}
    });
    if let Ok(template) = Template::parse(text) {
        let _ = template.evaluate(&context);
    }
    Ok(())
}

/// A random edit of `text`, as the JSON the npm package takes.
fn random_edit(text: &str, rng: &mut Rng) -> Value {
    let steps: Vec<String> = Document::parse(text)
        .document
        .and_then(|d| {
            d.json()
                .get("steps")
                .and_then(Value::as_object)
                .map(|s| s.keys().cloned().collect())
        })
        .unwrap_or_default();
    let name = |rng: &mut Rng| {
        if steps.is_empty() || rng.chance(5) {
            format!("s{}", rng.below(4))
        } else {
            rng.pick(&steps).clone()
        }
    };
    let value = |rng: &mut Rng| match rng.below(5) {
        0 => json!(random_text(rng)),
        1 => json!(rng.below(100)),
        2 => json!([random_text(rng)]),
        3 => json!({"description": random_text(rng)}),
        _ => Value::Null,
    };
    match rng.below(8) {
        0 => {
            json!({"op": "set", "path": format!("steps.{}.description", name(rng)), "value": value(rng)})
        }
        1 => json!({"op": "remove", "path": format!("/steps/{}", name(rng))}),
        2 => json!({"op": "add_step", "name": name(rng)}),
        3 => json!({"op": "remove_step", "name": name(rng)}),
        4 => json!({"op": "rename_step", "from": name(rng), "to": name(rng)}),
        5 => json!({"op": "connect", "from": name(rng), "to": name(rng)}),
        6 => {
            json!({"op": "set_position", "node": format!("step:{}", name(rng)), "x": 1.5, "y": -3.0})
        }
        _ => {
            let start = boundary(text, rng.below(text.len() + 1));
            let end = boundary(text, start + rng.below(20));
            json!({"op": "replace_text", "start": start, "end": end, "text": random_text(rng)})
        }
    }
}

fn edit(input: &str) -> Result<(), Finding> {
    let Some((text, edit)) = input.rsplit_once(PAIR) else {
        return Ok(());
    };
    let Ok(edit) = serde_json::from_str::<Edit>(edit) else {
        return Ok(());
    };
    let Ok(applied) = apply(text, &edit) else {
        return Ok(());
    };
    match apply(&applied.text, &applied.inverse) {
        Ok(restored) if restored.text == text => Ok(()),
        Ok(_) => Err(format!("the inverse of {edit:?} did not restore the text")),
        Err(error) => Err(format!(
            "the inverse of {edit:?} was refused: {}",
            error.message
        )),
    }
}

fn fmt(text: &str) -> Result<(), Finding> {
    let Ok(formatted) = logicmd::format::format(text) else {
        return Ok(());
    };
    let before = Document::parse(text).document.map(|d| d.json().clone());
    let after = Document::parse(&formatted)
        .document
        .map(|d| d.json().clone());
    if before != after {
        return Err("formatting changed the data".to_owned());
    }
    match logicmd::format::format(&formatted) {
        Ok(again) if again == formatted => Ok(()),
        Ok(_) => Err("formatting is not idempotent".to_owned()),
        Err(error) => Err(format!(
            "formatted output does not format again: {}",
            error.message
        )),
    }
}
