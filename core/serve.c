/* SPDX-License-Identifier: GPL-3.0-or-later */
/* serve.c - the `serve` command (serve.h): the library's vectors are loaded
 * and it is initialised once; then each request line is answered with the
 * records `bench` writes for the same arguments, ended by an `end` record.
 * Known answers run once per algorithm and each point is calibrated once
 * (cb_bench_memo), so later rounds of the same point skip both. */
#define _POSIX_C_SOURCE 200809L
#include "serve.h"
#include "request.h"
#include "bench.h"
#include "cpuinfo.h"
#include "emit.h"
#include "libs.h"
#include "measure.h"
#include "preamble.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads one line into buf (any bytes, NUL included), its length in *len and
 * a NUL after it. Returns 1, 0 at the end of input, or -1 for a line longer
 * than cap - 1 bytes (read to its end and dropped). */
static int read_line(FILE *in, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int c;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n + 1 < cap)
            buf[n] = (char)c;
        n++;
    }
    if (c == EOF && n == 0)
        return 0;
    if (n + 1 > cap)
        return -1;
    buf[n] = '\0';
    *len = n;
    return 1;
}

static int blank(const char *s, size_t len)
{
    return strspn(s, " \t\r") == len;
}

int cb_cmd_serve(const cb_args *a)
{
    const cb_backend *lib = cb_lib_find(a->lib);
    char err[4096 + 512];
    cb_bench_lib L;
    if (!lib) {
        cb_lib_unknown(a->lib, err, sizeof err);
        fprintf(stderr, "cipherbench-core: %s\n", err);
        return 2;
    }
    if ((a->cpu >= 0 && cb_pin_cpu(a->cpu, err, sizeof err) != 0)
        || cb_bench_open(&L, lib, a->vectors, err, sizeof err) != 0) {
        fprintf(stderr, "cipherbench-core: %s\n", err);
        return 2;
    }
    static cb_bench_memo memo;
    static char line[CB_MAX_REQUEST + 1];
    cb_bench_start(&L, "serve");
    for (;;) {
        size_t len = 0;
        int got = read_line(stdin, line, sizeof line, &len);
        if (got == 0)
            break;
        if (got > 0 && blank(line, len))
            continue;
        uint64_t t0 = cb_wall_ns(), c0 = cb_cpu_ns();
        cb_args req;
        const cb_op *ops[CB_MAX_ALGOS];
        const cb_algorithm *algs[CB_MAX_ALGOS];
        const cb_backend *same;
        if (got < 0)
            snprintf(err, sizeof err, "request longer than %d bytes", CB_MAX_REQUEST);
        if (got < 0 || cb_request_text(line, len, err, sizeof err) != 0
            || cb_request_parse(line, a, &req, err, sizeof err) != 0
            || cb_bench_check(&req, &same, ops, algs, err, sizeof err) != 0) {
            cb_utf8_trim(err);   /* a cut name must not end the record in half a character */
            cb_emit_error(lib->name, NULL, NULL, "bad_request", err);
        } else
            cb_bench_run(&L, &req, ops, algs, &memo);
        uint64_t wall = cb_wall_ns() - t0, cpu = cb_cpu_ns() - c0;
        cb_emit_end_cpu(cb_measure_freq_hz_after(cb_preamble_freq_hz()), wall, cpu);
    }
    cb_request_free();
    cb_bench_close(&L);
    return 0;
}
