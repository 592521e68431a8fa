//! # logicmd
//!
//! Parse, validate, compile, edit and check LOGIC.md reasoning specifications (spec v1.0) and
//! DRTL topologies. Pure Rust: no file system, network or platform code; callers do the I/O.
//!
//! ```
//! let report = logicmd::validate("---\nspec_version: \"1.0\"\nname: demo\n---\n");
//! assert!(report.valid);
//! ```
//!
//! # Map of the public modules
//!
//! Start at [`analysis`]: it detects the kind of a text and runs the one validate → lint
//! policy every caller shares. The other modules, each with its entry point:
//!
//! | module | what it is for | entry point |
//! |---|---|---|
//! | [`analysis`] | the front door: kind detection, parse, schema, imports, rules | [`analysis::analyze`] |
//! | [`validate`](mod@validate) | parse and schema-validate a LOGIC.md text in one call | [`validate()`], [`validate_bytes`] |
//! | [`config`] | project settings (`logicmd.toml`, `[tool.logicmd]`): rule selection, severities | [`config::parse`], [`config::apply`] |
//! | [`lint`] | semantic rules beyond the schema, each with a stable code | [`lint::lint`], [`lint::rules::ALL`] |
//! | [`check`] | static obligations: unverified output, termination | [`check::check_topology`], [`analysis::obligations`] |
//! | [`compile`] | a document as reasoning scaffolds, execution levels and order | [`compile::compile`], [`analysis::compile_text`] |
//! | [`run`] | the sans-IO runtime and the one driver every front end uses: actions out, answers in (any order), a trace | [`run::prepare`], [`run::session::Session`] (around [`run::Run`]) |
//! | [`trace`] | temporal checks on a run's trace, OTLP export | [`trace::check`], [`trace::export`] |
//! | [`next_action`] | the seed's one-action decision engine | [`next_action::Decision`] |
//! | [`edit`] | structured, lossless edits as minimal text patches | [`edit::apply`] |
//! | [`fix`] | quick fixes for diagnostics, safe or unsafe (editors, `lint --fix`) | [`fix::fixes_for`], [`fix::fix_all`] |
//! | [`format`](mod@format) | canonical formatting that keeps every comment | [`format::format`] |
//! | [`graph`] | the drawable graph of a document, its layout, DOT/Mermaid/SVG | [`graph::from_document`], [`graph::layout`] |
//! | [`flow`] | the execution order over every edge kind | [`flow::Flow::of_steps`] |
//! | [`model`] | a typed, lenient view of a LOGIC.md frontmatter | [`model::Spec::read`] |
//! | [`drtl`] | DRTL topologies: parse, validate, their nodes and routes | [`drtl::validate`] |
//! | [`imports`] | import resolution and merging | [`imports::resolve`] |
//! | [`loader`] | how core reaches other files without I/O | [`loader::Loader`], [`loader::MemoryLoader`] |
//! | [`discover`] | palette entries for LOGIC.md files (visual builders) | [`discover::discover`] |
//! | [`expr`] | the `{{ }}` expression language | [`expr::Template`], [`expr::eval_str`] |
//! | [`trees`] | walking a decision tree on an input | [`trees::eval_tree`] |
//! | [`share`] | share links for a document | [`share::encode`], [`share::decode`] |
//! | [`templates`] | starting documents (`logicmd init`) | [`templates::TEMPLATES`], [`templates::render`] |
//! | [`diff`](mod@diff) | a semantic diff of two documents: nodes added, removed, renamed; fields; edges | [`diff::diff`](fn@diff::diff) |
//! | [`diagnostic`] | problems as values | [`Diagnostic`] |
//! | [`render`] | a diagnostic as rustc-style text with the source line | [`render::render`] |
//! | [`document`] | a parsed LOGIC.md file with spans | [`Document`] |
//! | [`frontmatter`] | splitting a file into frontmatter and body | [`frontmatter::split`] |
//! | [`yaml`] | YAML with a source span on every key and value | [`yaml::parse_file`] |
//! | [`json`] | the spanned YAML tree as JSON; nodes by JSON Pointer | [`json::to_json`], [`json::node_at`] |
//! | [`schema`] | the canonical LOGIC.md JSON Schema and its validator | [`schema::validate`](fn@schema::validate) |
//! | [`source`] | byte offsets ↔ lines, columns and UTF-16 offsets | [`source::LineIndex`] |
//! | [`duration`] | durations as documents write them (`"1m30s"`) | [`duration::parse_duration`] |
//! | [`limits`] | bounds on untrusted input and how sizes are told | [`Limits`] |

// Every public item is documented (units, bases, what `None` means); see docs/decisions.md.
#![deny(missing_docs)]
// Core does no I/O: nothing printed (see also core/clippy.toml for the clock, files, network).
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

pub mod analysis;
pub mod check;
pub mod compile;
pub mod config;
mod contract;
mod dag;
pub mod diagnostic;
pub mod diff;
pub mod discover;
pub mod document;
pub mod drtl;
pub mod duration;
pub mod edit;
pub mod evals;
pub mod expr;
mod fieldpath;
pub mod fix;
pub mod flow;
pub mod format;
pub mod frontmatter;
pub mod graph;
pub mod imports;
pub mod json;
pub mod limits;
pub mod lint;
pub mod loader;
pub mod model;
pub mod next_action;
pub mod render;
pub mod run;
pub mod schema;
pub mod share;
mod sorting;
pub mod source;
pub mod templates;
pub mod trace;
pub mod trees;
pub mod validate;
mod workflow;
pub mod yaml;

pub use diagnostic::{Diagnostic, Severity};
pub use document::{Document, ParsedDocument};
pub use limits::Limits;
pub use validate::{validate, validate_bytes, Report};
