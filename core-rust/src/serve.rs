// SPDX-License-Identifier: GPL-3.0-or-later
//! The `serve` command, as the C core's serve.c: the library's vectors are loaded once;
//! then each request line on stdin is answered with the records `bench` writes for the same
//! arguments (the same code: bench_run), ended by an `end` record (its clock from a few short
//! probes sized by the preamble's: measure_freq_hz_after). Known answers run once
//! per algorithm and each point is calibrated once (Memo), so later rounds of the same
//! point skip both. A request that cannot be run gets one bad_request error and its end;
//! the process goes on until stdin ends.
use crate::args::Args;
use crate::request::{self, Line};
use crate::{bench_run, cpuinfo, emit, find_lib, library, measure, pin_and_load, preamble, usage_error, validate_bench,
            Hw, Memo};

/// The arguments of one request line, or why it cannot be run.
fn request_args(line: &Line, serve: &Args) -> Result<Args, String> {
    match line {
        Line::TooLong => Err(format!("request longer than {} bytes", request::MAX_REQUEST)),
        Line::Text(bytes) => request::parse(request::text(bytes)?, serve),
        Line::End => unreachable!("the end of input is not a request"),
    }
}

pub fn cmd_serve(a: &Args, hw: &Hw) -> i32 {
    let lib = match find_lib(a.lib.as_deref().unwrap_or("")) {
        Ok(l) => l,
        Err(e) => return usage_error(&e),
    };
    let set = match pin_and_load(a) {
        Ok(s) => s,
        Err(e) => return usage_error(&e),
    };
    let preamble_hz = preamble("serve");
    library(lib, hw);
    let mut memo = Memo::default();
    let mut input = std::io::stdin().lock();
    loop {
        let line = match request::read_line(&mut input, request::MAX_REQUEST) {
            Ok(Line::End) | Err(_) => break,
            Ok(Line::Text(t)) if request::blank(&t) => continue,
            Ok(l) => l,
        };
        let (t0, c0) = (measure::wall_ns(), measure::cpu_ns());
        match request_args(&line, a).and_then(|req| validate_bench(&req).map(|(_, rows)| (req, rows))) {
            Ok((req, rows)) => {
                bench_run(lib, hw, &set, &req, &rows, Some(&mut memo));
            }
            Err(m) => emit::bad_request(lib.name, &m),
        }
        let (wall, cpu) = (measure::wall_ns() - t0, measure::cpu_ns() - c0); // before the clock's probes
        emit::end_cpu(&cpuinfo::measure_freq_hz_after(preamble_hz), wall, cpu);
    }
    0
}
