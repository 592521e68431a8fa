//! A run's budgets (spec §9.1 `global`): `max_total_time` by the driver's clock and
//! `max_total_cost` over the costs the providers report (`Usage::cost`). Both are checked at
//! every observation; past either the run fails, naming it. Model calls end by the time left
//! (`CallModel.timeout_ms`), so a call that hangs cannot outlast the budget.

use crate::duration::parse_duration;
use crate::model::Global;
use crate::run::action::Observation;
use crate::run::kernel::Kernel;
use crate::trace::{Event, Gate};

pub(super) struct Budget {
    /// `max_total_time` in milliseconds, and as written.
    time: Option<(u64, String)>,
    cost: Option<f64>,
    spent: f64,
    /// A call's cost was unknown (reported once).
    unknown_cost: bool,
}

impl Budget {
    pub fn of(global: &Global) -> Budget {
        let time = global.max_total_time.as_ref().and_then(|text| {
            let ms = parse_duration(text).ok()?.as_millis().min(u64::MAX as u128) as u64;
            Some((ms, text.clone()))
        });
        Budget {
            time,
            cost: global.max_total_cost.filter(|c| c.is_finite() && *c >= 0.0),
            spent: 0.0,
            unknown_cost: false,
        }
    }

    /// The clock (the kernel's, in ms) by which the run must be over.
    pub fn deadline(&self, kernel: &Kernel) -> Option<u64> {
        let started = kernel.now.saturating_sub(kernel.elapsed());
        self.time
            .as_ref()
            .map(|(ms, _)| started.saturating_add(*ms))
    }

    /// Counts `observation` against the budgets; why the run must stop, when it must.
    pub fn spend(&mut self, kernel: &mut Kernel, observation: &Observation) -> Option<String> {
        if let Some((limit, written)) = &self.time {
            let elapsed = kernel.elapsed();
            if elapsed > *limit {
                let gate = Gate {
                    detail: Some(serde_json::json!({"limit_ms": limit, "elapsed_ms": elapsed})),
                    ..Gate::named("max_total_time", false)
                };
                kernel.event(None, Event::GateEvaluated(gate));
                return Some(format!(
                    "the run took {}, past its max_total_time of {written}",
                    millis(elapsed)
                ));
            }
        }
        let limit = self.cost?;
        let Observation::ModelResponse { usage, .. } = observation else {
            return None;
        };
        match usage.and_then(|u| u.cost) {
            Some(cost) => self.spent += cost,
            None if !self.unknown_cost => {
                self.unknown_cost = true;
                let gate = Gate {
                    gate: Some("max_total_cost".to_owned()),
                    error: Some(
                        "a model call reported no cost: max_total_cost counts the costs reported"
                            .to_owned(),
                    ),
                    ..Gate::default()
                };
                kernel.event(None, Event::GateEvaluated(gate));
            }
            None => {}
        }
        if self.spent <= limit {
            return None;
        }
        let gate = Gate {
            detail: Some(serde_json::json!({"limit": limit, "spent": self.spent})),
            ..Gate::named("max_total_cost", false)
        };
        kernel.event(None, Event::GateEvaluated(gate));
        Some(format!(
            "the run's model calls cost {}, past its max_total_cost of {limit}",
            self.spent
        ))
    }
}

/// A duration for people: whole seconds as `6s`, else milliseconds.
pub(super) fn millis(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}
