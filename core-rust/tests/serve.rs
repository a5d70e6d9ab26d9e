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
