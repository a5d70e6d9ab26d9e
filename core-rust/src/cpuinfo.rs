// SPDX-License-Identifier: GPL-3.0-or-later
//! CPU model, the flags that change which code a crypto library runs, and the measured
//! core frequency (as the C core's cpuinfo.c).
use crate::measure::{thread_cpu_ns, wall_ns};

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
/// a low clock (0: none), then `probes` runs of `rounds` rounds (0: sized from the wake-up for
/// about CLOCK_PROBE_NS each), each with its wall and thread CPU time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClockPlan {
    pub wake_rounds: u64,
    pub rounds: u64,
    pub probes: usize,
}

/// The probes of the full measure (the C core's CB_CLOCK_MAX_PROBES): many short ones, so that
/// a busy machine still leaves some that kept the CPU.
pub const CLOCK_MAX_PROBES: usize = 64;

/// The preamble's and every command's end but serve's (the C core's cb_measure_freq_hz): a
/// wake-up, then CLOCK_MAX_PROBES probes of about 50 us.
pub const FULL_CLOCK: ClockPlan = ClockPlan { wake_rounds: 100_000, rounds: 0, probes: CLOCK_MAX_PROBES };

/// The probes at the end of a served request (the C core's CB_CLOCK_END_PROBES): the full
/// measure (about 4 ms with its wake-up) at every request's end was a third of a short batch.
pub const CLOCK_END_PROBES: usize = 8;

/// The aim of one of those probes (the C core's CB_CLOCK_PROBE_NS).
pub const CLOCK_PROBE_NS: u64 = 50_000;

/// A probe whose CPU time is below this share of its wall time lost the CPU (the C core's
/// CB_CLOCK_MIN_CPU_SHARE).
const CLOCK_MIN_CPU_SHARE: f64 = 0.95;

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

/// The raw probes of one measure (docs/protocol.md: freq_cycles, freq_wall_ns, freq_cpu_ns)
/// and the frequency they give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// Cycles per probe; 0: not measured.
    pub cycles: u64,
    /// One per probe: wall and thread CPU ns.
    pub wall_ns: Vec<u64>,
    pub cpu_ns: Vec<u64>,
    /// clock_freq_hz of the probes; 0: unknown.
    pub hz: f64,
}

impl Clock {
    /// Times one more probe of cycles / ADDS_PER_ROUND rounds.
    pub fn probe(&mut self) {
        let (w, c) = clock_probe(self.cycles / ADDS_PER_ROUND);
        self.wall_ns.push(w);
        self.cpu_ns.push(c);
    }
}

/// Cycles of a probe of `rounds` rounds.
pub fn clock_cycles(rounds: u64) -> u64 {
    rounds * ADDS_PER_ROUND
}

/// Whether this build has the chain of known cycle count (else the clock is unknown).
pub fn has_chain() -> bool {
    add_chain(1) != 0
}

/// One probe of rounds rounds: wall and thread CPU ns.
fn clock_probe(rounds: u64) -> (u64, u64) {
    let c0 = thread_cpu_ns();
    let w0 = wall_ns();
    std::hint::black_box(add_chain(rounds));
    let w1 = wall_ns();
    let c1 = thread_cpu_ns();
    (w1 - w0, c1 - c0)
}

/// cycles * 1e9 / the shortest wall time among the probes that kept the CPU (all probes
/// when none did); 0 without probes. Pure, as the C core's cb_clock_freq_hz.
pub fn clock_freq_hz(cycles: u64, wall: &[u64], cpu: &[u64]) -> f64 {
    let (mut best, mut best_any) = (u64::MAX, u64::MAX);
    for (i, &w) in wall.iter().enumerate() {
        if w == 0 {
            continue;
        }
        best_any = best_any.min(w);
        if cpu.get(i).is_some_and(|&c| c as f64 >= CLOCK_MIN_CPU_SHARE * w as f64) {
            best = best.min(w);
        }
    }
    if best == u64::MAX {
        best = best_any;
    }
    if best == u64::MAX || cycles == 0 { 0.0 } else { cycles as f64 * 1e9 / best as f64 }
}

/// The chain run as p says, with every probe's wall and CPU time; an empty clock where there
/// is no chain.
pub fn measure_clock(p: ClockPlan) -> Clock {
    if !has_chain() || p.probes == 0 {
        return Clock::default();
    }
    let mut rounds = p.rounds;
    if p.wake_rounds > 0 {
        // The wake-up, and a first estimate to size the probes; its CPU time, so that a
        // preemption does not lower the guess.
        let (w, c) = clock_probe(p.wake_rounds);
        let t = if c > 0 && c < w { c } else { w };
        if rounds == 0 {
            rounds = clock_rounds(CLOCK_PROBE_NS, clock_freq_hz(clock_cycles(p.wake_rounds), &[t], &[t]));
        }
    }
    if rounds == 0 {
        rounds = clock_rounds(CLOCK_PROBE_NS, 0.0);
    }
    let mut c = Clock { cycles: clock_cycles(rounds), ..Clock::default() };
    for _ in 0..p.probes {
        c.probe();
    }
    c.hz = clock_freq_hz(c.cycles, &c.wall_ns, &c.cpu_ns);
    c
}

/// The core's clock, measured in full (FULL_CLOCK).
pub fn measure_freq_hz() -> Clock {
    measure_clock(FULL_CLOCK)
}

/// The clock at the end of a served request (end_clock_plan).
pub fn measure_freq_hz_after(known_hz: f64) -> Clock {
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

    /// The clock is the probe's cycles over the fastest wall time among the probes that kept
    /// the CPU (CPU at least 95% of wall), all of them when none did: cb_clock_freq_hz.
    #[test]
    fn clock_freq_hz_keeps_the_probes_that_kept_the_cpu() {
        assert_eq!(clock_freq_hz(600_000, &[200_000, 100_000, 250_000], &[199_000, 10_000, 250_000]), 3e9);
        assert_eq!(clock_freq_hz(600_000, &[300_000, 200_000], &[0, 0]), 3e9);
        assert_eq!(clock_freq_hz(600_000, &[], &[]), 0.0);
        assert_eq!(clock_freq_hz(0, &[1000], &[1000]), 0.0);
        assert_eq!(clock_freq_hz(600_000, &[0], &[0]), 0.0);
    }

    /// The full measure keeps its 64 probes, each with a wall and a CPU time, and the clock
    /// they give; serve's end 8, sized by the clock known.
    #[test]
    fn measure_clock_keeps_its_probes() {
        if !has_chain() {
            return; // no chain of known cycle count on this architecture
        }
        let c = measure_freq_hz();
        assert!(c.cycles > 0 && c.hz > 0.0, "{:?}", c);
        assert_eq!((c.wall_ns.len(), c.cpu_ns.len()), (CLOCK_MAX_PROBES, CLOCK_MAX_PROBES));
        assert_eq!(c.hz, clock_freq_hz(c.cycles, &c.wall_ns, &c.cpu_ns));
        let e = measure_freq_hz_after(c.hz);
        assert_eq!((e.wall_ns.len(), e.cpu_ns.len()), (CLOCK_END_PROBES, CLOCK_END_PROBES));
        assert_eq!(e.cycles, clock_cycles(clock_rounds(CLOCK_PROBE_NS, c.hz)));
    }
}
