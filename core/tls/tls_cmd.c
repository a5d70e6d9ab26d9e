/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tls_cmd.c - `cipherbench-core tls`: per cipher suite, bytes moved from a
 * TLS server to a TLS client of one library in this process, and handshakes
 * per second per group and certificate type (docs/protocol.md, "tls").
 *
 * The timed unit is a synthetic cb_op whose run() is one application write by
 * the server followed by the client's reads of it (or one whole handshake), so
 * the warm-up, calibration and samples are measure.c's, as for `bench`. */
#define _POSIX_C_SOURCE 200809L
#include "tls.h"
#include "../args.h"
#include "../backend.h"
#include "../preamble.h"
#include "../cpuinfo.h"
#include "../emit.h"
#include "../measure.h"
#include "../module.h"
#include "../prng.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TLS_SEED 0x5eed0000cb7115ull
#define WARM_NS 5000000ull
#define VERIFY_WRITES 16        /* fully checked writes before timing */
#define MAX_IDLE 10000          /* send and receive both stuck: give up */
#define MAX_LIST 64

/* The TLS tables of the modules that loaded (module.h), NULL-terminated. */
#define tls_libs cb_tls_libs

static const char tls_usage[] =
    "usage: cipherbench-core tls --list\n"
    "       cipherbench-core tls --lib L [--suites S[,S...]|all] [--sizes 1400,16384]\n"
    "                            [--samples N] [--min-sample-ms T] [--cpu K]\n"
    "                            [--handshakes] [--no-transfer] [--groups G,...] [--certs C,...]\n";

typedef struct tls_args {
    const cb_tls_lib *lib;
    int list;
    const cb_tls_suite *suites[MAX_LIST]; size_t n_suites;
    size_t sizes[MAX_LIST]; size_t n_sizes;
    int samples;
    double min_sample_ms;
    int cpu;
    int handshakes, no_transfer;
    int groups[CB_GROUP_N]; size_t n_groups;
    int certs[CB_CERT_N]; size_t n_certs;
    /* the lists as given, resolved against the tables once every option is read */
    const char *lib_name, *suite_list, *size_list, *group_list, *cert_list;
} tls_args;

static const cb_opt tls_opts[] = {
    {"--list", 0}, {"--lib", 1}, {"--suites", 1}, {"--sizes", 1}, {"--samples", 1},
    {"--min-sample-ms", 1}, {"--cpu", 1}, {"--handshakes", 0}, {"--no-transfer", 0},
    {"--groups", 1}, {"--certs", 1}, {NULL, 0}};

static int usage(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "cipherbench-core: tls: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static int refuse(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    snprintf(err, errlen, fmt, a, b);
    return 2;
}

static void lib_names(char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = '\0';
    for (const cb_tls_lib *const *l = tls_libs; *l && off < cap; l++)
        off += (size_t)snprintf(buf + off, cap - off, "%s%s", off ? ", " : "", (*l)->name);
    if (!tls_libs[0])
        snprintf(buf, cap, "none (no module with libssl or GnuTLS was built or loaded)");
}

/* Splits a copy of a comma list into at most max tokens of buf; returns the count or -1. */
static int split(const char *list, char *buf, size_t cap, char **tok, int max)
{
    int n = 0;
    snprintf(buf, cap, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return -1;
        tok[n++] = t;
    }
    return n;
}

static int name_index(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcasecmp(s, names[i]) == 0)
            return i;
    return -1;
}

static void join(const char *const *names, int n, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && off < cap; i++)
        off += (size_t)snprintf(buf + off, cap - off, "%s%s", i ? ", " : "", names[i]);
}

/* One option of tls_opts (cb_opts_parse): flags and the shared values at once, the lists
 * kept as given. */
static int tls_apply(void *ctx, const char *name, const char *val, char *err, size_t errlen)
{
    tls_args *a = ctx;
    if (!strcmp(name, "--samples"))
        return cb_opt_samples(val, &a->samples, err, errlen);
    if (!strcmp(name, "--min-sample-ms"))
        return cb_opt_min_sample_ms(val, &a->min_sample_ms, err, errlen);
    if (!strcmp(name, "--cpu"))
        return cb_opt_cpu(val, &a->cpu, err, errlen);
    int *flag = !strcmp(name, "--list") ? &a->list : !strcmp(name, "--handshakes") ? &a->handshakes
              : !strcmp(name, "--no-transfer") ? &a->no_transfer : NULL;
    const char **list = !strcmp(name, "--lib") ? &a->lib_name : !strcmp(name, "--suites") ? &a->suite_list
                      : !strcmp(name, "--sizes") ? &a->size_list : !strcmp(name, "--groups") ? &a->group_list
                      : &a->cert_list;
    if (flag)
        *flag = 1;
    else
        *list = val;
    return 0;
}

static int resolve_lib(tls_args *a, char *err, size_t errlen)
{
    char valid[512];
    lib_names(valid, sizeof valid);
    if (!a->lib_name)
        return refuse(err, errlen, "needs --lib; valid: %s%s", valid, "");
    for (const cb_tls_lib *const *l = tls_libs; *l; l++)
        if (!strcmp((*l)->name, a->lib_name))
            a->lib = *l;
    if (a->lib)
        return 0;
    const cb_module_state *st = cb_module_state_of(a->lib_name);
    if (st && !st->module)
        return refuse(err, errlen, "library '%s' is not available here: its module did not load: %.1500s",
                      a->lib_name, st->why);
    return refuse(err, errlen, "unknown library '%s'; valid: %s", a->lib_name, valid);
}

/* --suites: IANA, OpenSSL or GnuTLS names; none or "all": every suite. */
static int resolve_suites(tls_args *a, char *err, size_t errlen)
{
    char buf[2048], *tok[MAX_LIST];
    if (!a->suite_list || !strcasecmp(a->suite_list, "all")) {
        for (const cb_tls_suite *s = cb_tls_suites; s->iana && a->n_suites < MAX_LIST; s++)
            a->suites[a->n_suites++] = s;
        return 0;
    }
    int n = split(a->suite_list, buf, sizeof buf, tok, MAX_LIST);
    if (n <= 0)
        return refuse(err, errlen, "--suites: empty or too long list%s%s", "", "");
    for (int i = 0; i < n; i++) {
        const cb_tls_suite *s = cb_tls_suite_find(tok[i]);
        if (!s)
            return refuse(err, errlen, "--suites: unknown suite '%s'; valid: IANA, OpenSSL or GnuTLS "
                          "names (see 'cipherbench-core tls --list')%s", tok[i], "");
        a->suites[a->n_suites++] = s;
    }
    return 0;
}

/* --sizes: bytes per application write, from 16 to 1 MiB. */
static int resolve_sizes(tls_args *a, char *err, size_t errlen)
{
    char buf[2048], *tok[MAX_LIST];
    if (!a->size_list)
        return 0;
    int n = split(a->size_list, buf, sizeof buf, tok, MAX_LIST);
    if (n <= 0)
        return refuse(err, errlen, "--sizes: empty or too long list%s%s", "", "");
    a->n_sizes = 0;
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(tok[i], &end, 10);
        if (errno || *end || tok[i][0] < '0' || tok[i][0] > '9' || v < 16 || v > 1048576)
            return refuse(err, errlen, "--sizes: '%s' is not valid; valid: bytes per application "
                          "write from 16 to 1048576%s", tok[i], "");
        a->sizes[a->n_sizes++] = v;
    }
    return 0;
}

/* --groups or --certs (what: the option, noun: one of its names), every name of the table
 * when not given. */
static int resolve_names(const char *list, const char *what, const char *noun,
                         const char *const *names, int n_names, int *out, size_t *n_out,
                         char *err, size_t errlen)
{
    char buf[2048], valid[1024], *tok[MAX_LIST];
    if (!list) {
        for (int i = 0; i < n_names; i++)
            out[(*n_out)++] = i;
        return 0;
    }
    join(names, n_names, valid, sizeof valid);
    int n = split(list, buf, sizeof buf, tok, n_names);
    if (n <= 0)
        return snprintf(err, errlen, "%s: empty or too long list; valid: %s", what, valid), 2;
    for (int i = 0; i < n; i++)
        if ((out[(*n_out)++] = name_index(tok[i], names, n_names)) < 0)
            return snprintf(err, errlen, "%s: unknown %s '%s'; valid: %s", what, noun, tok[i], valid), 2;
    return 0;
}

/* The command line: the shared option table, then each list resolved. Returns 0, -1 after
 * --help (usage on stderr), or 2 after one line on stderr. */
static int parse(tls_args *a, int argc, char **argv)
{
    char err[2048];
    memset(a, 0, sizeof *a);
    *a = (tls_args){.samples = 11, .min_sample_ms = 2.0, .cpu = -1, .sizes = {1400, 16384},
                    .n_sizes = 2};
    int rc = cb_opts_parse(tls_opts, argc, argv, 2, tls_apply, a, err, sizeof err);
    if (rc == CB_OPTS_HELP) {
        fputs(tls_usage, stderr);
        return -1;
    }
    if (!rc && !a->list)
        rc = resolve_lib(a, err, sizeof err) || resolve_suites(a, err, sizeof err)
             || resolve_sizes(a, err, sizeof err)
             || resolve_names(a->group_list, "--groups", "group", cb_tls_group_names, CB_GROUP_N,
                              a->groups, &a->n_groups, err, sizeof err)
             || resolve_names(a->cert_list, "--certs", "certificate type", cb_tls_cert_names, CB_CERT_N,
                              a->certs, &a->n_certs, err, sizeof err) ? 2 : 0;
    if (!rc && !a->list && a->no_transfer && !a->handshakes)
        rc = refuse(err, sizeof err, "--no-transfer leaves nothing to do; add --handshakes%s%s", "", "");
    return rc ? usage("%s%s", err, "") : 0;
}

/* -- records ------------------------------------------------------------------------ */

static void emit_library(const cb_tls_lib *l)
{
    cJSON *r = cb_record("library");
    if (!r)
        return;
    cJSON_AddStringToObject(r, "lib", l->name);
    const char *v = l->version ? l->version() : NULL;
    if (v)
        cJSON_AddStringToObject(r, "version", v);
    else
        cJSON_AddNullToObject(r, "version");
    cJSON_AddNullToObject(r, "caps");
    cJSON_AddNullToObject(r, "provider");
    cb_emit(r);
}

static void emit_suite(const cb_tls_suite *s)
{
    cJSON *r = cb_record("suite");
    if (!r)
        return;
    cJSON_AddStringToObject(r, "algo", s->iana);
    cJSON_AddStringToObject(r, "proto", s->tls13 ? "TLS1.3" : "TLS1.2");
    cJSON_AddStringToObject(r, "kx", s->kx);
    cJSON_AddStringToObject(r, "cipher", s->cipher);
    cJSON_AddStringToObject(r, "mac", s->mac);
    cJSON_AddStringToObject(r, "openssl", s->openssl);
    cJSON_AddStringToObject(r, "gnutls", s->gnutls);
    cJSON_AddBoolToObject(r, "legacy", s->legacy);
    cb_emit(r);
}

static void emit_error(const char *lib, const char *algo, const char *op, const char *reason,
                       const char *msg, const char *group, const char *cert)
{
    cJSON *r = cb_record("error");
    if (!r)
        return;
    cJSON_AddStringToObject(r, "lib", lib);
    cJSON_AddStringToObject(r, "algo", algo);
    cJSON_AddStringToObject(r, "op", op);
    cJSON_AddStringToObject(r, "reason", reason);
    cJSON_AddStringToObject(r, "message", msg);
    if (group)
        cJSON_AddStringToObject(r, "group", group);
    if (cert)
        cJSON_AddStringToObject(r, "cert", cert);
    cb_emit(r);
}

/* -- certificates, made once per type per run ---------------------------------------- */

static void *certs[CB_CERT_N];

static int get_cert(const cb_tls_lib *l, cb_tls_cert_type t, char *err, size_t errlen)
{
    if (certs[t])
        return CB_TLS_OK;
    return l->make_cert(t, &certs[t], err, errlen);
}

/* -- transfer -------------------------------------------------------------------------- */

typedef struct xfer {
    const cb_tls_lib *lib;
    void *conn;
    uint8_t *src, *dst;
    size_t len;
    uint64_t counter;
} xfer;

/* One application write of len bytes by the server, read whole by the client;
 * the first 8 bytes carry a counter, checked on arrival. */
static int xfer_run(void *ctx, cb_msg *m)
{
    (void)m;
    xfer *x = ctx;
    uint64_t c = ++x->counter;
    memcpy(x->src, &c, 8);
    size_t sent = 0, got = 0;
    int idle = 0;
    while (got < x->len) {
        long n = 0, r;
        if (sent < x->len && (n = x->lib->send(x->conn, x->src + sent, x->len - sent)) < 0)
            return CB_ERR;
        sent += (size_t)n;
        if ((r = x->lib->recv(x->conn, x->dst + got, x->len - got)) < 0)
            return CB_ERR;
        got += (size_t)r;
        if (n == 0 && r == 0 && ++idle > MAX_IDLE)
            return CB_ERR;
    }
    return memcmp(x->dst, &c, 8) == 0 ? CB_OK : CB_ERR_AUTH;
}

static const cb_op xfer_op = {"tls-transfer", NULL, NULL, xfer_run, NULL};

/* The info the library gives matches what was asked? Writes why not. */
static int check_info(const cb_tls_info *in, const cb_tls_suite *s, char *why, size_t n)
{
    const char *want = s->tls13 ? "TLS1.3" : "TLS1.2";
    if (strcmp(in->proto, want) != 0) {
        snprintf(why, n, "negotiated %s instead of %s", in->proto, want);
        return -1;
    }
    if (cb_tls_suite_find(in->suite) != s) {
        snprintf(why, n, "negotiated suite %s instead of %s", in->suite, s->iana);
        return -1;
    }
    return 0;
}

static void emit_point(const tls_args *a, const cb_tls_suite *s, const cb_tls_info *info,
                       size_t size, uint64_t iters, const uint64_t *wall, const uint64_t *cpu)
{
    const char *labels[] = {"suite", info->suite, "proto", info->proto, "group", info->group,
                            "cert", cb_tls_cert_names[CB_CERT_RSA2048], NULL};
    cb_point_extra x = {.labels = labels};
    cb_emit_point(a->lib->name, s->iana, "transfer", size, iters, wall, cpu, (size_t)a->samples,
                  0, &x);
}

/* One size on an established connection: checked writes, then samples.
 * Returns 0, or -1 after an error record. */
static int transfer_size(const tls_args *a, const cb_tls_suite *s, void *conn,
                         const cb_tls_info *info, size_t size)
{
    const char *lib = a->lib->name;
    char msg[512];
    int rc = -1;
    cb_buf src = {0}, dst = {0};
    uint64_t *wall = calloc((size_t)a->samples, sizeof *wall);
    uint64_t *cpu = calloc((size_t)a->samples, sizeof *cpu);
    if (!wall || !cpu || cb_buf_alloc(&src, size, 0) || cb_buf_alloc(&dst, size, 0)) {
        emit_error(lib, s->iana, "transfer", "init_failed", "out of memory", NULL, NULL);
        goto out;
    }
    xfer x = {a->lib, conn, src.p, dst.p, size, 0};
    uint64_t seed = TLS_SEED ^ size;
    /* A test hook: CIPHERBENCH_TLS_FAULT=corrupt changes a received byte, so
     * that the tests can see the check below catch it. */
    const char *fault = getenv("CIPHERBENCH_TLS_FAULT");
    int corrupt = fault && strcmp(fault, "corrupt") == 0;
    /* Before timing: writes of fresh random bytes, each compared whole. */
    for (int i = 0; i < VERIFY_WRITES; i++) {
        cb_prng_fill(&seed, src.p, size);
        memset(dst.p, 0, size);
        int st = xfer_run(&x, NULL);
        if (corrupt && i == VERIFY_WRITES - 1)
            dst.p[size / 2] ^= 0x01;
        if (st != CB_OK || memcmp(src.p, dst.p, size) != 0) {
            snprintf(msg, sizeof msg, "size %zu: write %d %s", size, i,
                     st != CB_OK ? "was not delivered" : "arrived changed");
            emit_error(lib, s->iana, "transfer", "run_failed", msg, NULL, NULL);
            goto out;
        }
    }
    cb_job j;
    memset(&j, 0, sizeof j);
    j.op = &xfer_op;
    j.ctx = &x;
    j.msg.len = size;
    uint64_t iters, min_ns = (uint64_t)(a->min_sample_ms * 1e6);
    uint64_t warm = WARM_NS > 2 * min_ns ? WARM_NS : 2 * min_ns;
    int st = cb_job_calibrate(&j, warm, min_ns, &iters);
    for (int i = 0; st == CB_OK && i < a->samples; i++) {
        st = cb_job_sample(&j, iters, &wall[i], &cpu[i]);
        /* Outside the timed loop: the last write arrived whole. */
        if (st == CB_OK && memcmp(src.p, dst.p, size) != 0)
            st = CB_ERR_AUTH;
    }
    if (st != CB_OK) {
        snprintf(msg, sizeof msg, "size %zu: %s", size,
                 st == CB_ERR_AUTH ? "data arrived changed" : "the connection failed while timed");
        emit_error(lib, s->iana, "transfer", "run_failed", msg, NULL, NULL);
        goto out;
    }
    emit_point(a, s, info, size, iters, wall, cpu);
    rc = 0;
out:
    cb_buf_free(&src);
    cb_buf_free(&dst);
    free(wall);
    free(cpu);
    return rc;
}

/* Every size of one suite. Returns 1 on a failure (not a refusal). */
static int transfer_suite(const tls_args *a, const cb_tls_suite *s)
{
    const cb_tls_lib *l = a->lib;
    char err[512];
    void *ep = NULL, *conn = NULL;
    int st = get_cert(l, CB_CERT_RSA2048, err, sizeof err);
    if (st != CB_TLS_OK) {
        emit_error(l->name, s->iana, "transfer", "init_failed", err, NULL, "rsa2048");
        return 1;
    }
    cb_tls_config cfg = {s, CB_GROUP_X25519, CB_CERT_RSA2048, certs[CB_CERT_RSA2048], 0};
    if ((st = l->ep_new(&ep, &cfg, err, sizeof err)) == CB_TLS_OK)
        st = l->conn_new(ep, &conn, err, sizeof err);
    int failed = 0;
    if (st != CB_TLS_OK) {
        emit_error(l->name, s->iana, "transfer", st == CB_TLS_REFUSED ? "refused" : "init_failed",
                   err, NULL, NULL);
        failed = st != CB_TLS_REFUSED;
    } else {
        cb_tls_info info;
        l->conn_info(conn, &info);
        if (check_info(&info, s, err, sizeof err) != 0) {
            emit_error(l->name, s->iana, "transfer", "run_failed", err, NULL, NULL);
            failed = 1;
        }
        for (size_t i = 0; !failed && i < a->n_sizes; i++)
            failed = transfer_size(a, s, conn, &info, a->sizes[i]) != 0;
    }
    if (conn)
        l->conn_free(conn);
    if (ep)
        l->ep_free(ep);
    return failed;
}

/* -- handshakes ----------------------------------------------------------------------- */

/* The suite of every handshake: TLS 1.3, so that the group and the certificate
 * are the only things that change. */
#define HS_SUITE "TLS_AES_128_GCM_SHA256"

typedef struct hs {
    const cb_tls_lib *lib;
    void *ep;
    int resume;
} hs;

static int hs_run(void *ctx, cb_msg *m)
{
    (void)m;
    hs *h = ctx;
    void *conn;
    char err[256];
    if (h->lib->conn_new(h->ep, &conn, err, sizeof err) != CB_TLS_OK)
        return CB_ERR;
    int st = CB_OK;
    if (h->resume) {
        cb_tls_info info;
        h->lib->conn_info(conn, &info);
        st = info.resumed ? CB_OK : CB_ERR_PARAM;
    }
    h->lib->conn_free(conn);
    return st;
}

static const cb_op hs_op = {"tls-handshake", NULL, NULL, hs_run, NULL};

static int handshake_one(const tls_args *a, cb_tls_group g, cb_tls_cert_type c, int resume)
{
    const cb_tls_lib *l = a->lib;
    const cb_tls_suite *s = cb_tls_suite_find(HS_SUITE);
    const char *op = resume ? "resume" : "handshake";
    const char *gn = cb_tls_group_names[g], *cn = cb_tls_cert_names[c];
    char err[512];
    void *ep = NULL, *conn = NULL;
    uint64_t *wall = calloc((size_t)a->samples, sizeof *wall);
    uint64_t *cpu = calloc((size_t)a->samples, sizeof *cpu);
    int failed = 0;
    int st = wall && cpu ? get_cert(l, c, err, sizeof err) : CB_TLS_FAIL;
    if (!wall || !cpu)
        snprintf(err, sizeof err, "out of memory");
    cb_tls_config cfg = {s, g, c, certs[c], resume};
    if (st == CB_TLS_OK)
        st = l->ep_new(&ep, &cfg, err, sizeof err);
    if (st == CB_TLS_OK)
        st = l->conn_new(ep, &conn, err, sizeof err);
    if (st == CB_TLS_OK && resume)
        st = l->keep_session(ep, conn, err, sizeof err);
    if (st != CB_TLS_OK) {
        emit_error(l->name, s->iana, op, st == CB_TLS_REFUSED ? "refused" : "init_failed", err, gn, cn);
        failed = st != CB_TLS_REFUSED;
        goto out;
    }
    /* Check once what a timed handshake will do: the group asked for (where
     * the library says), and a resumption when one is wanted. */
    cb_tls_info info;
    l->conn_free(conn);
    conn = NULL;
    if ((st = l->conn_new(ep, &conn, err, sizeof err)) != CB_TLS_OK) {
        emit_error(l->name, s->iana, op, "run_failed", err, gn, cn);
        failed = 1;
        goto out;
    }
    l->conn_info(conn, &info);
    if (check_info(&info, s, err, sizeof err) != 0 || info.resumed != resume) {
        if (info.resumed != resume)
            snprintf(err, sizeof err, "the handshake %s resumed", info.resumed ? "was" : "was not");
        emit_error(l->name, s->iana, op, resume && !info.resumed ? "refused" : "run_failed", err, gn, cn);
        failed = !(resume && !info.resumed);
        goto out;
    }
    hs h = {l, ep, resume};
    cb_job j;
    memset(&j, 0, sizeof j);
    j.op = &hs_op;
    j.ctx = &h;
    uint64_t iters, min_ns = (uint64_t)(a->min_sample_ms * 1e6);
    uint64_t warm = WARM_NS > 2 * min_ns ? WARM_NS : 2 * min_ns;
    int rs = cb_job_calibrate(&j, warm, min_ns, &iters);
    for (int i = 0; rs == CB_OK && i < a->samples; i++)
        rs = cb_job_sample(&j, iters, &wall[i], &cpu[i]);
    if (rs != CB_OK) {
        emit_error(l->name, s->iana, op, "run_failed",
                   rs == CB_ERR_PARAM ? "a timed handshake did not resume" : "a timed handshake failed", gn, cn);
        failed = 1;
        goto out;
    }
    cJSON *r = cb_record("handshake");
    if (r) {
        cJSON_AddStringToObject(r, "lib", l->name);
        cJSON_AddStringToObject(r, "algo", s->iana);
        cJSON_AddStringToObject(r, "op", op);
        cJSON_AddStringToObject(r, "proto", info.proto);
        cJSON_AddStringToObject(r, "group", gn);
        cJSON_AddStringToObject(r, "cert", cn);
        cJSON_AddStringToObject(r, "lib_group", info.group);
        cb_record_samples(r, iters, wall, cpu, (size_t)a->samples);
        cb_emit(r);
    }
out:
    if (conn)
        l->conn_free(conn);
    if (ep)
        l->ep_free(ep);
    free(wall);
    free(cpu);
    return failed;
}

/* Groups with the default certificate, then certificates with the default
 * group: each axis alone, full and resumed. */
static int handshakes(const tls_args *a)
{
    int dc = a->certs[0], dg = a->groups[0], failures = 0;
    for (size_t i = 0; i < a->n_certs; i++)
        if (a->certs[i] == CB_CERT_P256)
            dc = CB_CERT_P256;
    for (size_t i = 0; i < a->n_groups; i++)
        if (a->groups[i] == CB_GROUP_X25519)
            dg = CB_GROUP_X25519;
    for (int resume = 0; resume < 2; resume++) {
        for (size_t i = 0; i < a->n_groups; i++)
            failures += handshake_one(a, a->groups[i], dc, resume);
        for (size_t i = 0; i < a->n_certs; i++)
            if (a->certs[i] != dc)
                failures += handshake_one(a, dg, a->certs[i], resume);
    }
    return failures;
}

int cb_cmd_tls(int argc, char **argv)
{
    tls_args a;
    int rc = parse(&a, argc, argv);
    if (rc)
        return rc < 0 ? 0 : rc;
    char err[512];
    if (a.cpu >= 0 && cb_pin_cpu(a.cpu, err, sizeof err) != 0)
        return usage("%s%s", err, "");
    uint64_t t0 = cb_wall_ns();
    cb_preamble_emit("tls");
    if (a.list) {
        for (const cb_tls_lib *const *l = tls_libs; *l; l++)
            emit_library(*l);
        for (const cb_tls_suite *s = cb_tls_suites; s->iana; s++)
            emit_suite(s);
        cb_emit_end(cb_measure_freq_hz(), cb_wall_ns() - t0);
        return 0;
    }
    int failures = 0;
    emit_library(a.lib);
    if (a.lib->global_init && a.lib->global_init() != 0) {
        emit_error(a.lib->name, HS_SUITE, "transfer", "init_failed", "the library's global initialisation failed", NULL, NULL);
        failures = 1;
    } else {
        for (size_t i = 0; !a.no_transfer && i < a.n_suites; i++)
            failures += transfer_suite(&a, a.suites[i]);
        if (a.handshakes)
            failures += handshakes(&a);
    }
    for (int t = 0; t < CB_CERT_N; t++) {
        if (certs[t])
            a.lib->free_cert(certs[t]);
        certs[t] = NULL;
    }
    cb_emit_end(cb_measure_freq_hz(), cb_wall_ns() - t0);
    return failures ? 1 : 0;
}
