//! `logicmd run`: the CLI's driver of core's run session (`logicmd::run::session`). The
//! session holds every rule of running; here are the transport (the OpenAI-compatible server,
//! link checks), the threads, the timers, the files (state journal, lock, trace) and printing
//! (progress, summary, report).

pub mod clock;
pub mod driver;
pub mod durable;
pub mod inputs;
pub mod lock;
pub mod progress;
pub mod report;
pub mod resume;
pub mod state;
pub mod summary;
pub mod tools;
