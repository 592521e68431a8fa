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
    walk(root, &mut Vec::new(), &mut found);
    for (pointer, span, text, other) in found {
        cx.report_at(
            rules::AMBIGUOUS_SCALAR,
            &pointer,
            span,
            format!(
                "`{text}` is the string \"{text}\" here, but some YAML readers (YAML 1.1 ones, or js-yaml) read it as {other}"
            ),
        );
        cx.help(format!("quote it: \"{text}\""));
    }
}

/// A place on the way down: a key or an index (the pointer is written only for a finding).
enum Token<'n> {
    Key(&'n str),
    Index(usize),
}

fn walk<'n>(
    node: &'n Node,
    path: &mut Vec<Token<'n>>,
    found: &mut Vec<(String, crate::source::Span, String, &'static str)>,
) {
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                path.push(Token::Key(&entry.key));
                walk(&entry.value, path, found);
                path.pop();
            }
        }
        NodeValue::Seq(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(Token::Index(index));
                walk(item, path, found);
                path.pop();
            }
        }
        NodeValue::String(text)
            if node.style == Some(ScalarStyle::Plain)
                && !node.from_alias
                && may_be_read_otherwise(text) =>
        {
            if let Some(other) = read_otherwise(text) {
                found.push((pointer(path), node.span(), text.to_string(), other));
            }
        }
        _ => {}
    }
}

fn pointer(path: &[Token<'_>]) -> String {
    let mut pointer = String::new();
    for token in path {
        match token {
            Token::Key(key) => push_token(&mut pointer, key),
            Token::Index(index) => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
        }
    }
    pointer
}

/// A first look: what other readers take for something else is a number or a date (a digit, a
/// sign or a dot first), `~`, `=`, `<<`, or one of their booleans and nulls (five letters at
/// most); most strings are skipped here.
fn may_be_read_otherwise(text: &str) -> bool {
    match text.bytes().next() {
        Some(b) if b.is_ascii_digit() || b"+-.~=<".contains(&b) => true,
        Some(b) if b"yYnNtTfFoO".contains(&b) => text.len() <= 5,
        _ => false,
    }
}
