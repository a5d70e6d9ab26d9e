/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench.c - timing one library's algorithms (bench.h; docs/protocol.md).
 * For each algorithm: known-answer vectors first; then per size a point of
 * raw samples. The slope fit is the front end's (src/cipherbench/analysis/fit.py): it
 * fits the final figures of a run, after extra samples and rounds, which one
 * batch of the core never sees. */
#include "bench.h"
#include "algorithms.h"
#include "backend.h"
#include "emit.h"
#include "hw.h"
#include "kat.h"
#include "libs.h"
#include "measure.h"
#include "preamble.h"
#include "prng.h"
#include "ref.h"
#include "vectors.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_SEED 0x5eed0000cb01ull   /* fixed: every run times the same bytes */
#define WARM_NS 5000000ull              /* at least 5 ms of warm-up per point */
/* A point calibrated by an earlier request of the same served process warms up for
 * 1 ms only: its clock is up (the run keeps the CPU busy) and one millisecond
 * refills the caches and predictors other libraries' batches evicted; 5 ms at
 * every round was a third of a short batch. */
#define WARM_MEMO_NS 1000000ull
/* Without --samples: as many samples as fill about this much time per point,
 * within [MIN_SAMPLES, CB_MAX_SAMPLES] (args.h). */
#define POINT_NS 20000000ull
#define MIN_SAMPLES 11
/* Samples per group (the figure takes each group's fastest); the clock is
 * probed once before each group. */
#define BEST_OF 8

/* The two decisions of the measuring loop, pure (core/tests/test_bench.c). */

size_t cb_bench_best_of(size_t n)
{
    size_t g = n / 6;
    return g < 1 ? 1 : g > BEST_OF ? BEST_OF : g;
}

int cb_bench_keeps_iters(uint64_t last_ns, uint64_t min_ns)
{
    return last_ns >= min_ns / 2;
}

size_t cb_bench_samples_for(uint64_t first_ns, uint64_t min_ns)
{
    uint64_t each = first_ns > min_ns ? first_ns : min_ns;
    uint64_t n = each ? POINT_NS / each : CB_MAX_SAMPLES;
    return n < MIN_SAMPLES ? MIN_SAMPLES : n > CB_MAX_SAMPLES ? CB_MAX_SAMPLES : (size_t)n;
}

void cb_tls_record_header(uint8_t aad[CB_AAD_LEN], size_t size)
{
    aad[8] = 23;
    aad[9] = 3;
    aad[10] = 3;
    aad[11] = (uint8_t)(size >> 8);
    aad[12] = (uint8_t)size;
}

static int say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 2;
}

int cb_bench_check(const cb_args *a, const cb_backend **libp, const cb_op **ops,
                   const cb_algorithm **algs, char *err, size_t errlen)
{
    char valid[4096];
    const cb_backend *lib = cb_lib_find(a->lib);
    if (!lib) {
        cb_lib_unknown(a->lib, err, errlen);
        return 2;
    }
    for (size_t i = 0; i < a->n_algos; i++) {
        const char *name = a->algos[i];
        algs[i] = cb_algorithm_find(name);
        ops[i] = cb_lib_op(lib, name);
        if (!algs[i] || !ops[i]) {
            cb_lib_algo_names(lib, valid, sizeof valid);
            return say(err, errlen, algs[i] ? "library %s has no algorithm '%s'; valid: %s"
                                            : "library %s: unknown algorithm '%s'; valid: %s",
                       lib->name, name, valid);
        }
        int op_ok = 0;
        size_t off = 0;
        valid[0] = '\0';
        for (const char *const *o = cb_kind_ops(algs[i]->kind); *o; o++) {
            op_ok |= strcmp(*o, a->op) == 0;
            off += (size_t)snprintf(valid + off, sizeof valid - off, "%s%s", off ? ", " : "", *o);
        }
        if (!op_ok)
            return say(err, errlen, "unknown op '%s' for %s; valid: %s", a->op, name, valid);
        for (size_t s = 0; a->sizes_given && s < a->n_sizes; s++) {
            if (algs[i]->kind == CB_KEYWRAP && a->sizes[s] < cb_keywrap_min(algs[i]))
                return say(err, errlen, "size %zu is below the %zu bytes of key data %s wraps at least; "
                           "valid: %zu and up", a->sizes[s], cb_keywrap_min(algs[i]), name,
                           cb_keywrap_min(algs[i]));
            if (a->sizes[s] % algs[i]->block_len)
                return say(err, errlen, "size %zu is not a multiple of %s's block of %zu bytes; "
                           "valid: multiples of the block", a->sizes[s], name, algs[i]->block_len);
        }
    }
    *libp = lib;
    return 0;
}

/* The calibration memo's entry for this point (a new one when there is
 * room), or NULL. */
static cb_calib *calib_entry(cb_bench_memo *m, const cb_algorithm *alg, const char *op, size_t size,
            size_t misalign, uint64_t min_ns)
{
    if (!m)
        return NULL;
    for (size_t i = 0; i < m->n_calibs; i++)
        if (m->calibs[i].alg == alg && m->calibs[i].size == size && m->calibs[i].misalign == misalign
            && m->calibs[i].min_ns == min_ns && strcmp(m->calibs[i].op, op) == 0)
            return &m->calibs[i];
    if (m->n_calibs == CB_MEMO_CALIBS || strlen(op) >= sizeof m->calibs[0].op)
        return NULL;
    cb_calib *e = &m->calibs[m->n_calibs++];
    memset(e, 0, sizeof *e);
    e->alg = alg;
    strcpy(e->op, op);
    e->size = size;
    e->misalign = misalign;
    e->min_ns = min_ns;
    return e;
}

/* One point from its setup to its record: the library's row, the buffers, the job and
 * the samples, and why it failed when it did (reason and msg of its error record). */
typedef struct point {
    const cb_args *a;
    const cb_backend *lib;
    const cb_op *op;
    const cb_algorithm *alg;
    size_t size, room;             /* room: a wrapped key is longer than the key data */
    int decrypt;
    cb_buf in, out;
    uint8_t key[64], iv[64], nonce[64], tag[64], aad[CB_AAD_LEN];
    cb_setup setup;
    cb_job job;
    void *ctx;
    uint64_t *wall, *cpu, *fwall, *fcpu;
    const char *reason;
    char msg[256];
} point;

static int fail(point *p, const char *reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->msg, sizeof p->msg, fmt, ap);
    va_end(ap);
    p->reason = reason;
    return -1;
}

/* A status of the timed operation as the error record says it. */
static int op_failed(point *p, int st)
{
    return fail(p, "run_failed", "%s returned status %d%s", p->a->op, st,
                st == CB_ERR_AUTH ? " (the tag did not verify)" : "");
}

/* Job setup: buffers filled from the fixed seed, the setup init() gets, and the message
 * every call times (nonce, AAD as a TLS record header, tag). */
static int point_setup(point *p)
{
    const cb_algorithm *alg = p->alg;
    int has_out = alg->kind == CB_AEAD || alg->kind == CB_CIPHER || alg->kind == CB_REF
                  || alg->kind == CB_KEYWRAP;
    p->room = alg->kind == CB_KEYWRAP ? cb_keywrap_out(alg, p->size) : p->size;
    p->decrypt = strcmp(p->a->op, "decrypt") == 0;
    p->wall = calloc(CB_MAX_SAMPLES, sizeof *p->wall);
    p->cpu = calloc(CB_MAX_SAMPLES, sizeof *p->cpu);
    p->fwall = calloc(CB_MAX_SAMPLES, sizeof *p->fwall);
    p->fcpu = calloc(CB_MAX_SAMPLES, sizeof *p->fcpu);
    if (!p->wall || !p->cpu || !p->fwall || !p->fcpu || cb_buf_alloc(&p->in, p->room, p->a->misalign)
        || cb_buf_alloc(&p->out, p->room, p->a->misalign))
        return fail(p, "init_failed", "out of memory for %zu-byte buffers", p->size);
    uint64_t seed = BENCH_SEED;
    cb_prng_fill(&seed, p->key, sizeof p->key);
    cb_prng_fill(&seed, p->iv, sizeof p->iv);
    cb_prng_fill(&seed, p->aad, sizeof p->aad);
    cb_prng_fill(&seed, p->in.p, p->size);
    memcpy(p->nonce, p->iv, sizeof p->nonce);
    cb_tls_record_header(p->aad, p->size);
    p->setup = (cb_setup){alg->key_len ? p->key : NULL, alg->key_len, alg->iv_len ? p->iv : NULL,
                          alg->iv_len, alg->tag_len, p->decrypt};
    cb_job *j = &p->job;
    j->op = p->op;
    j->msg = (cb_msg){.in = p->in.p, .out = has_out ? p->out.p : NULL, .len = p->size};
    if (alg->per_message_nonce) {
        j->msg.nonce = j->nonce = p->nonce;
        j->msg.nonce_len = alg->iv_len;
        j->bump_nonce = !(alg->kind == CB_AEAD && p->decrypt);
    }
    if (cb_aad_len(alg)) {
        j->msg.aad = p->aad;
        j->msg.aad_len = cb_aad_len(alg);
    }
    if (alg->tag_len && alg->kind != CB_KEYWRAP) {   /* a wrapped key carries its check */
        j->msg.tag = p->tag;
        j->msg.tag_len = alg->tag_len;
    }
    return 0;
}

/* init() with setup s into p->ctx; a row the library refuses here is "unsupported". */
static int point_init(point *p, const cb_setup *s)
{
    int st = p->op->init(&p->ctx, p->op->arg, s);
    if (st == CB_OK)
        return 0;
    p->ctx = NULL;
    if (st == CB_ERR_PARAM)   /* e.g. a row that needs CPU instructions turned off here */
        return fail(p, "unsupported", "not available here: the library refused the row (key %zu, "
                    "iv %zu, tag %zu bytes); some rows need a build option or CPU instructions "
                    "not in use here", p->alg->key_len, p->alg->iv_len, p->alg->tag_len);
    return fail(p, "init_failed", "%sinit returned status %d for key %zu, iv %zu, tag %zu bytes",
                s->decrypt == p->decrypt ? "" : "encrypt ", st, p->alg->key_len, p->alg->iv_len,
                p->alg->tag_len);
}

/* Decrypt preparation: an AEAD or key wrap is encrypted once, so that every timed
 * decryption verifies its tag (or the wrap's integrity check). */
static int prepare_decrypt(point *p)
{
    if (!p->decrypt || (p->alg->kind != CB_AEAD && p->alg->kind != CB_KEYWRAP))
        return 0;
    cb_setup es = p->setup;
    es.decrypt = 0;
    if (point_init(p, &es) != 0)
        return -1;
    int st = p->op->run(p->ctx, &p->job.msg);
    p->op->finish(p->ctx);
    p->ctx = NULL;
    if (st != CB_OK)
        return fail(p, "run_failed", "encrypting the message to decrypt returned status %d", st);
    memcpy(p->in.p, p->out.p, p->room);
    return 0;
}

/* The context the samples time; the reference copy is checked like any row: it must copy. */
static int point_open(point *p)
{
    if (point_init(p, &p->setup) != 0)
        return -1;
    p->job.ctx = p->ctx;
    if (p->alg->kind == CB_REF && strcmp(p->op->algo, "memcpy") == 0
        && (cb_job_run(&p->job, 1) != CB_OK || memcmp(p->out.p, p->in.p, p->size) != 0))
        return fail(p, "kat_failed", "memcpy did not copy");
    return 0;
}

/* Calibration: a loop count kept from an earlier request (memo) is only warmed up, unless
 * it now runs shorter than half a sample's minimum (the machine got much faster, or its
 * calibration was slowed down); otherwise calibrate (again). Noise between the two is
 * tolerated, so the rounds of a point keep one loop count. */
static int calibrate(point *p, cb_calib *cal, uint64_t min_ns, uint64_t *iters)
{
    uint64_t warm = WARM_NS > 2 * min_ns ? WARM_NS : 2 * min_ns;
    int st = CB_OK;
    if (cal && cal->iters) {
        uint64_t last = 0;
        st = cb_job_warm(&p->job, WARM_MEMO_NS > min_ns ? WARM_MEMO_NS : min_ns, cal->iters,
                         &last);
        if (st == CB_OK && cb_bench_keeps_iters(last, min_ns)) {
            *iters = cal->iters;
            return 0;
        }
    }
    if (st == CB_OK)
        st = cb_job_calibrate(&p->job, warm, min_ns, iters);
    if (st != CB_OK)
        return op_failed(p, st);
    if (cal) {
        cal->n = 0;            /* a new loop count: its sample count is chosen again */
        cal->iters = *iters;
    }
    return 0;
}

/* Sample count: --samples, else the memo's, else as many as fill POINT_NS judged by a
 * first sample (a large message may take longer than min_ns per call). */
static int sample_count(point *p, cb_calib *cal, uint64_t iters, uint64_t min_ns, size_t *n)
{
    *n = (size_t)p->a->samples;
    if (*n)
        return 0;
    if (cal && cal->n) {
        *n = cal->n;
        return 0;
    }
    uint64_t w0, c0;
    int st = cb_job_sample(&p->job, iters, &w0, &c0);
    if (st != CB_OK)
        return op_failed(p, st);
    *n = cb_bench_samples_for(w0, min_ns);
    if (cal)
        cal->n = *n;
    return 0;
}

/* The sample loop: n samples of iters calls, the clock probed before each group of
 * best_of (interleaved, so a busy stretch falls on probes and samples alike); then the
 * point record. */
static int sample_loop(point *p, uint64_t iters, uint64_t min_ns, size_t n)
{
    size_t best_of = cb_bench_best_of(n), n_probes = 0;
    double freq = cb_preamble_freq_hz();
    uint64_t rounds = cb_clock_rounds(min_ns < CB_CLOCK_PROBE_NS ? min_ns : CB_CLOCK_PROBE_NS, freq);
    int probes = freq > 0;
    for (size_t i = 0; i < n; i++) {
        if (probes && i % best_of == 0
            && cb_clock_probe(rounds, &p->fwall[n_probes], &p->fcpu[n_probes]) == 0)
            n_probes++;
        int st = cb_job_sample(&p->job, iters, &p->wall[i], &p->cpu[i]);
        if (st != CB_OK)
            return op_failed(p, st);
    }
    cb_point_extra x = {.best_of = best_of,
                        .freq_cycles = probes ? rounds * CB_CLOCK_CYCLES_PER_ROUND : 0,
                        .freq_wall_ns = p->fwall, .freq_cpu_ns = p->fcpu, .n_probes = n_probes};
    cb_emit_point(p->lib->name, p->alg->name, p->a->op, p->size, iters, p->wall, p->cpu, n,
                  p->a->misalign, &x);
    return 0;
}

static void point_free(point *p)
{
    if (p->ctx)
        p->op->finish(p->ctx);
    cb_buf_free(&p->in);
    cb_buf_free(&p->out);
    free(p->wall);
    free(p->cpu);
    free(p->fwall);
    free(p->fcpu);
    free(p);
}

/* Times op on size bytes and emits the point. Without --min-sample-ms a sample is as short
 * as the timers allow (cb_short_sample_ns). With a memo, a point calibrated before keeps
 * its loop count and sample count. Returns 0, or -1 after emitting an error record. */
static int measure_point(const cb_args *a, const cb_backend *lib, const cb_op *op,
                         const cb_algorithm *alg, size_t size, cb_bench_memo *memo)
{
    point *p = calloc(1, sizeof *p);
    if (!p) {
        cb_emit_error(lib->name, alg->name, a->op, "init_failed", "out of memory");
        return -1;
    }
    *p = (point){.a = a, .lib = lib, .op = op, .alg = alg, .size = size};
    uint64_t min_ns = a->min_sample_ms > 0 ? (uint64_t)(a->min_sample_ms * 1e6) : cb_short_sample_ns();
    cb_calib *cal = calib_entry(memo, alg, a->op, size, a->misalign, min_ns);
    uint64_t iters = 0;
    size_t n = 0;
    int rc = point_setup(p) || prepare_decrypt(p) || point_open(p)
             || calibrate(p, cal, min_ns, &iters) || sample_count(p, cal, iters, min_ns, &n)
             || sample_loop(p, iters, min_ns, n) ? -1 : 0;
    if (rc != 0) {
        char full[320];
        snprintf(full, sizeof full, "size %zu: %s", size, p->msg);
        cb_emit_error(lib->name, alg->name, a->op, p->reason, full);
    }
    point_free(p);
    return rc;
}

/* Every size. Returns 0 if all points were measured. */
static int bench_algo(const cb_args *a, const cb_backend *lib, const cb_op *op, const cb_algorithm *alg,
                      cb_bench_memo *memo)
{
    for (size_t i = 0; i < a->n_sizes; i++) {
        size_t size = a->sizes[i];
        if (size % alg->block_len) {
            char m[128];
            snprintf(m, sizeof m, "size %zu is not a multiple of the %zu-byte block", size, alg->block_len);
            cb_emit_error(lib->name, alg->name, a->op, "bad_size", m);
            continue;
        }
        if (cb_max_len(alg) && size > cb_max_len(alg)) {
            char m[128];
            snprintf(m, sizeof m, "size %zu is above the %zu bytes of one message of %s (a TLS record)",
                     size, cb_max_len(alg), alg->name);
            cb_emit_error(lib->name, alg->name, a->op, "bad_size", m);
            continue;
        }
        if (alg->kind == CB_KEYWRAP && size < cb_keywrap_min(alg)) {
            char m[128];
            snprintf(m, sizeof m, "size %zu is below the %zu bytes of key data a key wrap takes",
                     size, cb_keywrap_min(alg));
            cb_emit_error(lib->name, alg->name, a->op, "bad_size", m);
            continue;
        }
        if (measure_point(a, lib, op, alg, size, memo) != 0)
            return 1;   /* a failing operation is not timed further */
    }
    return 0;
}

/* The known answers of alg through op: 1 passed, else why says why not.
 * With a memo, each algorithm is checked once and the answer kept. */
static int kat_ok(const cb_bench_lib *L, const cb_op *op, const cb_algorithm *alg,
                  cb_bench_memo *memo, char *why, size_t whylen)
{
    if (memo)
        for (size_t i = 0; i < memo->n_kats; i++)
            if (memo->kats[i].alg == alg) {
                snprintf(why, whylen, "%s", memo->kats[i].why);
                return memo->kats[i].ok;
            }
    int ok = cb_kat_algo(L->lib->name, op, alg, &L->set, why, whylen) == 1;
    if (memo && memo->n_kats < CB_MEMO_KATS) {
        memo->kats[memo->n_kats].alg = alg;
        memo->kats[memo->n_kats].ok = ok;
        snprintf(memo->kats[memo->n_kats].why, sizeof memo->kats[0].why, "%s", ok ? "" : why);
        memo->n_kats++;
    }
    return ok;
}

int cb_bench_open(cb_bench_lib *L, const cb_backend *lib, const char *vectors,
                  char *err, size_t errlen)
{
    memset(L, 0, sizeof *L);
    L->lib = lib;
    /* Nothing is timed before it passes its vectors (the reference rows have none). */
    L->need_vectors = lib != &cb_backend_ref;
    if (L->need_vectors && cb_vectors_load(cb_vectors_path(vectors), &L->set, err, errlen) != 0)
        return 2;
    for (size_t i = 0; i < L->set.n_bad; i++)
        fprintf(stderr, "cipherbench-core: warning: %s (left out)\n", L->set.bad[i]);
    for (size_t i = 0; i < L->set.n_unknown; i++)
        fprintf(stderr, "cipherbench-core: warning: %s (skipped)\n", L->set.unknown[i]);
    return 0;
}

void cb_bench_start(cb_bench_lib *L, const char *command)
{
    L->lib_ok = cb_hw_global_init(L->lib) == 0;
    cb_preamble_emit(command);
    cb_emit_library(L->lib);
    L->hw = L->lib_ok ? cb_hw_status(L->lib) : NULL;
}

int cb_bench_run(const cb_bench_lib *L, const cb_args *a, const cb_op *const *ops,
                 const cb_algorithm *const *algs, cb_bench_memo *memo)
{
    const cb_backend *lib = L->lib;
    /* Hardware asked off but not (provably) off: never timed as if it were. */
    int hw_bad = L->hw && strcmp(L->hw, "applied") != 0;
    int failures = 0;
    for (size_t i = 0; i < a->n_algos; i++) {
        if (!L->lib_ok) {
            cb_emit_error(lib->name, algs[i]->name, a->op, "init_failed", "the library's global initialisation failed");
            failures++;
            continue;
        }
        if (hw_bad) {
            int cannot = strcmp(L->hw, "cannot_disable") == 0;
            cb_emit_error(lib->name, algs[i]->name, a->op, cannot ? "cannot_disable" : "hw_switch_failed",
                          cannot ? "the library has no supported switch to turn off the CPU features asked; not measured"
                                 : "the library reports a CPU feature asked off still in use; not measured");
            failures += !cannot;
            continue;
        }
        if (L->need_vectors) {
            char why[512];
            if (!kat_ok(L, ops[i], algs[i], memo, why, sizeof why)) {
                cb_emit_error(lib->name, algs[i]->name, a->op, "kat_failed", why);
                failures++;
                continue;
            }
        }
        failures += bench_algo(a, lib, ops[i], algs[i], memo);
    }
    return failures;
}

void cb_bench_close(cb_bench_lib *L)
{
    cb_vectors_free(&L->set);
}

int cb_cmd_bench(const cb_args *a)
{
    const cb_backend *lib = NULL;
    const cb_op *ops[CB_MAX_ALGOS];
    const cb_algorithm *algs[CB_MAX_ALGOS];
    char err[4096 + 512];
    cb_bench_lib L;
    if (cb_bench_check(a, &lib, ops, algs, err, sizeof err) != 0
        || (a->cpu >= 0 && cb_pin_cpu(a->cpu, err, sizeof err) != 0)
        || cb_bench_open(&L, lib, a->vectors, err, sizeof err) != 0) {
        fprintf(stderr, "cipherbench-core: %s\n", err);
        return 2;
    }
    uint64_t t0 = cb_wall_ns(), c0 = cb_cpu_ns();
    cb_bench_start(&L, "bench");
    int failures = cb_bench_run(&L, a, ops, algs, NULL);
    cb_bench_close(&L);
    uint64_t wall = cb_wall_ns() - t0, cpu = cb_cpu_ns() - c0;
    cb_emit_end_cpu(cb_measure_freq_hz(), wall, cpu);
    return failures ? 1 : 0;
}
