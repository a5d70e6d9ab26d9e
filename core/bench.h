/* bench.h - the `bench` command: check, then time, then fit. */
#ifndef CB_BENCH_H
#define CB_BENCH_H
#include "args.h"

/* Runs `bench`; returns the exit status (0, 1 if an algorithm was not
 * timed, 2 for bad arguments with one line on stderr). */
int cb_cmd_bench(const cb_args *a);

/* Writes the preamble for command (measuring the frequency); returns the
 * frequency measured, 0 if unknown. */
double cb_preamble_emit(const char *command);

#endif
