//! The run's input as given: `--input JSON` or `--input @FILE`, parsed as JSON with the place
//! of any error. Checking it against `contracts.inputs`, and the example input a dry run gets
//! without one, are the run session's (`logicmd::run::session::{check_input, example_input}`),
//! the same for every front end.

use std::path::Path;

use serde_json::Value;

/// Reads `--input`: JSON text, or `@FILE` (`@-`: standard input).
pub fn read(argument: &str) -> Result<Value, String> {
    if let Some(path) = argument.strip_prefix('@') {
        return crate::commands::read_json(Path::new(path))
            .map_err(|problem| format!("--input: {problem}"));
    }
    serde_json::from_str(argument).map_err(|e| {
        format!(
            "--input is not JSON (line {}, column {}): {e}",
            e.line(),
            e.column()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_json_is_placed() {
        assert_eq!(
            read("{\"a\": \n 1,}").unwrap_err(),
            "--input is not JSON (line 2, column 4): trailing comma at line 2 column 4"
        );
    }
}
