//! Imports, workflow nodes and prompt files read from a Python dict `{path: text}` or a callable
//! `path -> text` (called with the GIL taken again: the core's work runs without it).

use logicmd::loader::{resolve_relative, LoadError, Loader, MemoryLoader};
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The files a document may read.
pub struct PyLoader {
    files: MemoryLoader,
    callback: Option<Py<PyAny>>,
}

impl PyLoader {
    /// From `files`: `None`, a dict of path → text, or a callable path → text.
    pub fn new(files: Option<&Bound<'_, PyAny>>) -> PyResult<PyLoader> {
        let mut loader = PyLoader {
            files: MemoryLoader::new(),
            callback: None,
        };
        let Some(files) = files.filter(|f| !f.is_none()) else {
            return Ok(loader);
        };
        if let Ok(dict) = files.cast::<PyDict>() {
            for (path, text) in dict.iter() {
                let path: String = path
                    .extract()
                    .map_err(|_| PyTypeError::new_err("files: every key must be a path (str)"))?;
                let text: String = text.extract().map_err(|_| {
                    PyTypeError::new_err(format!("files[{path:?}] must be the file's text (str)"))
                })?;
                loader
                    .files
                    .insert(&path, text)
                    .map_err(|e| PyTypeError::new_err(e.message))?;
            }
        } else if files.is_callable() {
            loader.callback = Some(files.clone().unbind());
        } else {
            return Err(PyTypeError::new_err(
                "files must be a dict {path: text} or a callable path -> text",
            ));
        }
        Ok(loader)
    }
}

impl Loader for PyLoader {
    fn resolve(&self, from: &str, reference: &str) -> Result<String, LoadError> {
        resolve_relative(from, reference)
    }

    fn load(&self, id: &str) -> Result<String, LoadError> {
        let Some(callback) = &self.callback else {
            return self.files.load(id);
        };
        Python::attach(|py| {
            let returned = callback.call1(py, (id,)).map_err(|e| {
                // A reader that says why a file is not there, in its own words.
                if e.is_instance_of::<PyFileNotFoundError>(py) {
                    LoadError::new(e.value(py).to_string())
                } else {
                    LoadError::new(format!("the files callable raised for `{id}`: {e}"))
                }
            })?;
            if returned.is_none(py) {
                return Err(LoadError::new(format!("no file `{id}`")));
            }
            returned.extract::<String>(py).map_err(|_| {
                LoadError::new(format!(
                    "the files callable must return the text of `{id}` (str) or None"
                ))
            })
        })
    }
}
