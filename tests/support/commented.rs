//! Random LOGIC.md documents with comments in every kind of place (own line, end of line after
//! every scalar style, on a collection's key line, in sequences, inside multi-line flow
//! collections, at the head and at the end), each comment unique and recorded with the node it
//! belongs to, for the property tests of `fmt` and of edits.

use serde_json::{json, Map, Value};

/// A small deterministic generator (xorshift64*): the property tests draw a seed, and a failing
/// seed reproduces the same document.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Where a comment sits relative to the node it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On its own line(s) directly above the entry or item.
    Leading,
    /// At the end of the entry's or item's line (after a scalar or flow collection, or after
    /// `key:` when a block collection follows).
    Trailing,
    /// Inside a multi-line flow collection, after an item's comma.
    InsideFlow,
    /// Above the first key or below the last one: it belongs to the document.
    Document,
}

/// One comment of a generated document.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The comment as written, from `#` (its marker `cN.` makes it unique).
    pub text: String,
    /// The JSON Pointer of the entry or item (or flow collection) it belongs to; "" for the
    /// document.
    pub owner: String,
    pub place: Place,
}

/// A generated document: its text, the JSON its frontmatter means, and its comments.
#[derive(Debug, Clone)]
pub struct Commented {
    pub text: String,
    pub json: Value,
    pub comments: Vec<Placed>,
}

/// Strings that a reader may take for something else, or that need quoting for their syntax.
pub const TRICKY: &[&str] = &[
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "N",
    "2026-03-31",
    "2026-03-31T10:00:00Z",
    "1:30",
    "12:30:45",
    "1_000",
    "0b11",
    "017",
    "0x1F",
    "1e3",
    "=",
    "<<",
    "~",
    "null",
    "true",
    "1.5",
    ".inf",
    "x #y",
    "a: b",
    "- x",
    "it's",
    "",
    " lead",
    "trail ",
    "[x]",
    "{y}",
    "#h",
    "café ☕",
    "tab\there",
    "new\nline",
    "plain words",
    "v1.0",
];

const PLAIN_WORDS: &[&str] = &[
    "hello",
    "two words",
    "x1",
    "v1.0",
    "30s",
    "a-b",
    "1.2.3",
    "2026-3-1",
    "café",
];

/// Plain scalars that are not strings, with their JSON (as text).
const PLAIN_OTHER: &[(&str, &str)] = &[
    ("42", "42"),
    ("0.5", "0.5"),
    ("true", "true"),
    ("false", "false"),
    ("null", "null"),
];

const KEYS: &[&str] = &["alpha", "beta", "gamma_2", "delta-x", "eps", "zeta", "eta"];

const NOISE: &[&str] = &[
    "",
    " note",
    " it's",
    " \"quoted\"",
    " a: b",
    " # nested",
    " [x] {y}",
    " - dash",
    " café",
];

/// A node before it is written.
enum Node {
    /// A scalar as written (plain or quoted) and its meaning.
    Scalar(String, Value),
    /// A literal block scalar's lines.
    Literal(Vec<String>),
    /// A flow sequence of scalars (`[a, "b"]`); with comments, written over several lines.
    Flow(Vec<(String, Value)>, Vec<Option<String>>),
    Map(Vec<Entry>),
    Seq(Vec<Item>, bool),
}

struct Entry {
    key_text: String,
    key: String,
    leading: Option<String>,
    trailing: Option<String>,
    value: Node,
}

struct Item {
    leading: Option<String>,
    trailing: Option<String>,
    value: Node,
}

struct Generator {
    rng: Rng,
    comments: Vec<Placed>,
    /// How likely a place gets a comment, in percent.
    density: usize,
}

impl Generator {
    fn comment(&mut self, owner: &str, place: Place) -> String {
        let text = format!(
            "{}c{}.{}",
            if self.rng.chance(80) { "# " } else { "#" },
            self.comments.len(),
            self.rng.pick(NOISE)
        );
        self.comments.push(Placed {
            text: text.clone(),
            owner: owner.to_owned(),
            place,
        });
        text
    }

    fn maybe_comment(&mut self, owner: &str, place: Place) -> Option<String> {
        if self.rng.chance(self.density) {
            Some(self.comment(owner, place))
        } else {
            None
        }
    }

    fn quoted(&mut self, text: &str) -> String {
        let single_ok = !text.chars().any(char::is_control);
        if single_ok && self.rng.chance(50) {
            format!("'{}'", text.replace('\'', "''"))
        } else {
            serde_json::to_string(text).unwrap_or_default()
        }
    }

    fn string_scalar(&mut self) -> Node {
        if self.rng.chance(40) {
            let word = *self.rng.pick(PLAIN_WORDS);
            Node::Scalar(word.to_owned(), json!(word))
        } else {
            let text = *self.rng.pick(TRICKY);
            Node::Scalar(self.quoted(text), json!(text))
        }
    }

    fn scalar(&mut self) -> Node {
        if self.rng.chance(20) {
            let (text, value) = self.rng.pick(PLAIN_OTHER);
            let value = serde_json::from_str(value).unwrap_or(Value::Null);
            Node::Scalar((*text).to_owned(), value)
        } else {
            self.string_scalar()
        }
    }

    fn flow(&mut self, pointer: &str) -> Node {
        let count = self.rng.below(4);
        let mut items = Vec::new();
        let mut comments = Vec::new();
        for i in 0..count {
            let word = format!("f{}_{i}", self.comments.len());
            let text = if self.rng.chance(30) {
                self.quoted(&word)
            } else {
                word.clone()
            };
            items.push((text, json!(word)));
            let last = i + 1 == count;
            comments.push(if last {
                None
            } else {
                self.maybe_comment(pointer, Place::InsideFlow)
            });
        }
        Node::Flow(items, comments)
    }

    /// A value of any kind; a sequence only when `seq_allowed` (an item's nested sequence
    /// would start on the dash line, which the generator does not write).
    fn value(&mut self, pointer: &str, depth: usize, seq_allowed: bool) -> Node {
        let collection = depth < 3 && self.rng.chance(45);
        match (collection, self.rng.below(10)) {
            (true, 0..=4) => self.map(pointer, depth + 1),
            (true, _) if seq_allowed => self.seq(pointer, depth + 1),
            (true, _) => self.map(pointer, depth + 1),
            (false, 0) => Node::Literal(
                (0..1 + self.rng.below(3))
                    .map(|i| {
                        if self.rng.chance(50) {
                            format!("# line {i}, text in a block scalar")
                        } else {
                            format!("line {i} # not a comment")
                        }
                    })
                    .collect(),
            ),
            (false, 1) => self.flow(pointer),
            (false, _) => self.scalar(),
        }
    }

    fn key(&mut self, used: &[String]) -> (String, String) {
        loop {
            let (text, key) = if self.rng.chance(20) {
                let key = *self.rng.pick(TRICKY);
                (self.quoted(key), key.to_owned())
            } else {
                let key = *self.rng.pick(KEYS);
                (key.to_owned(), key.to_owned())
            };
            if !used.contains(&key) {
                return (text, key);
            }
        }
    }

    fn map(&mut self, pointer: &str, depth: usize) -> Node {
        let mut entries: Vec<Entry> = Vec::new();
        let mut used = Vec::new();
        for _ in 0..1 + self.rng.below(4) {
            let (key_text, key) = self.key(&used);
            used.push(key.clone());
            let at = logicmd::json::pointer_push(pointer, &key);
            let leading = self.maybe_comment(&at, Place::Leading);
            let value = self.value(&at, depth, true);
            let trailing = self.maybe_comment(&at, Place::Trailing);
            entries.push(Entry {
                key_text,
                key,
                leading,
                trailing,
                value,
            });
        }
        Node::Map(entries)
    }

    fn seq(&mut self, pointer: &str, depth: usize) -> Node {
        let mut items = Vec::new();
        for i in 0..1 + self.rng.below(4) {
            let at = format!("{pointer}/{i}");
            let leading = self.maybe_comment(&at, Place::Leading);
            let value = self.value(&at, depth, false);
            let trailing = match value {
                Node::Map(_) => None,
                _ => self.maybe_comment(&at, Place::Trailing),
            };
            items.push(Item {
                leading,
                trailing,
                value,
            });
        }
        let indentless = self.rng.chance(25);
        Node::Seq(items, indentless)
    }
}

fn json_of(node: &Node) -> Value {
    match node {
        Node::Scalar(_, value) => value.clone(),
        Node::Literal(lines) => json!(format!("{}\n", lines.join("\n"))),
        Node::Flow(items, _) => Value::Array(items.iter().map(|(_, v)| v.clone()).collect()),
        Node::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|e| (e.key.clone(), json_of(&e.value)))
                .collect::<Map<String, Value>>(),
        ),
        Node::Seq(items, _) => Value::Array(items.iter().map(|i| json_of(&i.value)).collect()),
    }
}

fn end_of_line(out: &mut String, trailing: &Option<String>) {
    if let Some(comment) = trailing {
        out.push_str("  ");
        out.push_str(comment);
    }
    out.push('\n');
}

/// Writes what follows `key:` or `- `: `lead` is the text before the value on its line.
fn write_inline(
    out: &mut String,
    lead: &str,
    node: &Node,
    indent: usize,
    trailing: &Option<String>,
) {
    let pad = " ".repeat(indent + 2);
    match node {
        Node::Scalar(text, _) => {
            out.push_str(lead);
            out.push(' ');
            out.push_str(text);
            end_of_line(out, trailing);
        }
        Node::Literal(lines) => {
            out.push_str(lead);
            out.push_str(" |");
            end_of_line(out, trailing);
            for line in lines {
                out.push_str(&pad);
                out.push_str(line);
                out.push('\n');
            }
        }
        Node::Flow(items, comments) => {
            out.push_str(lead);
            out.push_str(" [");
            for (i, (text, _)) in items.iter().enumerate() {
                out.push_str(text);
                if i + 1 < items.len() {
                    out.push(',');
                    match &comments[i] {
                        Some(comment) => {
                            out.push_str("  ");
                            out.push_str(comment);
                            out.push('\n');
                            out.push_str(&pad);
                            out.push_str("  ");
                        }
                        None => out.push(' '),
                    }
                }
            }
            out.push(']');
            end_of_line(out, trailing);
        }
        Node::Map(_) | Node::Seq(..) => {
            unreachable!("block collections are written by write_entry")
        }
    }
}

fn write_map(out: &mut String, entries: &[Entry], indent: usize, dash: bool) {
    let pad = " ".repeat(indent);
    for (i, entry) in entries.iter().enumerate() {
        let first_of_item = dash && i == 0;
        if let Some(comment) = &entry.leading {
            if !first_of_item {
                out.push_str(&pad);
                out.push_str(comment);
                out.push('\n');
            }
        }
        if let (Some(comment), true) = (&entry.leading, first_of_item) {
            // Above the dash: it reads as the item's, and goes when the item goes.
            out.push_str(&" ".repeat(indent - 2));
            out.push_str(comment);
            out.push('\n');
        }
        let lead = if first_of_item {
            format!("{}- {}:", " ".repeat(indent - 2), entry.key_text)
        } else {
            format!("{pad}{}:", entry.key_text)
        };
        match &entry.value {
            Node::Map(inner) => {
                out.push_str(&lead);
                end_of_line(out, &entry.trailing);
                write_map(out, inner, indent + 2, false);
            }
            Node::Seq(items, indentless) => {
                out.push_str(&lead);
                end_of_line(out, &entry.trailing);
                write_seq(out, items, if *indentless { indent } else { indent + 2 });
            }
            other => write_inline(out, &lead, other, indent, &entry.trailing),
        }
    }
}

fn write_seq(out: &mut String, items: &[Item], indent: usize) {
    let pad = " ".repeat(indent);
    for item in items {
        if let Some(comment) = &item.leading {
            out.push_str(&pad);
            out.push_str(comment);
            out.push('\n');
        }
        match &item.value {
            Node::Map(entries) => write_map(out, entries, indent + 2, true),
            other => write_inline(out, &format!("{pad}-"), other, indent, &item.trailing),
        }
    }
}

/// A random document from `seed`; `density` is how likely each place gets a comment (percent).
pub fn document(seed: u64, density: usize) -> Commented {
    generate(seed, density, false)
}

/// As [`document`], always with steps.
pub fn document_with_steps(seed: u64, density: usize) -> Commented {
    generate(seed, density, true)
}

fn generate(seed: u64, density: usize, with_steps: bool) -> Commented {
    let mut g = Generator {
        rng: Rng::new(seed),
        comments: Vec::new(),
        density,
    };
    let head = g.maybe_comment("", Place::Document);
    let mut root: Vec<Entry> = Vec::new();
    let mut add = |g: &mut Generator, key: &str, value: fn(&mut Generator, &str) -> Node| {
        let at = logicmd::json::pointer_push("", key);
        let leading = g.maybe_comment(&at, Place::Leading);
        let value = value(g, &at);
        let trailing = g.maybe_comment(&at, Place::Trailing);
        root.push(Entry {
            key_text: key.to_owned(),
            key: key.to_owned(),
            leading,
            trailing,
            value,
        });
    };
    add(&mut g, "spec_version", |g, _| {
        Node::Scalar(g.quoted("1.0"), json!("1.0"))
    });
    add(&mut g, "name", |g, _| g.string_scalar());
    if g.rng.chance(50) {
        add(&mut g, "description", |g, _| g.string_scalar());
    }
    if g.rng.chance(60) || with_steps {
        add(&mut g, "steps", steps);
    }
    add(&mut g, "metadata", |g, at| g.map(at, 1));
    // Root keys in any order: `fmt` puts them in the spec's order, comments along.
    for i in (1..root.len()).rev() {
        let j = g.rng.below(i + 1);
        root.swap(i, j);
    }
    let closing = g.maybe_comment("", Place::Document);
    let mut text = String::from("---\n");
    if let Some(comment) = head {
        text.push_str(&comment);
        text.push('\n');
    }
    write_map(&mut text, &root, 0, false);
    if let Some(comment) = closing {
        text.push_str(&comment);
        text.push('\n');
    }
    text.push_str("---\n# Body heading, not a comment\n");
    Commented {
        text,
        json: json_of(&Node::Map(root)),
        comments: g.comments,
    }
}

/// One or two steps with their fields in any order (`fmt` reorders them by the schema).
fn steps(g: &mut Generator, at: &str) -> Node {
    let mut entries = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for n in 0..1 + g.rng.below(2) {
        let name = format!("s{n}");
        let step_at = logicmd::json::pointer_push(at, &name);
        let mut fields = Vec::new();
        for field in ["timeout", "instructions", "description", "needs"] {
            if !g.rng.chance(60) || field == "needs" && names.is_empty() {
                continue;
            }
            let field_at = logicmd::json::pointer_push(&step_at, field);
            let leading = g.maybe_comment(&field_at, Place::Leading);
            let value = match field {
                "timeout" => Node::Scalar("30s".into(), json!("30s")),
                "instructions" => Node::Literal(vec!["Do it.".into(), "# still text".into()]),
                "description" => g.string_scalar(),
                _ => Node::Seq(
                    names
                        .iter()
                        .map(|n| Item {
                            leading: None,
                            trailing: None,
                            value: Node::Scalar(n.clone(), json!(n)),
                        })
                        .collect(),
                    false,
                ),
            };
            let trailing = g.maybe_comment(&field_at, Place::Trailing);
            fields.push(Entry {
                key_text: field.to_owned(),
                key: field.to_owned(),
                leading,
                trailing,
                value,
            });
        }
        let leading = g.maybe_comment(&step_at, Place::Leading);
        let trailing = g.maybe_comment(&step_at, Place::Trailing);
        entries.push(Entry {
            key_text: name.clone(),
            key: name.clone(),
            leading,
            trailing,
            value: if fields.is_empty() {
                Node::Scalar("{}".into(), json!({}))
            } else {
                Node::Map(fields)
            },
        });
        names.push(name);
    }
    Node::Map(entries)
}
