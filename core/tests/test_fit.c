/* test_fit.c - the least-squares fit and median on synthetic data whose
 * answers are known. */
#include "../fit.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

int main(void)
{
    /* An exact line: time = 0.25 ns/byte * size + 80 ns. */
    double x[] = {1024, 8192, 16384, 65536}, y[4];
    for (int i = 0; i < 4; i++)
        y[i] = 0.25 * x[i] + 80.0;
    cb_fit f;
    CHECK(cb_fit_linear(x, y, 4, &f) == 0);
    CHECK(fabs(f.slope - 0.25) < 1e-12);
    CHECK(fabs(f.intercept - 80.0) < 1e-9);
    CHECK(fabs(f.r2 - 1.0) < 1e-12);

    /* Noise that sums to zero and is uncorrelated with x leaves the fit
     * unchanged but lowers r2 below 1. */
    double xn[] = {1000, 1000, 2000, 2000, 3000, 3000}, yn[6];
    double noise[] = {+5, -5, -5, +5, +5, -5};
    for (int i = 0; i < 6; i++)
        yn[i] = 1.5 * xn[i] + 300.0 + noise[i];
    CHECK(cb_fit_linear(xn, yn, 6, &f) == 0);
    CHECK(fabs(f.slope - 1.5) < 1e-9);
    CHECK(fabs(f.intercept - 300.0) < 1e-6);
    CHECK(f.r2 < 1.0 && f.r2 > 0.999);

    /* A negative slope and a negative intercept are fitted as they are. */
    double yneg[4];
    for (int i = 0; i < 4; i++)
        yneg[i] = -0.001 * x[i] - 7.0;
    CHECK(cb_fit_linear(x, yneg, 4, &f) == 0);
    CHECK(fabs(f.slope + 0.001) < 1e-12 && fabs(f.intercept + 7.0) < 1e-9);

    /* Undefined lines are refused. */
    CHECK(cb_fit_linear(x, y, 1, &f) == -1);
    CHECK(cb_fit_linear(x, y, 0, &f) == -1);
    double same[] = {4096, 4096, 4096};
    CHECK(cb_fit_linear(same, y, 3, &f) == -1);

    /* Flat data: slope 0, and the line explains it fully. */
    double flat[] = {42, 42, 42, 42};
    CHECK(cb_fit_linear(x, flat, 4, &f) == 0);
    CHECK(fabs(f.slope) < 1e-15 && fabs(f.intercept - 42) < 1e-9 && f.r2 == 1.0);

    /* Median: odd, even, and the input left as it was. */
    double odd[] = {5, 1, 9, 3, 7};
    CHECK(cb_median(odd, 5) == 5);
    CHECK(odd[0] == 5 && odd[1] == 1);
    double even[] = {4, 1, 3, 2};
    CHECK(cb_median(even, 4) == 2.5);
    double one[] = {11};
    CHECK(cb_median(one, 1) == 11);
    double big[101];
    for (int i = 0; i < 101; i++)
        big[i] = (double)((i * 37) % 101);
    CHECK(cb_median(big, 101) == 50);

    /* One-sided noise: 200 samples of a true 100000 ns, each with a little
     * jitter; every other sample slowed by up to 60% while keeping the CPU (a
     * busy sibling), and one in ten preempted (wall time far above its CPU
     * time). The median of the raw samples is pulled up; the robust figure
     * stays within 1% of the truth and the preempted samples are not kept. */
    uint64_t w[200], c[200];
    uint64_t st = 12345;
    size_t lost = 0;
    for (int i = 0; i < 200; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t jitter = (st >> 33) % 500;             /* 0-0.5% */
        w[i] = 100000 + jitter;
        if (i % 2 == 0)
            w[i] += (st >> 20) % 60000;                  /* slowed, CPU kept */
        c[i] = w[i] + 300;
        if (i % 10 == 7) {
            w[i] += 3000000;                             /* lost the CPU for 3 ms */
            lost++;
        }
    }
    double raw[200];
    for (int i = 0; i < 200; i++)
        raw[i] = (double)w[i];
    size_t kept = 0;
    double r = cb_robust_sample(w, c, 200, 8, &kept);
    CHECK(kept == 200 - lost);
    CHECK(r >= 100000 && r < 101000);
    CHECK(cb_median(raw, 200) > 101000);   /* the noise was really there */
    /* best_of 1 keeps the filter but no grouping: still no preempted sample. */
    CHECK(cb_robust_sample(w, c, 200, 1, &kept) < 120000);
    /* When no sample kept the CPU, all count (the figure is not invented). */
    uint64_t c0[3] = {0, 0, 0}, w3[3] = {10, 20, 30};
    CHECK(cb_robust_sample(w3, c0, 3, 1, &kept) == 20 && kept == 3);
    CHECK(cb_robust_sample(w3, c0, 0, 1, &kept) == 0 && kept == 0);

    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
