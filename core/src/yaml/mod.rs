//! YAML 1.2 (core schema) parsing into a tree where every key and value carries its source span.

mod builder;
mod node;
mod scalar;

pub(crate) use builder::build;
pub use node::{Entry, Node, NodeValue, ScalarStyle};
pub use scalar::resolve_plain;
