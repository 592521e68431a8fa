//! Where the cursor is, read from the text's lines (indentation, `key:`, `- `, flow brackets)
//! rather than from a parse: while a person types, the text is usually not a document yet.

use crate::schema_docs::Seg;

/// What is being typed at the cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Slot {
    /// A key of the mapping at `parent`; `typed` is the part already written.
    Key,
    /// The value at `path` (a key's value or a list item).
    Value,
    /// Inside `{{ }}` of a string value: the expression's text before the cursor.
    Expression(String),
}

/// The cursor's context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Context {
    pub slot: Slot,
    /// For a key: the mapping's path; for a value: the value's path.
    pub path: Vec<Seg>,
    /// The word before the cursor that completion replaces (byte length).
    pub typed_len: usize,
    /// The keys already present in the mapping (for a key), or in the value's mapping.
    pub siblings: Vec<(String, String)>,
}

/// One line's shape: indentation, the `- ` dashes, a `key:` and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape<'a> {
    /// Columns of the dashes.
    dashes: Vec<usize>,
    /// The key and its column.
    key: Option<(&'a str, usize)>,
    /// What follows `key:` (trimmed; without a trailing comment), when there is a key.
    value: &'a str,
    /// Column of the content after the dashes.
    content: usize,
}

fn shape(line: &str) -> Option<Shape<'_>> {
    let trimmed = line.trim_start();
    if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("---") {
        return None;
    }
    let mut at = line.len() - trimmed.len();
    let mut dashes = Vec::new();
    loop {
        let rest = &line[at..];
        if rest == "-" || rest.starts_with("- ") {
            dashes.push(at);
            at += 1;
            at += line[at..].len() - line[at..].trim_start().len();
        } else {
            break;
        }
    }
    let rest = &line[at..];
    let key = key_of(rest).map(|(key, value)| ((key, at), value));
    Some(Shape {
        dashes,
        key: key.map(|(k, _)| k),
        value: key.map_or("", |(_, v)| v),
        content: at,
    })
}

/// `key: value` (or `key:` alone) at the start of `text`: the key (quotes removed) and the
/// value's text, trimmed, without a trailing comment.
fn key_of(text: &str) -> Option<(&str, &str)> {
    let (key, rest) = if let Some(quoted) = text.strip_prefix('"') {
        let end = quoted.find('"')?;
        (&quoted[..end], &quoted[end + 1..])
    } else if let Some(quoted) = text.strip_prefix('\'') {
        let end = quoted.find('\'')?;
        (&quoted[..end], &quoted[end + 1..])
    } else {
        let colon = text
            .find(": ")
            .or_else(|| text.strip_suffix(':').map(|k| k.len()))?;
        if text[..colon].contains(['[', '{', '"', '\'', '#']) {
            return None;
        }
        (&text[..colon], &text[colon..])
    };
    let value = rest.strip_prefix(':')?;
    if !(value.is_empty() || value.starts_with(' ')) {
        return None;
    }
    let value = match value.find(" #") {
        Some(comment) => &value[..comment],
        None => value,
    };
    Some((key, value.trim()))
}

/// The context at `cursor` of `text`, whose YAML starts at byte `yaml_start`.
pub(crate) fn at(text: &str, yaml_start: usize, cursor: usize) -> Option<Context> {
    let line_start = text[..cursor]
        .rfind('\n')
        .map_or(0, |i| i + 1)
        .max(yaml_start);
    let prefix = &text[line_start..cursor];
    let above = text[yaml_start..line_start].lines().rev();
    let (path, siblings) = line_path(prefix, above, text, cursor);
    if let Some(expression) = open_expression(prefix) {
        return Some(Context {
            typed_len: member_word(typed_word(&expression)).len(),
            slot: Slot::Expression(expression),
            path,
            siblings,
        });
    }
    if in_comment(prefix) {
        return None;
    }
    let line = shape(prefix);
    let plain_word = |s: &Shape<'_>| {
        s.key.is_none() && !prefix[s.content..].contains([' ', '[', '{', '"', '\'', ','])
    };
    let slot = match &line {
        None => Slot::Key,
        Some(s) if plain_word(s) && s.dashes.is_empty() => Slot::Key,
        // `- word` is an item: a string, or the first key of a mapping (the caller decides by
        // the schema of the list's items).
        Some(_) => Slot::Value,
    };
    Some(Context {
        slot,
        path,
        typed_len: typed_word(prefix).len(),
        siblings,
    })
}

/// Whether the cursor is inside a comment (a `#` after a space, outside quotes).
fn in_comment(prefix: &str) -> bool {
    let mut quote = None;
    let mut previous = ' ';
    for c in prefix.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return true,
            None => {}
        }
        previous = c;
    }
    false
}

/// The word being typed: what follows the last separator.
fn typed_word(prefix: &str) -> &str {
    let start = prefix
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || "_-./$".contains(*c)))
        .map_or(0, |(i, c)| i + c.len_utf8());
    &prefix[start..]
}

/// In an expression a `.` separates members: only the last member is replaced.
fn member_word(word: &str) -> &str {
    match word.rfind('.') {
        Some(dot) => &word[dot + 1..],
        None => word,
    }
}

/// The text of a `{{` opened before the cursor on this line and not closed.
fn open_expression(prefix: &str) -> Option<String> {
    let open = prefix.rfind("{{")?;
    let after = &prefix[open + 2..];
    (!after.contains("}}")).then(|| after.to_owned())
}

/// The path of what the cursor's line writes at the cursor, and the keys of the same mapping.
fn line_path<'t>(
    prefix: &str,
    above: impl Iterator<Item = &'t str>,
    text: &str,
    cursor: usize,
) -> (Vec<Seg>, Vec<(String, String)>) {
    let indent = prefix.len() - prefix.trim_start().len();
    let line = shape(prefix);
    let (mut tail, column) = match &line {
        Some(s) => within_line(s, prefix),
        None => (Vec::new(), indent),
    };
    let mut siblings = siblings_below(text, cursor, column);
    // Built innermost first, reversed at the end.
    let mut path = Vec::new();
    let mut limit = column;
    let mut item_starts_here = false;
    if let Some(s) = &line {
        for &dash in s.dashes.iter().rev() {
            if dash < limit {
                path.push(Seg::Index(0));
                limit = dash;
                item_starts_here = true;
            }
        }
    }
    for line_above in above {
        if limit == 0 {
            break;
        }
        // Lines indented past the column can neither hold the cursor's place nor be beside it:
        // told by their indentation alone (a large document has thousands of them).
        let indent = line_above.len() - line_above.trim_start_matches(' ').len();
        if indent > column || (limit < column && indent >= limit) {
            continue;
        }
        let Some(s) = shape(line_above) else { continue };
        if let Some((key, kc)) = s.key {
            if kc == column && limit == column && !item_starts_here {
                siblings.push((key.to_owned(), s.value.to_owned()));
            } else if kc < limit {
                if !(s.value.is_empty() || s.value.starts_with(['|', '>', '&', '!'])) {
                    // A key with its value on its line holds nothing below it.
                    continue;
                }
                path.push(Seg::Key(key.to_owned()));
                limit = kc;
            }
        }
        for &dash in s.dashes.iter().rev() {
            if dash < limit {
                path.push(Seg::Index(0));
                limit = dash;
            }
        }
    }
    path.reverse();
    path.append(&mut tail);
    siblings.reverse();
    (path, siblings)
}

/// Keys of the mapping at `column` on the lines after the cursor's, until it ends.
fn siblings_below(text: &str, cursor: usize, column: usize) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for next in text[cursor..].lines().skip(1) {
        let indent = next.len() - next.trim_start_matches(' ').len();
        if indent > column {
            continue;
        }
        let Some(s) = shape(next) else { continue };
        let first = s.dashes.first().copied().unwrap_or(s.content);
        if first < column {
            break;
        }
        if let Some((key, kc)) = s.key {
            if kc == column && s.dashes.is_empty() {
                found.push((key.to_owned(), s.value.to_owned()));
            }
        }
    }
    found.reverse();
    found
}

/// On the cursor's line: the path inside it (a key with a value being typed, flow brackets)
/// and the column of the outermost key or item it starts with.
fn within_line(line: &Shape<'_>, prefix: &str) -> (Vec<Seg>, usize) {
    let column = line.key.map_or(line.content, |(_, kc)| kc);
    let Some((key, _)) = line.key else {
        return (Vec::new(), column);
    };
    let mut tail = vec![Seg::Key(key.to_owned())];
    let after_key = line.key.map_or(line.content, |(k, kc)| kc + k.len());
    let value = prefix[after_key..]
        .find(':')
        .and_then(|colon| prefix.get(after_key + colon + 1..))
        .unwrap_or("");
    tail.extend(flow_path(value));
    (tail, column)
}

/// The path inside flow collections (`{needs: [a, b`) before the cursor.
fn flow_path(value: &str) -> Vec<Seg> {
    let mut stack: Vec<(char, Option<String>)> = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in value.chars() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '[' | '{' => {
                stack.push((c, None));
                word.clear();
            }
            ']' | '}' => {
                stack.pop();
                word.clear();
            }
            ',' => {
                if let Some((_, key)) = stack.last_mut() {
                    *key = None;
                }
                word.clear();
            }
            ':' => {
                if let Some((kind, key)) = stack.last_mut() {
                    if *kind == '{' {
                        *key = Some(word.trim().to_owned());
                    }
                }
                word.clear();
            }
            _ => word.push(c),
        }
    }
    stack
        .into_iter()
        .filter_map(|(kind, key)| match kind {
            '[' => Some(Seg::Index(0)),
            _ => key.map(Seg::Key),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(text: &str) -> Context {
        let cursor = text.find('|').expect("a cursor");
        let text = text.replacen('|', "", 1);
        at(&text, 4, cursor).expect("a context")
    }

    fn keys(path: &[Seg]) -> Vec<String> {
        path.iter()
            .map(|s| match s {
                Seg::Key(k) => k.clone(),
                Seg::Index(_) => "[]".to_owned(),
            })
            .collect()
    }

    #[test]
    fn a_new_key_in_a_step() {
        let c = context("---\nname: x\nsteps:\n  a:\n    description: d\n    ne|\n---\n");
        assert_eq!(c.slot, Slot::Key);
        assert_eq!(keys(&c.path), ["steps", "a"]);
        assert_eq!(c.typed_len, 2);
        assert_eq!(c.siblings, vec![("description".to_owned(), "d".to_owned())]);
    }

    #[test]
    fn a_value_in_a_flow_list_and_a_block_list() {
        let c = context("---\nsteps:\n  a:\n    needs: [b, |\n---\n");
        assert_eq!(c.slot, Slot::Value);
        assert_eq!(keys(&c.path), ["steps", "a", "needs", "[]"]);
        let c = context("---\nsteps:\n  a:\n    needs:\n      - g|\n---\n");
        assert_eq!(c.slot, Slot::Value);
        assert_eq!(keys(&c.path), ["steps", "a", "needs", "[]"]);
        assert_eq!(c.typed_len, 1);
    }

    #[test]
    fn a_value_in_a_list_item_mapping() {
        let c = context("---\nsteps:\n  a:\n    branches:\n      - if: x\n        then: |\n---\n");
        assert_eq!(c.slot, Slot::Value);
        assert_eq!(keys(&c.path), ["steps", "a", "branches", "[]", "then"]);
        let c = context("---\nsteps:\n  a:\n    branches:\n      - then: |\n---\n");
        assert_eq!(keys(&c.path), ["steps", "a", "branches", "[]", "then"]);
        let c = context("---\nsteps:\n  a:\n    branches:\n      - if: x\n        |\n---\n");
        assert_eq!(c.slot, Slot::Key);
        assert_eq!(keys(&c.path), ["steps", "a", "branches", "[]"]);
        assert_eq!(c.siblings, vec![("if".to_owned(), "x".to_owned())]);
    }

    #[test]
    fn an_expression_in_a_quoted_value() {
        let c =
            context("---\nsteps:\n  a:\n    verification:\n      check: \"{{ steps.b.out|\n---\n");
        assert_eq!(c.slot, Slot::Expression(" steps.b.out".to_owned()));
        assert_eq!(keys(&c.path), ["steps", "a", "verification", "check"]);
        assert_eq!(c.typed_len, 3);
    }

    #[test]
    fn flow_mappings_on_the_line() {
        let c = context("---\nsteps:\n  a: {needs: [|\n---\n");
        assert_eq!(keys(&c.path), ["steps", "a", "needs", "[]"]);
    }
}
