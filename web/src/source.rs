//! The source pane: a plain textarea over a highlighted copy of the text, with line numbers and
//! error lines marked. Typing replaces the text (one undoable change per input event).

use std::collections::HashMap;

use leptos::html;
use leptos::prelude::*;

use crate::analysis::line_start;
use crate::highlight::highlight_line;
use crate::state::Studio;

/// Pixel height of one line; the stylesheet's `--line-height` must match.
const LINE_HEIGHT: f64 = 20.0;

#[component]
pub fn SourceEditor(textarea: NodeRef<html::Textarea>) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let highlight = NodeRef::<html::Pre>::new();
    let gutter = NodeRef::<html::Pre>::new();

    let problems = Memo::new(move |_| {
        studio.analysis.with(|a| {
            let mut by_line: HashMap<usize, String> = HashMap::new();
            for d in a.diagnostics.iter().filter(|d| d.line > 0) {
                by_line
                    .entry(d.line as usize)
                    .or_insert_with(|| d.message.clone());
            }
            by_line
        })
    });
    let lines = Memo::new(move |_| {
        let problems = problems.get();
        studio.text.with(|t| {
            t.split('\n')
                .enumerate()
                .map(|(i, line)| (i, line.to_owned(), problems.get(&(i + 1)).cloned()))
                .collect::<Vec<_>>()
        })
    });
    let line_count = Memo::new(move |_| lines.with(Vec::len));
    let numbers = move || {
        (1..=line_count.get())
            .map(|n| format!("{n}\n"))
            .collect::<String>()
    };

    // Keep the textarea in step with the text when it changes elsewhere (canvas, undo), without
    // touching it while it already shows the text (that would move the caret).
    Effect::new(move |_| {
        let text = studio.text.get();
        if let Some(area) = textarea.get() {
            if area.value() != text {
                area.set_value(&text);
            }
        }
    });

    let sync_scroll = move |_| {
        if let Some(area) = textarea.get_untracked() {
            if let Some(pre) = highlight.get_untracked() {
                pre.set_scroll_top(area.scroll_top());
                pre.set_scroll_left(area.scroll_left());
            }
            if let Some(pre) = gutter.get_untracked() {
                pre.set_scroll_top(area.scroll_top());
            }
        }
    };

    view! {
        <div class="source" style=format!("--line-height: {LINE_HEIGHT}px")>
            <pre class="gutter" node_ref=gutter aria-hidden="true">{numbers}</pre>
            <div class="code">
                <pre class="highlight" node_ref=highlight aria-hidden="true">
                    <For
                        each=move || lines.get()
                        key=|line| line.clone()
                        children=|(_, line, problem)| {
                            let segments = highlight_line(&line)
                                .into_iter()
                                .map(|(token, text)| view! { <span class=token.class()>{text}</span> })
                                .collect_view();
                            let marked = problem.is_some();
                            view! {
                                <div class="line" class:has-problem=marked title=problem.unwrap_or_default()>
                                    {segments}"\u{200b}"
                                </div>
                            }
                        }
                    />
                </pre>
                <textarea
                    data-testid="source"
                    node_ref=textarea
                    spellcheck="false"
                    autocapitalize="off"
                    autocomplete="off"
                    wrap="off"
                    aria-label="LOGIC.md source"
                    on:input=move |ev| studio.replace_text(event_target_value(&ev))
                    on:scroll=sync_scroll
                ></textarea>
            </div>
        </div>
    }
}

/// Selects 1-based `line` in the textarea and scrolls it into view.
pub fn reveal_line(textarea: NodeRef<html::Textarea>, text: &str, line: u32) {
    let Some(area) = textarea.get_untracked() else {
        return;
    };
    let start = line_start(text, line).unwrap_or(0);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let utf16 = |bytes: usize| text[..bytes].encode_utf16().count() as u32;
    let _ = area.focus();
    let _ = area.set_selection_range(utf16(start), utf16(end));
    let top = (f64::from(line.saturating_sub(1)) * LINE_HEIGHT
        - f64::from(area.client_height()) / 3.0)
        .max(0.0);
    area.set_scroll_top(top as i32);
}
