/* test_fit.c - the least-squares fit and median on synthetic data whose
 * answers are known. */
#include "../fit.h"
#include <math.h>
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

    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
