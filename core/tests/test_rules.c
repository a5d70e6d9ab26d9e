/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_rules.c - the row's own sizes (rules.c): every row takes those the timed loops give it
 * (so bench never pays for or trips over the check), and a shortened tag, a nonce a byte short
 * or long, AAD for secretbox, a one-block RFC 3394 wrap and a CCM message past its length
 * field are refused before the library is called. */
#include "../rules.h"
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

/* A library that takes anything and counts its calls. */
static int calls;
static int any_init(void **ctx, const void *arg, const cb_setup *s) { (void)arg; (void)s; *ctx = NULL; calls++; return CB_OK; }
static int any_run(void *ctx, cb_msg *m) { (void)ctx; (void)m; calls++; return CB_OK; }
static void any_finish(void *ctx) { (void)ctx; }

static uint8_t buf[1 << 16];

/* Sizes of row a as bench gives them, for a message of len bytes. */
static cb_setup own_setup(const cb_algorithm *a)
{
    cb_setup s = {buf, a->key_len, a->iv_len ? buf : NULL, a->iv_len, a->tag_len, 1};
    return s;
}

static cb_msg own_msg(const cb_algorithm *a, size_t len)
{
    cb_msg m = {buf, buf, len, a->per_message_nonce ? buf : NULL, a->per_message_nonce ? a->iv_len : 0,
                buf, cb_aad_len(a), a->kind == CB_KEYWRAP || !a->tag_len ? NULL : buf,
                a->kind == CB_KEYWRAP ? 0 : a->tag_len};
    return m;
}

static int refused_before_the_library(const char *algo, cb_setup s, cb_msg m)
{
    cb_op op = {algo, NULL, any_init, any_run, any_finish};
    void *ctx;
    calls = 0;
    int st = cb_row_init(&op, &ctx, &s);
    if (st == CB_OK)
        st = cb_row_run(&op, ctx, &m);
    return st == CB_ERR_PARAM && calls <= 1;   /* init may have run; never the message */
}

int main(void)
{
    int rows = 0;
    for (const cb_algorithm *a = cb_algorithms; a->name; a++, rows++) {
        cb_setup s = own_setup(a);
        const char *why = cb_rules_setup(a, &s);
        if (why)
            fprintf(stderr, "%s: its own setup refused: %s\n", a->name, why);
        CHECK(why == NULL);
        size_t min = a->kind == CB_KEYWRAP ? cb_keywrap_min(a) : 0;
        size_t lens[] = {min, 1024, 16384};
        for (size_t i = 0; i < 3; i++) {
            size_t len = lens[i] / a->block_len * a->block_len;
            if (len < min)
                continue;
            cb_msg m = own_msg(a, len);
            why = cb_rules_msg(a, &m);
            if (why)
                fprintf(stderr, "%s: its own %zu-byte message refused: %s\n", a->name, len, why);
            CHECK(why == NULL);
        }
    }
    CHECK(rows > 500);

    /* Prefixes of the tag and nonces a byte off, in every AEAD row. */
    for (const cb_algorithm *a = cb_algorithms; a->name; a++) {
        if (a->kind != CB_AEAD)
            continue;
        static const size_t prefixes[] = {0, 1, 4, 8, 15};
        for (size_t i = 0; i < 5; i++) {
            if (prefixes[i] >= a->tag_len)
                continue;
            cb_setup s = own_setup(a);
            cb_msg m = own_msg(a, 64 / a->block_len * a->block_len);
            m.tag_len = prefixes[i];
            CHECK(refused_before_the_library(a->name, s, m));
            s.tag_len = prefixes[i];
            CHECK(refused_before_the_library(a->name, s, own_msg(a, 64 / a->block_len * a->block_len)));
        }
        for (int d = -1; d <= 1; d += 2) {
            cb_setup s = own_setup(a);
            cb_msg m = own_msg(a, 64 / a->block_len * a->block_len);
            m.nonce_len = a->iv_len + (size_t)d;
            CHECK(refused_before_the_library(a->name, s, m));
            s.iv_len = a->iv_len + (size_t)d;
            CHECK(refused_before_the_library(a->name, s, own_msg(a, 64 / a->block_len * a->block_len)));
        }
    }

    /* NaCl's secretbox takes no AAD; GCM takes it. */
    const cb_algorithm *box = cb_algorithm_find("xsalsa20-poly1305");
    cb_msg m = own_msg(box, 64);
    m.aad_len = 1;
    CHECK(refused_before_the_library(box->name, own_setup(box), m));
    const cb_algorithm *gcm = cb_algorithm_find("aes-128-gcm");
    m = own_msg(gcm, 64);
    m.aad_len = 70001;
    CHECK(cb_rules_msg(gcm, &m) == NULL);

    /* CCM with a 12-byte nonce: a 3-byte length field, messages below 16 MiB. */
    const cb_algorithm *ccm = cb_algorithm_find("aes-128-ccm");
    m = own_msg(ccm, (1u << 24) - 1);
    CHECK(cb_rules_msg(ccm, &m) == NULL);
    m.len = 1u << 24;
    CHECK(refused_before_the_library(ccm->name, own_setup(ccm), m));

    /* RFC 3394: two blocks of key data at least; RFC 5649 takes one byte. */
    const char *kw[] = {"aes-128-kw", "aes-256-kw-inv", "camellia-128-kw", "aria-192-kw", "3des-cms-wrap"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++) {
        const cb_algorithm *a = cb_algorithm_find(kw[i]);
        CHECK(a && refused_before_the_library(a->name, own_setup(a), own_msg(a, 8)));
        CHECK(a && refused_before_the_library(a->name, own_setup(a), own_msg(a, 20)));
    }
    const cb_algorithm *kwp = cb_algorithm_find("aes-128-kwp");
    m = own_msg(kwp, 1);
    CHECK(cb_rules_msg(kwp, &m) == NULL);

    /* What passes reaches the library. */
    cb_op op = {"aes-128-gcm", NULL, any_init, any_run, any_finish};
    void *ctx;
    cb_setup s = own_setup(gcm);
    m = own_msg(gcm, 64);
    calls = 0;
    CHECK(cb_row_init(&op, &ctx, &s) == CB_OK && cb_row_run(&op, ctx, &m) == CB_OK && calls == 2);

    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
