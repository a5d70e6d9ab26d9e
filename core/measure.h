/* SPDX-License-Identifier: GPL-3.0-or-later */
/* measure.h - clocks, CPU pinning, buffers and the timed loop. */
#ifndef CB_MEASURE_H
#define CB_MEASURE_H
#include <stddef.h>
#include <stdint.h>
#include "backend.h"

uint64_t cb_wall_ns(void);   /* CLOCK_MONOTONIC */
uint64_t cb_cpu_ns(void);    /* CLOCK_PROCESS_CPUTIME_ID */
uint64_t cb_thread_cpu_ns(void); /* CLOCK_THREAD_CPUTIME_ID: the CPU time of a sample */

/* What one reading of the wall clock costs or resolves, in ns (the larger of
 * clock_getres and the mean time between consecutive readings); at least 1. */
uint64_t cb_timer_ns(void);
/* The same for the thread's CPU-time clock. */
uint64_t cb_cpu_timer_ns(void);
/* What cb_timer_ns computes, from a clock's resolution and its reading function: the
 * fastest of several groups of readings, so that a preemption does not count. */
uint64_t cb_timer_cost(uint64_t res, uint64_t (*now)(void));

/* The shortest sample worth timing: long enough that the wall clock's
 * resolution is at most 0.1% of it and the CPU clock's at most 1%, and never
 * below CB_SHORT_SAMPLE_MIN_NS. Short samples mostly fit inside one
 * scheduler time slice, so a busy machine disturbs few of them, and a sample
 * that lost the CPU shows it: its CPU time falls short of its wall time. */
#define CB_SHORT_SAMPLE_MIN_NS 100000ull
uint64_t cb_short_sample_ns(void);

/* Pins the process to one CPU. Returns 0, or -1 with a one-line reason
 * (naming the CPUs allowed) in err. */
int cb_pin_cpu(int cpu, char *err, size_t errlen);

/* A buffer of len bytes starting misalign bytes after a 64-byte boundary. */
typedef struct cb_buf {
    void *base;        /* what was allocated */
    uint8_t *p;        /* base + misalign */
    size_t len;
} cb_buf;
int cb_buf_alloc(cb_buf *b, size_t len, size_t misalign);
void cb_buf_free(cb_buf *b);

/* One operation set up and ready to time: run(ctx, &msg) per iteration.
 * When bump_nonce is set, the last 8 bytes of msg.nonce count calls, so every
 * message gets a fresh nonce (AEAD encrypt, GMAC, UMAC, XTS tweak). */
typedef struct cb_job {
    const cb_op *op;
    void *ctx;
    cb_msg msg;
    uint8_t *nonce;       /* writable copy msg.nonce points at */
    int bump_nonce;
    uint64_t counter;
} cb_job;

/* iters back-to-back calls; returns the first non-OK cb_status, or CB_OK. */
int cb_job_run(cb_job *j, uint64_t iters);

/* One sample: wall and CPU nanoseconds of iters calls (CPU time of this
 * thread, read outside the wall-clock reads). Returns a cb_status. */
int cb_job_sample(cb_job *j, uint64_t iters, uint64_t *wall_ns, uint64_t *cpu_ns);

/* Warms up for about warm_ns, then picks a loop count whose sample lasts at
 * least min_ns (checked by a trial sample). Returns a cb_status. */
int cb_job_calibrate(cb_job *j, uint64_t warm_ns, uint64_t min_ns, uint64_t *iters);

/* Warms up for about warm_ns with batches of iters calls (a loop count
 * calibrated before); *last_ns gets the time of the last batch. Returns a
 * cb_status. */
int cb_job_warm(cb_job *j, uint64_t warm_ns, uint64_t iters, uint64_t *last_ns);

#endif
