//! A trace as OpenTelemetry spans in OTLP/JSON (`ExportTraceServiceRequest`), following the
//! GenAI semantic conventions (v1.41, development status):
//!
//! - the run is an `invoke_workflow {name}` span (INTERNAL), named by the document's `name`;
//! - a node that reasons with a model (a LOGIC.md step, a workflow node, a DRTL `generate`,
//!   `fan_out` or `debate`, an `aggregate` that asks a model) is an `invoke_agent {node}` span
//!   (INTERNAL) with its provider and model; any other node (`verify`, `gate`, `review`,
//!   `transform`, a parallel join, ...) is a plain INTERNAL span `{kind} {node}`, since the
//!   conventions have no operation for it;
//! - each model call is a `chat {model}` span (CLIENT) with the provider, the model asked and
//!   the model that answered, the response's id and finish reason, token usage and the server;
//! - each tool verdict on a verification rule is an `execute_tool {rule}` span (INTERNAL);
//! - gates, verifications, retries, reviews and validation are span events of their node.
//!
//! Everything comes from the trace: span times are the run's wall-clock start (`run_started`
//! carries it when the run ran on the wall clock) plus each event's `t`; the provider and the
//! model of a call are what the driver said served it (a model's answer records it), else the
//! document's `vendor/model`. The same trace gives the same bytes: ids hash the whole trace
//! (so runs that differ in any answer or in their start get different trace ids) unless the
//! caller gives the trace id.

mod json;
mod spans;
#[cfg(test)]
mod tests;

use serde_json::Value;

use spans::Builder;

/// Choices the trace cannot make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportOptions {
    /// Unix time of the run's start, in milliseconds; `None` takes the start the trace records
    /// (a run on the wall clock), else 0 (a deterministic run has no wall-clock time).
    pub base_time_ms: Option<u64>,
    /// The resource's `service.name`.
    pub service_name: String,
    /// `gen_ai.workflow.name` of the run's span; `None` takes the document's `name`, else the
    /// run's kind.
    pub workflow_name: Option<String>,
    /// The trace id to use; `None` derives one from the whole trace.
    pub trace_id: Option<[u8; 16]>,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions {
            base_time_ms: None,
            service_name: "logicmd".to_owned(),
            workflow_name: None,
            trace_id: None,
        }
    }
}

/// The trace as an OTLP/JSON `ExportTraceServiceRequest`.
pub fn export(events: &[Value], options: &ExportOptions) -> Value {
    let trace_id = options.trace_id.map_or_else(|| trace_id(events), nonzero);
    let mut builder = Builder::new(events, options, trace_id);
    builder.build();
    json::request(&builder, options)
}

/// FNV-1a, 64 bits, then the splitmix64 finaliser so that inputs differing in their last
/// bytes give ids that differ everywhere: stable across platforms and versions, unlike the
/// standard hasher.
struct Fnv(u64);

impl Fnv {
    fn new(seed: u64) -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325 ^ seed)
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        let mut hash = self.0;
        hash ^= hash >> 30;
        hash = hash.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        hash ^= hash >> 27;
        hash = hash.wrapping_mul(0x94d0_49bb_1331_11eb);
        hash ^ (hash >> 31)
    }
}

/// Two hashes of the same bytes (a 128-bit id), fed in one pass.
struct Fnv128(Fnv, Fnv);

/// Serialising straight into the hashes: no text is built.
impl std::io::Write for Fnv128 {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &byte in bytes {
            self.0 .0 = (self.0 .0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            self.1 .0 = (self.1 .0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn fnv1a(bytes: &[u8], seed: u64) -> u64 {
    let mut hash = Fnv::new(seed);
    hash.feed(bytes);
    hash.finish()
}

/// All-zero ids are invalid in OTLP.
fn nonzero<const N: usize>(mut id: [u8; N]) -> [u8; N] {
    if id.iter().all(|&b| b == 0) {
        id[N - 1] = 1;
    }
    id
}

/// The whole trace hashed (every event as JSON): a run that differs in its input, in any
/// answer, or in its wall-clock start has another id; the same trace has the same one.
fn trace_id(events: &[Value]) -> [u8; 16] {
    let mut hash = Fnv128(Fnv::new(0), Fnv::new(1));
    for event in events {
        // Writing into a hash cannot fail.
        let _ = serde_json::to_writer(&mut hash, event);
    }
    let mut id = [0u8; 16];
    id[..8].copy_from_slice(&hash.0.finish().to_be_bytes());
    id[8..].copy_from_slice(&hash.1.finish().to_be_bytes());
    nonzero(id)
}
