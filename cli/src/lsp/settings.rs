//! The project's settings (`logicmd.toml`, `[tool.logicmd]` in pyproject.toml) applied to what
//! the server publishes, as `logicmd lint` applies them: the nearest file above the document,
//! read afresh for every publication (a few file checks), so an edited settings file counts at
//! once. Unusable settings are said once per distinct problem, and the document keeps the
//! default rules meanwhile.

use std::path::Path;

use logicmd_ide::diagnostics::IdeDiagnostic;

use crate::config::Finder;

/// The names of the files settings are read from, for the file watchers.
pub const SETTINGS_FILES: [&str; 2] = [
    logicmd::config::LOGICMD_TOML,
    logicmd::config::PYPROJECT_TOML,
];

/// `found` as the settings that apply at `path` want it, and why none applied if the settings
/// file is unusable (its text as the CLI prints it).
pub fn applied(path: &Path, found: Vec<IdeDiagnostic>) -> (Vec<IdeDiagnostic>, Option<String>) {
    let settings = match Finder::default().for_document(path) {
        Ok(Some(settings)) => settings,
        Ok(None) => return (found, None),
        Err(shown) => return (found, Some(shown.as_str().to_owned())),
    };
    let kept = found
        .into_iter()
        .filter_map(|mut d| {
            let diagnostic = settings.apply(path, vec![d.diagnostic]).pop()?;
            d.diagnostic = diagnostic;
            Some(d)
        })
        .collect();
    (kept, None)
}

/// Whether a changed file is a settings file (every open document may then change).
pub fn is_settings_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|name| name.to_str())
        .is_some_and(|name| SETTINGS_FILES.contains(&name))
}
