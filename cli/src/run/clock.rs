//! `--clock`: which clock the run session keeps (`logicmd::run::session::ClockMode`). `fixed`
//! starts at 0 and moves only by what the actions report (a wait's milliseconds, a model's
//! reported latency), so the same answers give the same trace bytes every time; `real` is the
//! wall clock. Without the flag the clock follows the provider: real for a real server (whose
//! latencies and waits are real), fixed for the synthetic and scripted answers.

use clap::ValueEnum;
use logicmd::run::session::ClockMode;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClockFlag {
    /// Starts at 0; advances only by waits and reported latencies (deterministic).
    Fixed,
    /// The wall clock.
    Real,
}

/// The clock a run keeps: the flag's, else the provider's.
pub fn clock_mode(flag: Option<ClockFlag>, real_provider: bool) -> ClockMode {
    match flag {
        Some(ClockFlag::Fixed) => ClockMode::Fixed,
        Some(ClockFlag::Real) => ClockMode::Real,
        None if real_provider => ClockMode::Real,
        None => ClockMode::Fixed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_clock_follows_the_provider() {
        assert_eq!(clock_mode(None, true), ClockMode::Real);
        assert_eq!(clock_mode(None, false), ClockMode::Fixed);
        assert_eq!(clock_mode(Some(ClockFlag::Fixed), true), ClockMode::Fixed);
        assert_eq!(clock_mode(Some(ClockFlag::Real), false), ClockMode::Real);
    }
}
