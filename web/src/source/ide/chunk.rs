//! The chunk's side of [`super::Ide`]: one `logicmd_ide::Workspace` holding the studio's
//! document (under the id its kind gives it, beside the bundled files its imports resolve to),
//! brought up to date before each query, and the answers converted to the studio's values.

use std::cell::RefCell;

use leptos::prelude::*;
use logicmd::analysis::{detect, Kind};
use logicmd::diagnostic::Diagnostic;
use logicmd::source::{LineIndex, Span};
use logicmd_ide::completion::ItemKind;
use logicmd_ide::files::MemoryFiles;
use logicmd_ide::{TextEdit, Workspace, WorkspaceEdit};

use super::{Assistance, Command, Completion, HoverCard, Ide, QuickFix};
use crate::analysis::BUNDLED;
use crate::source::assist::{
    caret, floating, CompletionPopup, FixButtons, FixMenuView, GutterMarkers, HoverCardView,
    RenameBox,
};
use crate::source::pane::SourcePane;
use crate::state::Studio;

pub(super) struct Chunk;

/// How long the pointer rests before the hover card shows.
const HOVER_MS: u64 = 350;

thread_local! {
    static HOVER_TIMER: std::cell::Cell<Option<leptos::leptos_dom::helpers::TimeoutHandle>> =
        const { std::cell::Cell::new(None) };
}

thread_local! {
    static WORKSPACE: RefCell<Workspace> = RefCell::new(Workspace::new(
        BUNDLED
            .iter()
            .fold(MemoryFiles::new(), |files, (path, text)| files.with(path, text))
            .shared(),
    ));
}

/// The assistance's stylesheet, added to the page once: it comes with the code that draws what
/// it styles, not in the first download.
pub(super) fn install_styles() {
    const ID: &str = "source-assist-styles";
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document
        .query_selector(&format!("#{ID}"))
        .ok()
        .flatten()
        .is_some()
    {
        return;
    }
    let head = document.query_selector("head").ok().flatten();
    if let (Ok(style), Some(head)) = (document.create_element("style"), head) {
        let _ = style.set_attribute("id", ID);
        style.set_inner_html(include_str!("../../../../styles/source-assist.css"));
        let _ = head.append_child(&style);
    }
}

/// The document's id: its kind decides, as the studio's analysis detects it from the text.
fn id_of(text: &str) -> &'static str {
    match detect(text, None) {
        Kind::Drtl => "document.drtl.yaml",
        _ => crate::analysis::DOCUMENT_ID,
    }
}

/// Runs `query` on the workspace holding `text` as the document.
fn with_text<R>(text: &str, query: impl FnOnce(&mut Workspace, &str) -> R) -> R {
    WORKSPACE.with(|workspace| {
        let mut workspace = workspace.borrow_mut();
        let id = id_of(text);
        for open in workspace.open_files() {
            if open != id {
                workspace.close(&open);
            }
        }
        if workspace.text(id).as_deref() != Some(text) {
            workspace.open(id, text.to_owned());
        }
        query(&mut workspace, id)
    })
}

fn kind_name(kind: ItemKind) -> &'static str {
    match kind {
        ItemKind::Property => "property",
        ItemKind::Value => "value",
        ItemKind::Reference => "reference",
        ItemKind::Variable => "variable",
        ItemKind::Field => "field",
        ItemKind::Method => "method",
        ItemKind::Operator => "operator",
        ItemKind::File => "file",
        ItemKind::Folder => "folder",
        ItemKind::Rule => "rule",
    }
}

/// `text` with the edits of file `id` in `edit` applied (they are sorted and disjoint).
fn applied(text: &str, id: &str, edit: &WorkspaceEdit) -> String {
    let mut out = text.to_owned();
    let edits: Vec<&TextEdit> = edit
        .changes
        .iter()
        .filter(|(file, _)| file == id)
        .flat_map(|(_, edits)| edits)
        .collect();
    for edit in edits.into_iter().rev() {
        out.replace_range(edit.span.start..edit.span.end, &edit.text);
    }
    out
}

impl Ide for Chunk {
    fn completion(&self, text: &str, offset: usize) -> Vec<Completion> {
        with_text(text, |workspace, id| {
            let items = logicmd_ide::completion::completion(workspace, id, offset);
            // The popup asks again at every keystroke: the shortlist is complete for the word.
            let (items, _) =
                logicmd_ide::shortlist::shortlist(items, text, logicmd_ide::shortlist::MAX_ITEMS);
            items
                .into_iter()
                .map(|item| Completion {
                    label: item.label,
                    kind: kind_name(item.kind),
                    detail: item.detail,
                    documentation: item.documentation,
                    insert: item.insert,
                    replace: item.replace,
                })
                .collect()
        })
    }

    fn hover(&self, text: &str, offset: usize) -> Option<HoverCard> {
        with_text(text, |workspace, id| {
            logicmd_ide::hover::hover(workspace, id, offset).map(|hover| HoverCard {
                markdown: hover.markdown,
                span: hover.span,
            })
        })
    }

    fn definition(&self, text: &str, offset: usize) -> Option<Span> {
        with_text(text, |workspace, id| {
            logicmd_ide::navigation::definition(workspace, id, offset)
                .into_iter()
                .find(|location| location.file == id)
                .map(|location| location.span)
        })
    }

    fn fixes(&self, text: &str, range: Span) -> Vec<QuickFix> {
        with_text(text, |workspace, id| {
            logicmd_ide::actions::code_actions(workspace, id, range)
                .into_iter()
                .map(|action| QuickFix {
                    text: applied(text, id, &action.edit),
                    title: action.title,
                    code: action.code,
                    diagnostic: action.diagnostic,
                    preferred: action.preferred,
                })
                .filter(|fix| fix.text != text)
                .collect()
        })
    }

    fn prepare_rename(&self, text: &str, offset: usize) -> Result<(Span, String), String> {
        with_text(text, |workspace, id| {
            logicmd_ide::rename::prepare_rename(workspace, id, offset)
        })
    }

    fn rename(&self, text: &str, offset: usize, to: &str) -> Result<String, String> {
        with_text(text, |workspace, id| {
            logicmd_ide::rename::rename(workspace, id, offset, to)
                .map(|edit| applied(text, id, &edit))
        })
    }
}

impl Assistance for Chunk {
    fn on_key(&self, studio: Studio, pane: SourcePane, ev: &web_sys::KeyboardEvent) -> bool {
        floating().on_key(studio, pane, ev)
    }

    fn command(&self, studio: Studio, pane: SourcePane, command: Command) {
        let assist = floating();
        match command {
            Command::Complete => assist.complete(studio, pane, true),
            Command::Fixes => assist.open_fixes(studio, pane),
            Command::Definition => assist.go_to_definition(studio, pane),
            Command::Rename => assist.start_rename(studio, pane),
        }
    }

    fn after_input(
        &self,
        studio: Studio,
        pane: SourcePane,
        input_type: Option<&str>,
        data: Option<&str>,
    ) {
        floating().after_input(studio, pane, input_type, data);
    }

    fn pointer(&self, studio: Studio, pane: SourcePane, x: i32, y: i32) {
        if let Some(pending) = HOVER_TIMER.with(|t| t.take()) {
            pending.clear();
        }
        if x < 0 {
            floating().card.set(None);
            return;
        }
        let rest = move || {
            let (x, y, ch) = (f64::from(x), f64::from(y), pane.ch());
            let at = studio
                .text
                .with_untracked(|t| caret::at_point(pane, t, &LineIndex::new(t), x, y, ch));
            match at {
                Some(at) => floating().hover_at(studio, at),
                None => floating().card.set(None),
            }
        };
        let handle = set_timeout_with_handle(rest, std::time::Duration::from_millis(HOVER_MS));
        HOVER_TIMER.with(|t| t.set(handle.ok()));
    }

    fn refresh_fixable(&self, text: &str) {
        floating().refresh_fixable(text);
    }

    fn overlays(&self, pane: SourcePane) -> AnyView {
        let assist = floating();
        // The textarea's ARIA attributes follow the floating views.
        Effect::new(move |_| assist.describe(pane));
        view! {
            <CompletionPopup assist=assist pane=pane />
            <FixMenuView assist=assist pane=pane />
            <HoverCardView assist=assist pane=pane />
            <RenameBox assist=assist pane=pane />
        }
        .into_any()
    }

    fn gutter(&self, pane: SourcePane, scroll_top: RwSignal<f64>) -> AnyView {
        view! { <GutterMarkers source=pane scroll_top=scroll_top /> }.into_any()
    }

    fn fix_buttons(&self, diagnostic: Diagnostic, pane: SourcePane) -> AnyView {
        view! { <FixButtons diagnostic=diagnostic source=pane /> }.into_any()
    }

    fn close_lists(&self) {
        floating().popup.set(None);
        floating().fix_menu.set(None);
    }

    fn close_card(&self) {
        floating().card.set(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "---\nspec_version: \"1.0\"\nname: t\nsteps:\n  gather: {}\n  analyze:\n    needs: [gathr]\n---\n";

    #[test]
    fn a_typo_in_needs_is_fixed_by_the_same_fix_the_lsp_offers() {
        let at = DOC.find("gathr").expect("typo");
        let fixes = Chunk.fixes(DOC, Span::new(at, at + 5));
        let fix = fixes.iter().find(|f| f.preferred).expect("a preferred fix");
        assert_eq!(fix.code.as_deref(), Some("unknown-need"));
        assert_eq!(fix.text, DOC.replace("[gathr]", "[gather]"));
    }

    #[test]
    fn needs_completes_step_names_and_definition_finds_the_step() {
        let doc = DOC.replace("[gathr]", "[]");
        let at = doc.find("[]").expect("list") + 1;
        let labels: Vec<String> = Chunk
            .completion(&doc, at)
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert!(labels.contains(&"gather".to_owned()), "{labels:?}");
        let fixed = DOC.replace("[gathr]", "[gather]");
        let reference = fixed.rfind("gather").expect("reference");
        let span = Chunk
            .definition(&fixed, reference + 1)
            .expect("a definition");
        assert_eq!(&fixed[span.start..span.end], "gather");
        assert_eq!(span.start, fixed.find("gather").expect("definition"));
    }

    #[test]
    fn an_open_list_in_needs_completes_from_the_last_text_that_parsed() {
        let good = DOC.replace("    needs: [gathr]\n", "    needs: \n");
        // The pane lists the fixes after each check: the workspace has seen the text parse.
        let listed = Chunk.fixes(&good, Span::new(0, good.len()));
        assert!(listed.iter().all(|f| f.text != good), "{listed:?}");
        let typed = good.replace("    needs: \n", "    needs: [\n");
        let at = typed.find("needs: [").expect("list") + 8;
        let labels: Vec<String> = Chunk
            .completion(&typed, at)
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert!(labels.contains(&"gather".to_owned()), "{labels:?}");
    }

    #[test]
    fn a_topology_is_answered_as_drtl() {
        let route = "name: t\nnodes:\n  - id: draft\n    type: generate\n  - id: gate\n    type: gate\n    condition: input.ok\n    on_pass: \n";
        let at = route.len() - 1;
        let labels: Vec<String> = Chunk
            .completion(route, at)
            .into_iter()
            .map(|c| c.label)
            .collect();
        assert_eq!(labels, ["draft", "gate", "terminate"]);
    }

    #[test]
    fn rename_rewrites_the_step_and_its_references() {
        let fixed = DOC.replace("[gathr]", "[gather]");
        let at = fixed.find("gather").expect("definition");
        assert_eq!(
            Chunk.prepare_rename(&fixed, at + 1),
            Ok((Span::new(at, at + 6), "gather".to_owned()))
        );
        let renamed = Chunk.rename(&fixed, at + 1, "collect").expect("renamed");
        assert_eq!(renamed, fixed.replace("gather", "collect"));
    }
}
