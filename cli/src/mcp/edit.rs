//! `edit`: structured, comment-keeping edits through `logicmd::edit::apply`, in the order
//! given; the first one refused stops the rest (as `logicmd edit`).

use logicmd::edit::{apply, Edit};
use logicmd::source::utf16_offset;
use logicmd::Diagnostic;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::schemas::{DiagnosticSchema, EditSchema, PatchSchema};
use super::source::Source;
use super::tools::{tool, Misuse, ToolDef};

#[derive(Deserialize, JsonSchema)]
pub struct EditArgs {
    #[serde(flatten)]
    source: Source,
    /// The edits, applied one after another.
    #[schemars(with = "Vec<EditSchema>")]
    edits: Vec<Edit>,
}

#[derive(Serialize, JsonSchema)]
pub struct Edited {
    /// Every edit applied; `false` when one was refused (then nothing changed).
    applied: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    /// The new text (the original when an edit was refused). Nothing is written to a file.
    text: String,
    /// The changes against the original text, sorted and disjoint (empty when nothing changed).
    #[schemars(with = "Vec<PatchSchema>")]
    patches: Vec<logicmd::edit::TextPatch>,
    /// The edits that restore the original text, in the order to apply them.
    #[schemars(with = "Vec<EditSchema>")]
    inverse: Vec<Edit>,
    /// Consequences worth knowing (for example branches left pointing at a removed step).
    notes: Vec<String>,
    /// Problems of the new text (parse and schema), or the refusal: which edit (`edits/N`) and
    /// why.
    #[schemars(with = "Vec<DiagnosticSchema>")]
    diagnostics: Vec<Diagnostic>,
}

pub fn edit() -> ToolDef {
    tool(
        "edit",
        "Edit",
        "Edit a document structurally (as `logicmd edit`): set, remove, insert, add, remove or \
         rename steps, connect and disconnect, DRTL nodes and routes. Comments and formatting are \
         kept; an edit that would break the document is refused with the reason. Returns the new \
         text and the patches; writes nothing.",
        |context, args: EditArgs| {
            if args.edits.is_empty() {
                return Err(Misuse(
                    "`edits` is empty: give at least one edit".to_owned(),
                ));
            }
            let loaded = args.source.load(&context.roots)?;
            let original = loaded.text().map_err(|problem| Misuse(problem.message))?;
            let mut current = original.to_owned();
            let mut patches = Vec::new();
            let mut inverse = Vec::new();
            let mut notes = Vec::new();
            let mut diagnostics = Vec::new();
            for (index, edit) in args.edits.iter().enumerate() {
                match apply(&current, edit) {
                    Ok(applied) => {
                        current = applied.text;
                        patches = applied.patches;
                        inverse.insert(0, applied.inverse);
                        notes.extend(applied.notes);
                        diagnostics = applied.diagnostics;
                    }
                    Err(mut refusal) => {
                        refusal.message = format!("edits/{index} refused: {}", refusal.message);
                        return Ok(Edited {
                            applied: false,
                            file: loaded.name.clone(),
                            text: original.to_owned(),
                            patches: Vec::new(),
                            inverse: Vec::new(),
                            notes,
                            diagnostics: vec![refusal],
                        });
                    }
                }
            }
            if args.edits.len() > 1 {
                patches = one_patch(original, &current).into_iter().collect();
            }
            Ok(Edited {
                applied: true,
                file: loaded.name.clone(),
                text: current,
                patches,
                inverse,
                notes,
                diagnostics,
            })
        },
    )
}

/// The smallest single patch from `from` to `to` (common prefix and suffix kept), or `None`
/// when they are the same: several edits' patches against the original text.
fn one_patch(from: &str, to: &str) -> Option<logicmd::edit::TextPatch> {
    if from == to {
        return None;
    }
    let prefix = from
        .char_indices()
        .zip(to.chars())
        .find(|((_, a), b)| a != b)
        .map_or(from.len().min(to.len()), |((i, _), _)| i);
    let (fb, tb) = (from.as_bytes(), to.as_bytes());
    let most = (from.len() - prefix).min(to.len() - prefix);
    let mut suffix = 0;
    while suffix < most && fb[fb.len() - 1 - suffix] == tb[tb.len() - 1 - suffix] {
        suffix += 1;
    }
    while suffix > 0
        && (!from.is_char_boundary(from.len() - suffix) || !to.is_char_boundary(to.len() - suffix))
    {
        suffix -= 1;
    }
    let end = from.len() - suffix;
    Some(logicmd::edit::TextPatch {
        start: prefix,
        end,
        start_utf16: utf16_offset(from, prefix),
        end_utf16: utf16_offset(from, end),
        text: to[prefix..to.len() - suffix].to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::one_patch;

    #[test]
    fn one_patch_turns_the_original_into_the_result() {
        for (from, to) in [
            ("abc", "abXc"),
            ("héllo", "hallo"),
            ("aaa", "aa"),
            ("", "x"),
        ] {
            let patch = one_patch(from, to).unwrap();
            let mut rebuilt = from[..patch.start].to_owned();
            rebuilt.push_str(&patch.text);
            rebuilt.push_str(&from[patch.end..]);
            assert_eq!(rebuilt, to);
        }
        assert!(one_patch("same", "same").is_none());
    }
}
