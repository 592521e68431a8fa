//! A parsed LOGIC.md file: original text, frontmatter sections, spanned tree and its JSON value.

mod reparse;

pub use reparse::ScalarEdit;

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::diagnostic::{has_errors, sort_diagnostics, Diagnostic};
use crate::frontmatter::{self, Sections};
use crate::json;
use crate::limits::Limits;
use crate::source::{LineIndex, Span};
use crate::yaml::{self, Node, NodeValue};

/// A LOGIC.md file whose frontmatter parsed into a mapping.
#[derive(Debug, Clone)]
pub struct Document {
    /// Shared with the texts of the tree's scalars (`yaml::Text`).
    text: Arc<str>,
    index: LineIndex,
    sections: Sections,
    root: Node,
    /// The JSON view of `root`, made on first use: validation reads the tree itself, so a
    /// document that is only validated never pays for the copy.
    json: OnceLock<Value>,
    /// Parsing found no problem at all (what [`Document::reparse`] needs to derive the next parse).
    clean: bool,
    /// The tree holds a copy made by an alias (the reparse shortcut refuses those): found on the
    /// first reparse and handed on to the documents it derives, not looked for on every keystroke.
    aliases: OnceLock<bool>,
}

/// Equal documents have equal trees; the JSON view follows from the tree, made or not.
impl PartialEq for Document {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
            && self.index == other.index
            && self.sections == other.sections
            && self.root == other.root
            && self.clean == other.clean
    }
}

/// What parsing produced: the document when the frontmatter is a readable mapping, and every
/// problem found (a document can come with errors, for example duplicate keys).
#[derive(Debug, Clone)]
pub struct ParsedDocument {
    /// The document, when the frontmatter is a readable mapping.
    pub document: Option<Document>,
    /// Every problem found while parsing, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedDocument {
    /// Whether any problem is an error (warnings alone do not count).
    pub fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics)
    }
}

impl Document {
    /// Parses `text` with the default [`Limits`].
    pub fn parse(text: &str) -> ParsedDocument {
        Document::parse_with(text, Limits::DEFAULT)
    }

    /// Parses raw bytes: the file must be UTF-8.
    pub fn parse_bytes(bytes: &[u8], limits: Limits) -> ParsedDocument {
        match text_of_bytes(bytes, limits) {
            Ok(text) => Document::parse_with(text, limits),
            Err(problem) => failed(*problem),
        }
    }

    /// Parses `text` within `limits`.
    pub fn parse_with(text: &str, limits: Limits) -> ParsedDocument {
        if let Some(problem) = too_large(parsed_len(text.as_bytes(), limits), limits) {
            return failed(problem);
        }
        Document::parse_shared(&Arc::from(text), limits)
    }

    /// [`Document::parse_with`] of a text the caller holds shared: the document (and its tree's
    /// scalars) keep that text, not a copy of it (the language server holds every open file's
    /// text already).
    pub fn parse_shared(source: &Arc<str>, limits: Limits) -> ParsedDocument {
        let text: &str = source;
        if let Some(problem) = too_large(parsed_len(text.as_bytes(), limits), limits) {
            return failed(problem);
        }
        let index = LineIndex::new(text);
        let sections = match frontmatter::split(text, &index) {
            Ok(sections) => sections,
            Err(diagnostic) => return failed(*diagnostic),
        };
        let built = yaml::build(source, &index, sections.yaml, limits);
        let mut diagnostics: Vec<Diagnostic> = built
            .problems
            .into_iter()
            .map(|problem| place(problem.into_diagnostic(), text, &index))
            .collect();
        let root = match built.root {
            Some(root) if root.as_map().is_some() => root,
            Some(root) if matches!(root.value, NodeValue::Null) => {
                diagnostics.push(empty_frontmatter(text, &index, sections));
                return finish(None, diagnostics);
            }
            Some(root) => {
                diagnostics.push(
                    Diagnostic::error(
                        "frontmatter-not-mapping",
                        format!(
                            "the frontmatter must be a mapping of keys to values, found {}",
                            article(root.type_name())
                        ),
                    )
                    .with_help("write the frontmatter as `key: value` lines, starting with `spec_version: \"1.0\"`")
                    .at(text, &index, root.span()),
                );
                return finish(None, diagnostics);
            }
            None if diagnostics.is_empty() => {
                diagnostics.push(empty_frontmatter(text, &index, sections));
                return finish(None, diagnostics);
            }
            None => return finish(None, diagnostics),
        };
        let document = Document {
            text: Arc::clone(source),
            index,
            sections,
            root,
            json: OnceLock::new(),
            clean: diagnostics.is_empty(),
            aliases: OnceLock::new(),
        };
        finish(Some(document), diagnostics)
    }

    /// The whole file's text, as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Lines and columns of [`Document::text`].
    pub fn line_index(&self) -> &LineIndex {
        &self.index
    }

    /// Where the frontmatter and the body are in the text.
    pub fn sections(&self) -> Sections {
        self.sections
    }

    /// The frontmatter's root mapping.
    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The frontmatter as JSON, as the schema sees it.
    pub fn json(&self) -> &Value {
        self.json.get_or_init(|| json::to_json(&self.root))
    }

    /// The JSON view for one reader that does not keep it: the view the document holds when
    /// something already made it, else a copy made for this call and dropped after it (the
    /// language server keeps many documents open; a view kept in each doubled its memory).
    pub fn json_for_call(&self) -> Cow<'_, Value> {
        match self.json.get() {
            Some(made) => Cow::Borrowed(made),
            None => Cow::Owned(json::to_json(&self.root)),
        }
    }

    /// Parsing found no problem at all (no duplicate key, no syntax error).
    pub fn is_clean(&self) -> bool {
        self.clean
    }

    /// The markdown body after the frontmatter.
    pub fn body(&self) -> &str {
        &self.text[self.sections.body.start..self.sections.body.end]
    }

    /// Places `diagnostic` at `span` of this document.
    pub fn locate(&self, diagnostic: Diagnostic, span: Span) -> Diagnostic {
        diagnostic.at(&self.text, &self.index, span)
    }

    /// The span of the node at `pointer`, or of the nearest existing ancestor.
    pub fn span_at(&self, pointer: &str) -> Span {
        json::nearest_node(&self.root, pointer).span()
    }
}

/// The text of a file's bytes: at most `limits.max_bytes` of UTF-8.
pub fn text_of_bytes(bytes: &[u8], limits: Limits) -> Result<&str, Box<Diagnostic>> {
    if let Some(problem) = too_large(parsed_len(bytes, limits), limits) {
        return Err(Box::new(problem));
    }
    std::str::from_utf8(bytes).map_err(|error| {
        let valid = &bytes[..error.valid_up_to()];
        // The valid prefix is UTF-8 by definition; lossy conversion cannot alter it.
        let prefix = String::from_utf8_lossy(valid);
        let index = LineIndex::new(&prefix);
        Box::new(
            Diagnostic::error(
                "input-not-utf8",
                format!(
                    "the file is not valid UTF-8 (invalid byte at offset {})",
                    error.valid_up_to()
                ),
            )
            .with_help("LOGIC.md files are UTF-8 text; re-save the file as UTF-8")
            .at(&prefix, &index, Span::empty(prefix.len())),
        )
    })
}

/// What the size bound applies to: the frontmatter when it closes within the bound (the body is
/// not parsed, spec §15.1.8), else the whole text — or simply the whole text's length when that is
/// within the bound, since then neither is over it.
fn parsed_len(bytes: &[u8], limits: Limits) -> usize {
    // Within the bound whatever the frontmatter's end (it is never past the bytes' end): not
    // searched for (issue #38: the search was 4.7% of the corpus's parse + validate).
    if bytes.len() <= limits.parsed_bytes() {
        return bytes.len();
    }
    let window = &bytes[..bytes.len().min(limits.parsed_bytes().saturating_add(1))];
    crate::frontmatter::end(window).unwrap_or(bytes.len())
}

fn too_large(len: usize, limits: Limits) -> Option<Diagnostic> {
    (len > limits.parsed_bytes()).then(|| {
        crate::limits::input_too_large(Some(len as u64), limits.parsed_bytes())
            .with_help("a LOGIC.md file is a specification, not data; split it with `imports`")
    })
}

fn empty_frontmatter(text: &str, index: &LineIndex, sections: Sections) -> Diagnostic {
    Diagnostic::error(
        "frontmatter-empty",
        "the frontmatter is empty: it needs at least `spec_version` and `name`",
    )
    .with_help("add `spec_version: \"1.0\"` and `name: ...` between the `---` lines")
    .at(text, index, sections.open)
}

fn place(diagnostic: Diagnostic, text: &str, index: &LineIndex) -> Diagnostic {
    match diagnostic.span {
        Some(span) => diagnostic.at(text, index, span),
        None => diagnostic,
    }
}

fn failed(diagnostic: Diagnostic) -> ParsedDocument {
    ParsedDocument {
        document: None,
        diagnostics: vec![diagnostic],
    }
}

fn finish(document: Option<Document>, mut diagnostics: Vec<Diagnostic>) -> ParsedDocument {
    sort_diagnostics(&mut diagnostics);
    ParsedDocument {
        document,
        diagnostics,
    }
}

fn article(type_name: &str) -> String {
    match type_name {
        "array" | "object" => format!("an {type_name}"),
        other => format!("a {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Skipping the frontmatter's end within the bound refuses exactly what finding it refused.
        #[test]
        fn the_size_bound_refuses_what_it_refused_before(
            body in "(---\n|a: 1\n|x\r|\n){0,12}",
            max_bytes in 0usize..40,
        ) {
            let text = format!("---\n{body}");
            let limits = Limits { max_bytes, ..Limits::DEFAULT };
            let bytes = text.as_bytes();
            let window = &bytes[..bytes.len().min(max_bytes.saturating_add(1))];
            let searched = crate::frontmatter::end(window).unwrap_or(bytes.len());
            proptest::prop_assert_eq!(
                too_large(parsed_len(bytes, limits), limits),
                too_large(searched, limits)
            );
        }
    }

    fn codes(text: &str) -> Vec<(String, u32, u32)> {
        Document::parse(text)
            .diagnostics
            .into_iter()
            .map(|d| (d.code, d.line, d.column))
            .collect()
    }

    #[test]
    fn parses_a_minimal_document() {
        let parsed = Document::parse("---\nspec_version: \"1.0\"\nname: x\n---\n# Body\n");
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        let doc = parsed.document.unwrap();
        assert_eq!(doc.json()["name"], "x");
        assert_eq!(doc.body(), "# Body\n");
    }

    #[test]
    fn spans_point_into_the_original_file() {
        let text = "\u{feff}---\nname: \"é\"\nsteps:\n  a: {needs: [b]}\n---\n";
        let doc = Document::parse(text).document.unwrap();
        let needs = json::entry_at(doc.root(), "/steps/a/needs").unwrap();
        assert_eq!(&text[needs.key_span().start..needs.key_span().end], "needs");
        let b = json::node_at(doc.root(), "/steps/a/needs/0").unwrap();
        assert_eq!(&text[b.span().start..b.span().end], "b");
        let name = doc.root().get("name").unwrap();
        assert_eq!(&text[name.span().start..name.span().end], "\"é\"");
    }

    #[test]
    fn duplicate_key_is_reported_at_the_second_key() {
        assert_eq!(
            codes("---\nname: a\nsteps: {}\nname: b\n---\n"),
            vec![("yaml-duplicate-key".into(), 4, 1)]
        );
    }

    #[test]
    fn empty_and_non_mapping_frontmatter() {
        assert_eq!(
            codes("---\n---\n"),
            vec![("frontmatter-empty".into(), 1, 1)]
        );
        assert_eq!(
            codes("---\n# only a comment\n---\n"),
            vec![("frontmatter-empty".into(), 1, 1)]
        );
        assert_eq!(
            codes("---\n- a\n- b\n---\n"),
            vec![("frontmatter-not-mapping".into(), 2, 1)]
        );
        assert_eq!(
            codes("---\njust text\n---\n"),
            vec![("frontmatter-not-mapping".into(), 2, 1)]
        );
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let found = codes("---\nname: a\n  bad: [1, 2\n---\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "yaml-syntax");
        assert!(found[0].1 >= 3, "{found:?}");
    }

    #[test]
    fn alias_bomb_stops_at_the_node_budget() {
        let mut text = String::from("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            text.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        text.push_str("---\n");
        assert_eq!(codes(&text)[0].0, "yaml-too-many-nodes");
    }

    #[test]
    fn deep_nesting_stops_at_the_depth_limit() {
        let deep = format!(
            "---\na: {}{}\n---\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        assert_eq!(codes(&deep)[0].0, "yaml-too-deep");
        let mut block = String::from("---\n");
        for depth in 0..100 {
            block.push_str(&format!("{}k{depth}:\n", "  ".repeat(depth)));
        }
        block.push_str("---\n");
        assert_eq!(codes(&block)[0].0, "yaml-too-deep");
    }

    #[test]
    fn oversized_input_is_refused_before_parsing() {
        let big = format!("---\nname: x\n#{}\n---\n", "x".repeat(20 * 1024 * 1024));
        assert_eq!(codes(&big), vec![("input-too-large".into(), 1, 1)]);
        assert_eq!(
            Document::parse(&big).diagnostics[0].message,
            "the file is 20.1 MiB, over the 8 MiB limit"
        );
    }

    /// The bound is the frontmatter's: the body is not parsed (spec §15.1.8, issue #30).
    #[test]
    fn a_long_body_is_not_bounded() {
        let big = format!(
            "---\nspec_version: \"1.0\"\nname: x\n---\n{}",
            "x".repeat(20 * 1024 * 1024)
        );
        assert_eq!(codes(&big), Vec::<(String, u32, u32)>::new());
        assert!(text_of_bytes(big.as_bytes(), Limits::DEFAULT).is_ok());
    }

    #[test]
    fn invalid_utf8_is_reported_with_its_place() {
        let parsed = Document::parse_bytes(b"---\nname: \xff\n---\n", Limits::DEFAULT);
        let d = &parsed.diagnostics[0];
        assert_eq!(
            (d.code.as_str(), d.line, d.column),
            ("input-not-utf8", 2, 7)
        );
    }

    #[test]
    fn core_schema_tags_and_non_finite_numbers() {
        let parsed = Document::parse("---\na: !!str 12\nb: !!float 3\nc: ! 4\n---\n");
        let doc = parsed.document.unwrap();
        assert_eq!(doc.json()["a"], "12");
        assert_eq!(doc.json()["b"], 3.0);
        assert_eq!(doc.json()["c"], "4");
        assert_eq!(
            codes("---\na: !custom x\n---\n"),
            vec![("yaml-unsupported-tag".into(), 2, 4)]
        );
        assert_eq!(
            codes("---\na: .inf\n---\n"),
            vec![("yaml-non-finite-number".into(), 2, 4)]
        );
        assert_eq!(
            codes("---\na: !!int x\n---\n"),
            vec![("yaml-tag-mismatch".into(), 2, 4)]
        );
    }

    #[test]
    fn anchors_and_aliases_expand() {
        let doc = Document::parse("---\nbase: &b {x: 1}\ncopy: *b\n---\n")
            .document
            .unwrap();
        assert_eq!(doc.json()["copy"]["x"], 1);
        assert!(doc.root().get("copy").unwrap().from_alias);
    }

    #[test]
    fn yaml_1_2_core_schema_keeps_yes_and_no_as_strings() {
        let doc = Document::parse("---\na: yes\nb: off\nc: 0o17\nd: 1e3\n---\n")
            .document
            .unwrap();
        assert_eq!(doc.json()["a"], "yes");
        assert_eq!(doc.json()["b"], "off");
        assert_eq!(doc.json()["c"], 15);
        assert_eq!(doc.json()["d"], 1000.0);
    }

    #[test]
    fn multiple_documents_are_refused() {
        assert_eq!(
            codes("---\na: 1\n...\nb: 2\n---\n")[0].0,
            "yaml-multiple-documents"
        );
    }
}
