/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpuinfo.h - what the preamble says about the machine. */
#ifndef CB_CPUINFO_H
#define CB_CPUINFO_H
#include <stddef.h>
#include <stdint.h>

#define CB_CPU_MAX_FLAGS 32

typedef struct cb_cpuinfo {
    char model[160];
    const char *flags[CB_CPU_MAX_FLAGS];  /* crypto-relevant flags present */
    size_t n_flags;
} cb_cpuinfo;

/* Reads /proc/cpuinfo (Linux); model "unknown" and no flags elsewhere. */
void cb_cpuinfo_read(cb_cpuinfo *ci);

/* The core's clock is measured by timing chains of dependent additions (one
 * cycle each): many short probes, each with its wall and CPU time, so that a
 * probe that lost the CPU can be left out and the fastest of the rest kept
 * (interruptions only ever add time). */
#define CB_CLOCK_MAX_PROBES 64
#define CB_CLOCK_PROBE_NS 50000ull      /* aim of one probe: 50 us */
#define CB_CLOCK_MIN_CPU_SHARE 0.95     /* CPU/wall below this: the probe lost the CPU */

typedef struct cb_clock {
    uint64_t cycles;                        /* cycles per probe; 0: not measured */
    size_t n;                               /* probes taken */
    uint64_t wall_ns[CB_CLOCK_MAX_PROBES];
    uint64_t cpu_ns[CB_CLOCK_MAX_PROBES];
    double freq_hz;                         /* cb_clock_freq_hz of the probes */
} cb_clock;

/* Rounds of the add chain (CB_CLOCK_CYCLES_PER_ROUND cycles each) for a probe of
 * about target_ns at freq_hz (a guess of 3 GHz when freq_hz is 0). */
#define CB_CLOCK_CYCLES_PER_ROUND 32
uint64_t cb_clock_rounds(uint64_t target_ns, double freq_hz);

/* One probe of rounds rounds: wall and thread CPU ns. Returns 0, or -1 where
 * this build has no add chain. */
int cb_clock_probe(uint64_t rounds, uint64_t *wall_ns, uint64_t *cpu_ns);

/* cycles * 1e9 / the shortest wall time among the probes that kept the CPU
 * (all probes when none did); 0 without probes. Pure. */
double cb_clock_freq_hz(uint64_t cycles, const uint64_t *wall_ns, const uint64_t *cpu_ns, size_t n);

/* Measures the clock into c with n probes (at most CB_CLOCK_MAX_PROBES): wakes the
 * core and sizes the probes by a first long one, unless known_hz (> 0) is the
 * clock measured moments ago by a busy process; returns c->freq_hz, 0 if it
 * cannot be measured. */
double cb_clock_measure(cb_clock *c, size_t n, double known_hz);

/* The probes of the last cb_measure_freq_hz(), for the record that reports it. */
extern cb_clock cb_clock_last;

/* Core frequency in Hz measured as cb_clock_measure does (all its probes), kept
 * in cb_clock_last; 0 if it cannot be measured. */
double cb_measure_freq_hz(void);

/* The clock at the end of one served request: CB_CLOCK_END_PROBES probes sized by
 * the preamble's clock, no wake-up. Each request's points carry their own probes
 * and the front end pools them all over the run, so the full 64 (3.2 ms) at every
 * request's end would only add a fifth of a short batch. */
#define CB_CLOCK_END_PROBES 8
double cb_measure_freq_hz_after(double known_hz);

#endif
