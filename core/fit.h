/* fit.h - least-squares line through (x, y) points. Pure: no I/O, no clocks. */
#ifndef CB_FIT_H
#define CB_FIT_H
#include <stddef.h>

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

#endif
