//! The run's clock. `fixed` (the default for the synthetic and scripted providers) starts at 0
//! and moves only by what the actions report: a batch starts at the clock's current time and
//! each action finishes that long after it (a wait's milliseconds, a model's reported latency),
//! so the same run gives the same trace bytes every time. `real` is the wall clock in
//! milliseconds since the Unix epoch (plus the waits not slept with `--no-wait`).

use std::time::{SystemTime, UNIX_EPOCH};

use clap::ValueEnum;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockMode {
    /// Starts at 0; advances only by waits and reported latencies (deterministic).
    Fixed,
    /// The wall clock.
    Real,
}

#[derive(Debug, Clone)]
pub struct Clock {
    mode: ClockMode,
    now: u64,
    /// Waits skipped (`--no-wait`) on a real clock: the run's time still passes them.
    skipped: u64,
}

impl Clock {
    /// A clock for a new run, at its start.
    pub fn new(mode: ClockMode) -> Clock {
        Clock::resumed(mode, 0)
    }

    /// A clock for a run resumed at `at` (its snapshot's clock): a real clock goes on from now.
    pub fn resumed(mode: ClockMode, at: u64) -> Clock {
        let now = match mode {
            ClockMode::Fixed => at,
            ClockMode::Real => at.max(wall_ms()),
        };
        Clock {
            mode,
            now,
            skipped: 0,
        }
    }

    pub fn now(&self) -> u64 {
        self.now
    }

    /// The time an action of the batch started at `batch_start` finished: `duration_ms` later
    /// on a fixed clock, now on a real one (`skipped_ms`: a wait not slept). Never earlier than
    /// the last time given.
    pub fn finished(&mut self, batch_start: u64, duration_ms: u64, skipped_ms: u64) -> u64 {
        let at = match self.mode {
            ClockMode::Fixed => batch_start.saturating_add(duration_ms),
            ClockMode::Real => {
                self.skipped = self.skipped.saturating_add(skipped_ms);
                wall_ms().saturating_add(self.skipped)
            }
        };
        self.now = self.now.max(at);
        self.now
    }
}

fn wall_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis().min(u64::MAX as u128) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_moves_by_durations_from_the_batch_start_and_never_back() {
        let mut clock = Clock::new(ClockMode::Fixed);
        assert_eq!(clock.finished(0, 1_000, 0), 1_000);
        assert_eq!(clock.finished(0, 200, 0), 1_000);
        assert_eq!(clock.finished(0, 1_500, 0), 1_500);
        assert_eq!(clock.now(), 1_500);
        assert_eq!(Clock::resumed(ClockMode::Fixed, 42).now(), 42);
    }

    #[test]
    fn a_real_clock_counts_skipped_waits() {
        let mut clock = Clock::new(ClockMode::Real);
        let before = clock.now();
        let after = clock.finished(before, 0, 60_000);
        assert!(after >= before + 60_000);
    }
}
