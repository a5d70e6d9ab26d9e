/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_bench.c - the pure decisions of the measuring loop (bench.h): whether a loop count
 * calibrated before still serves, how many samples fill a point, how many per group. */
#include "../bench.h"
#include "../measure.h"
#include <stdio.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* A clock read every 20 ns that loses the CPU for 30 ms once, as on a busy machine. */
static uint64_t fake_now_ns;
static int fake_reads;
static uint64_t fake_clock(void)
{
    fake_now_ns += ++fake_reads == 100 ? 30000000u : 20u;
    return fake_now_ns;
}

static void test_timer_cost_ignores_a_preemption(void)
{
    /* the mean of all readings would be ~117 us, and a short sample 1000 times that */
    CHECK(cb_timer_cost(1, fake_clock) == 20);
    CHECK(cb_timer_cost(50, fake_clock) == 50);   /* never below the clock's resolution */
}

static void test_keeps_iters(void)
{
    /* kept while the loop lasts half a sample's minimum: noise between rounds is tolerated */
    CHECK(cb_bench_keeps_iters(100000, 100000));
    CHECK(cb_bench_keeps_iters(50000, 100000));
    CHECK(cb_bench_keeps_iters(400000, 100000));   /* slower (a busy moment): still kept */
    /* below half: the machine got faster, or the calibration was slowed: calibrate again */
    CHECK(!cb_bench_keeps_iters(49999, 100000));
    CHECK(!cb_bench_keeps_iters(0, 100000));
}

static void test_samples_for(void)
{
    /* 20 ms of samples a point: 200 of 100 us */
    CHECK(cb_bench_samples_for(100000, 100000) == 200);
    /* a first sample shorter than the minimum counts as the minimum */
    CHECK(cb_bench_samples_for(1000, 100000) == 200);
    /* a large message whose one call outlasts the minimum: fewer, never below 11 */
    CHECK(cb_bench_samples_for(1000000, 100000) == 20);
    CHECK(cb_bench_samples_for(50000000, 100000) == 11);
    /* never above the protocol's limit */
    CHECK(cb_bench_samples_for(1000, 1000) == CB_MAX_SAMPLES);
    CHECK(cb_bench_samples_for(0, 0) == CB_MAX_SAMPLES);
}

static void test_best_of(void)
{
    CHECK(cb_bench_best_of(200) == 8);   /* 25 groups of 8 */
    CHECK(cb_bench_best_of(48) == 8);    /* exactly 6 groups */
    CHECK(cb_bench_best_of(47) == 7);    /* fewer a group, so that 6 groups remain */
    CHECK(cb_bench_best_of(11) == 1);
    CHECK(cb_bench_best_of(2) == 1);
}

int main(void)
{
    test_timer_cost_ignores_a_preemption();
    test_keeps_iters();
    test_samples_for();
    test_best_of();
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures != 0;
}
