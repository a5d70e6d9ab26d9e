// SPDX-License-Identifier: GPL-3.0-or-later
//! Protocol records (docs/protocol.md): one JSON object per line on stdout, flushed whole.
use serde_json::{json, Map, Value};
use std::io::Write;

use crate::cpuinfo::Clock;

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

/// The clock's raw probes (freq_cycles, freq_wall_ns, freq_cpu_ns) added last to a preamble,
/// point or end record, as the C core's add_probes; nothing when c measured nothing.
pub fn with_probes(mut rec: Value, c: &Clock) -> Value {
    if c.cycles > 0 && !c.wall_ns.is_empty() {
        if let Value::Object(m) = &mut rec {
            m.insert("freq_cycles".into(), json!(c.cycles));
            m.insert("freq_wall_ns".into(), json!(c.wall_ns));
            m.insert("freq_cpu_ns".into(), json!(c.cpu_ns));
        }
    }
    rec
}

/// The last record, with the clock measured after the work and its probes.
pub fn end(c: &Clock, elapsed_ns: u64) {
    emit(with_probes(record("end", json!({"freq_hz": freq(c.hz), "elapsed_ns": elapsed_ns})), c));
}

/// The end of bench and of each serve request: also the process's CPU time over the same
/// elapsed_ns (their ratio is the share of a CPU the core got).
pub fn end_cpu(c: &Clock, elapsed_ns: u64, cpu_ns: u64) {
    emit(with_probes(record("end", json!({"freq_hz": freq(c.hz), "elapsed_ns": elapsed_ns, "cpu_ns": cpu_ns})), c));
}

/// A serve request that cannot be run: an error of reason bad_request, algo and op null.
pub fn bad_request(lib: &str, message: &str) {
    emit(record("error", json!({"lib": lib, "algo": null, "op": null, "reason": "bad_request", "message": message})));
}
