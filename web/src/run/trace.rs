//! The Trace tab: the run's events as a filterable timeline, the built-in trace checks as
//! pass/fail, download as JSON Lines, and a dropped JSONL trace replayed on the canvas with a
//! scrubber (the canvas shows the node states after the first N events).

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use super::states::RunStates;
use super::RunState;
use crate::browser;

/// Most timeline rows drawn at once: a long run's thousands of events would cost frames.
const SHOWN_EVENTS: usize = 200;

/// The trace as JSON Lines, one event a line (what `logicmd run --trace` writes).
pub fn to_jsonl(events: &[Value]) -> String {
    events.iter().map(|e| format!("{e}\n")).collect()
}

/// A timeline row: `seq event node` and a short summary of its fields.
fn row(event: &Value) -> String {
    let name = event["event"].as_str().unwrap_or("?");
    let node = event["node"]
        .as_str()
        .map(|n| format!(" {n}"))
        .unwrap_or_default();
    let extra = ["status", "gate", "passed", "attempt", "reason"]
        .iter()
        .filter_map(|k| event.get(*k).map(|v| format!(" {k}={v}")))
        .collect::<String>();
    format!("{} {name}{node}{extra}", event["seq"])
}

/// How one built-in check is shown.
#[derive(Debug, PartialEq)]
struct Verdict {
    /// `data-passed`: `true`, `false`, or `unchecked`.
    attribute: &'static str,
    class: &'static str,
    mark: &'static str,
    words: String,
}

/// Checks that need the end of the trace: a stopped run's trace has none, so they are not
/// checked (a red "terminates" after Stop would blame the run for the person's Stop).
const NEED_THE_END: &[&str] = &["terminates", "reviews-answered"];

fn check_verdict(name: &str, violation: Option<String>, stopped: bool) -> Verdict {
    if stopped && NEED_THE_END.contains(&name) {
        return Verdict {
            attribute: "unchecked",
            class: "unchecked",
            mark: "–",
            words: "not checked: the run was stopped before its end".to_owned(),
        };
    }
    match violation {
        None => Verdict {
            attribute: "true",
            class: "holds",
            mark: "✓",
            words: "holds".to_owned(),
        },
        Some(why) => Verdict {
            attribute: "false",
            class: "failed",
            mark: "✗",
            words: format!("broken — {why}"),
        },
    }
}

#[component]
pub fn TraceView() -> impl IntoView {
    let run = expect_context::<RunState>();
    let filter = RwSignal::new(String::new());
    let position = RwSignal::new(None::<usize>);
    let problem = RwSignal::new(None::<String>);
    let finished = move || {
        matches!(
            run.phase.get(),
            super::Phase::Finished(_) | super::Phase::Stopped(_)
        )
    };
    let rows = move || {
        let filter = filter.get().to_lowercase();
        run.events.with(|events| {
            // Unfiltered, only the rows shown are formatted: a running run redraws this each frame.
            if filter.is_empty() {
                let hidden = events.len().saturating_sub(SHOWN_EVENTS);
                return (events[hidden..].iter().map(row).collect::<Vec<_>>(), hidden);
            }
            let matching: Vec<String> = events
                .iter()
                .map(row)
                .filter(|r| r.to_lowercase().contains(&filter))
                .collect();
            let hidden = matching.len().saturating_sub(SHOWN_EVENTS);
            (
                matching.into_iter().skip(hidden).collect::<Vec<_>>(),
                hidden,
            )
        })
    };
    let checks = Memo::new(move |_| {
        if !finished() {
            return Vec::new();
        }
        // The checks are run mode's (its chunk): a replayed trace may come before any run.
        let Some(mode) = run.mode_now() else {
            return Vec::new();
        };
        run.events.with(|e| mode.builtin_results(e))
    });
    let download = move |_| {
        let text = run.events.with_untracked(|e| to_jsonl(e));
        if browser::download("run.trace.jsonl", &text).is_err() {
            problem.set(Some("The browser did not allow the download.".to_owned()));
        }
    };
    let room = expect_context::<crate::room::Room>();
    let replay_file = move |file: web_sys::File| {
        spawn_local(async move {
            let text = match browser::read_file(file).await {
                Ok(text) => text,
                Err(message) => return problem.set(Some(message)),
            };
            room.run_open.set(true);
            run.with_mode(move |mode| match mode.read_trace(&text) {
                Ok(events) => {
                    problem.set(None);
                    position.set(None);
                    run.replay(events);
                }
                Err(message) => problem.set(Some(message)),
            });
        });
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        ev.stop_propagation();
        if let Some(file) = browser::dropped_file(&ev) {
            replay_file(file);
        }
    };
    let on_file = move |ev: leptos::ev::Event| {
        if let Some(file) = browser::chosen_file(&ev) {
            replay_file(file);
        }
    };
    let scrub = move |ev: leptos::ev::Event| {
        let at = event_target_value(&ev).parse::<usize>().unwrap_or(0);
        position.set(Some(at));
        run.events.with_untracked(|events| {
            let prefix = &events[..at.min(events.len())];
            let states = run
                .marks
                .with_untracked(|marks| RunStates::after_marked(prefix, marks));
            run.states.set(states);
        });
    };
    view! {
        <section class="run-trace" data-testid="run-trace"
            on:dragover=|ev: leptos::ev::DragEvent| { ev.prevent_default(); ev.stop_propagation(); }
            on:drop=on_drop>
            <h3>"Trace"</h3>
            <div class="run-buttons">
                <button data-testid="trace-download" on:click=download disabled=move || run.events.with(Vec::is_empty)>"⤓ JSONL"</button>
                <label class="file-button">"Replay a trace…"
                    <input type="file" accept=".jsonl,.json,application/x-ndjson" data-testid="trace-file" on:change=on_file />
                </label>
                <input type="search" placeholder="Filter events" data-testid="trace-filter"
                    on:input=move |ev| filter.set(event_target_value(&ev)) />
            </div>
            {move || problem.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            {move || finished().then(|| view! {
                <label class="field scrubber">
                    <span class="field-label">{move || format!("Canvas after event {} of {}", position.get().unwrap_or_else(|| run.events.with(Vec::len)), run.events.with(Vec::len))}</span>
                    <input type="range" min="0" data-testid="trace-scrub"
                        prop:max=move || run.events.with(Vec::len).to_string()
                        prop:value=move || position.get().unwrap_or_else(|| run.events.with(Vec::len)).to_string()
                        on:input=scrub />
                </label>
            })}
            {move || (!checks.with(Vec::is_empty)).then(|| view! {
                <p class="muted trace-checks-note">"Trace checks: whether the trace itself is well-formed — not whether the run succeeded (the outcome above says that)."</p>
            })}
            <ul class="trace-checks" data-testid="trace-checks">
                {move || {
                    let stopped = run.states.with(|s| s.stopped) || matches!(run.phase.get(), super::Phase::Stopped(_));
                    checks.get().into_iter().map(|(name, violation)| {
                        let verdict = check_verdict(name, violation, stopped);
                        view! {
                            <li data-check=name data-passed=verdict.attribute class=verdict.class>
                                {verdict.mark} " " <code>{name}</code> " " {verdict.words}
                            </li>
                        }
                    }).collect_view()
                }}
            </ul>
            <ol class="trace-timeline" data-testid="trace-timeline" tabindex="0" aria-label="The run's events, newest last">
                {move || {
                    let (rows, hidden) = rows();
                    let note = (hidden > 0).then(|| view! { <li class="muted">{format!("… {hidden} earlier events")}</li> });
                    view! { {note} {rows.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()} }
                }}
            </ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #31: after Stop, the checks that need the trace's end say they were not checked.
    #[test]
    fn a_stopped_run_does_not_fail_the_checks_that_need_its_end() {
        let broken = Some("event 3: the run never ends".to_owned());
        assert_eq!(
            check_verdict("terminates", broken.clone(), true).attribute,
            "unchecked"
        );
        assert_eq!(
            check_verdict("terminates", broken.clone(), false).attribute,
            "false"
        );
        assert_eq!(
            check_verdict("retries-bounded", broken, true).attribute,
            "false"
        );
        assert_eq!(check_verdict("terminates", None, false).words, "holds");
    }
}
