//! Invariants of the editor layer, over generated documents:
//! - a file edited change by change (the incremental reparse, cached analyses) has exactly the
//!   diagnostics of the same text opened afresh;
//! - a rename leaves a document that parses, with as many references to the new name as there
//!   were to the old one and none left to the old one.

use logicmd::source::Span;
use logicmd_ide::files::MemoryFiles;
use logicmd_ide::symbols::SymbolKind;
use logicmd_ide::{rename, Workspace};
use proptest::prelude::*;

const ID: &str = "p.logic.md";

/// A document of `steps.len()` steps; step i needs the steps listed, and its check reads the
/// step named by `reads`.
fn document(steps: &[(Vec<usize>, Option<usize>)]) -> String {
    let mut text = String::from("---\nspec_version: \"1.0\"\nname: p\nsteps:\n");
    for (i, (needs, reads)) in steps.iter().enumerate() {
        text.push_str(&format!("  s{i}:\n    description: Step number {i}\n"));
        let needs: Vec<String> = needs
            .iter()
            .filter(|n| **n < steps.len())
            .map(|n| format!("s{n}"))
            .collect();
        if !needs.is_empty() {
            text.push_str(&format!("    needs: [{}]\n", needs.join(", ")));
        }
        if let Some(read) = reads {
            text.push_str(&format!(
                "    verification:\n      check: \"{{{{ steps.s{}.output.ok == true }}}}\"\n",
                read % steps.len()
            ));
        }
    }
    text.push_str("---\n# Body\n");
    text
}

fn steps() -> impl Strategy<Value = Vec<(Vec<usize>, Option<usize>)>> {
    prop::collection::vec(
        (
            prop::collection::vec(0usize..8, 0..3),
            prop::option::of(0usize..8),
        ),
        1..6,
    )
}

/// An edit: at a fraction of the text, delete up to 2 characters and insert one of a few.
fn edits() -> impl Strategy<Value = Vec<(f64, usize, usize)>> {
    prop::collection::vec((0.0f64..1.0, 0usize..3, 0usize..6), 1..12)
}

const INSERTS: [&str; 6] = ["x", " ", "\n", ":", "s1", "{"];

fn fresh(text: &str) -> Vec<logicmd::Diagnostic> {
    let mut workspace = Workspace::new(MemoryFiles::new().shared());
    workspace.open(ID, text.to_owned());
    workspace.raw_diagnostics(ID).to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn edited_change_by_change_equals_opened_afresh(steps in steps(), edits in edits()) {
        let mut text = document(&steps);
        let mut workspace = Workspace::new(MemoryFiles::new().shared());
        workspace.open(ID, text.clone());
        workspace.raw_diagnostics(ID);
        for (at, delete, insert) in edits {
            let mut start = ((text.len() as f64) * at) as usize;
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + delete).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            let inserted = INSERTS[insert];
            workspace.edit(ID, Span::new(start, end), inserted).expect("inside the text");
            text.replace_range(start..end, inserted);
            let current = workspace.text(ID).map(|t| t.to_string());
            prop_assert_eq!(current.as_deref(), Some(text.as_str()));
            prop_assert_eq!(workspace.raw_diagnostics(ID).to_vec(), fresh(&text));
        }
    }

    #[test]
    fn a_rename_moves_every_reference(steps in steps(), which in 0usize..6) {
        let text = document(&steps);
        let mut workspace = Workspace::new(MemoryFiles::new().shared());
        workspace.open(ID, text.clone());
        let file = workspace.analysis(ID).expect("parsed");
        let step_defs: Vec<_> = file.symbols().definitions.iter().filter(|d| d.kind == SymbolKind::Step).cloned().collect();
        let target = &step_defs[which % step_defs.len()];
        let before = file.symbols().references_to(target).count();
        let edit = rename::rename(&mut workspace, ID, target.span.start, "renamed_step").expect("renamed");
        let mut after = text.clone();
        for e in edit.changes[0].1.iter().rev() {
            after.replace_range(e.span.start..e.span.end, &e.text);
        }
        let mut check = Workspace::new(MemoryFiles::new().shared());
        check.open(ID, after.clone());
        let renamed = check.analysis(ID).expect("parsed");
        prop_assert!(renamed.parsed.is_some(), "{}", after);
        let symbols = renamed.symbols();
        let new_def = symbols.definition(SymbolKind::Step, "renamed_step").expect("the new name is defined");
        prop_assert_eq!(symbols.references_to(new_def).count(), before);
        prop_assert!(symbols.references.iter().all(|r| r.name != target.name), "{}", after);
    }
}
