//! The shape `validate` and `lint` share: discover files, check each, print, choose the exit status.

use std::path::Path;

use logicmd::diagnostic::Diagnostic;
use logicmd::Limits;

use crate::config::{self, Found};
use crate::discover;
use crate::input::{read_document, tell_true_size};
use crate::report::ReportArgs;
pub use crate::report::{Checked, FixRecord, Fixes, Tally};

/// What checking one file gives: the text the diagnostics point into, the diagnostics, and
/// the verdict reported as `valid`.
#[derive(Default)]
pub struct Outcome {
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
    pub valid: bool,
    pub fixes: Fixes,
}

/// Runs `check(path, bytes, settings)` on every file `operands` name (in parallel, the results
/// in discovery order), prints the results as `report` asks, and returns the exit status
/// ([`crate::report::emit`]).
pub fn run(
    operands: &crate::discover::Operands,
    report: &ReportArgs,
    tally: Tally,
    check: impl Fn(&Path, &[u8], Option<&Found>) -> Outcome + Sync,
) -> u8 {
    let discovered = match config::discover(operands) {
        Ok(discovered) => discovered,
        Err(status) => return status,
    };
    let operand_errors: Vec<&discover::OperandError> = discovered
        .problems
        .iter()
        .filter(|p| p.is_error())
        .collect();
    let jobs: Vec<(&std::path::PathBuf, &Option<std::sync::Arc<Found>>)> =
        discovered.files.iter().zip(&discovered.settings).collect();
    let checked: Vec<Checked> = crate::parallel::map(&jobs, |(path, found)| {
        let file = display_name(path);
        match read_document(path, Limits::DEFAULT.max_bytes) {
            Ok(read) => {
                let bytes = read.bytes;
                let Outcome {
                    text,
                    mut diagnostics,
                    valid,
                    fixes,
                } = check(path, &bytes, found.as_deref());
                tell_true_size(path, Limits::DEFAULT.max_bytes, &mut diagnostics);
                Checked {
                    file,
                    text,
                    diagnostics,
                    verdict: valid,
                    unreadable: false,
                    fixes,
                }
            }
            Err(error) => Checked {
                diagnostics: vec![Diagnostic::error(
                    "io-error",
                    format!("cannot read {file}: {error}"),
                )],
                file,
                text: String::new(),
                verdict: false,
                unreadable: true,
                fixes: Fixes::default(),
            },
        }
    });
    crate::report::emit(&checked, &operand_errors, report, tally)
}

pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_owned()
    } else {
        path.display().to_string()
    }
}
