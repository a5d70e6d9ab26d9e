// SPDX-License-Identifier: GPL-3.0-or-later
//! CPU model, the flags that change which code a crypto library runs, and the measured
//! core frequency (as the C core's cpuinfo.c).
use crate::measure::wall_ns;

const WANTED: &[&str] = &[
    "aes", "vaes", "pclmulqdq", "vpclmulqdq", "sha_ni", "ssse3", "sse4_1", "sse4_2",
    "avx", "avx2", "avx512f", "avx512vl", "bmi2", "adx",
    "pmull", "sha1", "sha2", "sha3", "sha512", "sm3", "sm4", "asimd", "sve",
];

pub fn cpu_info() -> (String, Vec<String>) {
    let mut model = "unknown".to_string();
    let mut flags = Vec::new();
    let Ok(text) = std::fs::read_to_string("/proc/cpuinfo") else { return (model, flags) };
    let (mut have_model, mut have_flags) = (false, false);
    for line in text.lines() {
        let Some((k, v)) = line.split_once(':') else { continue };
        if !have_model && (k.starts_with("model name") || k.starts_with("Hardware")) {
            model = v.trim().to_string();
            have_model = true;
        } else if !have_flags && (k.starts_with("flags") || k.starts_with("Features")) {
            let have: Vec<&str> = v.split_whitespace().collect();
            flags = WANTED.iter().filter(|w| have.contains(w)).map(|w| w.to_string()).collect();
            have_flags = true;
        }
        if have_model && have_flags {
            break;
        }
    }
    (model, flags)
}

const ADDS_PER_ROUND: u64 = 32;

/// rounds x 32 dependent adds (one per cycle on every x86-64 core); 0 elsewhere. The addend
/// is a register, not an immediate: Intel's Golden Cove cores fold chains of add-immediate at
/// register renaming (about four a cycle); an add of two registers is executed.
#[cfg(target_arch = "x86_64")]
fn add_chain(rounds: u64) -> u64 {
    let mut x: u64 = 0;
    let one: u64 = 1;
    for _ in 0..rounds {
        // SAFETY: register arithmetic only.
        unsafe {
            std::arch::asm!(
                "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
                "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
                "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
                "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}", "add {0}, {1}",
                inout(reg) x, in(reg) one, options(nomem, nostack));
        }
    }
    x
}

#[cfg(not(target_arch = "x86_64"))]
fn add_chain(_rounds: u64) -> u64 {
    0
}

/// How the clock is measured: a run of `wake_rounds` rounds of the chain to wake the core from
/// a low clock (0: none), then `probes` runs of `rounds` rounds, the fastest read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockPlan {
    pub wake_rounds: u64,
    pub rounds: u64,
    pub probes: usize,
}

/// The preamble's and every command's end but serve's: a wake-up, then seven runs of about
/// 0.2 ms at 3 GHz (far above the clock's resolution).
pub const FULL_CLOCK: ClockPlan = ClockPlan { wake_rounds: 100_000, rounds: 20_000, probes: 7 };

/// The probes at the end of a served request (the C core's CB_CLOCK_END_PROBES): the full
/// measure (about 2.5 ms with its wake-up) at every request's end was a third of a short batch.
pub const CLOCK_END_PROBES: usize = 8;

/// The aim of one of those probes (the C core's CB_CLOCK_PROBE_NS).
const CLOCK_PROBE_NS: u64 = 50_000;

/// Rounds of the chain for a probe of about target_ns at freq_hz (3 GHz when unknown); at
/// least one.
pub fn clock_rounds(target_ns: u64, freq_hz: f64) -> u64 {
    let f = if freq_hz > 0.0 { freq_hz } else { 3e9 };
    ((target_ns as f64 * f / 1e9 / ADDS_PER_ROUND as f64) as u64).max(1)
}

/// The clock at the end of a served request. With known_hz, the preamble's clock measured by
/// this busy process, no wake-up and CLOCK_END_PROBES probes sized by it; without it, the
/// full measure.
pub fn end_clock_plan(known_hz: f64) -> ClockPlan {
    if known_hz > 0.0 {
        ClockPlan { wake_rounds: 0, rounds: clock_rounds(CLOCK_PROBE_NS, known_hz), probes: CLOCK_END_PROBES }
    } else {
        FULL_CLOCK
    }
}

/// The chain run as p says, its fastest probe read as a clock; 0 where there is no chain.
pub fn measure_clock(p: ClockPlan) -> f64 {
    if add_chain(1) == 0 {
        return 0.0;
    }
    if p.wake_rounds > 0 {
        std::hint::black_box(add_chain(p.wake_rounds));
    }
    let mut best = u64::MAX;
    for _ in 0..p.probes {
        let t0 = wall_ns();
        std::hint::black_box(add_chain(p.rounds));
        let t = wall_ns() - t0;
        if t > 0 && t < best {
            best = t;
        }
    }
    if best == u64::MAX { 0.0 } else { (p.rounds * ADDS_PER_ROUND) as f64 * 1e9 / best as f64 }
}

/// The core's clock, measured in full (FULL_CLOCK).
pub fn measure_freq_hz() -> f64 {
    measure_clock(FULL_CLOCK)
}

/// The clock at the end of a served request (end_clock_plan).
pub fn measure_freq_hz_after(known_hz: f64) -> f64 {
    measure_clock(end_clock_plan(known_hz))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serve's end probes the clock 8 times for about 50 us each, sized by the preamble's
    /// clock and without a wake-up; without that clock it measures in full, as every other end.
    #[test]
    fn end_clock_plan_is_short() {
        assert_eq!(end_clock_plan(3.2e9), ClockPlan { wake_rounds: 0, rounds: 5000, probes: 8 });
        for hz in [0.0, -1.0, f64::NAN] {
            assert_eq!(end_clock_plan(hz), FULL_CLOCK, "{}", hz);
        }
        assert!(FULL_CLOCK.wake_rounds > 0);
        assert_eq!(clock_rounds(50_000, 0.0), 4687); // 3 GHz assumed
        assert_eq!(clock_rounds(1, 1e6), 1);
    }
}
