//! `gate` (§3.5): the condition over the node's scope takes the pass or the fail branch. A
//! condition that cannot be evaluated takes the fail branch (a broken check never lets an output
//! through), with the error in the trace. The gate hands its input on as its output.

use super::node::{Ctx, Progress, Route};
use super::state::Local;
use crate::run::kernel::Kernel;
use crate::trace::{Event, Gate};

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
    let passed = *result.as_ref().unwrap_or(&false);
    let gate = Gate {
        condition: Some(condition.to_owned()),
        passed: Some(passed),
        error: result.err(),
        ..Gate::default()
    };
    kernel.event(Some(&definition.id), Event::GateEvaluated(gate));
    Progress::Finished {
        output: local.input.clone(),
        route: Route::Gate(passed),
    }
}
