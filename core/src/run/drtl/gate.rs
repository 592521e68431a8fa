//! `gate` (§3.5): the condition over the node's scope takes the pass or the fail branch. A
//! condition that cannot be evaluated takes the fail branch (a broken check never lets an output
//! through), with the error in the trace. The gate hands its input on as its output.

use serde_json::Value;

use super::node::{Ctx, Progress, Route};
use super::state::Local;
use crate::run::kernel::Kernel;

pub(super) fn evaluate(
    ctx: &mut Ctx<'_>,
    kernel: &mut Kernel,
    node: usize,
    local: Local<'_>,
) -> Progress {
    let definition = &ctx.graph.nodes[node];
    let condition = definition.text("condition").unwrap_or_default();
    let result = if condition.trim().is_empty() {
        Err("the gate has no condition".to_owned())
    } else {
        ctx.store.condition(ctx.graph, condition, local)
    };
    let mut fields = vec![("condition", Value::from(condition))];
    let passed = match result {
        Ok(passed) => passed,
        Err(error) => {
            fields.push(("error", error.into()));
            false
        }
    };
    fields.push(("passed", passed.into()));
    kernel.event("gate_evaluated", Some(&definition.id), fields);
    Progress::Finished {
        output: local.input.clone(),
        route: Route::Gate(passed),
    }
}
