/* SPDX-License-Identifier: GPL-3.0-or-later */
/* emit.c - builds protocol records with cJSON and writes them as lines. */
#include "emit.h"
#include "hw.h"
#include <stdlib.h>
#include <string.h>

#ifndef CB_CORE_VERSION
#define CB_CORE_VERSION "unknown"
#endif
#ifndef CB_COMPILER
#define CB_COMPILER "unknown"
#endif
#ifndef CB_CFLAGS
#define CB_CFLAGS ""
#endif

FILE *cb_emit_stream;

cJSON *cb_record(const char *type)
{
    cJSON *r = cJSON_CreateObject();
    if (!r)
        return NULL;
    cJSON_AddNumberToObject(r, "v", CB_PROTOCOL_VERSION);
    cJSON_AddStringToObject(r, "type", type);
    return r;
}

char *cb_record_line(cJSON *rec)
{
    char *s = rec ? cJSON_PrintUnformatted(rec) : NULL;
    cJSON_Delete(rec);
    return s;
}

int cb_emit(cJSON *rec)
{
    char *s = cb_record_line(rec);
    if (!s)
        return -1;
    FILE *f = cb_emit_stream ? cb_emit_stream : stdout;
    size_t n = strlen(s);
    /* One write of the whole line including its newline. */
    char *line = malloc(n + 1);
    int rc = -1;
    if (line) {
        memcpy(line, s, n);
        line[n] = '\n';
        rc = fwrite(line, 1, n + 1, f) == n + 1 && fflush(f) == 0 ? 0 : -1;
        free(line);
    }
    cJSON_free(s);
    return rc;
}

/* A JSON string, or null when s is NULL. */
static void add_str(cJSON *r, const char *k, const char *s)
{
    if (s)
        cJSON_AddStringToObject(r, k, s);
    else
        cJSON_AddNullToObject(r, k);
}

static cJSON *u64_array(const uint64_t *v, size_t n);

/* freq_cycles, freq_wall_ns and freq_cpu_ns: the clock's raw probes. */
static void add_probes(cJSON *r, uint64_t cycles, const uint64_t *wall, const uint64_t *cpu, size_t n)
{
    if (!cycles || !n)
        return;
    cJSON_AddNumberToObject(r, "freq_cycles", (double)cycles);
    cJSON_AddItemToObject(r, "freq_wall_ns", u64_array(wall, n));
    cJSON_AddItemToObject(r, "freq_cpu_ns", u64_array(cpu, n));
}

int cb_emit_preamble(const cb_preamble *p)
{
    cJSON *r = cb_record("preamble");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "core_version", CB_CORE_VERSION);
    cJSON_AddStringToObject(r, "compiler", CB_COMPILER);
    cJSON_AddStringToObject(r, "cflags", CB_CFLAGS);
    cJSON_AddStringToObject(r, "cpu_model", p->cpu_model ? p->cpu_model : "unknown");
    cJSON *fl = cJSON_AddArrayToObject(r, "cpu_flags");
    for (size_t i = 0; i < p->n_flags; i++)
        cJSON_AddItemToArray(fl, cJSON_CreateString(p->cpu_flags[i]));
    if (p->freq_hz > 0)
        cJSON_AddNumberToObject(r, "freq_hz", p->freq_hz);
    else
        cJSON_AddNullToObject(r, "freq_hz");
    cJSON_AddStringToObject(r, "clock", "CLOCK_MONOTONIC");
    cJSON_AddStringToObject(r, "command", p->command);
    if (p->timer_ns || p->cpu_timer_ns) {
        cJSON_AddStringToObject(r, "cpu_clock", "CLOCK_THREAD_CPUTIME_ID");
        cJSON_AddNumberToObject(r, "timer_ns", (double)p->timer_ns);
        cJSON_AddNumberToObject(r, "cpu_timer_ns", (double)p->cpu_timer_ns);
    }
    if (p->commands) {
        cJSON *c = cJSON_AddArrayToObject(r, "commands");
        for (const char *const *k = p->commands; c && *k; k++)
            cJSON_AddItemToArray(c, cJSON_CreateString(*k));
    }
    if (p->clock)
        add_probes(r, p->clock->cycles, p->clock->wall_ns, p->clock->cpu_ns, p->clock->n);
    return cb_emit(r);
}

static cJSON *hw_names(unsigned mask)
{
    cJSON *a = cJSON_CreateArray();
    for (unsigned bit = 1; a && bit & CB_HW_ALL; bit <<= 1)
        if (mask & bit)
            cJSON_AddItemToArray(a, cJSON_CreateString(cb_hw_name(bit)));
    return a;
}

/* hw_used: the CPU features the library reports it uses (null: it does not
 * say). When features were asked off: hw_off_requested, hw_switch and the
 * environment the core set for this library (hw_env). */
static void add_hw(cJSON *r, const cb_backend *b)
{
    if (b->hw_used)
        cJSON_AddItemToObject(r, "hw_used", hw_names(b->hw_used()));
    else
        cJSON_AddNullToObject(r, "hw_used");
    const char *st = cb_hw_status(b);
    if (!st)
        return;
    cJSON_AddItemToObject(r, "hw_off_requested", hw_names(cb_hw_request));
    cJSON_AddStringToObject(r, "hw_switch", st);
    cJSON *env = cJSON_AddArrayToObject(r, "hw_env");
    char e[4][CB_HW_ENV_LEN];
    unsigned off = cb_hw_request & b->hw_switch;
    int n = off && b->hw_env ? b->hw_env(off, e, 4) : 0;
    for (int i = 0; i < n; i++)
        cJSON_AddItemToArray(env, cJSON_CreateString(e[i]));
}

int cb_emit_library(const cb_backend *b)
{
    static const struct { unsigned bit; const char *name; } capnames[] = {
        {CB_CAP_AES_HW, "aes_hw"}, {CB_CAP_CLMUL_HW, "clmul_hw"},
        {CB_CAP_SHA_HW, "sha_hw"}, {CB_CAP_VECTOR, "vector"},
        {CB_CAP_NO_HW_SWITCH, "no_hw_switch"},
    };
    cJSON *r = cb_record("library");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "lib", b->name);
    add_str(r, "version", b->version ? b->version() : NULL);
    if (b->caps) {
        unsigned c = b->caps();
        cJSON *a = cJSON_AddArrayToObject(r, "caps");
        for (size_t i = 0; i < sizeof capnames / sizeof capnames[0]; i++)
            if (c & capnames[i].bit)
                cJSON_AddItemToArray(a, cJSON_CreateString(capnames[i].name));
    } else {
        cJSON_AddNullToObject(r, "caps"); /* the library does not say */
    }
    add_str(r, "provider", b->provider ? b->provider() : NULL);
    add_hw(r, b);
    return cb_emit(r);
}

int cb_emit_algorithm(const char *lib, const cb_algorithm *a)
{
    cJSON *r = cb_record("algorithm");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "lib", lib);
    cJSON_AddStringToObject(r, "algo", a->name);
    cJSON_AddStringToObject(r, "kind", cb_kind_name(a->kind));
    cJSON *ops = cJSON_AddArrayToObject(r, "ops");
    for (const char *const *o = cb_kind_ops(a->kind); *o; o++)
        cJSON_AddItemToArray(ops, cJSON_CreateString(*o));
    cJSON_AddNumberToObject(r, "key_len", (double)a->key_len);
    cJSON_AddNumberToObject(r, "iv_len", (double)a->iv_len);
    cJSON_AddNumberToObject(r, "tag_len", (double)a->tag_len);
    cJSON_AddNumberToObject(r, "block_len", (double)a->block_len);
    if (a->kind == CB_AEAD)   /* what each timed message authenticates besides the ciphertext */
        cJSON_AddNumberToObject(r, "aad_len", (double)cb_aad_len(a));
    return cb_emit(r);
}

int cb_emit_kat(const char *lib, const char *algo, int passed, int failed,
                int skipped, const char *source, const char *message)
{
    return cb_emit_kat_extra(lib, algo, passed, failed, skipped, source, message, NULL);
}

int cb_emit_kat_extra(const char *lib, const char *algo, int passed, int failed, int skipped,
                      const char *source, const char *message, const cb_kat_extra *x)
{
    cJSON *r = cb_record("kat");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "lib", lib);
    cJSON_AddStringToObject(r, "algo", algo);
    cJSON_AddNumberToObject(r, "passed", passed);
    cJSON_AddNumberToObject(r, "failed", failed);
    cJSON_AddNumberToObject(r, "skipped", skipped);
    add_str(r, "source", source);
    if (message)
        cJSON_AddStringToObject(r, "message", message);
    if (x && x->must_fail > 0) {
        cJSON_AddNumberToObject(r, "must_fail", x->must_fail);
        cJSON_AddNumberToObject(r, "refused", x->refused);
    }
    if (x && x->n_crashed > 0) {
        cJSON *c = cJSON_AddArrayToObject(r, "crashed");
        for (size_t i = 0; i < x->n_crashed; i++)
            cJSON_AddItemToArray(c, cJSON_CreateString(x->crashed[i]));
    }
    return cb_emit(r);
}

int cb_emit_differential(const char *algo, const char *const *libs, size_t n,
                         int ok, const char *message)
{
    cJSON *r = cb_record("differential");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "algo", algo);
    cJSON *a = cJSON_AddArrayToObject(r, "libs");
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(libs[i]));
    cJSON_AddBoolToObject(r, "ok", ok);
    if (message)
        cJSON_AddStringToObject(r, "message", message);
    return cb_emit(r);
}

static cJSON *u64_array(const uint64_t *v, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

void cb_record_samples(cJSON *r, uint64_t iters, const uint64_t *wall_ns, const uint64_t *cpu_ns,
                       size_t n)
{
    cJSON_AddNumberToObject(r, "iters", (double)iters);
    cJSON_AddItemToObject(r, "wall_ns", u64_array(wall_ns, n));
    cJSON_AddItemToObject(r, "cpu_ns", u64_array(cpu_ns, n));
}

int cb_emit_point(const char *lib, const char *algo, const char *op, size_t size,
                  uint64_t iters, const uint64_t *wall_ns, const uint64_t *cpu_ns,
                  size_t n, size_t misalign, const cb_point_extra *x)
{
    cJSON *r = cb_record("point");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "lib", lib);
    cJSON_AddStringToObject(r, "algo", algo);
    cJSON_AddStringToObject(r, "op", op);
    cJSON_AddNumberToObject(r, "size", (double)size);
    cb_record_samples(r, iters, wall_ns, cpu_ns, n);
    cJSON_AddNumberToObject(r, "misalign", (double)misalign);
    for (const char *const *l = x ? x->labels : NULL; l && l[0]; l += 2)
        add_str(r, l[0], l[1]);
    if (x && x->best_of)
        cJSON_AddNumberToObject(r, "best_of", (double)x->best_of);
    if (x)
        add_probes(r, x->freq_cycles, x->freq_wall_ns, x->freq_cpu_ns, x->n_probes);
    return cb_emit(r);
}

int cb_emit_error(const char *lib, const char *algo, const char *op,
                  const char *reason, const char *message)
{
    cJSON *r = cb_record("error");
    if (!r)
        return -1;
    cJSON_AddStringToObject(r, "lib", lib);
    add_str(r, "algo", algo);
    add_str(r, "op", op);
    cJSON_AddStringToObject(r, "reason", reason);
    cJSON_AddStringToObject(r, "message", message ? message : "");
    return cb_emit(r);
}

int cb_emit_end(double freq_hz, uint64_t elapsed_ns)
{
    return cb_emit_end_cpu(freq_hz, elapsed_ns, UINT64_MAX);
}

int cb_emit_end_cpu(double freq_hz, uint64_t elapsed_ns, uint64_t cpu_ns)
{
    cJSON *r = cb_record("end");
    if (!r)
        return -1;
    if (freq_hz > 0)
        cJSON_AddNumberToObject(r, "freq_hz", freq_hz);
    else
        cJSON_AddNullToObject(r, "freq_hz");
    cJSON_AddNumberToObject(r, "elapsed_ns", (double)elapsed_ns);
    if (cpu_ns != UINT64_MAX)
        cJSON_AddNumberToObject(r, "cpu_ns", (double)cpu_ns);
    if (freq_hz > 0 && cb_clock_last.freq_hz == freq_hz)
        add_probes(r, cb_clock_last.cycles, cb_clock_last.wall_ns, cb_clock_last.cpu_ns, cb_clock_last.n);
    return cb_emit(r);
}
