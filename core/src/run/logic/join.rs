//! Parallel steps' joins (spec §4.3): `all` waits for every member, `any` for one, `majority`
//! for more than half. `any` and `majority` tolerate members that fail, as long as the join can
//! still be met (a member whose failure is tolerated is one only such joins wait for); once it
//! cannot, the parallel step fails, naming the failures. `join_timeout` bounds the wait from
//! the moment the first member starts: the members' calls end by it, and a join not met by then
//! fails the step.

use crate::duration::parse_duration;
use crate::flow::EdgeKind;
use crate::run::kernel::Kernel;

use super::{StepsProgram, UnitState};

/// How many members a join waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Join {
    All,
    Any,
    Majority,
}

impl Join {
    fn name(self) -> &'static str {
        match self {
            Join::All => "all",
            Join::Any => "any",
            Join::Majority => "majority",
        }
    }

    /// Met with `done` of `members` finished.
    fn met(self, done: usize, members: usize) -> bool {
        match self {
            Join::All => done == members,
            Join::Any => done >= 1,
            Join::Majority => done * 2 > members,
        }
    }
}

/// The members of a parallel step, as the join counts them.
struct Members {
    members: usize,
    done: usize,
    /// The failed members and why.
    failed: Vec<(String, String)>,
    /// Members still to settle.
    waiting: Vec<String>,
    /// Something else the step runs after has not settled.
    other_unsettled: bool,
}

impl StepsProgram {
    /// The join of `unit`, if it is a parallel step.
    fn join_of(&self, unit: usize) -> Option<Join> {
        let step = &self.shared.spec.steps[self.graph.step_of(unit)?];
        if !step.is_parallel() {
            return None;
        }
        // As the plan reads it: `any`, `all`, and every other join is a majority.
        Some(match step.join.as_deref().unwrap_or("all") {
            "all" => Join::All,
            "any" => Join::Any,
            _ => Join::Majority,
        })
    }

    fn members(&self, unit: usize) -> Members {
        let mut members = Members {
            members: 0,
            done: 0,
            failed: Vec::new(),
            waiting: Vec::new(),
            other_unsettled: false,
        };
        for edge in self.graph.incoming(unit).filter(|e| !e.kind.is_choice()) {
            let state = &self.states[edge.from];
            if edge.kind != EdgeKind::Parallel {
                members.other_unsettled |= !state.settled();
                continue;
            }
            members.members += 1;
            let name = self.graph.name(edge.from).to_owned();
            match state {
                UnitState::Done => members.done += 1,
                UnitState::Failed(error) => members.failed.push((name, error.clone())),
                state if !state.settled() => members.waiting.push(name),
                _ => {}
            }
        }
        members
    }

    /// Whatever the unit runs after has settled; a parallel step's join is met (§4.3).
    pub(super) fn needs_met(&self, unit: usize) -> bool {
        if self.unsettled[unit] == 0 {
            return true;
        }
        let Some(join) = self.join_of(unit).filter(|j| *j != Join::All) else {
            return false;
        };
        let members = self.members(unit);
        !members.other_unsettled && join.met(members.done, members.members)
    }

    /// Why parallel step `unit`'s join can no longer be met, once failed members make it so.
    pub(super) fn join_lost(&self, unit: usize) -> Option<String> {
        let join = self.join_of(unit)?;
        let members = self.members(unit);
        let could = members.members - members.failed.len();
        if members.failed.is_empty() || join.met(could, members.members) {
            return None;
        }
        let failed: Vec<String> = members
            .failed
            .iter()
            .map(|(name, error)| format!("`{name}` failed ({error})"))
            .collect();
        Some(format!(
            "step `{}`: its join ({} of {}) can no longer be met: {}",
            self.graph.name(unit),
            join.name(),
            members.members,
            failed.join("; ")
        ))
    }

    /// Whether a failure of `unit` leaves the run going: only joins that need not all their
    /// members (`any`, `majority`) run after it.
    pub(super) fn tolerates_failure(&self, unit: usize) -> bool {
        let mut outgoing = self.graph.outgoing(unit).peekable();
        outgoing.peek().is_some()
            && outgoing.all(|edge| {
                edge.kind == EdgeKind::Parallel
                    && matches!(self.join_of(edge.to), Some(Join::Any | Join::Majority))
            })
    }

    /// The clock by which `unit`, starting now, must be over: the `join_timeout` of the
    /// parallel steps it is a member of (counted from their first member's start) and the
    /// run's own deadline.
    pub(super) fn deadline_of(&mut self, kernel: &Kernel, unit: usize) -> Option<u64> {
        let joins: Vec<usize> = self
            .graph
            .outgoing(unit)
            .filter(|e| e.kind == EdgeKind::Parallel)
            .map(|e| e.to)
            .collect();
        let mut deadline = self.run_deadline;
        for join in joins {
            let Some(timeout) = self.join_timeout(join) else {
                continue;
            };
            let at = *self
                .join_deadlines
                .entry(join)
                .or_insert(kernel.now.saturating_add(timeout));
            deadline = Some(deadline.map_or(at, |d| d.min(at)));
        }
        deadline
    }

    fn join_timeout(&self, unit: usize) -> Option<u64> {
        let step = &self.shared.spec.steps[self.graph.step_of(unit)?];
        let text = step.join_timeout.as_deref()?;
        let timeout = parse_duration(text).ok()?;
        Some(timeout.as_millis().min(u64::MAX as u128) as u64)
    }

    /// A join still waiting past its `join_timeout`: why the run fails. Only the joins with a
    /// timeout are looked at, so a run stays linear in its steps.
    pub(super) fn join_timed_out(&self, kernel: &Kernel) -> Option<String> {
        self.join_deadlines.iter().find_map(|(&unit, &deadline)| {
            if kernel.now <= deadline || !matches!(self.states[unit], UnitState::Pending) {
                return None;
            }
            let join = self.join_of(unit)?;
            let members = self.members(unit);
            let step = &self.shared.spec.steps[self.graph.step_of(unit)?];
            let waiting: Vec<String> = members
                .waiting
                .iter()
                .map(|name| format!("`{name}` had not finished"))
                .collect();
            Some(format!(
                "step `{}`: its join ({} of {}) was not met within its join_timeout of {}: {}",
                self.graph.name(unit),
                join.name(),
                members.members,
                step.join_timeout.as_deref().unwrap_or_default(),
                waiting.join("; ")
            ))
        })
    }
}
