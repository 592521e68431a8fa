//! Values every YAML reader must read alike: an unquoted scalar that YAML 1.2 (this crate)
//! reads as a string but a YAML 1.1 reader or js-yaml reads as a boolean, a number or a date.

use super::context::LintContext;
use super::rules;
use crate::edit::read_otherwise;
use crate::json::push_token;
use crate::yaml::{Node, NodeValue, ScalarStyle};

pub fn check(cx: &mut LintContext<'_>) {
    let root = cx.document.root();
    let mut found = Vec::new();
    walk(root, &mut String::new(), &mut found);
    for (pointer, span, text, other) in found {
        cx.report_at(
            rules::AMBIGUOUS_SCALAR,
            &pointer,
            span,
            format!("`{text}` is the string \"{text}\" here, but {other} to YAML 1.1 readers or js-yaml"),
        );
        cx.help(format!("quote it: \"{text}\""));
    }
}

fn walk(
    node: &Node,
    pointer: &mut String,
    found: &mut Vec<(String, crate::source::Span, String, &'static str)>,
) {
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                let len = pointer.len();
                push_token(pointer, &entry.key);
                walk(&entry.value, pointer, found);
                pointer.truncate(len);
            }
        }
        NodeValue::Seq(items) => {
            for (index, item) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&index.to_string());
                walk(item, pointer, found);
                pointer.truncate(len);
            }
        }
        NodeValue::String(text) if node.style == Some(ScalarStyle::Plain) && !node.from_alias => {
            if let Some(other) = read_otherwise(text) {
                found.push((pointer.clone(), node.span, text.to_string(), other));
            }
        }
        _ => {}
    }
}
