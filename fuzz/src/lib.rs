//! The fuzzer's parts, shared by the `logicmd-fuzz` binary and the regression test that replays
//! every find kept under `tests/fuzz/`.

pub mod corpus;
pub mod mutate;
pub mod targets;
