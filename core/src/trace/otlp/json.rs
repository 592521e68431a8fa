//! The spans as OTLP/JSON (proto3's JSON mapping): ids in lowercase hex, 64-bit integers as
//! strings, span kinds and status codes as numbers.

use serde_json::{json, Map, Value};

use super::spans::{pair, Builder};
use super::ExportOptions;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn nanos(ms: u64) -> String {
    ms.saturating_mul(1_000_000).to_string()
}

/// An attribute value as OTLP/JSON `AnyValue`; `None` for null. Integers are strings (int64
/// in proto3 JSON); a list of scalars is an `arrayValue`; other nested values are their JSON
/// text, which every backend can show.
fn any_value(value: &Value) -> Option<Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => json!({ "boolValue": b }),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => json!({ "intValue": i.to_string() }),
            (None, Some(f)) if n.is_f64() => json!({ "doubleValue": f }),
            _ => json!({ "stringValue": n.to_string() }),
        },
        Value::String(s) => json!({ "stringValue": s }),
        Value::Array(items) if is_scalar_list(items) => {
            let values: Vec<Value> = items.iter().filter_map(any_value).collect();
            json!({ "arrayValue": { "values": values } })
        }
        other => json!({ "stringValue": other.to_string() }),
    })
}

/// A non-empty list of strings, numbers or booleans (OTLP's homogeneous arrays).
fn is_scalar_list(items: &[Value]) -> bool {
    let kind = |v: &Value| match v {
        Value::String(_) => Some(0),
        Value::Number(_) => Some(1),
        Value::Bool(_) => Some(2),
        _ => None,
    };
    let Some(first) = items.first().and_then(kind) else {
        return false;
    };
    items.iter().all(|item| kind(item) == Some(first))
}

fn attributes(pairs: &[(String, Value)]) -> Value {
    Value::Array(
        pairs
            .iter()
            .filter_map(|(key, value)| Some(json!({"key": key, "value": any_value(value)?})))
            .collect(),
    )
}

/// The whole `ExportTraceServiceRequest`.
pub(super) fn request(builder: &Builder, options: &ExportOptions) -> Value {
    let trace_id = hex(&builder.trace_id);
    let spans: Vec<Value> = builder
        .spans
        .iter()
        .map(|span| {
            let mut out = Map::new();
            out.insert("traceId".into(), trace_id.clone().into());
            out.insert("spanId".into(), hex(&span.id).into());
            if let Some(parent) = span.parent {
                out.insert("parentSpanId".into(), hex(&builder.spans[parent].id).into());
            }
            out.insert("name".into(), span.name.clone().into());
            out.insert("kind".into(), span.kind.into());
            out.insert("startTimeUnixNano".into(), nanos(span.start_ms).into());
            let end = span.end_ms.unwrap_or(span.start_ms);
            out.insert("endTimeUnixNano".into(), nanos(end).into());
            out.insert("attributes".into(), attributes(&span.attributes));
            let events: Vec<Value> = span
                .events
                .iter()
                .map(|e| {
                    json!({
                        "timeUnixNano": nanos(e.time_ms),
                        "name": e.name,
                        "attributes": attributes(&e.attributes),
                    })
                })
                .collect();
            out.insert("events".into(), Value::Array(events));
            let mut status = Map::new();
            status.insert("code".into(), span.status.0.into());
            if !span.status.1.is_empty() {
                status.insert("message".into(), span.status.1.clone().into());
            }
            out.insert("status".into(), Value::Object(status));
            Value::Object(out)
        })
        .collect();
    json!({
        "resourceSpans": [{
            "resource": {
                "attributes": attributes(&[pair("service.name", options.service_name.clone())]),
            },
            "scopeSpans": [{
                "scope": {"name": "logicmd", "version": env!("CARGO_PKG_VERSION")},
                "spans": spans,
            }],
        }]
    })
}
