// SPDX-License-Identifier: GPL-3.0-or-later
//! `serve` as a front end drives it: the real executable, requests on its stdin, records read
//! back (docs/protocol.md, "serve: one process for many measurements").
use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors");

/// Runs `serve` with args over input; its records, exit status and stderr.
fn serve(args: &[&str], input: &[u8]) -> (Vec<Value>, i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cipherbench-core-rust"))
        .arg("serve").args(args)
        .stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped())
        .spawn().expect("the core starts");
    child.stdin.take().unwrap().write_all(input).unwrap(); // dropped: end of input
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).expect("every record is UTF-8");
    let recs = text.lines().map(|l| serde_json::from_str(l).expect("one JSON record a line")).collect();
    (recs, out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn types(recs: &[Value]) -> Vec<&str> {
    recs.iter().map(|r| r["type"].as_str().unwrap()).collect()
}

fn refusals(recs: &[Value]) -> Vec<&str> {
    recs.iter().filter(|r| r["type"] == "error")
        .map(|r| {
            assert_eq!((&r["reason"], &r["algo"], &r["op"]), (&Value::from("bad_request"), &Value::Null, &Value::Null));
            r["message"].as_str().unwrap()
        })
        .collect()
}

/// Two requests with refused lines between them, each answered by its records and one end;
/// known answers run only with the first request of the algorithm.
#[test]
fn a_session_with_bad_lines_between() {
    let good = br#"{"algo":["sha256"],"op":"hash","sizes":[16,64],"samples":2,"min_sample_ms":0.01}"#;
    let mut input = Vec::new();
    for line in [&good[..], br#"{"algo":["sha256"],"op":"hash","samples":0}"#, b" \t", b"{\"algo\":[\"sha\xff\"]}",
                 b"{\"algo\":[\"sha256\"],\0\"op\":\"hash\"}", &vec![b' '; 65537], br#"{"algo":["md4"],"op":"hash"}"#, good] {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let (recs, rc, err) = serve(&["--lib", "ring", "--vectors", VECTORS], &input);
    assert_eq!((rc, err.as_str()), (0, ""));
    assert_eq!(types(&recs), ["preamble", "library", "kat", "point", "point", "end",
                              "error", "end", "error", "end", "error", "end", "error", "end", "error", "end",
                              "point", "point", "end"]);
    assert_eq!((&recs[0]["command"], &recs[1]["lib"]), (&Value::from("serve"), &Value::from("ring")));
    assert!(recs[0]["commands"].as_array().unwrap().contains(&Value::from("serve")));
    assert_eq!(refusals(&recs), [
        "\"samples\" must be a whole number from 1 to 1000",
        "the request is not UTF-8 text (byte 14 is 0xff): it must be one line of JSON text",
        "the request has a NUL byte (byte 20): it must be one line of JSON text",
        "request longer than 65536 bytes",
        &format!("library ring has no algorithm 'md4'; valid: {}", recs.iter()
            .find_map(|r| r["message"].as_str()?.strip_prefix("library ring has no algorithm 'md4'; valid: "))
            .filter(|v| v.contains("sha256")).expect("the valid names")),
    ]);
    for (i, r) in recs.iter().enumerate().filter(|(_, r)| r["type"] == "point") {
        assert_eq!((&r["algo"], &r["op"], r["wall_ns"].as_array().unwrap().len()), (&Value::from("sha256"), &Value::from("hash"), 2), "{}", i);
    }
    let sizes: Vec<&Value> = recs.iter().filter(|r| r["type"] == "point").map(|r| &r["size"]).collect();
    assert_eq!(sizes, [16, 64, 16, 64]);
    for e in recs.iter().filter(|r| r["type"] == "end") {
        assert!(e["elapsed_ns"].as_u64().unwrap() > 0 && e["cpu_ns"].is_u64(), "{}", e);
    }
}

/// An algorithm without known answers is refused with the same kat_failed error at every
/// request (checked once); a request is what bench would answer, here with bench's sizes.
#[test]
fn a_failed_algorithm_is_refused_every_time() {
    let empty = std::env::temp_dir().join(format!("cb-rust-serve-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let line = b"{\"algo\":[\"sha256\"],\"op\":\"hash\"}\n";
    let (recs, rc, _) = serve(&["--lib", "rustcrypto", "--vectors", empty.to_str().unwrap()], &[&line[..], line].concat());
    std::fs::remove_dir_all(&empty).unwrap();
    assert_eq!(rc, 0);
    assert_eq!(types(&recs), ["preamble", "library", "error", "end", "error", "end"]);
    assert_eq!(recs[2]["reason"], "kat_failed");
    assert_eq!((&recs[2]["message"], &recs[2]["op"]), (&recs[4]["message"], &Value::from("hash")));
}

/// Bad arguments of serve itself: exit 2 with one line, before any record.
#[test]
fn bad_arguments_of_serve() {
    for (args, says) in [(&["--lib", "nope"][..], "unknown library 'nope'; valid: ring, rustcrypto"),
                         (&[][..], "serve needs --lib"), (&["--lib", "ring", "--algo", "sha256"][..], "unknown option '--algo'")] {
        let (recs, rc, err) = serve(args, b"");
        assert_eq!((recs.len(), rc, err.lines().count()), (0, 2, 1), "{:?}", args);
        assert!(err.contains(says), "{}", err);
    }
}

/// A record's clock probes: cycles > 0, one wall and one CPU time for each of n probes, and
/// freq_hz (when there is one) the cycles over the fastest probe that kept the CPU (CPU time
/// at least 95% of wall; all of them when none did), as the C core writes them.
fn check_probes(r: &Value, n: usize) {
    let cycles = r["freq_cycles"].as_u64().unwrap_or(0);
    let nums = |k: &str| -> Vec<u64> { r[k].as_array().map(|a| a.iter().map(|x| x.as_u64().unwrap()).collect()).unwrap_or_default() };
    let (wall, cpu) = (nums("freq_wall_ns"), nums("freq_cpu_ns"));
    assert!(cycles > 0 && wall.len() == n && cpu.len() == n, "{} probes, want {}: {}", wall.len(), n, r);
    if let Some(hz) = r["freq_hz"].as_f64() {
        let kept: Vec<u64> = wall.iter().zip(&cpu).filter(|(w, c)| **w > 0 && **c as f64 >= 0.95 * **w as f64).map(|(w, _)| *w).collect();
        let best = kept.iter().min().or(wall.iter().filter(|w| **w > 0).min()).unwrap();
        let want = cycles as f64 * 1e9 / *best as f64;
        assert!((hz - want).abs() <= want * 1e-12, "freq_hz {} but its probes give {}: {}", hz, want, r);
    }
}

/// The preamble carries the full measure's 64 probes, every point one before each group of
/// samples, every request's end 8: the front end pools them over the run.
#[test]
fn records_carry_the_clocks_probes() {
    if !cfg!(target_arch = "x86_64") {
        return; // no chain of known cycle count: freq_hz is null and there are no probes
    }
    let req = br#"{"algo":["sha256"],"op":"hash","sizes":[16,64],"samples":13,"min_sample_ms":0.01}"#;
    let input = [&req[..], b"\n", &req[..], b"\n"].concat();
    let (recs, rc, err) = serve(&["--lib", "ring", "--vectors", VECTORS], &input);
    assert_eq!((rc, err.as_str()), (0, ""));
    check_probes(&recs[0], 64);
    let points: Vec<&Value> = recs.iter().filter(|r| r["type"] == "point").collect();
    let ends: Vec<&Value> = recs.iter().filter(|r| r["type"] == "end").collect();
    assert_eq!((points.len(), ends.len()), (4, 2));
    for p in points {
        check_probes(p, 7); // 13 samples in groups of 2 (13/6)
    }
    for e in ends {
        check_probes(e, 8);
    }
}
