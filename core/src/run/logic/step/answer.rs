//! What an answer must be to become a step's output: JSON under the step's own `output_schema`
//! (or, for a final step without one, under the output contract the compiler asked for), and for
//! a final step the document's output contract (`contracts.outputs`, constraints included),
//! whatever its own schema says. A lenient contract (`warn`, `permissive`) lets a breach through
//! with warnings; a strict one makes it invalid output.

use serde_json::Value;

use super::super::contracts::{lenient_about_outputs, output_schema};
use crate::model::Spec;
use crate::run::output;

/// Reads a step's answers.
pub(super) struct Reader {
    /// The step's own `output_schema`.
    own: Option<Value>,
    /// The output contract, for a step that produces the document's output.
    contract: Option<Value>,
    lenient: bool,
}

/// An answer that is not acceptable output.
pub(super) struct Rejected {
    pub problems: Vec<String>,
    /// Only the output contract rejects it (`on_output_violation` applies).
    pub by_contract: bool,
}

impl Rejected {
    fn by_schema(problems: Vec<String>) -> Rejected {
        Rejected {
            problems,
            by_contract: false,
        }
    }
}

impl Reader {
    pub fn new(spec: &Spec, step: usize, is_final: bool) -> Reader {
        Reader {
            own: spec.steps[step].output_schema.clone(),
            contract: is_final.then(|| output_schema(&spec.contracts)).flatten(),
            lenient: lenient_about_outputs(&spec.contracts),
        }
    }

    /// The answer as output, with the contract problems a lenient contract lets through.
    pub fn read(&self, text: &str) -> Result<(Value, Vec<String>), Rejected> {
        let output = match (&self.own, &self.contract) {
            (Some(own), _) => output::read(text, Some(own)).map_err(Rejected::by_schema)?,
            (None, Some(contract)) => {
                return match output::read(text, Some(contract)) {
                    Ok(output) => Ok((output, Vec::new())),
                    Err(problems) if self.lenient => output::read(text, None)
                        .map(|output| (output, problems))
                        .map_err(Rejected::by_schema),
                    Err(problems) => Err(Rejected {
                        problems,
                        by_contract: true,
                    }),
                }
            }
            (None, None) => output::read(text, None).map_err(Rejected::by_schema)?,
        };
        self.check(output)
    }

    /// An output held to the contract (a revision, a degraded or pinned output): the output
    /// with the problems a lenient contract lets through, or what breaks a strict one.
    pub fn check(&self, output: Value) -> Result<(Value, Vec<String>), Rejected> {
        let problems = match &self.contract {
            Some(contract) => output::problems(contract, &output),
            None => Vec::new(),
        };
        match (problems.is_empty(), self.lenient) {
            (true, _) => Ok((output, Vec::new())),
            (false, true) => Ok((output, problems)),
            (false, false) => Err(Rejected {
                problems,
                by_contract: true,
            }),
        }
    }
}
