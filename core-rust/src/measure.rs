// SPDX-License-Identifier: GPL-3.0-or-later
//! The timed loop, calibration, buffers and the fit: the same as the C core's measure.c
//! and fit.c, so that a Rust figure and a C figure mean the same thing.
use crate::algorithms::{Msg, Runner, Status};

fn clock_ns(id: libc::clockid_t) -> u64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: t is a valid timespec for clock_gettime to fill.
    if unsafe { libc::clock_gettime(id, &mut t) } != 0 {
        return 0;
    }
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

pub fn wall_ns() -> u64 {
    clock_ns(libc::CLOCK_MONOTONIC)
}

pub fn cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// The calling thread's CPU time (the clock's probes).
pub fn thread_cpu_ns() -> u64 {
    clock_ns(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// splitmix64, byte for byte the C core's prng.h (the same seed times the same bytes).
pub fn prng_fill(s: &mut u64, p: &mut [u8]) {
    for chunk in p.chunks_mut(8) {
        *s = s.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^= z >> 31;
        for (j, b) in chunk.iter_mut().enumerate() {
            *b = (z >> (8 * j)) as u8;
        }
    }
}

/// len bytes starting misalign bytes after a 64-byte boundary.
pub struct AlignedBuf {
    raw: Vec<u8>,
    start: usize,
    len: usize,
}

impl AlignedBuf {
    pub fn new(len: usize, misalign: usize) -> Self {
        let raw = vec![0u8; len + misalign + 128];
        let off = (64 - raw.as_ptr() as usize % 64) % 64;
        AlignedBuf { raw, start: off + misalign, len }
    }
    pub fn get(&self) -> &[u8] {
        &self.raw[self.start..self.start + self.len]
    }
    pub fn get_mut(&mut self) -> &mut [u8] {
        &mut self.raw[self.start..self.start + self.len]
    }
}

/// A keyed context and its message, run back to back.
pub struct Job {
    pub runner: Box<dyn Runner>,
    pub inp: AlignedBuf,
    pub out: AlignedBuf,
    pub nonce: Vec<u8>,
    pub aad: Vec<u8>,
    pub tag: Vec<u8>,
    pub bump_nonce: bool,
    pub counter: u64,
}

impl Job {
    pub fn run(&mut self, iters: u64) -> Status {
        let Job { runner, inp, out, nonce, aad, tag, bump_nonce, counter } = self;
        let (inp, out) = (inp.get(), out.get_mut());
        let mut st = Status::Ok;
        let bump = *bump_nonce && nonce.len() >= 8;
        for _ in 0..iters {
            if bump {
                *counter += 1;
                let l = nonce.len();
                nonce[l - 8..].copy_from_slice(&counter.to_le_bytes()); // as the C core's memcpy on x86
            }
            let s = runner.run(&mut Msg { inp, out: &mut *out, nonce, aad, tag: &mut *tag });
            if s != Status::Ok {
                st = s;
            }
        }
        st
    }

    /// Times iters operations; the results are read so nothing computed is dead.
    pub fn sample(&mut self, iters: u64) -> (u64, u64, Status) {
        let c0 = cpu_ns();
        let w0 = wall_ns();
        let st = self.run(iters);
        let w1 = wall_ns();
        let c1 = cpu_ns();
        std::hint::black_box(self.out.get().last());
        std::hint::black_box(self.tag.first());
        (w1 - w0, c1 - c0, st)
    }

    /// Warm-up in doubling batches for warm_ns, then a count whose sample lasts at least
    /// min_ns (aiming 25% above it).
    pub fn calibrate(&mut self, warm_ns: u64, min_ns: u64) -> Result<u64, Status> {
        let (mut n, start) = (1u64, wall_ns());
        let (mut last_n, mut last_t);
        loop {
            let t0 = wall_ns();
            let st = self.run(n);
            let t1 = wall_ns();
            if st != Status::Ok {
                return Err(st);
            }
            last_n = n;
            last_t = t1 - t0;
            if t1 - start >= warm_ns && last_t > 0 {
                break;
            }
            if last_t < warm_ns / 4 {
                n *= 2;
            }
        }
        let per = last_t as f64 / last_n as f64;
        let mut k = (min_ns as f64 * 1.25 / per) as u64 + 1;
        for _ in 0..8 {
            let (w, _, st) = self.sample(k);
            if st != Status::Ok {
                return Err(st);
            }
            if w >= min_ns {
                break;
            }
            k = if w > 0 { (k as f64 * 1.25 * min_ns as f64 / w as f64) as u64 + 1 } else { k * 2 };
        }
        Ok(k)
    }

    /// Warm-up with a loop count kept from before: batches of iters for warm_ns; the last
    /// batch's wall time.
    pub fn warm(&mut self, warm_ns: u64, iters: u64) -> Result<u64, Status> {
        let start = wall_ns();
        loop {
            let t0 = wall_ns();
            let st = self.run(iters.max(1));
            let t1 = wall_ns();
            if st != Status::Ok {
                return Err(st);
            }
            if t1 - start >= warm_ns {
                return Ok(t1 - t0);
            }
        }
    }
}

pub fn median(v: &[f64]) -> f64 {
    let mut c = v.to_vec();
    c.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = c.len();
    if n % 2 == 1 { c[n / 2] } else { (c[n / 2 - 1] + c[n / 2]) / 2.0 }
}

/// Least squares of y on x (centred sums): slope, intercept, r2.
pub fn fit_linear(x: &[f64], y: &[f64]) -> Option<(f64, f64, f64)> {
    if x.len() < 2 {
        return None;
    }
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for i in 0..x.len() {
        let (dx, dy) = (x[i] - mx, y[i] - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if sxx == 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let icpt = my - slope * mx;
    let ssres: f64 = (0..x.len()).map(|i| (y[i] - (slope * x[i] + icpt)).powi(2)).sum();
    Some((slope, icpt, if syy > 0.0 { 1.0 - ssres / syy } else { 1.0 }))
}

/// Binds the process to one CPU, or says which are valid.
pub fn pin_cpu(cpu: usize) -> Result<(), String> {
    // SAFETY: cpu_set_t is plain data; the calls get valid pointers and its size.
    unsafe {
        let mut allowed: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut allowed) != 0 {
            return Err("--cpu: cannot read the CPU affinity of this process".into());
        }
        if cpu < libc::CPU_SETSIZE as usize && libc::CPU_ISSET(cpu, &allowed) {
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            if libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one) == 0 {
                return Ok(());
            }
        }
        let valid: Vec<String> = (0..libc::CPU_SETSIZE as usize)
            .filter(|&i| libc::CPU_ISSET(i, &allowed))
            .map(|i| i.to_string())
            .collect();
        Err(format!("--cpu: CPU {} is not available; valid: {}", cpu, valid.join(",")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench inputs are the C core's: splitmix64 from the same seed (values from an
    /// independent splitmix64 written in Python).
    #[test]
    fn prng_matches_the_c_core() {
        let mut s = 0x5eed0000cb01u64;
        let mut b = [0u8; 12];
        prng_fill(&mut s, &mut b);
        let hex: String = b.iter().map(|x| format!("{:02x}", x)).collect();
        assert_eq!(hex, "f8047c13cf0cfa7f6999cb97");
    }

    #[test]
    fn fit_and_alignment() {
        let (s, i, r2) = fit_linear(&[1024.0, 2048.0, 4096.0], &[110.0, 210.0, 410.0]).unwrap();
        assert!((s - 0.09766).abs() < 1e-4 && (i - 10.0).abs() < 1.0 && r2 > 0.9999);
        assert!(fit_linear(&[1024.0], &[1.0]).is_none());
        for mis in [0, 5, 63] {
            let b = AlignedBuf::new(100, mis);
            assert_eq!(b.get().len(), 100);
            assert_eq!(b.get().as_ptr() as usize % 64, mis);
        }
    }
}
