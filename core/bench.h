/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench.h - timing one library's algorithms: the `bench` command, and the
 * requests of `serve` (serve.c), which run the same code. */
#ifndef CB_BENCH_H
#define CB_BENCH_H
#include <stdint.h>
#include "algorithms.h"
#include "args.h"
#include "backend.h"
#include "vectors.h"

/* Runs `bench`; returns the exit status (0, 1 if an algorithm was not
 * timed, 2 for bad arguments with one line on stderr). */
int cb_cmd_bench(const cb_args *a);

/* One library set up for timing. */
typedef struct cb_bench_lib {
    const cb_backend *lib;
    int lib_ok;            /* its global initialisation succeeded */
    const char *hw;        /* cb_hw_status once initialised: NULL when nothing was asked off */
    int need_vectors;      /* 0 for the reference rows, which have none */
    cb_vecset set;
} cb_bench_lib;

/* What `serve` keeps between requests: each algorithm's known answers are
 * checked once, and each point's loop count (and sample count, when the
 * core chose it) is calibrated once. Full tables are simply not extended. */
#define CB_MEMO_KATS 256
#define CB_MEMO_CALIBS 4096
typedef struct cb_kat_memo {
    const cb_algorithm *alg;
    int ok;                /* 1: passed */
    char why[512];         /* why not */
} cb_kat_memo;
typedef struct cb_calib {
    const cb_algorithm *alg;
    char op[16];
    size_t size, misalign;
    uint64_t min_ns;       /* the sample length it was calibrated for */
    uint64_t iters;        /* 0: not calibrated yet */
    size_t n;              /* samples the core chose (0: not chosen yet) */
} cb_calib;
typedef struct cb_bench_memo {
    size_t n_kats, n_calibs;
    cb_kat_memo kats[CB_MEMO_KATS];
    cb_calib calibs[CB_MEMO_CALIBS];
} cb_bench_memo;

/* Checks the library, algorithms, op and sizes a names; fills lib, ops and
 * algs (one per a->algos). Returns 0, or 2 with one line in err. */
int cb_bench_check(const cb_args *a, const cb_backend **lib, const cb_op **ops,
                   const cb_algorithm **algs, char *err, size_t errlen);

/* Loads the vectors lib needs (vectors: NULL for the default place), with a
 * warning on stderr for each file left out. Returns 0, or 2 with one line in
 * err. Nothing is written on stdout. */
int cb_bench_open(cb_bench_lib *L, const cb_backend *lib, const char *vectors,
                  char *err, size_t errlen);

/* Initialises the library, then writes the preamble of command and the
 * library record. */
void cb_bench_start(cb_bench_lib *L, const char *command);

/* Times every algorithm of a (ops and algs from cb_bench_check) in turn:
 * known answers first (remembered in memo when not NULL), then a point per
 * size. Returns the number of algorithms that failed. */
int cb_bench_run(const cb_bench_lib *L, const cb_args *a, const cb_op *const *ops,
                 const cb_algorithm *const *algs, cb_bench_memo *memo);

void cb_bench_close(cb_bench_lib *L);

/* The decisions of the measuring loop (bench.c), pure, as google/benchmark's runner keeps
 * PredictNumItersNeeded apart:
 * - cb_bench_keeps_iters: a loop count calibrated before still serves when its last
 *   warm-up batch lasted at least half a sample's minimum (min_ns);
 * - cb_bench_samples_for: the samples that fill a point's time when one sample lasts
 *   first_ns (at least min_ns), within [11, CB_MAX_SAMPLES];
 * - cb_bench_best_of: the samples per group (the clock probed before each) for n samples:
 *   8, or fewer so that at least 6 groups remain. */
int cb_bench_keeps_iters(uint64_t last_ns, uint64_t min_ns);
size_t cb_bench_samples_for(uint64_t first_ns, uint64_t min_ns);
size_t cb_bench_best_of(size_t n);

/* The AAD of every timed AEAD message: a TLS 1.2 record header (RFC 5246 6.2.3.3: the
 * sequence bytes left as they are, then application_data, version 3.3 and the length of a
 * size-byte message), which the TLS record rows (OpenSSL's stitched ciphers) check and the
 * others authenticate as 13 bytes like any. */
void cb_tls_record_header(uint8_t aad[CB_AAD_LEN], size_t size);

#endif
