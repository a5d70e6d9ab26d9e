/* SPDX-License-Identifier: GPL-3.0-or-later */
/* measure.c - the timed loop and what it needs (see measure.h). */
#define _GNU_SOURCE
#include "measure.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t cb_wall_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t cb_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

uint64_t cb_thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* max(res, the mean interval between consecutive readings of the fastest of 16 groups of 16).
 * The fastest group, not the mean of all 256: a process that loses its CPU while it reads
 * the clock (a busy machine) would otherwise see one preemption's milliseconds spread over
 * the readings, and every sample of its life would be a thousand times that long. */
uint64_t cb_timer_cost(uint64_t res, uint64_t (*now)(void))
{
    enum { GROUPS = 16, N = 16 };
    uint64_t best = UINT64_MAX;
    for (int g = 0; g < GROUPS; g++) {
        uint64_t t0 = now(), t1 = t0;
        for (int i = 0; i < N; i++)
            t1 = now();
        uint64_t mean = (t1 - t0) / N;
        if (mean < best)
            best = mean;
    }
    uint64_t c = best > res ? best : res;
    return c ? c : 1;
}

static uint64_t timer_cost(clockid_t id, uint64_t (*now)(void))
{
    struct timespec r;
    uint64_t res = clock_getres(id, &r) == 0 ? (uint64_t)r.tv_sec * 1000000000u + (uint64_t)r.tv_nsec : 1;
    return cb_timer_cost(res, now);
}

uint64_t cb_timer_ns(void)
{
    static uint64_t cached;
    if (!cached)
        cached = timer_cost(CLOCK_MONOTONIC, cb_wall_ns);
    return cached;
}

uint64_t cb_cpu_timer_ns(void)
{
    static uint64_t cached;
    if (!cached)
        cached = timer_cost(CLOCK_THREAD_CPUTIME_ID, cb_thread_cpu_ns);
    return cached;
}

uint64_t cb_short_sample_ns(void)
{
    uint64_t t = CB_SHORT_SAMPLE_MIN_NS;
    if (cb_timer_ns() * 1000 > t)
        t = cb_timer_ns() * 1000;
    if (cb_cpu_timer_ns() * 100 > t)
        t = cb_cpu_timer_ns() * 100;
    return t;
}

int cb_pin_cpu(int cpu, char *err, size_t errlen)
{
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        snprintf(err, errlen, "--cpu: cannot read the CPU affinity of this process");
        return -1;
    }
    if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed)) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        if (sched_setaffinity(0, sizeof one, &one) == 0)
            return 0;
    }
    /* Name the valid CPUs, e.g. "0,1,2,3". */
    size_t off = (size_t)snprintf(err, errlen, "--cpu: CPU %d is not available; valid: ", cpu);
    int first = 1;
    for (int i = 0; i < CPU_SETSIZE && off < errlen; i++) {
        if (!CPU_ISSET(i, &allowed))
            continue;
        off += (size_t)snprintf(err + off, errlen - off, first ? "%d" : ",%d", i);
        first = 0;
    }
    return -1;
}

int cb_buf_alloc(cb_buf *b, size_t len, size_t misalign)
{
    /* Round up: aligned_alloc wants a multiple of the alignment. */
    size_t total = (len + misalign + 64 + 63) / 64 * 64;
    b->base = aligned_alloc(64, total);
    if (!b->base)
        return -1;
    memset(b->base, 0, total);
    b->p = (uint8_t *)b->base + misalign;
    b->len = len;
    return 0;
}

void cb_buf_free(cb_buf *b)
{
    free(b->base);
    b->base = NULL;
    b->p = NULL;
}

/* Keeps the compiler from moving or dropping work across this point. */
#define CB_BARRIER() __asm__ __volatile__("" ::: "memory")

int cb_job_run(cb_job *j, uint64_t iters)
{
    int (*run)(void *, cb_msg *) = j->op->run;
    int status = CB_OK;
    if (j->bump_nonce && j->nonce && j->msg.nonce_len >= 8) {
        uint8_t *ctr = j->nonce + j->msg.nonce_len - 8;
        for (uint64_t i = 0; i < iters; i++) {
            uint64_t c = ++j->counter;
            memcpy(ctr, &c, 8);
            status |= run(j->ctx, &j->msg);
            CB_BARRIER();
        }
    } else {
        for (uint64_t i = 0; i < iters; i++) {
            status |= run(j->ctx, &j->msg);
            CB_BARRIER();
        }
    }
    if (status == CB_OK)
        return CB_OK;
    /* Statuses were OR'ed; name the most telling one. */
    if (status & CB_ERR_AUTH)
        return CB_ERR_AUTH;
    return status & CB_ERR ? CB_ERR : CB_ERR_PARAM;
}

/* Read the results so that nothing computed is dead. */
static volatile uint8_t sink;

static void consume(const cb_job *j)
{
    if (j->msg.out && j->msg.len)
        sink ^= j->msg.out[j->msg.len - 1];
    if (j->msg.tag && j->msg.tag_len)
        sink ^= j->msg.tag[0];
}

int cb_job_sample(cb_job *j, uint64_t iters, uint64_t *wall_ns, uint64_t *cpu_ns)
{
    uint64_t c0 = cb_thread_cpu_ns();
    uint64_t w0 = cb_wall_ns();
    int rc = cb_job_run(j, iters);
    uint64_t w1 = cb_wall_ns();
    uint64_t c1 = cb_thread_cpu_ns();
    consume(j);
    *wall_ns = w1 - w0;
    *cpu_ns = c1 - c0;
    return rc;
}

int cb_job_calibrate(cb_job *j, uint64_t warm_ns, uint64_t min_ns, uint64_t *iters)
{
    /* Warm-up: doubling batches until warm_ns have passed; the last batch
     * gives a first estimate of the time per call. */
    uint64_t n = 1, start = cb_wall_ns(), last_n = 1, last_t = 0;
    for (;;) {
        uint64_t t0 = cb_wall_ns();
        int rc = cb_job_run(j, n);
        uint64_t t1 = cb_wall_ns();
        if (rc != CB_OK)
            return rc;
        last_n = n;
        last_t = t1 - t0;
        if (t1 - start >= warm_ns && last_t > 0)
            break;
        if (last_t < warm_ns / 4)
            n *= 2;
    }
    /* Aim 25% above the minimum so that noise rarely drops a sample below it. */
    double per = (double)last_t / (double)last_n;
    uint64_t k = (uint64_t)((double)min_ns * 1.25 / per) + 1;
    for (int tries = 0; tries < 8; tries++) {
        uint64_t w, c;
        int rc = cb_job_sample(j, k, &w, &c);
        if (rc != CB_OK)
            return rc;
        if (w >= min_ns)
            break;
        k = w > 0 ? (uint64_t)((double)k * 1.25 * (double)min_ns / (double)w) + 1 : k * 2;
    }
    *iters = k;
    return CB_OK;
}

int cb_job_warm(cb_job *j, uint64_t warm_ns, uint64_t iters, uint64_t *last_ns)
{
    uint64_t start = cb_wall_ns(), t0, t1;
    do {
        t0 = cb_wall_ns();
        int rc = cb_job_run(j, iters ? iters : 1);
        t1 = cb_wall_ns();
        if (rc != CB_OK)
            return rc;
    } while (t1 - start < warm_ns);
    *last_ns = t1 - t0;
    return CB_OK;
}
