//! Conversions at the JS boundary: results to plain JS objects, arguments checked by type.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::text::js_text;

/// A result as a plain JS object (objects, never `Map`s; integers as numbers): written as one JSON
/// string and read by the engine's `JSON.parse`. That crosses the boundary once instead of once
/// per value, which made results about a fifth faster than building them value by value
/// (issue #17); the JSON data model is the one results already had.
pub fn to_js(value: &impl Serialize) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsError::new(&format!("cannot convert the result: {e}")))?;
    json_to_js(&text)
}

/// A result already written as JSON text, as a plain JS object (see [`to_js`]).
pub fn json_to_js(text: &str) -> Result<JsValue, JsError> {
    js_sys::JSON::parse(text).map_err(|_| JsError::new("cannot convert the result"))
}

/// An argument of a known shape (an action, an observation, an edit, a state): read as JSON, then
/// as `T`; `what` names it in the error.
pub fn from_js<T: serde::de::DeserializeOwned>(value: JsValue, what: &str) -> Result<T, JsError> {
    let json = json_arg(value, what)?;
    serde_json::from_value(json).map_err(|e| JsError::new(&format!("{what}: {e}")))
}

/// A JSON-like argument; `undefined` and `null` are `null`.
pub fn json_arg(value: JsValue, what: &str) -> Result<Value, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Value::Null);
    }
    serde_wasm_bindgen::from_value(value)
        .map_err(|e| JsError::new(&format!("{what} is not JSON data: {e}")))
}

/// A required string argument.
pub fn text_arg(value: &JsValue, what: &str) -> Result<String, JsError> {
    js_text(value).ok_or_else(|| {
        JsError::new(&format!(
            "{what} must be a string, got {}",
            value.js_typeof().as_string().unwrap_or_default()
        ))
    })
}

/// An optional string argument: `undefined`/`null` are absent, anything else must be a string.
pub fn optional_text_arg(value: &JsValue, what: &str) -> Result<Option<String>, JsError> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        text_arg(value, what).map(Some)
    }
}
