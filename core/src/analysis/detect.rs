//! Which kind of document a text is: the one detector every caller uses.

use serde::Serialize;

/// The two document kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A LOGIC.md file: YAML frontmatter between `---` lines, then markdown.
    Logic,
    /// A DRTL topology: a plain YAML file with `nodes` (and usually `edges`).
    Drtl,
}

impl Kind {
    /// The lowercase name: `logic` or `drtl`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Logic => "logic",
            Kind::Drtl => "drtl",
        }
    }
}

/// The kind of `text`, read from `path` when it names one, else from the text.
///
/// 1. `*.drtl.yaml` / `*.drtl.yml` is a topology; `*.md` (`LOGIC.md`, `*.logic.md`,
///    `.logic/index.md`) is LOGIC.md.
/// 2. Otherwise a text whose first line (after a byte-order mark) is `---` has frontmatter: LOGIC.md.
/// 3. Otherwise a text with a top-level `nodes:` key is a topology.
/// 4. Anything else is read as LOGIC.md, whose diagnostics then say that the frontmatter is
///    missing, which is what a user who meant either kind most needs to hear.
pub fn detect(text: &str, path: Option<&str>) -> Kind {
    if let Some(path) = path {
        if crate::drtl::is_drtl_path(path) {
            return Kind::Drtl;
        }
        if path.ends_with(".md") {
            return Kind::Logic;
        }
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let first_line = text.lines().next().unwrap_or_default();
    if first_line.trim_end_matches([' ', '\t', '\r']) == "---" {
        return Kind::Logic;
    }
    let top_level_nodes = text.lines().any(|line| {
        line.strip_prefix("nodes:")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '#', '\r']))
    });
    if top_level_nodes {
        Kind::Drtl
    } else {
        Kind::Logic
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_decides_when_it_names_a_kind() {
        assert_eq!(
            detect("nodes:\n  - id: a\n", Some("x.logic.md")),
            Kind::Logic
        );
        assert_eq!(
            detect("---\na: 1\n---\n", Some("flow.drtl.yaml")),
            Kind::Drtl
        );
        assert_eq!(detect("", Some("LOGIC.md")), Kind::Logic);
    }

    #[test]
    fn otherwise_frontmatter_then_a_top_level_nodes_key() {
        assert_eq!(
            detect("\u{feff}---\r\nname: x\r\n---\r\n", None),
            Kind::Logic
        );
        assert_eq!(detect("---  \nnodes: {}\n---\n", Some("-")), Kind::Logic);
        assert_eq!(detect("name: t\nnodes:\n  - id: a\n", None), Kind::Drtl);
        assert_eq!(
            detect("nodes: # the nodes\n  - id: a\n", Some("flow.yaml")),
            Kind::Drtl
        );
        assert_eq!(detect("name: t\n  nodes:\n", None), Kind::Logic);
        assert_eq!(detect("name: t\nnodes_extra: 1\n", None), Kind::Logic);
        assert_eq!(detect("", None), Kind::Logic);
    }
}
