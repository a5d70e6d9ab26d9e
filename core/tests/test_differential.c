/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test_differential.c - the differential check reaches the lengths where
 * libraries go wrong: the empty message, one byte, block - 1/block/block + 1,
 * 1 MiB, and (AEAD) long AAD. Test doubles: "echo" digests a message as its
 * first bytes and its length; each "slip" double agrees with it except at one
 * length, and the check must find that length. */
#define _POSIX_C_SOURCE 200809L
#include "../emit.h"
#include "../kat.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); failures++; } } while (0)

static size_t slip_len;   /* the length the slip double gets wrong */
static size_t slip_aad;   /* the AAD length it gets wrong (AEAD) */

static int d_init(void **ctx, const void *arg, const cb_setup *s) { *ctx = (void *)arg; (void)s; return CB_OK; }
static void d_finish(void *ctx) { (void)ctx; }

static void digest(cb_msg *m, int slip)
{
    memset(m->tag, 0, m->tag_len);
    memcpy(m->tag, m->in, m->len < 8 ? m->len : 8);
    m->tag[8] = (uint8_t)m->len;
    m->tag[9] = (uint8_t)(m->len >> 8);
    m->tag[10] = (uint8_t)(m->len >> 16);
    m->tag[11] = (uint8_t)m->aad_len;
    m->tag[12] = (uint8_t)(m->aad_len >> 8);
    if (slip && (m->len == slip_len || (m->aad && m->aad_len == slip_aad)))
        m->tag[13] ^= 1;
}

static int hash_run(void *ctx, cb_msg *m) { digest(m, ctx != NULL); return CB_OK; }

/* An "AEAD" whose ciphertext is the plaintext and whose tag is the digest
 * (decryption is the same call: it does not verify, the check compares). */
static int aead_run(void *ctx, cb_msg *m)
{
    digest(m, ctx != NULL);
    memcpy(m->out, m->in, m->len);
    return CB_OK;
}

static const char *version(void) { return "test double"; }
static const cb_op echo_ops[] = {{"sha256", NULL, d_init, hash_run, d_finish},
                                 {"chacha20-poly1305", NULL, d_init, aead_run, d_finish},
                                 {NULL, NULL, NULL, NULL, NULL}};
static const cb_op slip_ops[] = {{"sha256", "slip", d_init, hash_run, d_finish},
                                 {"chacha20-poly1305", "slip", d_init, aead_run, d_finish},
                                 {NULL, NULL, NULL, NULL, NULL}};
static const cb_backend echo = {"echo", version, NULL, NULL, NULL, echo_ops, 0, NULL, NULL, NULL};
static const cb_backend slip = {"slip", version, NULL, NULL, NULL, slip_ops, 0, NULL, NULL, NULL};

static void expect(const char *algo, size_t len, size_t aad, const char *words)
{
    const cb_algorithm *alg = cb_algorithm_find(algo);
    const cb_backend *libs[] = {&echo, &slip};
    char why[512];
    slip_len = len;
    slip_aad = aad;
    int r = cb_differential(alg, libs, 2, why, sizeof why);
    CHECK(r == 0);
    if (r != 0 || !strstr(why, words)) {
        fprintf(stderr, "  %s, slip at %zu bytes / AAD %zu: got %d \"%s\", want \"%s\"\n",
                algo, len, aad, r, why, words);
        failures += r == 0;
    }
}

int main(void)
{
    cb_emit_stream = tmpfile();
    const cb_backend *libs[] = {&echo, &slip};
    char why[512];
    slip_len = slip_aad = (size_t)-1;   /* no slip: they agree */
    CHECK(cb_differential(cb_algorithm_find("sha256"), libs, 2, why, sizeof why) == 1);
    CHECK(cb_differential(cb_algorithm_find("chacha20-poly1305"), libs, 2, why, sizeof why) == 1);

    expect("sha256", 0, (size_t)-1, "(0 bytes");
    expect("sha256", 1, (size_t)-1, "(1 bytes");
    expect("sha256", 15, (size_t)-1, "(15 bytes");
    expect("sha256", 16, (size_t)-1, "(16 bytes");
    expect("sha256", 17, (size_t)-1, "(17 bytes");
    expect("sha256", 63, (size_t)-1, "(63 bytes");
    expect("sha256", 65, (size_t)-1, "(65 bytes");
    expect("sha256", 129, (size_t)-1, "(129 bytes");
    expect("sha256", 1u << 20, (size_t)-1, "(1048576 bytes");
    expect("chacha20-poly1305", (size_t)-1, 4099, "AAD 4099)");
    expect("chacha20-poly1305", (size_t)-1, 70001, "AAD 70001)");
    expect("chacha20-poly1305", 0, (size_t)-1, "(0 bytes");
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
