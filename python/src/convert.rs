//! Arguments in and results out: JSON text both ways (the Python side's `json` module reads and
//! writes it in C), errors as `ValueError`s that name the argument.

use pyo3::exceptions::PyValueError;
use pyo3::PyResult;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// A JSON argument; absent is `null`. `what` names it in the error.
pub fn json_arg(text: Option<&str>, what: &str) -> PyResult<Value> {
    match text {
        None => Ok(Value::Null),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| PyValueError::new_err(format!("{what} is not JSON data: {e}"))),
    }
}

/// An argument of a known shape (an observation, an edit, options): read as `T`.
pub fn typed_arg<T: DeserializeOwned>(text: &str, what: &str) -> PyResult<T> {
    serde_json::from_str(text).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// A result as JSON text.
pub fn to_json(value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|e| PyValueError::new_err(format!("cannot convert the result: {e}")))
}
