//! Imports and `logic_ref`s read through a JS object `{path: text}` or a function `path => text`.

use js_sys::Function;
use logicmd::loader::{resolve_relative, LoadError, Loader, MemoryLoader};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::convert::json_arg;
use crate::text::js_text;

pub struct JsLoader {
    files: MemoryLoader,
    callback: Option<Function>,
}

impl JsLoader {
    pub fn new(files: JsValue) -> Result<JsLoader, JsError> {
        let mut loader = JsLoader {
            files: MemoryLoader::new(),
            callback: None,
        };
        if let Some(function) = files.dyn_ref::<Function>() {
            loader.callback = Some(function.clone());
            return Ok(loader);
        }
        match json_arg(files, "files")? {
            Value::Null => {}
            Value::Object(map) => {
                for (path, text) in map {
                    let Value::String(text) = text else {
                        return Err(JsError::new(&format!("files[\"{path}\"] must be a string")));
                    };
                    loader
                        .files
                        .insert(&path, text)
                        .map_err(|e| JsError::new(&e.message))?;
                }
            }
            _ => {
                return Err(JsError::new(
                    "files must be an object {path: text} or a function path => text",
                ))
            }
        }
        Ok(loader)
    }
}

impl Loader for JsLoader {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        resolve_relative(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        let Some(callback) = &self.callback else {
            return self.files.load(id);
        };
        let result = callback
            .call1(&JsValue::NULL, &JsValue::from_str(id))
            .map_err(|error| {
                let reason = error
                    .dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
                    .unwrap_or_else(|| "not an Error".to_owned());
                LoadError::new(format!("the loader threw for `{id}`: {reason}"))
            })?;
        js_text(&result).ok_or_else(|| LoadError::new(format!("no file `{id}`")))
    }
}
