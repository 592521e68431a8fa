//! A step's expressions read only steps it runs after: `steps.X.output` read by a step that
//! does not wait for X (through `needs`, `parallel_steps`, a branch or a decision tree) sees
//! `undefined` whenever X has not run yet.

use super::context::LintContext;
use super::expressions::{collect_strings, locate};
use super::rules;
use crate::expr::Template;
use crate::flow::{Flow, UnitKind};
use crate::json::pointer_tokens;
use crate::model::Spec;

pub fn check(cx: &mut LintContext<'_>) {
    let reads = step_reads(cx);
    if reads.is_empty() {
        return;
    }
    let Ok(flow) = Flow::of_steps(&Spec::read(cx.resolved)) else {
        // Cycles are reported by their own rule; there is no order to compare with.
        return;
    };
    for read in reads {
        if runs_after(&flow, &read.reader, &read.step) {
            continue;
        }
        let span = locate(cx, &read.pointer, &read.text, read.offset, read.len);
        cx.report_at(
            rules::UNWAITED_STEP_READ,
            &read.pointer,
            span,
            format!(
                "step `{}` reads `steps.{}` but does not run after `{}`",
                read.reader, read.step, read.step
            ),
        );
        cx.help(format!(
            "add `{}` to the `needs` of `{}`",
            read.step, read.reader
        ));
    }
}

/// `steps.STEP` read inside the step `reader`'s own fields.
struct Read {
    reader: String,
    step: String,
    pointer: String,
    text: String,
    offset: usize,
    len: usize,
}

fn step_reads(cx: &LintContext<'_>) -> Vec<Read> {
    let mut strings = Vec::new();
    collect_strings(cx.own(), &mut Vec::new(), &mut strings);
    let mut reads = Vec::new();
    for (pointer, text) in strings {
        let tokens = pointer_tokens(&pointer);
        let [steps, reader, ..] = tokens.as_slice() else {
            continue;
        };
        if steps != "steps" {
            continue;
        }
        let Ok(template) = Template::parse(&text) else {
            continue;
        };
        for expr in template.expressions() {
            for (path, range) in expr.paths() {
                let [root, step, ..] = path.as_slice() else {
                    continue;
                };
                // Another own step that exists (unknown names are `unknown-step-reference`'s;
                // imported ones are ordered by their own document).
                if root != "steps" || step == reader || step.contains('.') || !cx.has_step(step) {
                    continue;
                }
                reads.push(Read {
                    reader: reader.clone(),
                    step: step.clone(),
                    pointer: pointer.clone(),
                    text: text.clone(),
                    offset: range.start,
                    len: range.len(),
                });
            }
        }
    }
    reads
}

/// Whether `reader` runs after `step` in the flow (a path of ordering edges from one to the
/// other; loops excluded).
fn runs_after(flow: &Flow, reader: &str, step: &str) -> bool {
    let (Some(to), Some(from)) = (
        flow.index(reader, UnitKind::Step),
        flow.index(step, UnitKind::Step),
    ) else {
        return true;
    };
    let mut seen = vec![false; flow.units.len()];
    let mut stack = vec![to];
    while let Some(unit) = stack.pop() {
        if unit == from {
            return true;
        }
        for edge in flow.incoming(unit) {
            if !seen[edge.from] {
                seen[edge.from] = true;
                stack.push(edge.from);
            }
        }
    }
    false
}
