/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_in_place.c - backend.h promises that a message's in and out may be the same buffer.
 * For every cipher, AEAD and key-wrap row of every library compiled in: the same message
 * encrypted from one buffer into another and in place gives the same bytes and tag, and
 * decrypting in place gives the message back (an AEAD's tag verified). Rows a library
 * refuses here (CB_ERR_PARAM at init, e.g. without CPU instructions) are skipped. */
#include "../algorithms.h"
#include "../backend.h"
#include "../bench.h"
#include "../hw.h"
#include "../module.h"
#include "../prng.h"
#include <stdio.h>
#include <string.h>

#define LEN 1024   /* a multiple of every block, within one TLS record */

/* Rows known to break the promise, with the libraries of Debian 13 (the bench never passes
 * one buffer twice, so no figure depends on it; each is a backend to fix): libtomcrypt's
 * OCB checksums the plaintext after overwriting it; Crypto++'s ARIA AEADs, ARIA-CTR and
 * CBC-CTS write their output before reading all of their input. Listed rows are reported,
 * not failed; any other row that breaks fails. */
static const struct { const char *lib, *prefix, *suffix; } known[] = {
    {"libtomcrypt", "", "-ocb"},
    {"cryptopp", "aria-", "-gcm"}, {"cryptopp", "aria-", "-ccm"}, {"cryptopp", "aria-", "-eax"},
    {"cryptopp", "aria-", "-ctr"}, {"cryptopp", "", "-cbc-cts"},
#if defined(__arm__)
    /* Crypto++ 8.7 on 32-bit ARM (the Armv8 AES instructions in A32, seen under
     * qemu-arm): AES in its counter and CFB modes, and the AEADs built on them, the same. */
    {"cryptopp", "aes-", "-ctr"}, {"cryptopp", "aes-", "-cfb"}, {"cryptopp", "aes-", "-gcm"},
    {"cryptopp", "aes-", "-ccm"}, {"cryptopp", "aes-", "-ccm-8"}, {"cryptopp", "aes-", "-eax"},
#endif
};

static int is_known(const char *lib, const char *algo)
{
    size_t n = strlen(algo);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        size_t k = strlen(known[i].suffix);
        if (strcmp(lib, known[i].lib) == 0 && strncmp(algo, known[i].prefix, strlen(known[i].prefix)) == 0
            && n >= k && strcmp(algo + n - k, known[i].suffix) == 0)
            return 1;
    }
    return 0;
}

static int failures, checked, known_broken;
static const char *row_lib, *row_algo;
/* One broken promise of the row under check: a failure, or a known break (reported). */
#define FAIL(...) do { int k_ = is_known(row_lib, row_algo); fprintf(stderr, "%s", k_ ? "known: " : ""); \
                       fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); \
                       if (k_) known_broken++; else failures++; } while (0)

typedef struct bufs {
    uint8_t key[64], iv[64], nonce[64], aad[CB_AAD_LEN];
    uint8_t plain[LEN + 64], apart[LEN + 64], here[LEN + 64], tag_apart[64], tag_here[64];
} bufs;

/* One call of the row: init with (decrypt), run on in -> out, finish. */
static int once(const cb_op *op, const cb_algorithm *alg, bufs *b, int decrypt,
                const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag)
{
    cb_setup s = {alg->key_len ? b->key : NULL, alg->key_len, alg->iv_len ? b->iv : NULL,
                  alg->iv_len, alg->tag_len, decrypt};
    cb_msg m = {.in = in, .out = out, .len = len};
    if (alg->per_message_nonce) {
        m.nonce = b->nonce;
        m.nonce_len = alg->iv_len;
    }
    if (cb_aad_len(alg)) {
        m.aad = b->aad;
        m.aad_len = cb_aad_len(alg);
    }
    if (alg->tag_len && alg->kind != CB_KEYWRAP) {
        m.tag = tag;
        m.tag_len = alg->tag_len;
    }
    void *ctx = NULL;
    int st = op->init(&ctx, op->arg, &s);
    if (st != CB_OK)
        return st == CB_ERR_PARAM ? -1 : st;
    st = op->run(ctx, &m);
    op->finish(ctx);
    return st;
}

static void check_row(const char *lib, const cb_op *op, const cb_algorithm *alg, bufs *b)
{
    /* a key wrap writes more than it reads: in place means out starts where in does */
    size_t len = alg->kind == CB_KEYWRAP ? 32 : LEN;
    size_t outlen = alg->kind == CB_KEYWRAP ? cb_keywrap_out(alg, len) : len;
    if (cb_max_len(alg) && len > cb_max_len(alg))
        return;
    row_lib = lib;
    row_algo = alg->name;
    cb_tls_record_header(b->aad, len);
    memcpy(b->here, b->plain, len);
    int st = once(op, alg, b, 0, b->plain, b->apart, len, b->tag_apart);
    if (st < 0)
        return;   /* not available here */
    int st2 = once(op, alg, b, 0, b->here, b->here, len, b->tag_here);
    if (st != CB_OK || st2 != CB_OK) {
        FAIL("%s %s: encrypt returned %d apart, %d in place", lib, alg->name, st, st2);
        return;
    }
    checked++;
    if (cb_keywrap_random(alg))
        memcpy(b->here, b->apart, outlen);   /* each wrap draws its IV: unwrap one of them */
    else if (memcmp(b->apart, b->here, outlen) != 0)
        FAIL("%s %s: in place encrypts to other bytes than into another buffer", lib, alg->name);
    else if (alg->tag_len && alg->kind != CB_KEYWRAP
             && memcmp(b->tag_apart, b->tag_here, alg->tag_len) != 0)
        FAIL("%s %s: in place gives another tag", lib, alg->name);
    st = once(op, alg, b, 1, b->here, b->here, len, b->tag_apart);
    if (st != CB_OK)
        FAIL("%s %s: decrypt in place returned %d", lib, alg->name, st);
    else if (memcmp(b->here, b->plain, len) != 0)
        FAIL("%s %s: decrypt in place does not give the message back", lib, alg->name);
}

int main(void)
{
    static bufs b;
    uint64_t seed = 0x1a9ace;
    cb_prng_fill(&seed, b.key, sizeof b.key);
    cb_prng_fill(&seed, b.iv, sizeof b.iv);
    cb_prng_fill(&seed, b.aad, sizeof b.aad);
    cb_prng_fill(&seed, b.plain, sizeof b.plain);
    memcpy(b.nonce, b.iv, sizeof b.nonce);
    cb_modules_load();
    size_t n_modules;
    const cb_module_state *modules = cb_module_states(&n_modules);
    for (size_t i = 0; i < n_modules; i++)
        if (!modules[i].module) {
            fprintf(stderr, "%s: module not loaded: %s\n", modules[i].lib, modules[i].why);
            failures++;
        }
    for (const cb_backend *const *lib = cb_backends; *lib; lib++) {
        if (cb_hw_global_init(*lib) != 0) {
            fprintf(stderr, "%s: global initialisation failed\n", (*lib)->name);
            failures++;
            continue;
        }
        for (const cb_op *op = (*lib)->ops; op->algo; op++) {
            const cb_algorithm *alg = cb_algorithm_find(op->algo);
            if (alg && (alg->kind == CB_AEAD || alg->kind == CB_CIPHER || alg->kind == CB_KEYWRAP))
                check_row((*lib)->name, op, alg, &b);
        }
    }
    printf("%d rows encrypted and decrypted in place (%d known breaks reported)\n", checked,
           known_broken);
    if (failures)
        fprintf(stderr, "%d row(s) broke the in-place promise\n", failures);
    return failures != 0 || checked == 0;
}
