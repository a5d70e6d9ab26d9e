// SPDX-License-Identifier: GPL-3.0-or-later
//! Protocol records (docs/protocol.md): one JSON object per line on stdout, flushed whole.
use serde_json::{json, Map, Value};
use std::io::Write;

pub const PROTOCOL_VERSION: u32 = 1;

/// A record with its "v" and "type" first, then the given fields in order.
pub fn record(kind: &str, fields: Value) -> Value {
    let mut m = Map::new();
    m.insert("v".into(), json!(PROTOCOL_VERSION));
    m.insert("type".into(), json!(kind));
    if let Value::Object(f) = fields {
        for (k, v) in f {
            m.insert(k, v);
        }
    }
    Value::Object(m)
}

pub fn emit(rec: Value) {
    let mut line = rec.to_string();
    line.push('\n');
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = lock.write_all(line.as_bytes());
    let _ = lock.flush();
}

pub fn freq(f: f64) -> Value {
    if f > 0.0 { json!(f) } else { Value::Null }
}

pub fn kat(lib: &str, algo: &str, passed: usize, failed: usize, skipped: usize, source: &str, message: &str) {
    let mut f = json!({"lib": lib, "algo": algo, "passed": passed, "failed": failed, "skipped": skipped,
                       "source": if source.is_empty() { Value::Null } else { json!(source) }});
    if !message.is_empty() {
        f["message"] = json!(message);
    }
    emit(record("kat", f));
}

/// An error record; op None is written as null (kat).
pub fn error(lib: &str, algo: &str, op: Option<&str>, reason: &str, message: &str) {
    emit(record("error", json!({"lib": lib, "algo": algo, "op": op, "reason": reason, "message": message})));
}

pub fn end(freq_hz: f64, elapsed_ns: u64) {
    emit(record("end", json!({"freq_hz": freq(freq_hz), "elapsed_ns": elapsed_ns})));
}

/// The end of bench and of each serve request: also the process's CPU time over the same
/// elapsed_ns (their ratio is the share of a CPU the core got).
pub fn end_cpu(freq_hz: f64, elapsed_ns: u64, cpu_ns: u64) {
    emit(record("end", json!({"freq_hz": freq(freq_hz), "elapsed_ns": elapsed_ns, "cpu_ns": cpu_ns})));
}

/// A serve request that cannot be run: an error of reason bad_request, algo and op null.
pub fn bad_request(lib: &str, message: &str) {
    emit(record("error", json!({"lib": lib, "algo": null, "op": null, "reason": "bad_request", "message": message})));
}
