//! The source pane: a plain textarea over a highlighted copy of the text, with line numbers and
//! problems shown on their lines. Only the lines in view (and a margin) are highlighted and
//! numbered, and the textarea holds only a window of lines around the view (`pane`), so a
//! document of any length costs the same to edit and redraw. Typing replaces the text (one
//! undoable change per input event).

use std::collections::HashMap;

use leptos::html;
use leptos::prelude::*;
use logicmd::source::{LineIndex, Span};
use logicmd::Severity as Level;

use crate::highlight::highlight_line;
use crate::history::Splice;
use crate::indent::indent;
use crate::state::Studio;

pub(crate) mod assist;
pub(crate) mod ide;
pub(crate) mod pane;
pub(crate) mod window;

pub use pane::SourcePane;

use ide::Command;

/// Pixel height of one line; the stylesheet's `--line-height` must match.
pub(crate) const LINE_HEIGHT: f64 = 20.0;
/// Lines drawn above and below the visible ones, so that scrolling shows no gap.
const OVERSCAN: usize = 30;

/// A problem shown on its line: the most severe one, and how many others share the line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct LineProblem {
    severity: Level,
    message: String,
    others: usize,
}

/// The line index of `text`: the previous one moved past `typed` when that was the one change
/// since and it added or removed no line (a key typed in a line), else read from the text. The
/// first three bytes are read again (whether the text starts with a byte-order mark moves the
/// first line's start).
fn line_index(previous: Option<LineIndex>, typed: Option<Splice>, text: &str) -> LineIndex {
    match (previous, typed) {
        (Some(mut index), Some(splice)) if !splice.breaks && splice.at >= 3 => {
            let delta = splice.inserted as isize - splice.removed as isize;
            index.edited(Span::new(splice.at, splice.at + splice.removed), delta);
            index
        }
        _ => LineIndex::new(text),
    }
}

/// The 0-based lines `[first, last)` to draw for a pane scrolled to `top` pixels and `height`
/// pixels tall, of `total` lines.
fn drawn_lines(top: f64, height: f64, total: usize) -> (usize, usize) {
    let first_visible = (top.max(0.0) / LINE_HEIGHT).floor() as usize;
    let visible = (height.max(0.0) / LINE_HEIGHT).ceil() as usize + 1;
    let first = first_visible.saturating_sub(OVERSCAN).min(total);
    let last = (first_visible + visible + OVERSCAN).min(total);
    (first, last)
}

#[component]
pub fn SourceEditor(pane: SourcePane) -> impl IntoView {
    let studio = expect_context::<Studio>();
    let textarea = pane.textarea;
    let highlight = NodeRef::<html::Pre>::new();
    let gutter = NodeRef::<html::Pre>::new();
    let scroll_top = RwSignal::new(0.0f64);
    let height = RwSignal::new(0.0f64);
    let measure = move || {
        if let Some(scroller) = pane.scroller.get_untracked() {
            let h = f64::from(scroller.client_height());
            pane.measured(f64::from(scroller.scroll_top()), h);
            height.set(h);
        }
    };
    request_animation_frame(measure);
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());

    let seen = StoredValue::new(0u64);
    let lines_of_text = Memo::new_owning(move |previous: Option<LineIndex>| {
        let (revision, typed) = studio.splice_since(seen.get_value());
        seen.set_value(revision);
        (studio.text.with(|t| line_index(previous, typed, t)), true)
    });
    let total = Memo::new(move |_| lines_of_text.with(LineIndex::line_count));
    let problems = Memo::new(move |_| {
        studio.diagnostics.with(|all| {
            let mut by_line: HashMap<usize, LineProblem> = HashMap::new();
            for d in all.iter().filter(|d| d.line > 0) {
                by_line
                    .entry(d.line as usize)
                    .and_modify(|p| {
                        p.others += 1;
                        // `Error` orders first.
                        if d.severity < p.severity {
                            p.severity = d.severity;
                            p.message = d.message.clone();
                        }
                    })
                    .or_insert_with(|| LineProblem {
                        severity: d.severity,
                        message: d.message.clone(),
                        others: 0,
                    });
            }
            by_line
        })
    });
    // The 1-based lines of the selected node's definition, highlighted.
    let selected_lines = Memo::new(move |_| {
        let id = studio.selected()?;
        let span = studio.graph.with(|g| g.as_ref()?.node(&id)?.span)?;
        studio.text.with(|t| {
            let start = t.get(..span.start)?;
            let body = t.get(span.start..span.end.min(t.len()))?;
            let first = start.matches('\n').count() + 1;
            let last = first + body.trim_end().matches('\n').count();
            Some((first, last))
        })
    });
    // Selecting a node brings its text into view (without taking the keyboard from the canvas).
    Effect::new(move |_| {
        let Some((first, _)) = selected_lines.get() else {
            return;
        };
        pane.scroll_to_line(first - 1);
    });
    // The caret in the text selects the node it is in.
    let follow_caret = move || {
        let Some(area) = textarea.get_untracked() else {
            return;
        };
        let Some(caret) = area.selection_start().ok().flatten() else {
            return;
        };
        let w = pane.window();
        let node = studio.text.with_untracked(|t| {
            let line = w.first + window::line_of_utf16(w.text(t), caret as usize);
            // The end of the caret's line: inside the node's span on its key's line too.
            let end = lines_of_text
                .with_untracked(|index| index.line_start(line + 1))
                .map_or(t.len(), |next| next.saturating_sub(1));
            studio.graph.with_untracked(|g| {
                g.as_ref()
                    .and_then(|g| crate::analysis::node_at_offset(g, end))
            })
        });
        if let Some(node) = node.filter(|n| Some(n) != studio.selected_untracked().as_ref()) {
            studio.select_node(node);
        }
    };
    let range = Memo::new(move |_| drawn_lines(scroll_top.get(), height.get(), total.get()));
    let lines = Memo::new(move |_| {
        let (first, last) = range.get();
        let chosen = selected_lines.get();
        let in_selection = move |line: usize| chosen.is_some_and(|(a, b)| a <= line && line <= b);
        problems.with(|problems| {
            studio.text.with(|text| {
                lines_of_text.with(|index| {
                    (first..last)
                        .map(|i| {
                            let line = index.line_text(text, i).to_owned();
                            (
                                i,
                                line,
                                problems.get(&(i + 1)).cloned(),
                                in_selection(i + 1),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
        })
    });
    let offset = move || format!("top: {}px", range.get().0 as f64 * LINE_HEIGHT);
    let spacer = move || format!("height: {}px", total.get() as f64 * LINE_HEIGHT);
    // The numbers are drawn out of flow: the gutter is sized for the longest one, with room on
    // its left for a quick-fix marker.
    let gutter_width = move || format!("width: calc({}ch + 32px)", total.get().to_string().len());
    let numbers = move || {
        let (first, last) = range.get();
        (first + 1..=last)
            .map(|n| format!("{n}\n"))
            .collect::<String>()
    };

    // Keep the textarea in step with the text when it changes elsewhere (canvas, undo), without
    // touching it while it already shows its window of the text (that would move the caret).
    Effect::new(move |_| {
        textarea.track();
        studio
            .text
            .with(|text| lines_of_text.with(|index| pane.sync(text, index)));
    });
    let settle = move || {
        studio
            .text
            .with_untracked(|t| lines_of_text.with_untracked(|index| pane.settle(t, index)));
    };
    let editing = RwSignal::new(false);
    let assist = pane.assist;
    let hover = hover_by_pointer(studio, pane);
    // The list of quick fixes follows the checks (applying one checks it against the text then).
    Effect::new(move |_| {
        studio.diagnostics.track();
        if let Some(ide) = assist.ready.get().then(ide::loaded).flatten() {
            studio.text.with_untracked(|t| ide.refresh_fixable(t));
        }
    });
    let on_input = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        // The browser's editing says what it did (`inputType`); an event without it is a script
        // that set the whole text (the tests' loads do), not an edit of the window.
        let scripted = js_sys::Reflect::get(&ev, &"inputType".into())
            .ok()
            .and_then(|kind| kind.as_string())
            .is_none();
        if scripted {
            studio.replace_text(pane.replaced(&value));
        } else {
            let text = studio.text.with_untracked(|t| pane.typed(t, &value));
            studio.replace_text_typed(text);
        }
        studio.text.with_untracked(|t| {
            lines_of_text.with_untracked(|index| pane.after_typing(t, index, scripted))
        });
        editing.set(true);
        let data = js_sys::Reflect::get(&ev, &"data".into())
            .ok()
            .and_then(|d| d.as_string());
        let kind = js_sys::Reflect::get(&ev, &"inputType".into())
            .ok()
            .and_then(|k| k.as_string());
        if let Some(ide) = ide::loaded() {
            ide.after_input(studio, pane, kind.as_deref(), data.as_deref());
        }
    };
    let released = window_event_listener(leptos::ev::pointerup, move |_| {
        if pane.released() {
            settle();
        }
    });
    on_cleanup(move || released.remove());

    // Tab indents (YAML is indented with spaces) once the person is editing the text (typed or
    // clicked in it); until then, and after Escape, Tab leaves it: arriving with Tab never
    // changes the text, and the keyboard is never trapped in it. The pane says which.
    let focused = RwSignal::new(false);
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if !matches!(ev.key().as_str(), "Control" | "Shift" | "Alt" | "Meta") {
            studio.text.with_untracked(|t| {
                lines_of_text.with_untracked(|index| pane.unpark_for_key(t, index))
            });
        }
        if assist_key(pane, studio, &ev) {
            return;
        }
        if window_keys(studio, pane, lines_of_text, &ev) {
            return;
        }
        if ev.key() == "Escape" {
            editing.set(false);
            return;
        }
        let plain_tab = ev.key() == "Tab" && !ev.ctrl_key() && !ev.meta_key() && !ev.alt_key();
        if !plain_tab || !editing.get_untracked() {
            return;
        }
        let Some(area) = textarea.get_untracked() else {
            return;
        };
        let (Ok(Some(start)), Ok(Some(end))) = (area.selection_start(), area.selection_end())
        else {
            return;
        };
        ev.prevent_default();
        let indented = indent(&area.value(), start as usize, end as usize, ev.shift_key());
        if let Some(done) = indented {
            area.set_value(&done.text);
            let _ = area.set_selection_range(done.start as u32, done.end as u32);
            let text = studio.text.with_untracked(|t| pane.typed(t, &done.text));
            studio.replace_text(text);
        }
    };

    let sync_scroll = move |_| {
        let (Some(scroller), Some(area)) =
            (pane.scroller.get_untracked(), textarea.get_untracked())
        else {
            return;
        };
        let top = scroller.scroll_top();
        if let Some(pre) = highlight.get_untracked() {
            pre.set_scroll_top(top);
            // The textarea scrolls sideways itself when a line is wider than its sizer allows.
            pre.set_scroll_left(scroller.scroll_left() + area.scroll_left());
        }
        if let Some(pre) = gutter.get_untracked() {
            pre.set_scroll_top(top);
        }
        pane.measured(f64::from(top), height.get_untracked());
        scroll_top.set(f64::from(top));
        if let Some(ide) = ide::loaded() {
            ide.close_card();
        }
        settle();
    };

    view! {
        <section class="source" aria-label="Source text" style=format!("--line-height: {LINE_HEIGHT}px")
            data-ide=move || if assist.ready.get() { "ready" } else { "" }
            on:pointerenter=move |_| assist.wake()>
            <pre class="gutter" node_ref=gutter aria-hidden="true" style=gutter_width>
                <div class="lines" style=spacer><div class="drawn" style=offset>{numbers}</div></div>
            </pre>
            {move || assist.ready.get().then(ide::loaded).flatten().map(|ide| ide.gutter(pane, scroll_top))}
            <div class="code">
                <pre class="highlight" node_ref=highlight aria-hidden="true">
                    <div class="lines" style=spacer>
                        <div class="drawn" style=offset>
                            <For
                                each=move || lines.get()
                                key=|line| line.clone()
                                children=|(_, line, problem, chosen)| line_view(&line, problem, chosen)
                            />
                        </div>
                    </div>
                </pre>
                <div class="scroller" node_ref=pane.scroller on:scroll=sync_scroll>
                    <div class="sizer" node_ref=pane.sizer>
                        <textarea
                            data-testid="source"
                            node_ref=textarea
                            spellcheck="false"
                            autocapitalize="off"
                            autocomplete="off"
                            wrap="off"
                            aria-label="LOGIC.md source"
                            aria-describedby="source-keys"
                            aria-autocomplete="list"
                            on:input=on_input
                            on:keydown=on_key
                            on:scroll=sync_scroll
                            on:keyup=move |_| { studio.when_analysed(follow_caret); settle(); }
                            on:click=move |ev: web_sys::MouseEvent| {
                                follow_caret();
                                if ev.ctrl_key() || ev.meta_key() {
                                    run_command(studio, pane, Command::Definition);
                                }
                            }
                            on:mousemove=move |ev: web_sys::MouseEvent| hover(ev.client_x(), ev.client_y())
                            on:mouseleave=move |_| hover(-1, -1)
                            on:pointerdown=move |_| { pane.unpark(); pane.dragging(true); editing.set(true); }
                            on:focus=move |_| { focused.set(true); assist.wake(); }
                            on:blur=move |_| {
                                focused.set(false);
                                editing.set(false);
                                if let Some(ide) = ide::loaded() {
                                    ide.close_lists();
                                }
                            }
                            on:compositionstart=move |_| pane.composing(true)
                            on:compositionend=move |_| { pane.composing(false); settle(); }
                        ></textarea>
                        <span class="ch-measure" node_ref=pane.ch_probe aria-hidden="true">"0000000000"</span>
                        {move || assist.ready.get().then(ide::loaded).flatten().map(|ide| ide.overlays(pane))}
                    </div>
                </div>
                <p id="source-keys" class="source-keys" class:shown=move || focused.get() data-testid="source-keys">
                    {move || if editing.get() {
                        "Tab indents · Shift+Tab outdents · Esc, then Tab, leaves the text"
                    } else {
                        "Tab moves on · type or click in the text to edit, then Tab indents"
                    }}
                </p>
            </div>
        </section>
    }
}

/// The keys of the pane's assistance: the chunk's when it is loaded; before, its commands
/// (Ctrl+Space, Ctrl+., F12, F2) fetch it and run once it is there. True when handled.
fn assist_key(pane: SourcePane, studio: Studio, ev: &web_sys::KeyboardEvent) -> bool {
    if let Some(ide) = ide::loaded() {
        return ide.on_key(studio, pane, ev);
    }
    let Some(command) = Command::of_key(ev) else {
        return false;
    };
    ev.prevent_default();
    ev.stop_propagation();
    run_command(studio, pane, command);
    true
}

/// Runs `command` now, or once the chunk is loaded.
fn run_command(studio: Studio, pane: SourcePane, command: Command) {
    match ide::loaded() {
        Some(ide) => ide.command(studio, pane, command),
        None => ide::when_loaded(
            Some(pane.assist.ready),
            Box::new(move |ide| ide.command(studio, pane, command)),
        ),
    }
}

/// The hover card follows the pointer (`(-1, -1)`: it left the text); before the chunk is
/// loaded, the pointer fetches it. Returns the pointer's handler.
fn hover_by_pointer(studio: Studio, pane: SourcePane) -> impl Fn(i32, i32) + Copy {
    move |x: i32, y: i32| match ide::loaded() {
        Some(ide) => ide.pointer(studio, pane, x, y),
        None => pane.assist.wake(),
    }
}

/// One highlighted line; a line with a problem is marked and ends with the message.
fn line_view(line: &str, problem: Option<LineProblem>, chosen: bool) -> impl IntoView {
    let segments = highlight_line(line)
        .into_iter()
        .map(|(token, text)| view! { <span class=token.class()>{text}</span> })
        .collect_view();
    let class = problem.as_ref().map_or_else(
        || "line".to_owned(),
        |p| format!("line has-problem {}", p.severity.as_str()),
    );
    let inline = problem.map(|p| {
        let more = if p.others > 0 {
            format!(" (+{} more)", p.others)
        } else {
            String::new()
        };
        view! {
            <span class=format!("inline-problem {}", p.severity.as_str())>
                {format!("  ⟵ {}{more}", p.message)}
            </span>
        }
    });
    view! { <div class=class class:in-selection=chosen>{segments}{inline}"\u{200b}"</div> }
}

/// The keys that reach past the window, done over the whole text as a native textarea does:
/// PageUp and PageDown (the textarea does not scroll itself), and past a window, select all and
/// Ctrl/Cmd+Home and End. True when the key was handled.
fn window_keys(
    studio: Studio,
    pane: SourcePane,
    lines: Memo<LineIndex>,
    ev: &web_sys::KeyboardEvent,
) -> bool {
    let key = ev.key();
    let page = match key.as_str() {
        "PageUp" => Some(false),
        "PageDown" => Some(true),
        _ => None,
    };
    if let Some(down) = page.filter(|_| !ev.ctrl_key() && !ev.meta_key() && !ev.alt_key()) {
        ev.prevent_default();
        studio.text.with_untracked(|t| {
            lines.with_untracked(|index| pane.page(t, index, down, ev.shift_key()))
        });
        return true;
    }
    let w = pane.window();
    let whole = w.first == 0 && lines.with_untracked(|index| w.last >= index.line_count());
    let modifier = (ev.ctrl_key() || ev.meta_key()) && !ev.alt_key();
    if whole || !modifier {
        return false;
    }
    let jump = match key.as_str() {
        "Home" => Some(false),
        "End" => Some(true),
        _ => None,
    };
    let all = key.eq_ignore_ascii_case("a") && !ev.shift_key();
    if jump.is_none() && !all {
        return false;
    }
    ev.prevent_default();
    studio.text.with_untracked(|t| {
        lines.with_untracked(|index| match jump {
            Some(to_end) => pane.jump(t, index, to_end, ev.shift_key()),
            None => pane.select_all(t, index),
        })
    });
    true
}

/// Selects 1-based `line` in the source and scrolls it into view.
pub fn reveal_line(pane: SourcePane, text: &str, line: u32) {
    pane.reveal(text, &LineIndex::new(text), line);
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The line index moved past a typed key is the index of the new text.
        #[test]
        fn a_typed_key_moves_the_line_index_as_reading_the_text_would(
            old in "(\u{feff})?[a\né ]{0,20}",
            at in 0usize..30,
            removed in 0usize..4,
            inserted in "[a\n\u{feff}é]{0,3}",
        ) {
            let chars: Vec<char> = old.chars().collect();
            let at = at.min(chars.len());
            let end = (at + removed).min(chars.len());
            let new: String = chars[..at].iter().collect::<String>() + &inserted + &chars[end..].iter().collect::<String>();
            let mut history = crate::history::History::default();
            let typed = history.record(&old, &new);
            let index = line_index(Some(LineIndex::new(&old)), typed, &new);
            proptest::prop_assert_eq!(index, LineIndex::new(&new));
        }
    }

    #[test]
    fn only_the_lines_in_view_and_a_margin_are_drawn() {
        assert_eq!(drawn_lines(0.0, 400.0, 10), (0, 10));
        let (first, last) = drawn_lines(20_000.0, 400.0, 5_000);
        assert_eq!(first, 1_000 - OVERSCAN);
        assert_eq!(last, 1_000 + 21 + OVERSCAN);
        assert_eq!(drawn_lines(1e9, 400.0, 50), (50, 50));
    }
}
