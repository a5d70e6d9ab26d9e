/* SPDX-License-Identifier: GPL-3.0-or-later */
/* args.h - the command line of cipherbench-core (docs/protocol.md).
 * Parsing checks syntax and ranges only; which libraries, algorithms and
 * operations exist is checked by the command that uses them. */
#ifndef CB_ARGS_H
#define CB_ARGS_H
#include <stddef.h>

#define CB_MAX_ALGOS 128
#define CB_MAX_SIZES 64
#define CB_MAX_SIZE (64u << 20)   /* largest message: 64 MiB */
/* Limits of --samples, --misalign and --min-sample-ms, and of the same
 * fields of a `serve` request (serve.c). */
#define CB_MAX_SAMPLES 1000
#define CB_MAX_MISALIGN 63
#define CB_MIN_SAMPLE_MS_LO 0.001
#define CB_MIN_SAMPLE_MS_HI 10000.0

typedef enum { CB_CMD_LIST, CB_CMD_KAT, CB_CMD_BENCH, CB_CMD_SERVE, CB_CMD_HELP } cb_cmd;

typedef struct cb_args {
    cb_cmd cmd;
    const char *lib;                 /* NULL: all (list, kat) */
    const char *algos[CB_MAX_ALGOS]; size_t n_algos;
    char algo_buf[4096];             /* storage the algos point into */
    const char *op;
    size_t sizes[CB_MAX_SIZES]; size_t n_sizes;
    int sizes_given;                 /* 0: the defaults */
    int samples;                     /* 0: as many as fill the point's time */
    double min_sample_ms;            /* 0: as short as the timers allow */
    size_t misalign;
    int cpu;                         /* -1: not pinned */
    const char *vectors;             /* NULL: $CIPHERBENCH_VECTORS or built-in */
    int no_differential;
    int offered;                     /* list: what each library offers, not its rows */
} cb_args;

/* Fills a from argv. Returns 0, or 2 with one line (no newline) in err. */
int cb_args_parse(cb_args *a, int argc, char **argv, char *err, size_t errlen);

/* The option table every command's parser shares (`tls` too): each option, and whether it
 * takes a value (`--name value` or `--name=value`). */
typedef struct cb_opt { const char *name; int value; } cb_opt;
/* Applies one option of the table with its value (NULL for a flag): 0, or 2 with err. */
typedef int cb_opt_apply(void *ctx, const char *name, const char *val, char *err, size_t errlen);
/* Walks argv[first..] against opts (NULL-terminated), calling apply for each. Returns 0;
 * CB_OPTS_HELP at --help or -h; or 2 with one line in err (an unknown option names the
 * valid ones). */
#define CB_OPTS_HELP 1
int cb_opts_parse(const cb_opt *opts, int argc, char **argv, int first, cb_opt_apply *apply,
                  void *ctx, char *err, size_t errlen);
/* The values several commands take, checked with the same ranges and messages:
 * --samples (1..CB_MAX_SAMPLES), --min-sample-ms, --cpu. 0, or 2 with err. */
int cb_opt_samples(const char *val, int *out, char *err, size_t errlen);
int cb_opt_min_sample_ms(const char *val, double *out, char *err, size_t errlen);
int cb_opt_cpu(const char *val, int *out, char *err, size_t errlen);

/* Usage text for --help. */
extern const char cb_usage[];

/* The measuring sizes when none are given. */
extern const size_t cb_default_sizes[];
extern const size_t cb_n_default_sizes;

/* Every command this core has, NULL-terminated (the preamble's `commands`:
 * a front end tells from it whether `serve` is there). */
extern const char *const cb_commands[];

#endif
