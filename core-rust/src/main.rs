// SPDX-License-Identifier: GPL-3.0-or-later
//! cipherbench-core-rust: the cipherbench core protocol (docs/protocol.md) for ring,
//! RustCrypto and AWS-LC (aws-lc-rs), as the libraries "ring", "rustcrypto" and "aws-lc":
//! list, kat, bench and serve, with the C core's arguments, known-answer checks, sampling
//! and JSON lines; and tls for rustls with each provider ("rustls-ring", "rustls-aws-lc").
mod algorithms;
mod args;
mod cpuinfo;
mod emit;
mod kat;
#[cfg(feature = "aws-lc")]
mod lib_awslc;
mod lib_ring;
mod lib_rustcrypto;
mod measure;
mod request;
mod rules;
mod ring_api;
mod serve;
mod tls;
mod tls_args;
mod tls_suites;
mod vectors;

use algorithms::{Kind, Library, Row, Setup, Status};
use args::Args;
use emit::{emit, record};
use kat::AlgoKat;
use measure::{wall_ns, AlignedBuf, Job};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};

const CORE_VERSION: &str = "0.1.0";
/// Every command of this core, in each preamble: a front end uses serve only when listed.
const COMMANDS: [&str; 5] = ["list", "kat", "bench", "serve", "tls"];
#[cfg(feature = "aws-lc")]
pub const LIBS: &[Library] = &[lib_ring::LIBRARY, lib_rustcrypto::LIBRARY, lib_awslc::LIBRARY];
#[cfg(not(feature = "aws-lc"))]
pub const LIBS: &[Library] = &[lib_ring::LIBRARY, lib_rustcrypto::LIBRARY];
/// Set (to the features asked off) in the environment of the second execution.
const HW_MARKER: &str = "CIPHERBENCH_CORE_HW_OFF";
const BENCH_SEED: u64 = 0x5eed0000cb01; // the C core's: every run times the same bytes
const FIT_MIN_SIZE: usize = 1024;
const AAD_LEN: usize = 13; // as in a TLS record
const WARM_NS: u64 = 5_000_000; // at least 5 ms of warm-up per point
/// The warm-up of a point calibrated by an earlier request of this served process (the C
/// core's WARM_MEMO_NS): its clock is up, and 1 ms refills the caches and predictors other
/// batches evicted; 5 ms at every round was a third of a short batch.
const WARM_MEMO_NS: u64 = 1_000_000;

/// What a run was asked to leave unused.
struct Hw {
    off: Vec<&'static str>,
}

/// Makes a --no-hw request effective before any library initialises: sets every
/// library's variables and executes the core again (once: HW_MARKER says it is done).
/// Returns only when this is that second execution, or with the error of exec.
fn hw_apply(off: &[&'static str]) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let want = off.join(",");
    if std::env::var(HW_MARKER).ok().as_deref() == Some(want.as_str()) {
        return Ok(());
    }
    let mut cmd = std::process::Command::new("/proc/self/exe");
    cmd.args(std::env::args_os().skip(1));
    if let Some(arg0) = std::env::args_os().next() {
        cmd.arg0(arg0);
    }
    for l in LIBS {
        for e in (l.hw_env)(off).unwrap_or_default() {
            if let Some((k, v)) = e.split_once('=') {
                cmd.env(k, v);
            }
        }
    }
    cmd.env(HW_MARKER, &want);
    let err = cmd.exec();
    Err(format!("cannot execute itself again to turn hardware features off: {}", err))
}

fn usage_error(msg: &str) -> i32 {
    eprintln!("cipherbench-core-rust: {}", msg);
    2
}

fn lib_names() -> String {
    LIBS.iter().map(|l| l.name).collect::<Vec<_>>().join(", ")
}

fn find_lib(name: &str) -> Result<&'static Library, String> {
    LIBS.iter().find(|l| l.name == name).ok_or_else(|| format!("unknown library '{}'; valid: {}", name, lib_names()))
}

/// The clock the preamble measured (f64 bits; 0: unknown): it sizes every point's probes
/// (the C core's cb_preamble_freq_hz).
static PREAMBLE_HZ: AtomicU64 = AtomicU64::new(0);

fn preamble_hz() -> f64 {
    f64::from_bits(PREAMBLE_HZ.load(Ordering::Relaxed))
}

/// Writes the preamble of command, with the clock's probes; returns the clock it measured
/// (0: unknown).
fn preamble(command: &str) -> f64 {
    let (model, flags) = cpuinfo::cpu_info();
    let c = cpuinfo::measure_freq_hz();
    emit(emit::with_probes(record("preamble", json!({
        "core_version": CORE_VERSION, "compiler": env!("CB_RUSTC"), "cflags": env!("CB_PROFILE"),
        "cpu_model": model, "cpu_flags": flags, "freq_hz": emit::freq(c.hz),
        "clock": "CLOCK_MONOTONIC", "command": command, "commands": COMMANDS})), &c));
    PREAMBLE_HZ.store(c.hz.to_bits(), Ordering::Relaxed);
    c.hz
}

/// The samples between two of a point's clock probes for n samples: n/6, from 1 to 8 (the C
/// core's cb_bench_best_of).
fn group_samples(n: usize) -> usize {
    (n / 6).clamp(1, 8)
}

/// How a request to turn features off stands for l: applied (its switch is set and what
/// it reports, if anything, shows none of them), failed, or cannot_disable (no switch).
fn hw_status(l: &Library, hw: &Hw) -> &'static str {
    if (l.hw_env)(&hw.off).is_none() {
        "cannot_disable"
    } else if (l.hw_used)().is_some_and(|u| u.iter().any(|f| hw.off.contains(f))) {
        "failed"
    } else {
        "applied"
    }
}

/// The library record, with what it reports of its CPU features and, when features were
/// asked off, how that stands.
fn library(l: &Library, hw: &Hw) {
    let used = (l.hw_used)();
    // caps as the C core names them, from the same report
    let caps = used.as_ref().map(|u| {
        [("aes", "aes_hw"), ("pclmul", "clmul_hw"), ("sha", "sha_hw"), ("avx2", "vector")]
            .iter().filter(|(f, _)| u.contains(f)).map(|(_, c)| *c).collect::<Vec<_>>()
    });
    let mut f = json!({"lib": l.name, "version": (l.version)(), "caps": caps, "provider": null, "hw_used": used});
    if !hw.off.is_empty() {
        f["hw_off_requested"] = json!(hw.off);
        f["hw_switch"] = json!(hw_status(l, hw));
        f["hw_env"] = json!((l.hw_env)(&hw.off).unwrap_or_default());
    }
    emit(record("library", f));
}

fn algorithm_record(lib: &str, r: &Row) -> Value {
    let a = &r.alg;
    record("algorithm", json!({"lib": lib, "algo": a.name, "kind": a.kind.name(), "ops": a.kind.ops(),
        "key_len": a.key_len, "iv_len": a.iv_len, "tag_len": a.tag_len, "block_len": a.block_len}))
}

fn selected(a: &Args) -> Result<Vec<&'static Library>, String> {
    match &a.lib {
        Some(n) => Ok(vec![find_lib(n)?]),
        None => Ok(LIBS.iter().collect()),
    }
}

fn cmd_list(a: &Args, hw: &Hw) -> i32 {
    let libs = match selected(a) {
        Ok(l) => l,
        Err(e) => return usage_error(&e),
    };
    let t0 = wall_ns();
    preamble("list");
    for l in libs {
        library(l, hw);
        for r in (l.rows)() {
            emit(algorithm_record(l.name, &r));
        }
    }
    emit::end(&cpuinfo::measure_freq_hz(), wall_ns() - t0);
    0
}

fn cmd_kat(a: &Args, hw: &Hw) -> i32 {
    let libs = match selected(a) {
        Ok(l) => l,
        Err(e) => return usage_error(&e),
    };
    let path = vectors::path(a.vectors.as_deref());
    let from_dir = std::path::Path::new(&path).is_dir();
    let set = match vectors::load(&path, LIBS) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    let t0 = wall_ns();
    preamble("kat");
    let mut failures = set.bad.len();
    for b in &set.bad {
        eprintln!("cipherbench-core-rust: {}", b);
    }
    let covered = |name: &str| set.files.iter().any(|f| f.algo == name);
    // Nothing to check (an empty directory, files for rows no selected library has) is a
    // failure too: a kat that checked nothing must not pass for one that passed.
    if !libs.iter().any(|l| (l.rows)().iter().any(|r| covered(r.alg.name))) {
        eprintln!("cipherbench-core-rust: no vector checked: {} holds no vector for a row of {}", path,
                  libs.iter().map(|l| l.name).collect::<Vec<_>>().join(", "));
        failures += 1;
    }
    for l in &libs {
        library(l, hw);
        for r in (l.rows)() {
            if !from_dir && !covered(r.alg.name) {
                continue;
            }
            match kat::kat_algo(l.name, &r, &set) {
                AlgoKat::Passed => {}
                AlgoKat::Failed(_) => failures += 1,
                AlgoKat::NoVectors(why) => emit::kat(l.name, r.alg.name, 0, 0, 0, "", &why),
            }
        }
    }
    // Differential: each algorithm that both libraries have (with --lib, those it has).
    if !a.no_differential {
        let mut seen: Vec<&str> = Vec::new();
        for r in LIBS.iter().flat_map(|l| (l.rows)()) {
            let name = r.alg.name;
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            let having: Vec<(&str, Row)> = LIBS.iter().filter_map(|l| l.row(name).map(|x| (l.name, x))).collect();
            let asked = libs.iter().any(|l| having.iter().any(|(n, _)| *n == l.name));
            if having.len() < 2 || !asked || (!from_dir && !covered(name)) {
                continue;
            }
            let names: Vec<&str> = having.iter().map(|(n, _)| *n).collect();
            match kat::differential(&r.alg, &having) {
                None => {}
                Some(Ok(())) => emit(record("differential", json!({"algo": name, "libs": names, "ok": true}))),
                Some(Err(m)) => {
                    failures += 1;
                    emit(record("differential", json!({"algo": name, "libs": names, "ok": false, "message": m})));
                }
            }
        }
    }
    emit::end(&cpuinfo::measure_freq_hz(), wall_ns() - t0);
    if failures > 0 { 1 } else { 0 }
}

/// What serve keeps between requests, as the C core's memo: each algorithm's known answers
/// are checked once (a failure is refused with the same message every time), and each
/// point's loop count is calibrated once.
#[derive(Default)]
struct Memo {
    kats: std::collections::HashMap<&'static str, Result<(), String>>,
    iters: std::collections::HashMap<PointKey, u64>,
}

/// A point as calibrated: algorithm, op, size, misalignment and the sample's minimum in ns.
type PointKey = (&'static str, String, usize, usize, u64);

/// A loop count calibrated before still serves while its last warm-up batch lasts at least
/// half a sample's minimum (else the machine got much faster, or its calibration was slowed).
fn keeps_iters(last_ns: u64, min_ns: u64) -> bool {
    last_ns >= min_ns / 2
}

/// How long a point whose loop count is kept warms up: WARM_MEMO_NS, or one sample's minimum
/// when that is longer.
fn memo_warm_ns(min_ns: u64) -> u64 {
    WARM_MEMO_NS.max(min_ns)
}

/// The point's loop count: one kept from an earlier request (memo) is only warmed up
/// (memo_warm_ns), unless it no longer keeps (keeps_iters); otherwise calibrated (again,
/// warming up for warm) and remembered. Noise between the two is tolerated, so the rounds
/// of a point keep one loop count.
fn point_iters(job: &mut Job, memo: Option<&mut Memo>, key: PointKey, warm: u64, min_ns: u64) -> Result<u64, Status> {
    let kept = memo.as_ref().and_then(|m| m.iters.get(&key).copied());
    if let Some(k) = kept {
        if keeps_iters(job.warm(memo_warm_ns(min_ns), k)?, min_ns) {
            return Ok(k);
        }
    }
    let k = job.calibrate(warm, min_ns)?;
    if let Some(m) = memo {
        m.iters.insert(key, k);
    }
    Ok(k)
}

/// Times op on size bytes and emits the point; the median wall time of one call, or None
/// after an error record. With a memo, a point calibrated before keeps its loop count.
fn measure_point(a: &Args, lib: &str, r: &Row, size: usize, memo: Option<&mut Memo>) -> Option<f64> {
    let alg = &r.alg;
    let op = a.op.as_deref().unwrap_or("");
    let decrypt = op == "decrypt";
    let fail = |reason: &str, m: String| {
        emit::error(lib, alg.name, Some(op), reason, &format!("size {}: {}", size, m));
        None
    };
    let (mut key, mut iv, mut aad) = ([0u8; 64], [0u8; 64], [0u8; AAD_LEN]);
    let mut seed = BENCH_SEED;
    measure::prng_fill(&mut seed, &mut key);
    measure::prng_fill(&mut seed, &mut iv);
    measure::prng_fill(&mut seed, &mut aad);
    let mut inp = AlignedBuf::new(size, a.misalign);
    measure::prng_fill(&mut seed, inp.get_mut());
    let has_out = matches!(alg.kind, Kind::Aead | Kind::Cipher);
    let out = AlignedBuf::new(if has_out { size } else { 0 }, a.misalign);
    let s = Setup { key: &key[..alg.key_len], tag_len: alg.tag_len, decrypt };
    let mut job = Job {
        runner: Box::new(Noop),
        inp,
        out,
        nonce: if alg.per_message_nonce { iv[..alg.iv_len].to_vec() } else { Vec::new() },
        aad: if alg.kind == Kind::Aead { aad.to_vec() } else { Vec::new() },
        tag: vec![0u8; alg.tag_len],
        bump_nonce: alg.per_message_nonce && !(alg.kind == Kind::Aead && decrypt),
        counter: 0,
    };
    if alg.kind == Kind::Aead && decrypt {
        // Encrypt once so that every timed decryption verifies its tag.
        let es = Setup { decrypt: false, ..s };
        match (r.init)(alg, &es) {
            Ok(enc) => job.runner = enc,
            Err(st) => return fail("init_failed", format!("encrypt init returned status {}", st as i32)),
        }
        let st = job.run(1);
        if st != Status::Ok {
            return fail("run_failed", format!("encrypting the message to decrypt returned status {}", st as i32));
        }
        let ct = job.out.get().to_vec();
        job.inp.get_mut().copy_from_slice(&ct);
    }
    match (r.init)(alg, &s) {
        Ok(x) => job.runner = x,
        Err(st) => {
            let reason = if st == Status::Param { "unsupported" } else { "init_failed" };
            return fail(reason, format!("init returned status {} for key {}, iv {}, tag {} bytes",
                                        st as i32, alg.key_len, alg.iv_len, alg.tag_len));
        }
    }
    let run_err = |st: Status| {
        let auth = if st == Status::Auth { " (the tag did not verify)" } else { "" };
        fail("run_failed", format!("{} returned status {}{}", op, st as i32, auth))
    };
    let min_ns = (a.min_sample_ms * 1e6) as u64;
    let warm = WARM_NS.max(2 * min_ns);
    let key = (alg.name, op.to_string(), size, a.misalign, min_ns);
    let iters = match point_iters(&mut job, memo, key, warm, min_ns) {
        Ok(k) => k,
        Err(st) => return run_err(st),
    };
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    // The clock probed before each group of group_samples samples (the C core's sample_loop:
    // interleaved, so a busy stretch falls on probes and samples alike).
    let (group, hz) = (group_samples(a.samples), preamble_hz());
    let mut probes = cpuinfo::Clock::default();
    if hz > 0.0 && cpuinfo::has_chain() {
        probes.cycles = cpuinfo::clock_cycles(cpuinfo::clock_rounds(min_ns.min(cpuinfo::CLOCK_PROBE_NS), hz));
    }
    for i in 0..a.samples {
        if probes.cycles > 0 && i % group == 0 {
            probes.probe();
        }
        let (w, c, st) = job.sample(iters);
        if st != Status::Ok {
            return run_err(st);
        }
        wall.push(w);
        cpu.push(c);
    }
    emit(emit::with_probes(record("point", json!({"lib": lib, "algo": alg.name, "op": op, "size": size,
        "iters": iters, "wall_ns": wall, "cpu_ns": cpu, "misalign": a.misalign})), &probes));
    let w: Vec<f64> = wall.iter().map(|x| *x as f64).collect();
    Some(measure::median(&w) / iters as f64)
}

/// Before the real context is keyed.
struct Noop;
impl algorithms::Runner for Noop {
    fn run(&mut self, _: &mut algorithms::Msg) -> Status {
        Status::Err
    }
}

/// Every size, then the fit. Returns true when every point was measured.
fn bench_algo(a: &Args, lib: &str, r: &Row, mut memo: Option<&mut Memo>) -> bool {
    let op = a.op.as_deref().unwrap_or("");
    let (mut xs, mut ys, mut fit_sizes) = (Vec::new(), Vec::new(), Vec::new());
    for &size in &a.sizes {
        if size % r.alg.block_len != 0 {
            emit::error(lib, r.alg.name, Some(op), "bad_size",
                        &format!("size {} is not a multiple of the {}-byte block", size, r.alg.block_len));
            continue;
        }
        let Some(per_op) = measure_point(a, lib, r, size, memo.as_deref_mut()) else { return false };
        if size >= FIT_MIN_SIZE {
            xs.push(size as f64);
            ys.push(per_op);
            fit_sizes.push(size);
        }
    }
    if let Some((slope, icpt, r2)) = measure::fit_linear(&xs, &ys) {
        emit(record("fit", json!({"lib": lib, "algo": r.alg.name, "op": op, "slope_ns_per_byte": slope,
            "intercept_ns": icpt, "r2": r2, "sizes": fit_sizes})));
    }
    true
}

/// Everything the arguments name, checked before any output.
fn validate_bench(a: &Args) -> Result<(&'static Library, Vec<Row>), String> {
    let lib = find_lib(a.lib.as_deref().unwrap_or(""))?;
    let op = a.op.as_deref().unwrap_or("");
    let mut rows = Vec::new();
    for name in &a.algos {
        let Some(r) = lib.row(name) else {
            let valid: Vec<&str> = (lib.rows)().iter().map(|r| r.alg.name).collect();
            return Err(format!("library {} has no algorithm '{}'; valid: {}", lib.name, name, valid.join(", ")));
        };
        if !r.alg.kind.ops().contains(&op) {
            return Err(format!("unknown op '{}' for {}; valid: {}", op, name, r.alg.kind.ops().join(", ")));
        }
        if let Some(s) = a.sizes.iter().find(|s| a.sizes_given && *s % r.alg.block_len != 0) {
            return Err(format!("size {} is not a multiple of {}'s block of {} bytes; valid: multiples of the block",
                               s, name, r.alg.block_len));
        }
        rows.push(r);
    }
    Ok((lib, rows))
}

/// What bench and serve do before anything is timed: pin to --cpu, load the vectors (the
/// entries that cannot be read are warned about and left out).
pub(crate) fn pin_and_load(a: &Args) -> Result<vectors::VecSet, String> {
    if let Some(cpu) = a.cpu {
        measure::pin_cpu(cpu)?;
    }
    let set = vectors::load(&vectors::path(a.vectors.as_deref()), LIBS)?;
    for b in &set.bad {
        eprintln!("cipherbench-core-rust: warning: {} (left out)", b);
    }
    Ok(set)
}

fn cmd_bench(a: &Args, hw: &Hw) -> i32 {
    let (lib, rows) = match validate_bench(a) {
        Ok(x) => x,
        Err(e) => return usage_error(&e),
    };
    // Nothing is timed before it passes its vectors.
    let set = match pin_and_load(a) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    let t0 = wall_ns();
    let c0 = measure::cpu_ns();
    preamble("bench");
    library(lib, hw);
    let failures = bench_run(lib, hw, &set, a, &rows, None);
    emit::end_cpu(&cpuinfo::measure_freq_hz(), wall_ns() - t0, measure::cpu_ns() - c0);
    if failures > 0 { 1 } else { 0 }
}

/// The known answers of r, checked once when there is a memo.
fn kat_ok(lib: &Library, r: &Row, set: &vectors::VecSet, memo: Option<&mut Memo>) -> Result<(), String> {
    if let Some(known) = memo.as_ref().and_then(|m| m.kats.get(r.alg.name)) {
        return known.clone();
    }
    let ok = match kat::kat_algo(lib.name, r, set) {
        AlgoKat::Passed => Ok(()),
        AlgoKat::Failed(why) | AlgoKat::NoVectors(why) => Err(why),
    };
    if let Some(m) = memo {
        m.kats.insert(r.alg.name, ok.clone());
    }
    ok
}

/// Times every row of a in turn, for bench and for each request of serve: known answers
/// first (remembered in memo when given), then a point per size. Returns how many
/// algorithms failed.
fn bench_run(lib: &Library, hw: &Hw, set: &vectors::VecSet, a: &Args, rows: &[Row], mut memo: Option<&mut Memo>) -> usize {
    let op = a.op.as_deref().unwrap_or("");
    let mut failures = 0;
    for r in rows {
        match if hw.off.is_empty() { "applied" } else { hw_status(lib, hw) } {
            "cannot_disable" => {
                emit::error(lib.name, r.alg.name, Some(op), "cannot_disable",
                            "the library has no supported switch to turn off the CPU features asked; not measured");
                continue;
            }
            "failed" => {
                emit::error(lib.name, r.alg.name, Some(op), "hw_switch_failed",
                            "the library reports a CPU feature asked off still in use; not measured");
                failures += 1;
                continue;
            }
            _ => {}
        }
        if let Err(why) = kat_ok(lib, r, set, memo.as_deref_mut()) {
            emit::error(lib.name, r.alg.name, Some(op), "kat_failed", &why);
            failures += 1;
            continue;
        }
        if !bench_algo(a, lib.name, r, memo.as_deref_mut()) {
            failures += 1;
        }
    }
    failures
}

fn main() {
    let mut argv: Vec<String> = std::env::args().skip(1).collect();
    let code = match args::take_hw_args(&mut argv) {
        Err(e) => usage_error(&e),
        Ok(off) => {
            if !off.is_empty() {
                if let Err(e) = hw_apply(&off) {
                    eprintln!("cipherbench-core-rust: {}", e);
                    std::process::exit(1);
                }
            }
            let hw = Hw { off };
            if argv.first().map(String::as_str) == Some("tls") {
                std::process::exit(tls::cmd_tls(&argv[1..], |c| {
                    preamble(c);
                }));
            }
            match Args::parse(&argv) {
                Err(e) => usage_error(&e),
                Ok(a) => match a.cmd.as_str() {
                    "help" => {
                        eprint!("{}", args::USAGE);
                        0
                    }
                    "list" => cmd_list(&a, &hw),
                    "kat" => cmd_kat(&a, &hw),
                    "serve" => serve::cmd_serve(&a, &hw),
                    _ => cmd_bench(&a, &hw),
                },
            }
        }
    };
    std::process::exit(code);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The samples between two of a point's probes: n/6, from 1 to 8 (the C core's best_of).
    #[test]
    fn group_samples_as_the_c_core() {
        for (n, want) in [(1, 1), (5, 1), (6, 1), (13, 2), (48, 8), (1000, 8)] {
            assert_eq!(group_samples(n), want, "{}", n);
        }
    }

    fn kat_of(dir: &str) -> i32 {
        let argv: Vec<String> = ["kat", "--no-differential", "--vectors", dir].iter().map(|s| s.to_string()).collect();
        cmd_kat(&Args::parse(&argv).expect("arguments"), &Hw { off: Vec::new() })
    }

    /// Takes at least 1 us a call, whatever the machine.
    struct Slow;
    impl algorithms::Runner for Slow {
        fn run(&mut self, _: &mut algorithms::Msg) -> Status {
            let t0 = wall_ns();
            while wall_ns() - t0 < 1000 {}
            Status::Ok
        }
    }

    fn slow_job() -> Job {
        Job { runner: Box::new(Slow), inp: AlignedBuf::new(16, 0), out: AlignedBuf::new(16, 0), nonce: Vec::new(),
              aad: Vec::new(), tag: Vec::new(), bump_nonce: false, counter: 0 }
    }

    /// A point calibrated before keeps its loop count (only warmed up) while a batch of it
    /// lasts half a sample's minimum; a new point is calibrated and remembered.
    #[test]
    fn memo_keeps_a_points_loop_count() {
        let mut memo = Memo::default();
        let key = |size| ("sha256", "hash".to_string(), size, 0, 2_000u64);
        memo.iters.insert(key(16), 7); // 7 calls of >= 1 us: at least the 1 us asked
        assert_eq!(point_iters(&mut slow_job(), Some(&mut memo), key(16), 100_000, 2_000), Ok(7));
        let k = point_iters(&mut slow_job(), Some(&mut memo), key(64), 100_000, 2_000).unwrap();
        assert!((1..=3).contains(&k), "about 2 us of 1 us calls: {}", k);
        assert_eq!(memo.iters.get(&key(64)), Some(&k));
        assert!(keeps_iters(1_000, 2_000) && !keeps_iters(999, 2_000));
    }

    /// Counts its calls, each of at least 1 us.
    struct Counted(std::rc::Rc<std::cell::Cell<u64>>);
    impl algorithms::Runner for Counted {
        fn run(&mut self, m: &mut algorithms::Msg) -> Status {
            self.0.set(self.0.get() + 1);
            Slow.run(m)
        }
    }

    /// A point calibrated by an earlier request warms up for 1 ms (or one sample's minimum
    /// when longer), not for the first calibration's warm-up.
    #[test]
    fn kept_count_warms_briefly() {
        assert_eq!((memo_warm_ns(0), memo_warm_ns(500_000), memo_warm_ns(2_000_000)), (1_000_000, 1_000_000, 2_000_000));
        let calls = std::rc::Rc::new(std::cell::Cell::new(0));
        let mut job = Job { runner: Box::new(Counted(calls.clone())), ..slow_job() };
        let mut memo = Memo::default();
        let key = ("sha256", "hash".to_string(), 16, 0, 2_000u64);
        memo.iters.insert(key.clone(), 7); // 7 calls of >= 1 us: at least half the 2 us asked
        assert_eq!(point_iters(&mut job, Some(&mut memo), key, 50_000_000, 2_000), Ok(7));
        // Batches of 7 calls of >= 1 us each until 1 ms has passed: at most 143 of them.
        assert!((7..=7 * 143).contains(&calls.get()), "{} calls: the warm-up was not about 1 ms", calls.get());
    }

    /// kat that checked nothing fails: an empty directory, or files for rows no library has.
    #[test]
    fn kat_of_nothing_fails() {
        let dir = std::env::temp_dir().join(format!("cb-rust-kat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(kat_of(dir.to_str().unwrap()), 1, "an empty directory");
        let sha = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/sha256.json");
        std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/aes-128-kw.json"), dir.join("aes-128-kw.json")).unwrap();
        assert_eq!(kat_of(dir.to_str().unwrap()), 1, "files for rows no library here has");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(kat_of(sha), 0, "sha256");
    }
}
