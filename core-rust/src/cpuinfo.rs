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

/// The fastest of seven runs of the chain (each about 0.3 ms at 2 GHz, far above the
/// clock's resolution: measured at the end of every serve request, it must stay cheap);
/// 0 where there is no chain.
pub fn measure_freq_hz() -> f64 {
    const WAKE_ROUNDS: u64 = 100_000;
    const ROUNDS: u64 = 20_000;
    if add_chain(1) == 0 {
        return 0.0;
    }
    add_chain(WAKE_ROUNDS); // wake the core up from a low clock
    let mut best = u64::MAX;
    for _ in 0..7 {
        let t0 = wall_ns();
        std::hint::black_box(add_chain(ROUNDS));
        let t = wall_ns() - t0;
        if t > 0 && t < best {
            best = t;
        }
    }
    if best == u64::MAX { 0.0 } else { (ROUNDS * ADDS_PER_ROUND) as f64 * 1e9 / best as f64 }
}
