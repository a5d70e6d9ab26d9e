/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _POSIX_C_SOURCE 200809L
/* test_random_wrap.c - the known answers of a key wrap that draws a random IV for every wrap
 * (RFC 3217's, row 3des-cms-wrap): the vector is unwrapped, and what the row wraps must
 * unwrap to the key data, two wraps must differ, forgeries must be refused. The wraps here are
 * test doubles of RFC 3217's shape (the key data plus 16 bytes): IV || data XOR pad(IV) ||
 * an 8-byte XOR checksum of the data. "good" draws a new IV each wrap; "fixed" always the
 * same one; "garbled" writes a wrong checksum; "lax" unwraps without checking. */
#include "../emit.h"
#include "../kat.h"
#include "../vectors.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

enum { GOOD, FIXED, GARBLED, LAX };

typedef struct { int kind, decrypt; uint8_t next_iv; } toy;

static void checksum(const uint8_t *d, size_t n, uint8_t c[8])
{
    memset(c, 0, 8);
    for (size_t i = 0; i < n; i++)
        c[i % 8] ^= d[i];
}

static int toy_init(void **ctx, const void *arg, const cb_setup *s)
{
    toy *t = calloc(1, sizeof *t);
    if (!t)
        return CB_ERR;
    t->kind = *(const int *)arg;
    t->decrypt = s->decrypt;
    t->next_iv = 0x11;
    *ctx = t;
    return CB_OK;
}

static int toy_run(void *ctx, cb_msg *m)
{
    toy *t = ctx;
    size_t n = m->len;
    uint8_t c[8];
    if (!t->decrypt) {
        uint8_t iv = t->kind == FIXED ? 0x11 : t->next_iv++;
        for (int j = 0; j < 8; j++)
            m->out[j] = (uint8_t)(iv + j);
        for (size_t i = 0; i < n; i++)
            m->out[8 + i] = m->in[i] ^ m->out[i % 8];
        checksum(m->in, n, m->out + 8 + n);
        if (t->kind == GARBLED)
            m->out[8 + n] ^= 1;
        return CB_OK;
    }
    for (size_t i = 0; i < n; i++)
        m->out[i] = m->in[8 + i] ^ m->in[i % 8];
    checksum(m->out, n, c);
    return t->kind == LAX || memcmp(c, m->in + 8 + n, 8) == 0 ? CB_OK : CB_ERR_AUTH;
}

static void toy_finish(void *ctx) { free(ctx); }

static const int kinds[] = {GOOD, FIXED, GARBLED, LAX};

/* The kat of one double against the vector set: 1 passed, 0 failed; why says why. */
static int kat_of(int kind, const cb_vecset *set, char *why, size_t whylen)
{
    const cb_op op = {"3des-cms-wrap", &kinds[kind], toy_init, toy_run, toy_finish};
    return cb_kat_algo("toy", &op, cb_algorithm_find("3des-cms-wrap"), set, why, whylen);
}

int main(void)
{
    char dir[] = "/tmp/cb-random-wrap-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    /* 24 bytes of key data 00..17 wrapped by the good double with IV 0x11..0x18 */
    uint8_t pt[24], ct[40];
    for (int i = 0; i < 24; i++)
        pt[i] = (uint8_t)i;
    int good = GOOD;
    void *ctx = NULL;
    cb_setup s = {NULL, 0, NULL, 0, 16, 0};
    toy_init(&ctx, &good, &s);
    cb_msg m = {pt, ct, 24, NULL, 0, NULL, 0, NULL, 0};
    toy_run(ctx, &m);
    toy_finish(ctx);
    char path[256], json[1024], hex_pt[64], hex_ct[96];
    for (int i = 0; i < 24; i++)
        snprintf(hex_pt + 2 * i, 3, "%02x", pt[i]);
    for (int i = 0; i < 40; i++)
        snprintf(hex_ct + 2 * i, 3, "%02x", ct[i]);
    snprintf(path, sizeof path, "%s/3des-cms-wrap.json", dir);
    snprintf(json, sizeof json, "{\"format\": \"cipherbench-vectors/1\", \"algo\": \"3des-cms-wrap\", "
             "\"source\": \"test\", \"vectors\": [{\"name\": \"toy\", \"key\": \"%048d\", "
             "\"pt\": \"%s\", \"ct\": \"%s\"}]}", 0, hex_pt, hex_ct);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(json, f);
        fclose(f);
    }
    cb_vecset set;
    char err[512], why[512];
    CHECK(cb_vectors_load(dir, &set, err, sizeof err) == 0);
    remove(path);
    remove(dir);

    cb_emit_stream = tmpfile();
    CHECK(kat_of(GOOD, &set, why, sizeof why) == 1);
    CHECK(kat_of(FIXED, &set, why, sizeof why) == 0 && strstr(why, "two wraps of one key are equal"));
    CHECK(kat_of(GARBLED, &set, why, sizeof why) == 0 && strstr(why, "unwrap of its own wrap"));
    CHECK(kat_of(LAX, &set, why, sizeof why) == 0 && strstr(why, "accepted a forgery"));

    cb_vectors_free(&set);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
