//! Semantic tokens lie on one line, inside it, and are the same whether the document's lines end
//! in LF or CRLF (a token at a line's end once took the `\r` with it).

use logicmd_ide::files::MemoryFiles;
use logicmd_ide::tokens::{semantic_tokens, SemanticToken};
use logicmd_ide::Workspace;
use proptest::prelude::*;

const ID: &str = "t.logic.md";

/// Each token as (line, column, its text), with its kind: what an editor is shown.
fn placed(text: &str) -> Vec<(usize, usize, String, u32)> {
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open(ID, text.to_owned());
    let file = workspace.analysis(ID).expect("opened");
    let index = logicmd::source::LineIndex::new(text);
    semantic_tokens(&file)
        .into_iter()
        .map(|SemanticToken { span, kind, .. }| {
            let line = index.line_of(span.start);
            let column = span.start - index.line_start(line).expect("a line");
            (line, column, text[span.start..span.end].to_owned(), kind)
        })
        .collect()
}

/// A check written in `style` whose expression ends its lines with an operator and `}}`.
fn document(style: usize, operator: &str, tail: &str) -> String {
    let check = match style {
        0 => format!(
            "      check: >-\n        {{{{ steps.a.output.x {operator}\n           1 {tail}}}}}\n"
        ),
        1 => {
            format!("      check: |\n        {{{{ steps.a.output.y {operator}\n           2 }}}}\n")
        }
        2 => format!("      check: \"{{{{ steps.a.output.z {operator}\n        3 }}}}\"\n"),
        3 => format!("      check: '{{{{ steps.a.output.z {operator}\n        3 }}}}'\n"),
        _ => format!("      check: true && {{{{ steps.a.output.z {operator}\n        3 }}}}\n"),
    };
    format!(
        "---\nspec_version: \"1.0\"\nname: x\nsteps:\n  a:\n    description: A\n  b:\n    needs: [a]\n    verification:\n{check}      on_fail: retry\n---\nBody {{{{ steps.a.output }}}}\n"
    )
}

fn assert_on_their_lines(text: &str, tokens: &[(usize, usize, String, u32)]) {
    for (line, column, written, _) in tokens {
        assert!(
            !written.contains(['\r', '\n']) && !written.is_empty(),
            "token {written:?} at {line}:{column} of {text:?}"
        );
    }
}

#[test]
fn a_token_at_a_crlf_line_end_stops_before_the_line_break() {
    for style in 0..5 {
        let lf = document(style, ">", "");
        let crlf = lf.replace('\n', "\r\n");
        let (lf_tokens, crlf_tokens) = (placed(&lf), placed(&crlf));
        assert!(
            lf_tokens.iter().any(|t| t.2 == ">"),
            "style {style}: {lf_tokens:?}"
        );
        assert_on_their_lines(&crlf, &crlf_tokens);
        assert_eq!(lf_tokens, crlf_tokens, "style {style}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn lf_and_crlf_documents_get_the_same_tokens(
        style in 0usize..5,
        operator in prop::sample::select(vec![">", "&&", "==", "||", "+", "<="]),
        tail in prop::sample::select(vec!["", "&& true ", "== 'é' ", "|| \"😀\" "]),
    ) {
        let lf = document(style, operator, tail);
        let crlf = lf.replace('\n', "\r\n");
        let (lf_tokens, crlf_tokens) = (placed(&lf), placed(&crlf));
        assert_on_their_lines(&lf, &lf_tokens);
        assert_on_their_lines(&crlf, &crlf_tokens);
        prop_assert_eq!(lf_tokens, crlf_tokens);
    }
}
