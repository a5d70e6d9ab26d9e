/* SPDX-License-Identifier: GPL-3.0-or-later */
/* args.c - parses the command line into cb_args (see args.h). */
#define _POSIX_C_SOURCE 200809L
#include "args.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cb_usage[] =
    "usage: cipherbench-core list [--lib L] [--offered]\n"
    "       cipherbench-core kat [--lib L] [--vectors FILE|DIR] [--no-differential]\n"
    "       cipherbench-core bench --lib L --algo A[,B...] --op encrypt|decrypt|hash|mac|ref\n"
    "                              [--sizes 16,64,...] [--samples N] [--min-sample-ms T]\n"
    "                              [--misalign N] [--cpu K] [--vectors DIR]\n"
    "       cipherbench-core serve --lib L [--cpu K] [--vectors DIR]\n"
    "                              (then one JSON request a line on stdin; docs/protocol.md)\n"
    "       cipherbench-core tls --list | --lib L [--suites S,...] [--handshakes] (tls --help)\n"
    "       cipherbench-core time [--stdin F] [--stdout F] [--stderr F] [--cpu K] -- PROG ARG...\n"
    "                              (one `timed` record: PROG's wall and CPU time; time --help)\n"
    "  every command (tls too): [--cpu-profile no-aes|baseline | --no-hw (= no-aes)\n"
    "    | --disable-cpu-feature aes,pclmul,avx2,vaes,sha,avx512,avx,ssse3,bmi]\n"
    "       turns those CPU features off through each library's own switch\n"
    "  kat: each library in a process of its own; a crash costs the vector it was on\n"
    "  libraries: each a module <lib>.so loaded at start, from $CIPHERBENCH_MODULES\n"
    "        (directories, ':'-separated), else modules/ beside this program, else the\n"
    "        installed directory relative to it; `list` says which loaded and why not\n"
    "  exit: 0 done (kat: every vector passed, every must-fail case refused); 1 kat: a\n"
    "        vector failed, crashed or could not be read, none was checked (an empty\n"
    "        directory), or the differential check failed; 2 bad arguments\n";

const size_t cb_default_sizes[] = {16, 64, 256, 1024, 8192, 16384, 65536};
const size_t cb_n_default_sizes = sizeof cb_default_sizes / sizeof cb_default_sizes[0];
const char *const cb_commands[] = {"list", "kat", "bench", "serve", "tls", "time", NULL};

/* Options each command accepts; value = 1 when it takes an argument. */
typedef cb_opt opt;
static const opt list_opts[] = {{"--lib", 1}, {"--offered", 0}, {NULL, 0}};
static const opt kat_opts[] = {{"--lib", 1}, {"--vectors", 1}, {"--no-differential", 0}, {NULL, 0}};
static const opt bench_opts[] = {
    {"--lib", 1}, {"--algo", 1}, {"--op", 1}, {"--sizes", 1}, {"--samples", 1},
    {"--min-sample-ms", 1}, {"--misalign", 1}, {"--cpu", 1}, {"--vectors", 1},
    {NULL, 0}};
static const opt serve_opts[] = {{"--lib", 1}, {"--cpu", 1}, {"--vectors", 1}, {NULL, 0}};

static int fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    snprintf(err, errlen, fmt, a, b);
    return 2;
}

/* A whole decimal integer in [lo, hi], lo >= 0. */
static int parse_ulong(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int parse_sizes(cb_args *a, const char *s, char *err, size_t errlen)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf)
        return fail(err, errlen, "--sizes: list too long%s%s", "", "");
    strcpy(buf, s);
    a->n_sizes = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned long v;
        if (parse_ulong(t, 1, CB_MAX_SIZE, &v) != 0)
            return fail(err, errlen, "--sizes: '%s' is not a size; valid: whole numbers of bytes from 1 to %s, comma-separated", t, "67108864");
        if (a->n_sizes == CB_MAX_SIZES)
            return fail(err, errlen, "--sizes: at most %s sizes%s", "64", "");
        a->sizes[a->n_sizes++] = v;
    }
    if (a->n_sizes == 0)
        return fail(err, errlen, "--sizes: empty list; valid: whole numbers of bytes, comma-separated, e.g. %s%s", "16,64,1024", "");
    a->sizes_given = 1;
    return 0;
}

static int parse_algos(cb_args *a, const char *s, char *err, size_t errlen)
{
    if (strlen(s) >= sizeof a->algo_buf)
        return fail(err, errlen, "--algo: list too long%s%s", "", "");
    strcpy(a->algo_buf, s);
    a->n_algos = 0;
    for (char *save = NULL, *t = strtok_r(a->algo_buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (a->n_algos == CB_MAX_ALGOS)
            return fail(err, errlen, "--algo: at most %s algorithms%s", "128", "");
        a->algos[a->n_algos++] = t;
    }
    if (a->n_algos == 0)
        return fail(err, errlen, "--algo: empty list%s%s", "", "");
    return 0;
}

static void opt_names(const opt *opts, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = '\0';
    for (const opt *o = opts; o->name && off < cap; o++)
        off += (size_t)snprintf(buf + off, cap - off, "%s%s", off ? ", " : "", o->name);
}

int cb_opt_samples(const char *val, int *out, char *err, size_t errlen)
{
    unsigned long v;
    if (parse_ulong(val, 1, CB_MAX_SAMPLES, &v) != 0)
        return fail(err, errlen, "--samples: '%s' is not valid; valid: a whole number from 1 to 1000%s", val, "");
    *out = (int)v;
    return 0;
}

int cb_opt_min_sample_ms(const char *val, double *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double d = strtod(val, &end);
    if (errno || end == val || *end || !(d >= CB_MIN_SAMPLE_MS_LO && d <= CB_MIN_SAMPLE_MS_HI))
        return fail(err, errlen, "--min-sample-ms: '%s' is not valid; valid: milliseconds from 0.001 to 10000%s", val, "");
    *out = d;
    return 0;
}

int cb_opt_cpu(const char *val, int *out, char *err, size_t errlen)
{
    unsigned long v;
    if (parse_ulong(val, 0, 1023, &v) != 0)
        return fail(err, errlen, "--cpu: '%s' is not valid; valid: a CPU number from 0 to 1023%s", val, "");
    *out = (int)v;
    return 0;
}

/* Applies one option with its value (NULL for flags). */
static int apply(void *ctx, const char *name, const char *val, char *err, size_t errlen)
{
    cb_args *a = ctx;
    unsigned long v;
    if (strcmp(name, "--lib") == 0) {
        a->lib = val;
    } else if (strcmp(name, "--algo") == 0) {
        return parse_algos(a, val, err, errlen);
    } else if (strcmp(name, "--op") == 0) {
        a->op = val;
    } else if (strcmp(name, "--sizes") == 0) {
        return parse_sizes(a, val, err, errlen);
    } else if (strcmp(name, "--samples") == 0) {
        return cb_opt_samples(val, &a->samples, err, errlen);
    } else if (strcmp(name, "--min-sample-ms") == 0) {
        return cb_opt_min_sample_ms(val, &a->min_sample_ms, err, errlen);
    } else if (strcmp(name, "--misalign") == 0) {
        if (parse_ulong(val, 0, CB_MAX_MISALIGN, &v) != 0)
            return fail(err, errlen, "--misalign: '%s' is not valid; valid: bytes from 0 to 63%s", val, "");
        a->misalign = v;
    } else if (strcmp(name, "--cpu") == 0) {
        return cb_opt_cpu(val, &a->cpu, err, errlen);
    } else if (strcmp(name, "--vectors") == 0) {
        a->vectors = val;
    } else if (strcmp(name, "--no-differential") == 0) {
        a->no_differential = 1;
    } else if (strcmp(name, "--offered") == 0) {
        a->offered = 1;
    }
    return 0;
}

int cb_opts_parse(const cb_opt *opts, int argc, char **argv, int first, cb_opt_apply *fn,
                  void *ctx, char *err, size_t errlen)
{
    for (int i = first; i < argc; i++) {
        char name[64];
        const char *arg = argv[i], *val = NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return CB_OPTS_HELP;
        /* --name=value or --name value */
        const char *eq = strchr(arg, '=');
        size_t nlen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (nlen >= sizeof name)
            nlen = sizeof name - 1;
        memcpy(name, arg, nlen);
        name[nlen] = '\0';
        const opt *o = opts;
        while (o->name && strcmp(o->name, name) != 0)
            o++;
        if (!o->name) {
            char valid[256];
            opt_names(opts, valid, sizeof valid);
            return fail(err, errlen, "unknown option '%s'; valid: %s", arg, valid);
        }
        if (o->value) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            else
                return fail(err, errlen, "option %s needs a value%s", name, "");
        } else if (eq) {
            return fail(err, errlen, "option %s takes no value%s", name, "");
        }
        int rc = fn(ctx, name, val, err, errlen);
        if (rc)
            return rc;
    }
    return 0;
}

int cb_args_parse(cb_args *a, int argc, char **argv, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    a->samples = 0;         /* chosen per point (bench.c) */
    a->min_sample_ms = 0;   /* as short as the timers allow (bench.c) */
    a->cpu = -1;
    a->n_sizes = cb_n_default_sizes;
    memcpy(a->sizes, cb_default_sizes, sizeof cb_default_sizes);

    if (argc < 2)
        return fail(err, errlen, "missing command; valid: list, kat, bench, serve, tls, time (see --help)%s%s", "", "");
    const char *cmd = argv[1];
    const opt *opts;
    if (strcmp(cmd, "list") == 0) {
        a->cmd = CB_CMD_LIST; opts = list_opts;
    } else if (strcmp(cmd, "kat") == 0) {
        a->cmd = CB_CMD_KAT; opts = kat_opts;
    } else if (strcmp(cmd, "bench") == 0) {
        a->cmd = CB_CMD_BENCH; opts = bench_opts;
    } else if (strcmp(cmd, "serve") == 0) {
        a->cmd = CB_CMD_SERVE; opts = serve_opts;
    } else if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        a->cmd = CB_CMD_HELP;
        return 0;
    } else {
        return fail(err, errlen, "unknown command '%s'; valid: list, kat, bench, serve, tls, time%s", cmd, "");
    }

    int rc = cb_opts_parse(opts, argc, argv, 2, apply, a, err, errlen);
    if (rc == CB_OPTS_HELP) {
        a->cmd = CB_CMD_HELP;
        return 0;
    }
    if (rc)
        return rc;

    if (a->cmd == CB_CMD_BENCH) {
        if (!a->lib)
            return fail(err, errlen, "bench needs --lib (see 'cipherbench-core list' for the libraries)%s%s", "", "");
        if (a->n_algos == 0)
            return fail(err, errlen, "bench needs --algo (see 'cipherbench-core list --lib %s' for its algorithms)%s", a->lib, "");
        if (!a->op)
            return fail(err, errlen, "bench needs --op; valid: encrypt, decrypt, hash, mac, ref%s%s", "", "");
    }
    if (a->cmd == CB_CMD_SERVE && !a->lib)
        return fail(err, errlen, "serve needs --lib (see 'cipherbench-core list' for the libraries)%s%s", "", "");
    return 0;
}
