/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libsodium.c - the libsodium backend.
 *
 * libsodium offers few algorithms, each with fixed sizes: AES-256-GCM (only on
 * CPUs with AES-NI and PCLMUL), ChaCha20-Poly1305 (IETF, the original with a
 * 64-bit nonce, and XChaCha20-Poly1305), the ChaCha20 (IETF and original),
 * XChaCha20, Salsa20 and XSalsa20 streams, Salsa20/12 and Salsa20/8 one message a
 * call, NaCl's secretbox (XSalsa20-Poly1305, and XChaCha20-Poly1305), SHA-256/512,
 * BLAKE2b, HMAC-SHA-256/512 (and HMAC-SHA-512 cut to 256 bits), Poly1305 and
 * SipHash-2-4 (64 and 128 bits).
 * Sizes it does not take give CB_ERR_PARAM.
 */
#include "../backend.h"
#include "keystream.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/* ---- AEAD ------------------------------------------------------------- */

enum { AEAD_AES256GCM, AEAD_CHACHAPOLY, AEAD_CHACHAPOLY_NONCE64, AEAD_XCHACHAPOLY };

/* The nonce each AEAD takes: 12 bytes (IETF), 8 (the original ChaCha20-Poly1305), 24 (X). */
static size_t aead_nonce_len(int which)
{
    return which == AEAD_CHACHAPOLY_NONCE64 ? 8 : which == AEAD_XCHACHAPOLY ? 24 : 12;
}

typedef struct {
    crypto_aead_aes256gcm_state gcm;   /* expanded key; needs 16-byte alignment */
    uint8_t key[32];
    int which, decrypt;
} aead_ctx;

static int aead_init(void **ctx, const void *arg, const cb_setup *s)
{
    int which = *(const int *)arg;
    if (s->key_len != 32 || (s->tag_len != 0 && s->tag_len != 16))
        return CB_ERR_PARAM;
    /* libsodium's AES-GCM exists only on x86 CPUs with AES-NI and PCLMUL;
     * elsewhere the row is reported unsupported, as a refused parameter. */
    if (which == AEAD_AES256GCM && !crypto_aead_aes256gcm_is_available())
        return CB_ERR_PARAM;
    size_t sz = (sizeof(aead_ctx) + 15) & ~(size_t)15;
    aead_ctx *c = aligned_alloc(16, sz);
    if (!c)
        return CB_ERR;
    memset(c, 0, sz);
    c->which = which;
    c->decrypt = s->decrypt;
    memcpy(c->key, s->key, 32);
    if (which == AEAD_AES256GCM && crypto_aead_aes256gcm_beforenm(&c->gcm, s->key) != 0) {
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int aead_run(void *ctx, cb_msg *m)
{
    aead_ctx *c = ctx;
    int r;
    if (m->nonce_len != aead_nonce_len(c->which) || m->tag_len != 16)
        return CB_ERR_PARAM;
    if (c->which == AEAD_AES256GCM) {
        if (!c->decrypt)
            r = crypto_aead_aes256gcm_encrypt_detached_afternm(m->out, m->tag, NULL,
                    m->in, m->len, m->aad, m->aad_len, NULL, m->nonce, &c->gcm);
        else
            r = crypto_aead_aes256gcm_decrypt_detached_afternm(m->out, NULL,
                    m->in, m->len, m->tag, m->aad, m->aad_len, m->nonce, &c->gcm);
    } else if (c->which == AEAD_CHACHAPOLY) {
        if (!c->decrypt)
            r = crypto_aead_chacha20poly1305_ietf_encrypt_detached(m->out, m->tag, NULL,
                    m->in, m->len, m->aad, m->aad_len, NULL, m->nonce, c->key);
        else
            r = crypto_aead_chacha20poly1305_ietf_decrypt_detached(m->out, NULL,
                    m->in, m->len, m->tag, m->aad, m->aad_len, m->nonce, c->key);
    } else if (c->which == AEAD_CHACHAPOLY_NONCE64) {
        if (!c->decrypt)
            r = crypto_aead_chacha20poly1305_encrypt_detached(m->out, m->tag, NULL,
                    m->in, m->len, m->aad, m->aad_len, NULL, m->nonce, c->key);
        else
            r = crypto_aead_chacha20poly1305_decrypt_detached(m->out, NULL,
                    m->in, m->len, m->tag, m->aad, m->aad_len, m->nonce, c->key);
    } else {
        if (!c->decrypt)
            r = crypto_aead_xchacha20poly1305_ietf_encrypt_detached(m->out, m->tag, NULL,
                    m->in, m->len, m->aad, m->aad_len, NULL, m->nonce, c->key);
        else
            r = crypto_aead_xchacha20poly1305_ietf_decrypt_detached(m->out, NULL,
                    m->in, m->len, m->tag, m->aad, m->aad_len, m->nonce, c->key);
    }
    if (r != 0)
        return c->decrypt ? CB_ERR_AUTH : CB_ERR;
    return CB_OK;
}

static void aead_finish(void *ctx)
{
    if (ctx)
        sodium_memzero(ctx, sizeof(aead_ctx));
    free(ctx);
}

/* ---- secretbox -----------------------------------------------------------
 * NaCl's authenticated encryption: a 24-byte nonce, a 16-byte tag and no
 * associated data. The detached calls are what crypto_secretbox_easy runs
 * (it puts the tag before the ciphertext); the key goes in with each call. */

enum { BOX_XSALSA20, BOX_XCHACHA20 };

typedef struct {
    uint8_t key[32];
    int which, decrypt;
} box_ctx;

static int box_init(void **ctx, const void *arg, const cb_setup *s)
{
    if (s->key_len != 32 || (s->tag_len != 0 && s->tag_len != 16))
        return CB_ERR_PARAM;
    box_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->which = *(const int *)arg;
    c->decrypt = s->decrypt;
    memcpy(c->key, s->key, 32);
    *ctx = c;
    return CB_OK;
}

static int box_run(void *ctx, cb_msg *m)
{
    box_ctx *c = ctx;
    int r;
    if (m->nonce_len != 24 || m->tag_len != 16 || m->aad_len != 0)
        return CB_ERR_PARAM;   /* secretbox has no associated data to authenticate */
    if (c->which == BOX_XSALSA20)
        r = c->decrypt ? crypto_secretbox_open_detached(m->out, m->in, m->tag, m->len, m->nonce, c->key)
                       : crypto_secretbox_detached(m->out, m->tag, m->in, m->len, m->nonce, c->key);
    else
        r = c->decrypt ? crypto_secretbox_xchacha20poly1305_open_detached(m->out, m->in, m->tag,
                                                                          m->len, m->nonce, c->key)
                       : crypto_secretbox_xchacha20poly1305_detached(m->out, m->tag, m->in,
                                                                     m->len, m->nonce, c->key);
    if (r != 0)
        return c->decrypt ? CB_ERR_AUTH : CB_ERR;
    return CB_OK;
}

static void box_finish(void *ctx)
{
    if (ctx)
        sodium_memzero(ctx, sizeof(box_ctx));
    free(ctx);
}

/* ---- stream ciphers ----------------------------------------------------
 * libsodium's stream API is one-shot from a block counter. To continue the
 * stream across calls of any length, whole blocks go straight through
 * xor_ic and the keystream of a split block is kept for the next call. */

enum { STREAM_CHACHA20_IETF, STREAM_SALSA20, STREAM_CHACHA20, STREAM_XCHACHA20, STREAM_XSALSA20 };

/* The nonce each stream takes: 12 bytes (IETF ChaCha20), 8 (Salsa20 and the original
 * ChaCha20), 24 (XChaCha20, XSalsa20); all but IETF ChaCha20 count blocks in 64 bits. */
static size_t stream_nonce_len(int which)
{
    return which == STREAM_CHACHA20_IETF ? 12
         : which == STREAM_XCHACHA20 || which == STREAM_XSALSA20 ? 24 : 8;
}

typedef struct {
    int which;
    uint8_t key[32], nonce[24];
    uint64_t counter;        /* next 64-byte block to generate */
    cb_keystream ks;         /* the rest of the last split block */
} stream_ctx;

static void stream_xor(stream_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    switch (c->which) {
    case STREAM_CHACHA20_IETF:
        crypto_stream_chacha20_ietf_xor_ic(out, in, len, c->nonce, (uint32_t)c->counter, c->key);
        break;
    case STREAM_CHACHA20:
        crypto_stream_chacha20_xor_ic(out, in, len, c->nonce, c->counter, c->key);
        break;
    case STREAM_XCHACHA20:
        crypto_stream_xchacha20_xor_ic(out, in, len, c->nonce, c->counter, c->key);
        break;
    case STREAM_XSALSA20:
        crypto_stream_xsalsa20_xor_ic(out, in, len, c->nonce, c->counter, c->key);
        break;
    default:
        crypto_stream_salsa20_xor_ic(out, in, len, c->nonce, c->counter, c->key);
        break;
    }
}

static int stream_init(void **ctx, const void *arg, const cb_setup *s)
{
    int which = *(const int *)arg;
    size_t nlen = stream_nonce_len(which);
    if (s->key_len != 32 || s->iv_len != nlen || !s->iv)
        return CB_ERR_PARAM;
    stream_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->which = which;
    memcpy(c->key, s->key, 32);
    memcpy(c->nonce, s->iv, nlen);
    *ctx = c;
    return CB_OK;
}

static int stream_run(void *ctx, cb_msg *m)
{
    stream_ctx *c = ctx;
    const uint8_t *in = m->in;
    uint8_t *out = m->out;
    size_t len = m->len;

    size_t n = cb_keystream_use(&c->ks, out, in, len);
    in += n; out += n; len -= n;

    size_t whole = len & ~(size_t)63;
    if (whole) {
        if (c->which == STREAM_CHACHA20_IETF && c->counter + whole / 64 > UINT32_MAX + (uint64_t)1)
            return CB_ERR_PARAM;   /* IETF ChaCha20's 32-bit block counter would wrap */
        stream_xor(c, out, in, whole);
        c->counter += whole / 64;
        in += whole; out += whole; len -= whole;
    }
    if (len) {
        if (c->which == STREAM_CHACHA20_IETF && c->counter > UINT32_MAX)
            return CB_ERR_PARAM;
        memset(c->ks.block, 0, 64);
        stream_xor(c, c->ks.block, c->ks.block, 64);
        c->counter++;
        cb_keystream_keep(&c->ks, out, in, len);
    }
    return CB_OK;
}

static void stream_finish(void *ctx)
{
    if (ctx)
        sodium_memzero(ctx, sizeof(stream_ctx));
    free(ctx);
}

/* ---- Salsa20/12 and Salsa20/8, one message a call ---------------------------
 * crypto_stream_salsa2012_xor and _salsa208_xor have no block counter (no
 * _xor_ic), so each call encrypts one message from block 0 under the nonce
 * given with it: the salsa20r12-msg and salsa20r8-msg rows. */

enum { ONESHOT_SALSA2012, ONESHOT_SALSA208 };

typedef struct {
    int which;
    uint8_t key[32];
} oneshot_ctx;

static int oneshot_init(void **ctx, const void *arg, const cb_setup *s)
{
    if (s->key_len != 32)
        return CB_ERR_PARAM;
    oneshot_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->which = *(const int *)arg;
    memcpy(c->key, s->key, 32);
    *ctx = c;
    return CB_OK;
}

/* Salsa20/8 is deprecated in libsodium 1.0.18 (its header says so); it is still in
 * the library's API and measured as offered, its grade telling why not to use it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static int oneshot_run(void *ctx, cb_msg *m)
{
    oneshot_ctx *c = ctx;
    if (m->nonce_len != 8)
        return CB_ERR_PARAM;
    int r = c->which == ONESHOT_SALSA2012
          ? crypto_stream_salsa2012_xor(m->out, m->in, m->len, m->nonce, c->key)
          : crypto_stream_salsa208_xor(m->out, m->in, m->len, m->nonce, c->key);
    return r == 0 ? CB_OK : CB_ERR;
}
#pragma GCC diagnostic pop

static void oneshot_finish(void *ctx)
{
    if (ctx)
        sodium_memzero(ctx, sizeof(oneshot_ctx));
    free(ctx);
}

/* ---- hashes ------------------------------------------------------------ */

enum { HASH_SHA256, HASH_SHA512, HASH_BLAKE2B512, HASH_BLAKE2B160, HASH_BLAKE2B256, HASH_BLAKE2B384 };

typedef struct { int which; } hash_ctx;

static int hash_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)s;
    hash_ctx *c = malloc(sizeof *c);
    if (!c)
        return CB_ERR;
    c->which = *(const int *)arg;
    *ctx = c;
    return CB_OK;
}

static int hash_run(void *ctx, cb_msg *m)
{
    hash_ctx *c = ctx;
    uint8_t md[64];
    size_t full;
    switch (c->which) {
    case HASH_SHA256:
        full = 32;
        crypto_hash_sha256(md, m->in, m->len);
        break;
    case HASH_SHA512:
        full = 64;
        crypto_hash_sha512(md, m->in, m->len);
        break;
    default:   /* BLAKE2b: the output length goes into its parameter block */
        full = c->which == HASH_BLAKE2B160 ? 20 : c->which == HASH_BLAKE2B256 ? 32
             : c->which == HASH_BLAKE2B384 ? 48 : 64;
        crypto_generichash_blake2b(md, full, m->in, m->len, NULL, 0);
        break;
    }
    if (m->tag_len > full)
        return CB_ERR_PARAM;
    memcpy(m->tag, md, m->tag_len);
    return CB_OK;
}

static void hash_finish(void *ctx) { free(ctx); }

/* ---- MACs ----------------------------------------------------------------
 * HMAC keeps the keyed state and copies it per message, so the key is
 * hashed once, not on every call. */

enum { MAC_HMAC_SHA256, MAC_HMAC_SHA512, MAC_POLY1305, MAC_HMAC_SHA512256, MAC_SIPHASH24,
       MAC_SIPHASHX24, MAC_BLAKE2B };

typedef struct {
    int which;
    crypto_auth_hmacsha256_state h256;
    crypto_auth_hmacsha512_state h512;
    crypto_auth_hmacsha512256_state h512256;
    uint8_t poly_key[32];   /* Poly1305's one-time key; SipHash's 16-byte key */
    uint8_t blake2b_key[64];   /* crypto_generichash's key (BLAKE2b's keyed mode) */
    size_t blake2b_key_len;
} mac_ctx;

static int mac_init(void **ctx, const void *arg, const cb_setup *s)
{
    int which = *(const int *)arg;
    if (which == MAC_POLY1305 && s->key_len != 32)
        return CB_ERR_PARAM;
    if ((which == MAC_SIPHASH24 || which == MAC_SIPHASHX24) && s->key_len != 16)
        return CB_ERR_PARAM;
    if (which == MAC_BLAKE2B && (s->key_len < crypto_generichash_KEYBYTES_MIN
                                 || s->key_len > crypto_generichash_KEYBYTES_MAX))
        return CB_ERR_PARAM;
    mac_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->which = which;
    int r = 0;
    if (which == MAC_HMAC_SHA256) {
        r = crypto_auth_hmacsha256_init(&c->h256, s->key, s->key_len);
    } else if (which == MAC_HMAC_SHA512) {
        r = crypto_auth_hmacsha512_init(&c->h512, s->key, s->key_len);
    } else if (which == MAC_HMAC_SHA512256) {
        r = crypto_auth_hmacsha512256_init(&c->h512256, s->key, s->key_len);
    } else if (which == MAC_BLAKE2B) {
        memcpy(c->blake2b_key, s->key, s->key_len);
        c->blake2b_key_len = s->key_len;
    } else {
        memcpy(c->poly_key, s->key, s->key_len);
    }
    if (r != 0) {
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int mac_run(void *ctx, cb_msg *m)
{
    mac_ctx *c = ctx;
    uint8_t mac[64];
    size_t full;
    if (c->which == MAC_HMAC_SHA256) {
        crypto_auth_hmacsha256_state st = c->h256;
        crypto_auth_hmacsha256_update(&st, m->in, m->len);
        crypto_auth_hmacsha256_final(&st, mac);
        full = 32;
    } else if (c->which == MAC_HMAC_SHA512) {
        crypto_auth_hmacsha512_state st = c->h512;
        crypto_auth_hmacsha512_update(&st, m->in, m->len);
        crypto_auth_hmacsha512_final(&st, mac);
        full = 64;
    } else if (c->which == MAC_HMAC_SHA512256) {
        crypto_auth_hmacsha512256_state st = c->h512256;
        crypto_auth_hmacsha512256_update(&st, m->in, m->len);
        crypto_auth_hmacsha512256_final(&st, mac);
        full = 32;
    } else if (c->which == MAC_BLAKE2B) {
        /* the one-shot call, as crypto_generichash is used with a key */
        crypto_generichash(mac, 64, m->in, m->len, c->blake2b_key, c->blake2b_key_len);
        full = 64;
    } else if (c->which == MAC_SIPHASH24) {
        crypto_shorthash_siphash24(mac, m->in, m->len, c->poly_key);
        full = 8;
    } else if (c->which == MAC_SIPHASHX24) {
        crypto_shorthash_siphashx24(mac, m->in, m->len, c->poly_key);
        full = 16;
    } else {
        crypto_onetimeauth_poly1305(mac, m->in, m->len, c->poly_key);
        full = 16;
    }
    if (m->tag_len > full)
        return CB_ERR_PARAM;
    memcpy(m->tag, mac, m->tag_len);
    return CB_OK;
}

static void mac_finish(void *ctx)
{
    if (ctx)
        sodium_memzero(ctx, sizeof(mac_ctx));
    free(ctx);
}

/* ---- the table ----------------------------------------------------------- */

static const int k_aes256gcm = AEAD_AES256GCM, k_chachapoly = AEAD_CHACHAPOLY;
static const int k_chacha20 = STREAM_CHACHA20_IETF, k_salsa20 = STREAM_SALSA20;
static const int k_sha256 = HASH_SHA256, k_sha512 = HASH_SHA512, k_blake2b = HASH_BLAKE2B512,
                 k_blake2b160 = HASH_BLAKE2B160, k_blake2b256 = HASH_BLAKE2B256,
                 k_blake2b384 = HASH_BLAKE2B384;
static const int k_hmac256 = MAC_HMAC_SHA256, k_hmac512 = MAC_HMAC_SHA512, k_poly1305 = MAC_POLY1305;
static const int k_chachapoly64 = AEAD_CHACHAPOLY_NONCE64, k_xchachapoly = AEAD_XCHACHAPOLY,
                 k_chacha20_64 = STREAM_CHACHA20, k_xchacha20 = STREAM_XCHACHA20,
                 k_xsalsa20 = STREAM_XSALSA20, k_hmac512256 = MAC_HMAC_SHA512256,
                 k_siphash24 = MAC_SIPHASH24, k_siphashx24 = MAC_SIPHASHX24,
                 k_blake2b_mac = MAC_BLAKE2B;
static const int k_box_xsalsa20 = BOX_XSALSA20, k_box_xchacha20 = BOX_XCHACHA20,
                 k_salsa2012 = ONESHOT_SALSA2012, k_salsa208 = ONESHOT_SALSA208;

#define AEAD(n, a) {n, a, aead_init, aead_run, aead_finish}
#define STREAM(n, a) {n, a, stream_init, stream_run, stream_finish}
#define HASH(n, a) {n, a, hash_init, hash_run, hash_finish}
#define MAC(n, a) {n, a, mac_init, mac_run, mac_finish}
#define BOX(n, a) {n, a, box_init, box_run, box_finish}
#define ONESHOT(n, a) {n, a, oneshot_init, oneshot_run, oneshot_finish}

static const cb_op sodium_ops[] = {
    AEAD("aes-256-gcm", &k_aes256gcm),          /* only with AES-NI + PCLMUL */
    AEAD("chacha20-poly1305", &k_chachapoly),
    STREAM("chacha20", &k_chacha20),
    STREAM("salsa20", &k_salsa20),
    HASH("sha256", &k_sha256),
    HASH("sha512", &k_sha512),
    HASH("blake2b-512", &k_blake2b),
    HASH("blake2b-160", &k_blake2b160),
    HASH("blake2b-256", &k_blake2b256),
    HASH("blake2b-384", &k_blake2b384),
    MAC("hmac-sha256", &k_hmac256),
    MAC("hmac-sha512", &k_hmac512),
    MAC("poly1305", &k_poly1305),
    AEAD("chacha20-poly1305-nonce64", &k_chachapoly64),
    AEAD("xchacha20-poly1305", &k_xchachapoly),
    STREAM("chacha20-nonce64", &k_chacha20_64),
    STREAM("xchacha20", &k_xchacha20),
    STREAM("xsalsa20", &k_xsalsa20),
    MAC("hmac-sha512-trunc256", &k_hmac512256),
    MAC("siphash-2-4", &k_siphash24),
    MAC("siphash-2-4-128", &k_siphashx24),
    MAC("blake2b-mac", &k_blake2b_mac),
    BOX("xsalsa20-poly1305", &k_box_xsalsa20),
    BOX("xchacha20-poly1305-secretbox", &k_box_xchacha20),
    ONESHOT("salsa20r12-msg", &k_salsa2012),
    ONESHOT("salsa20r8-msg", &k_salsa208),
    {NULL, NULL, NULL, NULL, NULL},
};

static const char *sodium_version(void) { return sodium_version_string(); }

static int sodium_global_init(void) { return sodium_init() < 0 ? CB_ERR : CB_OK; }

/* libsodium picks its implementations (AES-GCM, ChaCha20, BLAKE2b, Poly1305)
 * from these runtime CPU checks; they are what it reports. */
static unsigned sodium_caps(void)
{
    unsigned caps = 0;
    if (sodium_runtime_has_aesni())
        caps |= CB_CAP_AES_HW;
    if (sodium_runtime_has_pclmul())
        caps |= CB_CAP_CLMUL_HW;
    if (sodium_runtime_has_ssse3() || sodium_runtime_has_avx2())
        caps |= CB_CAP_VECTOR;
    /* libsodium has no switch to turn its CPU dispatch off */
    return caps | CB_CAP_NO_HW_SWITCH;
}

static const char *sodium_provider(void)
{
    static char buf[64];
    buf[0] = '\0';
    if (crypto_aead_aes256gcm_is_available())
        strcat(buf, "aesni+pclmul");
    /* the widest of the SIMD paths it has for ChaCha20 and BLAKE2b */
    const char *simd = sodium_runtime_has_avx2() ? "avx2"
                     : sodium_runtime_has_sse41() ? "sse4.1"
                     : sodium_runtime_has_ssse3() ? "ssse3" : "ref";
    if (buf[0])
        strcat(buf, ",");
    strcat(buf, simd);
    return buf;
}

/* ---- what libsodium offers (list --offered) -------------------------------
 * libsodium has no enumeration call. Its symmetric primitives are a fixed,
 * documented set per release (doc.libsodium.org, 1.0.18: the crypto_aead_*,
 * crypto_stream_*, crypto_hash_*, crypto_generichash, crypto_shorthash_*,
 * crypto_auth_*, crypto_onetimeauth and crypto_secretbox families); this
 * table lists them by their C prefix, with the row measuring each. */
static const char *const sodium_offered[][3] = {
    {"aead", "crypto_aead_aes256gcm", "aes-256-gcm"},
    {"aead", "crypto_aead_chacha20poly1305_ietf", "chacha20-poly1305"},
    {"aead", "crypto_aead_chacha20poly1305", "chacha20-poly1305-nonce64"},   /* the original */
    {"aead", "crypto_aead_xchacha20poly1305_ietf", "xchacha20-poly1305"},
    /* secretbox: authenticated encryption without associated data */
    {"aead", "crypto_secretbox_xsalsa20poly1305", "xsalsa20-poly1305"},
    {"aead", "crypto_secretbox_xchacha20poly1305", "xchacha20-poly1305-secretbox"},
    {"cipher", "crypto_stream_chacha20_ietf", "chacha20"},
    {"cipher", "crypto_stream_chacha20", "chacha20-nonce64"},
    {"cipher", "crypto_stream_xchacha20", "xchacha20"},
    {"cipher", "crypto_stream_salsa20", "salsa20"},
    {"cipher", "crypto_stream_xsalsa20", "xsalsa20"},
    /* no _xor_ic for these two: each call is one message from block 0 */
    {"cipher", "crypto_stream_salsa2012", "salsa20r12-msg"},
    {"cipher", "crypto_stream_salsa208", "salsa20r8-msg"},
    {"hash", "crypto_hash_sha256", "sha256"},
    {"hash", "crypto_hash_sha512", "sha512"},
    {"hash", "crypto_generichash_blake2b", "blake2b-512"},
    {"mac", "crypto_auth_hmacsha256", "hmac-sha256"},
    {"mac", "crypto_auth_hmacsha512", "hmac-sha512"},
    {"mac", "crypto_auth_hmacsha512256", "hmac-sha512-trunc256"},
    {"mac", "crypto_onetimeauth_poly1305", "poly1305"},
    {"mac", "crypto_shorthash_siphash24", "siphash-2-4"},
    {"mac", "crypto_shorthash_siphashx24", "siphash-2-4-128"},
};

void cb_offered_libsodium(cb_offer_fn *offer, void *u);
void cb_offered_libsodium(cb_offer_fn *offer, void *u)
{
    for (size_t i = 0; i < sizeof sodium_offered / sizeof sodium_offered[0]; i++)
        offer(u, sodium_offered[i][0], sodium_offered[i][1], sodium_offered[i][2]);
}

const cb_backend cb_backend_libsodium = {
    .name = "libsodium",
    .version = sodium_version,
    .global_init = sodium_global_init,
    .caps = sodium_caps,
    .provider = sodium_provider,
    .ops = sodium_ops,
};
