//! The run's clock as the session keeps it. `Fixed` starts at the run's `start_ms` and moves only
//! by what the actions report — an action finishes its duration (a wait's milliseconds, a model's
//! reported latency) after the moment it was handed out — so the same answers give the same trace
//! bytes every time. `Real` is the caller's wall clock (milliseconds since the Unix epoch, handed
//! in as a value: core reads no clock), plus the waits passed without sleeping.

use serde::{Deserialize, Serialize};

/// Which clock a session runs on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockMode {
    /// Starts at `start_ms`; advances only by waits and reported latencies (deterministic).
    #[default]
    Fixed,
    /// The wall clock the caller hands in.
    Real,
}

#[derive(Debug, Clone)]
pub(super) struct Clock {
    pub mode: ClockMode,
    /// The time of the last feed: a later feed is never earlier.
    pub now: u64,
    /// Waits passed without sleeping on a real clock: the run's time still passes them.
    skipped: u64,
}

impl Clock {
    pub fn new(mode: ClockMode, now: u64) -> Clock {
        Clock {
            mode,
            now,
            skipped: 0,
        }
    }

    /// When an action handed out at `started_at` that took `took_ms` finished, its answer having
    /// come at `wall_ms` (the caller's clock).
    pub fn finished(&self, started_at: u64, took_ms: u64, wall_ms: u64) -> u64 {
        match self.mode {
            ClockMode::Fixed => started_at.saturating_add(took_ms),
            ClockMode::Real => wall_ms.saturating_add(self.skipped),
        }
    }

    /// A wait of `ms` passed at once: a real clock counts it as passed.
    pub fn skip(&mut self, ms: u64) {
        if self.mode == ClockMode::Real {
            self.skipped = self.skipped.saturating_add(ms);
        }
    }

    /// The time a feed happens at: `at`, or the last feed's time when that is later.
    pub fn feed_at(&mut self, at: u64) -> u64 {
        self.now = self.now.max(at);
        self.now
    }

    /// Moves the clock to `ms` when that is later (a caller's explicit clock).
    pub fn advance(&mut self, ms: u64) {
        self.now = self.now.max(ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_moves_by_durations_from_the_hand_out_and_never_back() {
        let mut clock = Clock::new(ClockMode::Fixed, 0);
        assert_eq!(clock.finished(0, 1_000, 99_999), 1_000);
        assert_eq!(clock.feed_at(1_000), 1_000);
        assert_eq!(clock.feed_at(clock.finished(0, 200, 0)), 1_000);
        assert_eq!(clock.feed_at(clock.finished(1_000, 500, 0)), 1_500);
        clock.skip(60_000);
        assert_eq!(
            clock.finished(1_500, 0, 0),
            1_500,
            "a fixed clock skips nothing"
        );
    }

    #[test]
    fn a_real_clock_is_the_wall_plus_the_waits_not_slept() {
        let mut clock = Clock::new(ClockMode::Real, 1_000);
        assert_eq!(clock.finished(0, 5, 2_000), 2_000);
        clock.skip(60_000);
        assert_eq!(clock.finished(0, 0, 2_000), 62_000);
        assert_eq!(clock.feed_at(62_000), 62_000);
        assert_eq!(clock.feed_at(3_000), 62_000);
    }
}
