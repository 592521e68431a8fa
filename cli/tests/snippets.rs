//! Source snippets in human output: long lines are cut around the caret, wide characters keep
//! the caret under its character.

mod harness;

use harness::{run_in, stdout, Scratch};

#[test]
fn long_and_wide_lines_in_human_output() {
    let scratch = Scratch::new("snippets");
    let text = format!(
        "---\nspec_version: \"1.0\"\nname: s\nsteps:\n  a:\n    description: \"{}\"\n    needs: [{}ghost]\n  b: {{description: 検索結果を要約する, neds: []}}\n---\n",
        "A long description. ".repeat(12),
        "a, ".repeat(60),
    );
    scratch.write("s.logic.md", text);
    let out = run_in(&scratch.0, &["lint", "s.logic.md"], None);
    insta::assert_snapshot!("long_and_wide_lines", stdout(&out));
}
