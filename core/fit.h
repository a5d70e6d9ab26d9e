/* fit.h - least-squares line through (x, y) points. Pure: no I/O, no clocks. */
#ifndef CB_FIT_H
#define CB_FIT_H
#include <stddef.h>
#include <stdint.h>

typedef struct cb_fit {
    double slope;      /* dy/dx */
    double intercept;  /* y at x = 0 */
    double r2;         /* coefficient of determination, 1 = a perfect line */
} cb_fit;

/* Fits y = slope * x + intercept. Returns 0, or -1 when the line is not
 * defined (fewer than two points, or all x equal). */
int cb_fit_linear(const double *x, const double *y, size_t n, cb_fit *out);

/* Median of n values (n >= 1); sorts a copy, leaves v unchanged. */
double cb_median(const double *v, size_t n);

/* A sample whose CPU time is below this share of its wall time lost the CPU
 * while it ran (preempted, or its virtual CPU stolen). */
#define CB_MIN_CPU_SHARE 0.95

/* The figure of samples disturbed by one-sided noise (interference only ever
 * adds time): samples that lost the CPU are left out, the rest are taken in
 * groups of best_of consecutive samples, and the figure is the median of the
 * groups' fastest. All samples count when none kept the CPU. Returns the
 * figure in the samples' unit (0 for n == 0); *kept (may be NULL) gets the
 * number of samples kept. */
double cb_robust_sample(const uint64_t *wall_ns, const uint64_t *cpu_ns, size_t n,
                        size_t best_of, size_t *kept);

#endif
