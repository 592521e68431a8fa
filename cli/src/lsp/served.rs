//! Which open documents the server answers for. Editors attach it to every Markdown and YAML
//! file (the README's Neovim and Helix settings do), so a README, a blog post with its own
//! frontmatter or a CI workflow must get nothing from it: a file is LOGIC.md or DRTL by its
//! name (as the file watchers name them), or by what it says it is.

/// Whether the document `id` (a path-like id) holding `text` is LOGIC.md or DRTL.
pub fn served(id: &str, text: &str) -> bool {
    let name = id.rsplit('/').next().unwrap_or(id);
    let lower = name.to_ascii_lowercase();
    if logicmd_ide::files::is_logic_md_name(id) || logicmd::drtl::is_drtl_path(&lower) {
        return true;
    }
    if lower.ends_with(".md") || lower.ends_with(".markdown") {
        return declares_spec_version(text);
    }
    if lower.ends_with(".yaml") || lower.ends_with(".yml") {
        return logicmd::analysis::detect(text, None) == logicmd::analysis::Kind::Drtl;
    }
    // Neither Markdown nor YAML by name (an editor's own language choice): what it holds.
    declares_spec_version(text)
        || logicmd::analysis::detect(text, None) == logicmd::analysis::Kind::Drtl
}

/// A frontmatter (`---` on the first line) with a top-level `spec_version` key: LOGIC.md's
/// first required field, so a file being written as LOGIC.md is one from its first lines.
fn declares_spec_version(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().map(|l| l.trim_end()) != Some("---") {
        return false;
    }
    lines
        .take_while(|line| !matches!(line.trim_end(), "---" | "..."))
        .any(|line| {
            line.strip_prefix("spec_version")
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
}

#[cfg(test)]
mod tests {
    use super::served;

    #[test]
    fn logic_md_and_drtl_files_are_served_and_other_markdown_and_yaml_are_not() {
        let logic = "---\nspec_version: \"1.0\"\nname: x\n---\n";
        let blog = "---\ntitle: A post\nlayout: post\n---\n# Hello\n";
        let drtl = "name: t\nnodes:\n  - id: a\n    type: agent\n";
        let compose = "services:\n  web:\n    image: nginx\n";
        let cases = [
            ("a.logic.md", "", true),
            ("docs/LOGIC.md", "", true),
            ("p/.logic/helper.md", "", true),
            ("flow.drtl.yaml", "", true),
            ("notes/plan.md", logic, true),
            ("README.md", "# Project\n", false),
            ("docs/guide.md", blog, false),
            ("docs/guide.md", "---\nname: x\n---\n", false),
            ("t.yaml", drtl, true),
            (".github/workflows/ci.yaml", "on: push\njobs: {}\n", false),
            ("docker-compose.yaml", compose, false),
            ("config.yml", "", false),
            ("untitled-1", logic, true),
            ("untitled-2", "plain text", false),
        ];
        for (id, text, expected) in cases {
            assert_eq!(served(id, text), expected, "{id}");
        }
    }
}
