//! Quick fixes where the problems are: a button per fix on an item of the problems list, and a
//! marker in the gutter on each line that has one (it opens the line's fix menu).

use leptos::prelude::*;
use logicmd::diagnostic::Diagnostic;
use logicmd::source::{LineIndex, Span};

use super::caret;
use crate::source::pane::{SourcePane, PAD};
use crate::source::LINE_HEIGHT;
use crate::state::Studio;

/// The fixes of problem `d` (same code, same place), as buttons.
#[component]
pub fn FixButtons(diagnostic: Diagnostic, source: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let assist = super::floating();
    let span = diagnostic.span;
    let code = diagnostic.code.clone();
    move || {
        let fixes = assist.fixable.with(|all| {
            all.iter()
                .filter(|f| f.diagnostic == span && f.code.as_deref() == Some(&code))
                .cloned()
                .collect::<Vec<_>>()
        });
        fixes
            .into_iter()
            .map(|fix| {
                let title = fix.title.clone();
                view! {
                    <button class="quick-fix" data-testid="quick-fix"
                        on:click=move |_| assist.apply_fix(studio, source, &fix)>
                        {bulb()}{title}
                    </button>
                }
            })
            .collect_view()
    }
}

/// The quick-fix mark: a light bulb (drawn, so that it shows without an emoji font).
pub fn bulb() -> impl IntoView {
    view! {
        <svg class="bulb" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
            <path d="M8 1.5a4.5 4.5 0 0 0-2.6 8.2V11.5h5.2V9.7A4.5 4.5 0 0 0 8 1.5zM5.8 12.5h4.4V14H5.8z" />
        </svg>
    }
}

/// The 0-based lines with a quick fix, and the first fixed problem's start on each.
fn fixed_lines(text: &str, index: &LineIndex, fixes: &[super::QuickFix]) -> Vec<(usize, usize)> {
    let mut lines: Vec<(usize, usize)> = fixes
        .iter()
        .filter_map(|f| f.diagnostic)
        .map(|s| (index.line_of(s.start.min(text.len())), s.start))
        .collect();
    lines.sort_unstable();
    lines.dedup_by_key(|(line, _)| *line);
    lines
}

/// Markers over the gutter, scrolled with it (`scroll_top`: the pane's scroll position).
#[component]
pub fn GutterMarkers(source: SourcePane, scroll_top: RwSignal<f64>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let assist = super::floating();
    let lines = Memo::new(move |_| {
        assist.fixable.with(|fixes| {
            studio
                .text
                .with_untracked(|t| fixed_lines(t, &LineIndex::new(t), fixes))
        })
    });
    let open = move |at: usize| {
        studio.text.with_untracked(|t| {
            if !caret::select(source, t, Span::new(at, at)) {
                let index = LineIndex::new(t);
                source.reveal(t, &index, index.line_of(at) as u32 + 1);
                let _ = caret::select(source, t, Span::new(at, at));
            }
        });
        assist.open_fixes(studio, source);
    };
    view! {
        <div class="fix-markers">
        <div class="fix-markers-moving" style=move || format!("top: {}px", -scroll_top.get())>
            <For each=move || lines.get() key=|l| *l children=move |(line, at)| view! {
                <button class="fix-marker" data-testid="fix-marker" data-line=line + 1
                    title=format!("Quick fixes for line {}", line + 1)
                    aria-label=format!("Quick fixes for line {}", line + 1)
                    style=format!("top: {}px", PAD + line as f64 * LINE_HEIGHT)
                    on:mousedown=|ev| ev.prevent_default()
                    on:click=move |_| open(at)>{bulb()}</button>
            } />
        </div>
        </div>
    }
}
