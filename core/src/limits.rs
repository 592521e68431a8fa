//! Bounds on untrusted input: every stage that could be made to do unbounded work checks one.

/// Resource limits for parsing and evaluating untrusted documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted file, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of YAML collections.
    pub max_depth: usize,
    /// Most YAML nodes a document may produce, counting every node an alias expands to.
    pub max_nodes: usize,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_bytes: 8 * 1024 * 1024,
        max_depth: 64,
        max_nodes: 250_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
