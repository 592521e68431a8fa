//! Finding the comments of a YAML text: every `#` that starts a comment, outside scalars and
//! keys; and the check that a new text kept them all ("no comment is ever lost", for `fmt` and
//! for every edit).

use std::collections::HashMap;

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
    /// Inside a flow collection (`[a,  # note` on a line of a multi-line `[...]`), whose text
    /// the formatter keeps as written.
    pub in_flow: bool,
}

/// Every comment in `region` of `text`, given the tree `root` parsed from it.
pub fn find(text: &str, region: Span, root: &Node) -> Vec<Comment> {
    let mut occupied = Vec::new();
    let mut flows = Vec::new();
    collect_spans(root, &mut occupied, &mut flows);
    crate::sorting::sort_by_key(&mut occupied, |s| s.start);
    let inside = |offset: usize| {
        let at = occupied.partition_point(|s| s.start <= offset);
        at > 0 && occupied[at - 1].end > offset
    };
    let in_flow = |offset: usize| flows.iter().any(|s| s.start <= offset && offset < s.end);
    let mut comments = Vec::new();
    let mut line_start = region.start;
    while line_start < region.end {
        // YAML ends a line at `\n`, `\r\n` or a lone `\r`: a comment never runs past one.
        let line_end = text[line_start..region.end]
            .find(['\n', '\r'])
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
                    in_flow: in_flow(offset),
                });
                break;
            }
            previous_blank = c == ' ' || c == '\t';
        }
        line_start = line_end
            + if text[line_end..].starts_with("\r\n") {
                2
            } else {
                1
            };
    }
    comments
}

/// The spans of every key and scalar (where a `#` is text, not a comment), and of every flow
/// collection.
fn collect_spans(node: &Node, out: &mut Vec<Span>, flows: &mut Vec<Span>) {
    if node.flow {
        flows.push(node.span());
    }
    match &node.value {
        NodeValue::Map(entries) => {
            for entry in entries {
                out.push(entry.key_span());
                collect_spans(&entry.value, out, flows);
            }
        }
        NodeValue::Seq(items) => items
            .iter()
            .for_each(|item| collect_spans(item, out, flows)),
        _ => {
            if !node.span().is_empty() {
                out.push(node.span());
            }
        }
    }
}

/// How a new text differs from the old one in its comments.
#[derive(Debug, PartialEq, Eq)]
pub enum CommentChange<'c> {
    /// A comment of the old text is missing from the new one.
    Lost(&'c Comment),
    /// The new text has a comment the old one did not: some text became a comment.
    Appeared(&'c Comment),
}

/// Whether `after` still has every comment of `before` (compared as texts, each as many times
/// as it occurs), leaving out those `may_go` allows to disappear (the comments of what an edit
/// removed), and no other.
pub fn check_kept<'c>(
    before: &'c [Comment],
    after: &'c [Comment],
    may_go: impl Fn(&Comment) -> bool,
) -> Result<(), CommentChange<'c>> {
    let mut available: HashMap<&str, usize> = HashMap::new();
    for comment in after {
        *available.entry(comment.text.as_str()).or_default() += 1;
    }
    // Comments that must stay claim their texts first, so a removed duplicate cannot take the
    // place of a kept one.
    let (optional, required): (Vec<&Comment>, Vec<&Comment>) =
        before.iter().partition(|c| may_go(c));
    for comment in required {
        match available.get_mut(comment.text.as_str()) {
            Some(count) if *count > 0 => *count -= 1,
            _ => return Err(CommentChange::Lost(comment)),
        }
    }
    for comment in optional {
        if let Some(count) = available.get_mut(comment.text.as_str()).filter(|c| **c > 0) {
            *count -= 1;
        }
    }
    let appeared = after.iter().find(|c| {
        available.get_mut(c.text.as_str()).is_some_and(|n| {
            let left = *n > 0;
            *n = n.saturating_sub(1);
            left
        })
    });
    match appeared {
        Some(comment) => Err(CommentChange::Appeared(comment)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comment(offset: usize, text: &str) -> Comment {
        Comment {
            offset,
            text: text.to_owned(),
            own_line: false,
            in_flow: false,
        }
    }

    #[test]
    fn kept_comments_are_counted_by_text() {
        let before = [comment(0, "# a"), comment(10, "# a"), comment(20, "# b")];
        let same = [comment(5, "# b"), comment(6, "# a"), comment(7, "# a")];
        assert_eq!(check_kept(&before, &same, |_| false), Ok(()));
        let one_less = [comment(5, "# a"), comment(7, "# b")];
        assert_eq!(
            check_kept(&before, &one_less, |_| false),
            Err(CommentChange::Lost(&before[1])),
            "a duplicate counts"
        );
        assert_eq!(check_kept(&before, &one_less, |c| c.offset == 0), Ok(()));
        let extra = [
            comment(5, "# a"),
            comment(6, "# a"),
            comment(7, "# b"),
            comment(8, "# new"),
        ];
        assert_eq!(
            check_kept(&before, &extra, |_| false),
            Err(CommentChange::Appeared(&extra[3]))
        );
    }

    #[test]
    fn comments_inside_flow_collections_are_found() {
        let text = "a: [x,  # inside\n  y]  # after\nb: \"q # not\"  # real\n";
        let root = crate::yaml::parse_file(text, crate::Limits::DEFAULT)
            .root
            .unwrap();
        let found = find(text, Span::new(0, text.len()), &root);
        let texts: Vec<(&str, bool)> = found.iter().map(|c| (c.text.as_str(), c.in_flow)).collect();
        assert_eq!(
            texts,
            [("# inside", true), ("# after", false), ("# real", false)]
        );
    }
}
