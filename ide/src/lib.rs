//! # logicmd-ide
//!
//! Editor intelligence for LOGIC.md and DRTL, answering position queries on what core already
//! knows: diagnostics (exactly `lint`'s, and `check`'s for DRTL), completion, hover, go to
//! definition, references, highlights, rename, quick fixes, formatting, outline, folding,
//! semantic tokens and inlay hints. Pure like core: no file system, clock, threads or printing;
//! texts come in as values and other files through [`ProjectFiles`]. The protocol shells — the
//! language server (`logicmd lsp`) and the studio's source pane — only convert.
//!
//! ```
//! use logicmd_ide::{Workspace, NoFiles};
//! let mut workspace = Workspace::new(std::sync::Arc::new(NoFiles));
//! workspace.open("a.logic.md", "---\nspec_version: \"1.0\"\nname: a\nsteps:\n  s: {needs: [t]}\n---\n".into());
//! let found = workspace.diagnostics("a.logic.md");
//! assert!(found.iter().any(|d| d.diagnostic.code == "unknown-need"));
//! ```
//!
//! Positions are byte offsets into the file's text ([`logicmd::source::Span`]); [`lines`]
//! converts them to and from the line / UTF-16 column pairs editors speak.
//!
//! | module | what it answers |
//! |---|---|
//! | [`workspace`] | the open files, their analyses, who imports whom |
//! | [`diagnostics`] | problems with tags and related places |
//! | [`completion`] | what can be typed here |
//! | [`hover`] | what this is |
//! | [`navigation`] | where it is defined, where it is used |
//! | [`rename`] | renaming a step or a node everywhere |
//! | [`actions`] | quick fixes and assists |
//! | [`outline`] | document symbols and folding ranges |
//! | [`format`](mod@format) | `logicmd fmt`, whole or in a range |
//! | [`tokens`] | semantic tokens |
//! | [`hints`] | inlay hints |

#![deny(missing_docs)]
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

pub mod actions;
pub mod completion;
pub mod diagnostics;
mod expr_at;
mod expr_type;
pub mod files;
pub mod format;
pub mod hints;
pub mod hover;
pub mod lines;
mod locate;
pub mod navigation;
pub mod outline;
pub mod rename;
mod schema_docs;
pub mod shortlist;
pub mod symbols;
pub mod tokens;
pub mod workspace;

pub use files::{NoFiles, ProjectFiles};
pub use workspace::{FileAnalysis, Workspace};

/// A place in a file of the workspace: its id and a byte range of its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// The file's id (as its [`ProjectFiles`] names it).
    pub file: String,
    /// The byte range.
    pub span: logicmd::source::Span,
}

/// A text change in one file: replace `span` by `text`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TextEdit {
    /// The byte range of the current text that is replaced.
    pub span: logicmd::source::Span,
    /// What takes its place.
    pub text: String,
}

/// Edits to several files (a rename, a fix), each list sorted and disjoint.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct WorkspaceEdit {
    /// Per file id, the edits of its current text.
    pub changes: Vec<(String, Vec<TextEdit>)>,
}
