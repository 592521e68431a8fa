//! The native module `logicmd._logicmd` of the Python package `logicmd`: thin bindings over the
//! core crate, like the npm package's. Every function checks its arguments, releases the GIL
//! (`Python::detach`) around the core's work, and returns a result as JSON text that the typed
//! Python wrappers (`python/logicmd/`) read into dataclasses; JSON arguments (dicts, inputs,
//! observations) come in as JSON text the same way. Results are the npm package's, key for key.

mod convert;
mod documents;
mod evals;
mod loader;
mod next_action;
mod openai;
mod run;
mod tools;

use pyo3::prelude::*;

/// The module: functions over documents, traces and expressions, and the classes that hold a
/// run, a next-action decision and the OpenAI-compatible protocol's state.
#[pymodule]
fn _logicmd(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add(
        "SUPPORTED_SPEC_VERSIONS",
        logicmd::schema::SUPPORTED_SPEC_VERSIONS.to_vec(),
    )?;
    documents::register(module)?;
    tools::register(module)?;
    run::register(module)?;
    openai::register(module)?;
    next_action::register(module)?;
    evals::register(module)?;
    Ok(())
}
