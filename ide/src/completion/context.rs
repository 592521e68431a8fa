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
    let own_line_start = text[..cursor]
        .rfind('\n')
        .map_or(0, |i| i + 1)
        .max(yaml_start);
    let line_start = flow_start(text, yaml_start, own_line_start).unwrap_or(own_line_start);
    let joined;
    let prefix = if line_start == own_line_start {
        &text[line_start..cursor]
    } else {
        joined = one_line(&text[line_start..cursor]);
        joined.as_str()
    };
    let above = text[yaml_start..line_start].lines().rev();
    let (path, mut siblings) = line_path(prefix, above, text, cursor);
    let flow = shape(prefix).and_then(|s| flow_at(&s, prefix));
    if let Some(flow) = &flow {
        // Inside `{ }` the mapping is the flow mapping: its keys, before and after the cursor.
        if flow.in_mapping {
            siblings = flow.written.clone();
            let rest = &text[cursor..];
            let rest = &rest[..rest.find('\n').unwrap_or(rest.len())];
            siblings.extend(flow_keys_after(rest));
        }
    }
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
        _ if flow.as_ref().is_some_and(|f| f.key_position) => Slot::Key,
        _ if flow.is_some() => Slot::Value,
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
    comment_start(prefix).is_some()
}

/// Where a line's comment starts (a `#` at its start or after a space, outside quotes).
fn comment_start(line: &str) -> Option<usize> {
    let mut quotes = Quotes::default();
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        if !quotes.quoted(c) && c == '#' && previous.is_whitespace() {
            return Some(i);
        }
        previous = c;
    }
    None
}

/// The most lines a flow collection written over several lines is looked for on.
const FLOW_LINES: usize = 20;

/// When the cursor's line (starting at `line_start`) continues a flow collection opened on an
/// earlier line (`{id: x,` then `mode: |}`): where that line starts.
fn flow_start(text: &str, yaml_start: usize, line_start: usize) -> Option<usize> {
    let own = &text[line_start..];
    let own_indent = own.len() - own.trim_start_matches(' ').len();
    let mut open = 0isize;
    let mut start = line_start;
    for _ in 0..FLOW_LINES {
        if start <= yaml_start {
            return None;
        }
        let above = text[..start - 1]
            .rfind('\n')
            .map_or(0, |i| i + 1)
            .max(yaml_start);
        let line = text[above..start - 1].trim_end_matches('\r');
        open += bracket_balance(line);
        start = above;
        if open > 0 {
            let opens_flow = shape(line).is_some_and(|s| flow_at(&s, line).is_some());
            let indent = line.len() - line.trim_start_matches(' ').len();
            return (opens_flow && own_indent > indent).then_some(start);
        }
    }
    None
}

/// Brackets a line opens minus those it closes (outside quotes and its comment).
fn bracket_balance(line: &str) -> isize {
    let line = &line[..comment_start(line).unwrap_or(line.len())];
    let mut quotes = Quotes::default();
    line.chars()
        .filter(|c| !quotes.quoted(*c))
        .map(|c| match c {
            '{' | '[' => 1,
            '}' | ']' => -1,
            _ => 0,
        })
        .sum()
}

/// Lines of a flow collection as one line: each line break and comment a space (byte for
/// byte, so columns on the first line and the length stay).
fn one_line(lines: &str) -> String {
    let mut out = String::with_capacity(lines.len());
    let mut rest = lines;
    while let Some(end) = rest.find('\n') {
        let line = &rest[..end];
        let kept = comment_start(line).unwrap_or(line.len());
        out.push_str(&line[..kept]);
        out.extend(std::iter::repeat_n(' ', line.len() - kept + 1));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out.replace('\r', " ")
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
        // At the top level the keys above are still the cursor's siblings.
        if limit == 0 && (column > 0 || item_starts_here) {
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
    let mut tail: Vec<Seg> = line
        .key
        .map(|(key, _)| Seg::Key(key.to_owned()))
        .into_iter()
        .collect();
    if let Some(flow) = flow_at(line, prefix) {
        tail.extend(flow.path);
    }
    (tail, column)
}

/// The text of the line's value where a flow collection may start: after `key:`, or the item's
/// content after its dashes.
fn flow_text<'p>(line: &Shape<'_>, prefix: &'p str) -> &'p str {
    match line.key {
        Some((key, kc)) => {
            let after_key = kc + key.len();
            prefix[after_key..]
                .find(':')
                .and_then(|colon| prefix.get(after_key + colon + 1..))
                .unwrap_or("")
        }
        None => &prefix[line.content..],
    }
}

/// Where the cursor is inside the flow collections its line opened, when it is inside one.
fn flow_at(line: &Shape<'_>, prefix: &str) -> Option<Flow> {
    let text = flow_text(line, prefix);
    text.trim_start()
        .starts_with(['{', '['])
        .then(|| flow_path(text))
        .filter(|flow| flow.open)
}

/// The cursor's place inside flow collections (`{needs: [a, b`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Flow {
    /// The path inside them (`[` an item, `{k:` the key's value).
    path: Vec<Seg>,
    /// Whether a collection is still open at the cursor.
    open: bool,
    /// Whether the innermost one is a mapping.
    in_mapping: bool,
    /// Whether the cursor is where that mapping's next key goes (no `:` yet).
    key_position: bool,
    /// The keys (and scalar values) that mapping already has before the cursor.
    written: Vec<(String, String)>,
}

/// Where YAML quotes are, read a character at a time.
#[derive(Debug, Default)]
pub(super) struct Quotes(pub Option<char>);

impl Quotes {
    /// Whether `c` is quoted text (its opening and closing quote included).
    pub(super) fn quoted(&mut self, c: char) -> bool {
        match self.0 {
            Some(q) => {
                if c == q {
                    self.0 = None;
                }
                true
            }
            None if c == '"' || c == '\'' => {
                self.0 = Some(c);
                true
            }
            None => false,
        }
    }
}

/// One open flow collection.
struct Frame {
    mapping: bool,
    key: Option<String>,
    text: String,
    written: Vec<(String, String)>,
}

impl Frame {
    fn new(open: char) -> Frame {
        Frame {
            mapping: open == '{',
            key: None,
            text: String::new(),
            written: Vec::new(),
        }
    }

    /// The `:` after a key: the key, unquoted.
    fn take_key(&mut self) {
        let key = std::mem::take(&mut self.text);
        self.key = Some(key.trim().trim_matches(['"', '\'']).to_owned());
    }

    /// The entry ends (`,`): a mapping keeps its key and value.
    fn end_entry(&mut self) {
        let text = std::mem::take(&mut self.text);
        if !self.mapping {
            return;
        }
        match self.key.take() {
            Some(key) => self.written.push((key, text.trim().to_owned())),
            None if !text.trim().is_empty() => {
                self.written.push((text.trim().to_owned(), String::new()))
            }
            None => {}
        }
    }
}

fn flow_path(value: &str) -> Flow {
    let mut stack: Vec<Frame> = Vec::new();
    let mut quotes = Quotes::default();
    for c in value.chars() {
        let Some(top) = stack.last_mut() else {
            if matches!(c, '[' | '{') {
                stack.push(Frame::new(c));
            }
            continue;
        };
        if quotes.quoted(c) {
            top.text.push(c);
            continue;
        }
        match c {
            '[' | '{' => stack.push(Frame::new(c)),
            ']' | '}' => {
                stack.pop();
            }
            ',' => top.end_entry(),
            ':' if top.mapping && top.key.is_none() => top.take_key(),
            _ => top.text.push(c),
        }
    }
    let Some(innermost) = stack.last() else {
        return Flow::default();
    };
    Flow {
        open: true,
        in_mapping: innermost.mapping,
        key_position: innermost.mapping && innermost.key.is_none(),
        written: if innermost.mapping {
            innermost.written.clone()
        } else {
            Vec::new()
        },
        path: stack
            .iter()
            .filter_map(|frame| match (frame.mapping, &frame.key) {
                (false, _) => Some(Seg::Index(0)),
                (true, key) => key.clone().map(Seg::Key),
            })
            .collect(),
    }
}

/// The keys of the flow mapping the cursor is in, written after it on its line (`rest`): the
/// entry at the cursor ends at the first `,`.
fn flow_keys_after(rest: &str) -> Vec<(String, String)> {
    let mut frame = Frame::new('{');
    let mut depth = 0usize;
    let mut quotes = Quotes::default();
    let mut at_cursor = true;
    for c in rest.chars() {
        if quotes.quoted(c) {
            frame.text.push(c);
            continue;
        }
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' if depth == 0 => break,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                if at_cursor {
                    at_cursor = false;
                    frame.text.clear();
                    frame.key = None;
                } else {
                    frame.end_entry();
                }
            }
            ':' if depth == 0 && frame.key.is_none() && !at_cursor => frame.take_key(),
            _ if depth == 0 && !at_cursor => frame.text.push(c),
            _ => {}
        }
    }
    if !at_cursor {
        frame.end_entry();
    }
    frame.written
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
