//! Finding the comments of a frontmatter: every `#` that starts a comment, outside scalars and keys.

use crate::source::Span;
use crate::yaml::{Node, NodeValue};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// Byte offset of the `#`.
    pub offset: usize,
    /// The comment from `#` to the end of its line, trailing spaces removed.
    pub text: String,
    /// Nothing but spaces before it on its line.
    pub own_line: bool,
}

/// Every comment in `region` of `text`, given the spans of all keys and scalars of `root`.
pub fn find(text: &str, region: Span, root: &Node) -> Vec<Comment> {
    let mut occupied = Vec::new();
    collect_spans(root, &mut occupied);
    occupied.sort_by_key(|s| s.start);
    let inside = |offset: usize| {
        let at = occupied.partition_point(|s| s.start <= offset);
        at > 0 && occupied[at - 1].end > offset
    };
    let mut comments = Vec::new();
    let mut line_start = region.start;
    while line_start < region.end {
        let line_end = text[line_start..region.end]
            .find('\n')
            .map_or(region.end, |i| line_start + i);
        let line = &text[line_start..line_end];
        let mut previous_blank = true;
        for (i, c) in line.char_indices() {
            let offset = line_start + i;
            if c == '#' && previous_blank && !inside(offset) {
                comments.push(Comment {
                    offset,
                    text: line[i..].trim_end().to_owned(),
                    own_line: line[..i].trim().is_empty(),
                });
                break;
            }
            previous_blank = c == ' ' || c == '\t';
        }
        line_start = line_end + 1;
    }
    comments
}

fn collect_spans(node: &Node, out: &mut Vec<Span>) {
    if node.flow {
        // Flow collections are kept as written, comments inside included.
        out.push(node.span);
        return;
    }
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                out.push(entry.key_span);
                collect_spans(&entry.value, out);
            }
        }
        NodeValue::Seq(items) => items.iter().for_each(|item| collect_spans(item, out)),
        _ => {
            if !node.span.is_empty() {
                out.push(node.span);
            }
        }
    }
}
