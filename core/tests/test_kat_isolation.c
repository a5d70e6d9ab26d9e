/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _POSIX_C_SOURCE 200809L
/* test_kat_isolation.c - kat checks each library in a process of its own: a
 * library that crashes fails the vector it was on, named in its file's record,
 * and a new process resumes with the next vector (its file's counts kept, its
 * later rows and the other libraries still checked); a crash in the
 * differential check names the library. The libraries here are test doubles:
 * "steady" answers every vector, "crashy" dies by SIGSEGV on md5 messages
 * starting with 'c' (and, as "crashy-diff", on every sha256 message). */
#include "../emit.h"
#include "../kat.h"
#include "../vectors.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* A "digest" that is the message itself: the vectors below say so. */
static int echo_init(void **ctx, const void *arg, const cb_setup *s) { (void)arg; (void)s; *ctx = NULL; return CB_OK; }
static int echo_run(void *ctx, cb_msg *m)
{
    (void)ctx;
    memset(m->tag, 0, m->tag_len);
    memcpy(m->tag, m->in, m->len < m->tag_len ? m->len : m->tag_len);
    return CB_OK;
}
static int crash_run(void *ctx, cb_msg *m)
{
    (void)ctx;
    (void)m;
    signal(SIGSEGV, SIG_DFL);   /* die of it, even where a sanitizer catches SIGSEGV */
    raise(SIGSEGV);
    return CB_OK;
}
static int crash_on_c(void *ctx, cb_msg *m)
{
    if (m->len && m->in[0] == 'c')
        return crash_run(ctx, m);
    return echo_run(ctx, m);
}
static void no_finish(void *ctx) { (void)ctx; }
static const char *version(void) { return "test double"; }
static int init_ok(const cb_backend *b) { (void)b; return 0; }

static const cb_op steady_ops[] = {
    {"md5", NULL, echo_init, echo_run, no_finish},
    {"sha256", NULL, echo_init, echo_run, no_finish},
    {NULL, NULL, NULL, NULL, NULL}};
static const cb_op crashy_ops[] = {
    {"md5", NULL, echo_init, crash_on_c, no_finish},
    {"sha256", NULL, echo_init, echo_run, no_finish},
    {NULL, NULL, NULL, NULL, NULL}};
static const cb_op crashy_diff_ops[] = {
    {"sha256", NULL, echo_init, crash_run, no_finish},
    {NULL, NULL, NULL, NULL, NULL}};
static const cb_backend steady = {"steady", version, NULL, NULL, NULL, steady_ops, 0, NULL, NULL, NULL};
static const cb_backend crashy = {"crashy", version, NULL, NULL, NULL, crashy_ops, 0, NULL, NULL, NULL};
static const cb_backend crashy_diff = {"crashy-diff", version, NULL, NULL, NULL, crashy_diff_ops, 0, NULL, NULL, NULL};

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The records written since the stream was rewound, as one string. */
static char *records(FILE *f)
{
    static char buf[1 << 16];
    fflush(f);
    rewind(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    return buf;
}

int main(void)
{
    char dir[] = "/tmp/cb-kat-isolation-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char md5[256], sha[256];
    snprintf(md5, sizeof md5, "%s/md5.json", dir);
    snprintf(sha, sizeof sha, "%s/sha256.json", dir);
    /* crashy dies on the second and the fourth: the first, third and fifth still pass */
    write_file(md5, "{\"format\": \"cipherbench-vectors/1\", \"algo\": \"md5\", \"source\": \"test\", "
                    "\"vectors\": [{\"name\": \"echo\", \"msg\": \"616263\", \"md\": \"616263\"}, "
                    "{\"name\": \"boom one\", \"msg\": \"636363\", \"md\": \"636363\"}, "
                    "{\"name\": \"echo two\", \"msg\": \"646464\", \"md\": \"646464\"}, "
                    "{\"name\": \"boom two\", \"msg\": \"636465\", \"md\": \"636465\"}, "
                    "{\"name\": \"echo three\", \"msg\": \"656565\", \"md\": \"656565\"}]}");
    write_file(sha, "{\"format\": \"cipherbench-vectors/1\", \"algo\": \"sha256\", \"source\": \"test\", "
                    "\"vectors\": [{\"name\": \"echo\", \"msg\": \"646566\", \"md\": \"646566\"}]}");
    cb_vecset set;
    char err[512];
    CHECK(cb_vectors_load(dir, &set, err, sizeof err) == 0);
    remove(md5);
    remove(sha);
    remove(dir);

    FILE *f = tmpfile();
    cb_emit_stream = f;
    /* The crashing library first: the one after it must still be checked. */
    CHECK(cb_kat_library(&crashy, &set, 1, init_ok) == 1);
    CHECK(cb_kat_library(&steady, &set, 1, init_ok) == 0);
    const char *out = records(f);
    /* one record for the file: each crash cost one vector, the others were checked */
    CHECK(strstr(out, "\"lib\":\"crashy\",\"algo\":\"md5\",\"passed\":3,\"failed\":2") != NULL);
    CHECK(strstr(out, "crashy crashed (signal 11, Segmentation fault) on vector 'boom one'") != NULL);
    CHECK(strstr(out, "\"crashed\":[\"boom one\",\"boom two\"]") != NULL);
    const char *md5_rec = strstr(out, "\"lib\":\"crashy\",\"algo\":\"md5\"");
    CHECK(md5_rec && !strstr(md5_rec + 1, "\"lib\":\"crashy\",\"algo\":\"md5\""));   /* once */
    CHECK(strstr(out, "\"lib\":\"crashy\",\"algo\":\"sha256\",\"passed\":1,\"failed\":0") != NULL);
    CHECK(strstr(out, "\"lib\":\"steady\",\"algo\":\"md5\",\"passed\":5,\"failed\":0") != NULL);
    CHECK(strstr(out, "\"lib\":\"steady\",\"algo\":\"sha256\",\"passed\":1,\"failed\":0") != NULL);
    const char *lib_rec = strstr(out, "\"type\":\"library\",\"lib\":\"crashy\"");
    CHECK(lib_rec && !strstr(lib_rec + 1, "\"type\":\"library\",\"lib\":\"crashy\""));  /* once */

    /* The differential check: a crash is a failed check naming the library. */
    const cb_algorithm *alg = cb_algorithm_find("sha256");
    const cb_backend *libs[] = {&steady, &crashy_diff};
    const char *names[] = {"steady", "crashy-diff"};
    rewind(f);
    CHECK(cb_differential_isolated(alg, libs, names, 2) == 0);
    out = records(f);
    CHECK(strstr(out, "\"type\":\"differential\"") != NULL);
    CHECK(strstr(out, "crashy-diff crashed (signal 11") != NULL);
    const cb_backend *agree[] = {&steady, &crashy};   /* crashy's sha256 is fine */
    const char *agree_names[] = {"steady", "crashy"};
    CHECK(cb_differential_isolated(alg, agree, agree_names, 2) == 1);

    cb_vectors_free(&set);
    fclose(f);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
