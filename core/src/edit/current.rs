//! The document an edit session works on: a LOGIC.md file or a DRTL topology.

use serde_json::Value;

use crate::analysis::Kind;
use crate::diagnostic::Diagnostic;
use crate::document::Document;
use crate::drtl::{self, Topology};
use crate::format::comments::Comment;
use crate::schema::Source;
use crate::source::Span;

pub(crate) enum Current {
    Logic(Document),
    Drtl(Topology),
}

impl Current {
    /// Parses `text` as the same kind of document; `Err` names the first problem. The front door
    /// must still read `text` as this kind (`analysis::detect`), or the next edit — the inverse of
    /// this one, say — would find a document of another kind that does not parse.
    pub(crate) fn reparse(&self, text: &str) -> Result<Current, String> {
        let kind = crate::analysis::detect(text, None);
        match (self, kind) {
            (Current::Logic(_), Kind::Drtl) => {
                return Err("the text would read as a DRTL topology instead".to_owned())
            }
            (Current::Drtl(_), Kind::Logic) => {
                return Err(
                    "the text would no longer read as a DRTL topology (no top-level `nodes:` line)"
                        .to_owned(),
                )
            }
            _ => {}
        }
        match self {
            Current::Logic(_) => {
                let parsed = Document::parse(text);
                if let Some(error) = parsed.diagnostics.iter().find(|d| d.is_error()) {
                    return Err(error.message.clone());
                }
                parsed
                    .document
                    .map(Current::Logic)
                    .ok_or_else(|| "no frontmatter is left".to_owned())
            }
            Current::Drtl(_) => {
                let (topology, diagnostics) = drtl::parse(text);
                if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
                    return Err(error.message.clone());
                }
                topology
                    .map(Current::Drtl)
                    .ok_or_else(|| "no topology is left".to_owned())
            }
        }
    }

    /// The text parsed as the front door reads it (`analysis::detect`: frontmatter → LOGIC.md, a
    /// top-level `nodes:` → DRTL); an edit needs a text that parses without error.
    pub(crate) fn detect(text: &str) -> Result<Current, String> {
        let (_, parsed, diagnostics) =
            crate::analysis::parse(text, &crate::analysis::Options::validate());
        if let Some(error) = diagnostics.iter().find(|d| d.is_error()) {
            return Err(error.message.clone());
        }
        match parsed {
            Some(crate::analysis::Parsed::Logic(document)) => Ok(Current::Logic(
                std::sync::Arc::try_unwrap(document).unwrap_or_else(|shared| (*shared).clone()),
            )),
            Some(crate::analysis::Parsed::Drtl(topology)) => Ok(Current::Drtl(
                std::sync::Arc::try_unwrap(topology).unwrap_or_else(|shared| (*shared).clone()),
            )),
            None => Err("neither a LOGIC.md file nor a DRTL topology".to_owned()),
        }
    }

    pub(crate) fn text(&self) -> &str {
        match self {
            Current::Logic(d) => d.text(),
            Current::Drtl(t) => t.text(),
        }
    }

    pub(crate) fn json(&self) -> &Value {
        match self {
            Current::Logic(d) => d.json(),
            Current::Drtl(t) => t.json(),
        }
    }

    pub(crate) fn source(&self) -> &dyn Source {
        match self {
            Current::Logic(d) => d,
            Current::Drtl(t) => t,
        }
    }

    /// Every comment of the frontmatter (LOGIC.md) or of the whole file (DRTL).
    pub(crate) fn comments(&self) -> Vec<Comment> {
        match self {
            Current::Logic(d) => crate::format::comments_of(d),
            Current::Drtl(t) => {
                let text = t.text();
                crate::format::comments::find(text, Span::new(0, text.len()), t.root())
            }
        }
    }

    pub(crate) fn graph(&self) -> crate::graph::Graph {
        match self {
            Current::Logic(d) => crate::graph::from_document(d),
            Current::Drtl(t) => crate::graph::from_topology(t),
        }
    }

    pub(crate) fn is_drtl(&self) -> bool {
        matches!(self, Current::Drtl(_))
    }

    /// Schema diagnostics of the current text: an edit may leave a topology's node unconnected
    /// for a moment, but never break its shape.
    pub(crate) fn diagnostics(&self) -> Vec<Diagnostic> {
        match self {
            Current::Logic(d) => crate::schema::validate(d),
            Current::Drtl(t) => drtl::validate_schema(t),
        }
    }
}
