//! # logicmd
//!
//! Parse, validate, compile, edit and check LOGIC.md reasoning specifications (spec v1.0) and
//! DRTL topologies. Pure Rust: no file system, network or platform code; callers do the I/O.
//!
//! ```
//! let report = logicmd::validate("---\nspec_version: \"1.0\"\nname: demo\n---\n");
//! assert!(report.valid);
//! ```

// Core does no I/O: nothing printed (see also core/clippy.toml for the clock, files, network).
#![deny(clippy::print_stdout, clippy::print_stderr, clippy::dbg_macro)]
#![deny(clippy::disallowed_methods, clippy::disallowed_types)]

pub mod analysis;
pub mod check;
pub mod compile;
pub mod contract;
pub mod dag;
pub mod diagnostic;
pub mod discover;
pub mod document;
pub mod drtl;
pub mod duration;
pub mod edit;
pub mod expr;
pub mod fieldpath;
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
pub mod source;
pub mod trace;
pub mod trees;
pub mod validate;
pub mod workflow;
pub mod yaml;

pub use diagnostic::{Diagnostic, Severity};
pub use document::{Document, Parsed};
pub use limits::Limits;
pub use validate::{validate, validate_bytes, Report};
