//! The seed's next-action API for JavaScript: `nextAction(state, {provider, spec, maxAttempts})`
//! asks `provider(request)` (the caller's own model client) until the answer is a valid action.

use js_sys::{Function, Promise};
use logicmd::next_action::{Decision, DecisionOptions, State, Step};
use logicmd::run::ModelRequest;
use serde_json::json;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::convert::{from_js, to_js};
use crate::text::js_text;

/// `nextAction` (its documentation: `crate::engine`), run in the engine's module.
pub async fn next_action(state: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let state: State = from_js(state, "state is not an agent state")?;
    let field = |name: &str| {
        js_sys::Reflect::get(&options, &JsValue::from_str(name))
            .map_err(|_| JsError::new("options must be an object"))
    };
    let provider: Function = field("provider")?
        .dyn_into()
        .map_err(|_| JsError::new("options.provider must be a function (request) => text"))?;
    let mut settings = DecisionOptions::default();
    if let Some(n) = field("maxAttempts")?.as_f64() {
        settings.max_attempts = n.clamp(1.0, 20.0) as u32;
    }
    if let Some(text) = js_text(&field("spec")?) {
        let document = logicmd::Document::parse(&text).document.ok_or_else(|| {
            JsError::new("options.spec is not a LOGIC.md document (its frontmatter does not parse)")
        })?;
        settings.spec = Some(document.json().clone());
    }
    let (mut decision, mut request) = Decision::start(state, settings).map_err(|problems| {
        JsError::new(&format!(
            "the state cannot be used: {}",
            problems.join("; ")
        ))
    })?;
    loop {
        let answer = ask(&provider, &request).await?;
        match decision.feed(&answer) {
            Step::Done(action) => {
                return to_js(
                    &json!({"action": action, "attempts": decision.attempts(), "problems": []}),
                )
            }
            Step::Retry { request: next, .. } => request = next,
            Step::Failed(problems) => {
                return to_js(
                    &json!({"action": null, "attempts": decision.attempts(), "problems": problems}),
                )
            }
        }
    }
}

/// Calls the provider and awaits its text.
async fn ask(provider: &Function, request: &ModelRequest) -> Result<String, JsError> {
    let request = to_js(request)?;
    let returned = provider
        .call1(&JsValue::NULL, &request)
        .map_err(|e| JsError::new(&format!("the provider threw: {}", describe(&e))))?;
    let value = match returned.dyn_into::<Promise>() {
        Ok(promise) => JsFuture::from(promise).await.map_err(|e| {
            JsError::new(&format!(
                "the provider's promise rejected: {}",
                describe(&e)
            ))
        })?,
        Err(value) => value,
    };
    value
        .as_string()
        .ok_or_else(|| JsError::new("the provider must return the model's text (a string)"))
}

fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "an unknown error".to_owned())
}
