//! A review (or an escalation) waiting for a person, in the card of the node it waits at: the
//! message, the input under review, a note the node's next model call sees, and one button per
//! action the document allows.

use leptos::prelude::*;

use super::RunState;

#[component]
pub fn ReviewForm(node: String) -> impl IntoView {
    let run = expect_context::<RunState>();
    let note = RwSignal::new(String::new());
    let mine = move || {
        run.phase
            .with(|p| p.review().filter(|r| r.node == node).cloned())
    };
    move || {
        mine().map(|review| {
            let input = serde_json::to_string_pretty(&review.input).unwrap_or_default();
            view! {
                <div class="run-review" data-testid="run-review" role="group" aria-labelledby="review-title">
                    <p id="review-title"><strong>{format!("‖ Review at {}", review.node)}</strong>
                        " — the run waits for your decision"</p>
                    {review.message.clone().map(|m| view! { <p class="review-message">{m}</p> })}
                    <label class="field">
                        <span class="field-label">"Note (optional: the node's next model call sees it)"</span>
                        <textarea data-testid="review-note" rows="2"
                            prop:value=move || note.get()
                            on:input=move |ev| note.set(event_target_value(&ev))></textarea>
                    </label>
                    <div class="run-buttons review-actions">
                        {review.actions.iter().map(|action| {
                            let choice = action.clone();
                            view! {
                                <button data-testid="review-action" data-action=action.clone()
                                    on:click=move |_| {
                                        let said = Some(note.get_untracked());
                                        note.set(String::new());
                                        run.decide(&choice, said);
                                    }>{action.clone()}</button>
                            }
                        }).collect_view()}
                    </div>
                    <details class="review-input" open>
                        <summary>"What is under review"</summary>
                        <pre tabindex="0" data-testid="review-input">{input}</pre>
                    </details>
                </div>
            }
        })
    }
}
