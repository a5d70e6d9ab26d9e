/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit.h - the JSON-lines protocol (docs/protocol.md): one whole line per
 * record on the output stream, flushed at once, so a reader (or a crash)
 * never sees half a record. */
#ifndef CB_EMIT_H
#define CB_EMIT_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "backend.h"
#include "algorithms.h"
#include "cpuinfo.h"

/* Format version of every record, written as "v".
 * History:
 *   1  first version: preamble, library, algorithm, kat, differential,
 *      point, fit, error, end. The C core no longer writes fit (the front
 *      end fits the final figures; a reader ignores a fit from older cores
 *      and the Go and Rust cores). Optional fields added since (a version-1
 *      reader may ignore them): preamble cpu_clock, timer_ns, cpu_timer_ns;
 *      point best_of; preamble, point and end freq_cycles, freq_wall_ns,
 *      freq_cpu_ns (the clock's probes); preamble commands; the `serve`
 *      command, its preamble and the error reason bad_request (with algo
 *      and op null); kat must_fail, refused and crashed. */
#define CB_PROTOCOL_VERSION 1

/* Where records go; stdout unless a test sets it. */
extern FILE *cb_emit_stream;

/* A new record {"v":1,"type":type}; NULL only when out of memory. */
cJSON *cb_record(const char *type);
/* The record as one line without the newline (malloc'ed), then freed. */
char *cb_record_line(cJSON *rec);
/* Writes the record as one line, flushes, frees it. Returns 0 or -1. */
int cb_emit(cJSON *rec);

typedef struct cb_preamble {
    const char *command;
    const char *cpu_model;
    const char *const *cpu_flags; size_t n_flags;
    double freq_hz;             /* 0: unknown, written as null */
    const cb_clock *clock;      /* the probes behind freq_hz; NULL: not written */
    uint64_t timer_ns, cpu_timer_ns;   /* 0: not written */
    const char *const *commands;       /* NULL-terminated; NULL: not written */
} cb_preamble;

/* What a point carries besides its samples (NULL: nothing): the figure is
 * taken as the best of every best_of consecutive samples, and the clock was
 * probed once before each such group. */
typedef struct cb_point_extra {
    size_t best_of;             /* 0: not written */
    uint64_t freq_cycles;       /* cycles per probe; 0: no probes */
    const uint64_t *freq_wall_ns, *freq_cpu_ns;
    size_t n_probes;
    /* NULL, or more string fields of the record as name, value pairs, NULL-terminated
     * (a tls transfer: suite, proto, group, cert) */
    const char *const *labels;
} cb_point_extra;

int cb_emit_preamble(const cb_preamble *p);
int cb_emit_library(const cb_backend *b);
int cb_emit_algorithm(const char *lib, const cb_algorithm *a);
int cb_emit_kat(const char *lib, const char *algo, int passed, int failed,
                int skipped, const char *source, const char *message);
/* What a kat record may say besides: the must-fail vectors of its file tried and, of
 * those, refused (written when must_fail > 0), and the vectors a crash of the library
 * stopped (written when n_crashed > 0). */
typedef struct cb_kat_extra {
    int must_fail, refused;
    const char *const *crashed;
    size_t n_crashed;
} cb_kat_extra;
int cb_emit_kat_extra(const char *lib, const char *algo, int passed, int failed, int skipped,
                      const char *source, const char *message, const cb_kat_extra *x);
int cb_emit_differential(const char *algo, const char *const *libs, size_t n,
                         int ok, const char *message);
int cb_emit_point(const char *lib, const char *algo, const char *op, size_t size,
                  uint64_t iters, const uint64_t *wall_ns, const uint64_t *cpu_ns,
                  size_t n, size_t misalign, const cb_point_extra *x);
/* A timed record's samples: iters, then wall_ns and cpu_ns of n samples (point, and tls's
 * handshake records). */
void cb_record_samples(cJSON *r, uint64_t iters, const uint64_t *wall_ns, const uint64_t *cpu_ns,
                       size_t n);
/* algo and op may be NULL (written as null): a `serve` request that names
 * no valid algorithm. */
int cb_emit_error(const char *lib, const char *algo, const char *op,
                  const char *reason, const char *message);
/* With the probes of cb_clock_last when they gave freq_hz. */
int cb_emit_end(double freq_hz, uint64_t elapsed_ns);
/* The same with cpu_ns: the process's CPU time over the elapsed_ns (what a throttled host
 * gave the core: cpu_ns / elapsed_ns). */
int cb_emit_end_cpu(double freq_hz, uint64_t elapsed_ns, uint64_t cpu_ns);

#endif
