//! Run traces after the fact (issue #15): temporal obligations checked on a finished or paused
//! trace, and export as OpenTelemetry spans.
//!
//! ```text
//! JSON Lines ──read_jsonl (bounded; `line N: …`)──► events
//! events + rules ──check──► violations (rule, event index, message)
//!     built-ins: the plan in `run_started` + one pass per rule (builtins.rs)
//!     formulas: LTL over finite traces with past operators (ltl.rs, atoms.rs)
//! events ──otlp::export──► OTLP/JSON (`resourceSpans`), GenAI semantic conventions
//! ```

mod atoms;
mod builtins;
mod check;
mod event;
mod ltl;
mod otlp;
mod plan;
mod read;
mod view;

pub use builtins::{Builtin, TERMINATES};
pub use check::{check, not_checked, NotChecked, Rule, Violation};
pub use event::{
    Event, EventKind, Fields, Gate, ModelResponded, NodeFinished, NodeStatus, ObligationStatus,
    ObligationUpdated, Participant, Record, Response, ReviewAnswered, Route, RuleMode, RunStatus,
    Speaker,
};
pub use ltl::{Formula, ParseError, MAX_DEPTH, MAX_FORMULA_BYTES};
pub use otlp::{export, ExportOptions};
pub use read::{read_jsonl, ReadError, Trace, TraceLimits};
