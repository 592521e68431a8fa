//! `logicmd run`: the driver of core's sans-IO engine (`logicmd::run`). It carries out the
//! engine's actions (providers, tool checkers, waits, review pauses), keeps the trace and the
//! state durable, shows progress and sums the run up.

pub mod clock;
pub mod driver;
pub mod durable;
pub mod inputs;
pub mod progress;
pub mod report;
pub mod resume;
pub mod state;
pub mod summary;
pub mod tools;
