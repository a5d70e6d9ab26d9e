/* fit.c - ordinary least squares and the median (see fit.h). */
#include "fit.h"
#include <stdlib.h>
#include <string.h>

int cb_fit_linear(const double *x, const double *y, size_t n, cb_fit *out)
{
    if (n < 2)
        return -1;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= (double)n;
    my /= (double)n;
    /* Centred sums: numerically stable for large x (sizes in bytes). */
    double sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        double dx = x[i] - mx, dy = y[i] - my;
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    if (sxx == 0)
        return -1;
    out->slope = sxy / sxx;
    out->intercept = my - out->slope * mx;
    double ssres = 0;
    for (size_t i = 0; i < n; i++) {
        double r = y[i] - (out->slope * x[i] + out->intercept);
        ssres += r * r;
    }
    /* All y equal: the horizontal line explains them fully. */
    out->r2 = syy > 0 ? 1.0 - ssres / syy : 1.0;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cb_median(const double *v, size_t n)
{
    double small[64];
    double *c = n <= 64 ? small : malloc(n * sizeof *c);
    if (!c)
        return v[0];
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    if (c != small)
        free(c);
    return m;
}

double cb_robust_sample(const uint64_t *wall_ns, const uint64_t *cpu_ns, size_t n,
                        size_t best_of, size_t *kept)
{
    if (kept)
        *kept = 0;
    if (n == 0)
        return 0;
    if (best_of == 0)
        best_of = 1;
    double *mins = malloc(n * sizeof *mins);
    if (!mins)
        return (double)wall_ns[0];
    size_t n_kept = 0;
    for (size_t i = 0; i < n; i++)
        n_kept += (double)cpu_ns[i] >= CB_MIN_CPU_SHARE * (double)wall_ns[i];
    int filter = n_kept > 0;
    size_t groups = 0;
    for (size_t g = 0; g < n; g += best_of) {
        double best = -1;
        for (size_t i = g; i < n && i < g + best_of; i++) {
            if (filter && (double)cpu_ns[i] < CB_MIN_CPU_SHARE * (double)wall_ns[i])
                continue;
            if (best < 0 || (double)wall_ns[i] < best)
                best = (double)wall_ns[i];
        }
        if (best >= 0)
            mins[groups++] = best;
    }
    double m = cb_median(mins, groups);
    free(mins);
    if (kept)
        *kept = filter ? n_kept : n;
    return m;
}
