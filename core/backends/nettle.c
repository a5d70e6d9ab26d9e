/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nettle.c - the Nettle backend.
 *
 * Block ciphers run through Nettle's generic struct nettle_cipher with its
 * cbc/ctr/cfb/xts helpers; GCM, CCM and ChaCha20-Poly1305 through their own
 * functions (the generic struct nettle_aead fixes the nonce size, and vectors
 * use other ones); hashes, HMAC and CMAC through struct nettle_hash and
 * struct nettle_mac. A few init/run/finish trios serve every row via `arg`.
 *
 * Left out because Nettle 3.8 lacks them or has only something else under
 * the name: IDEA, BLAKE2, Whirlpool and Tiger, and plain Poly1305 (Nettle exposes
 * only Poly1305-AES, the poly1305-aes row). SM4, OCB and AES-GCM-SIV came with
 * Nettle 3.9 and SHAKE128 with 3.10 (3.8 has only SHAKE256, through sha3_256_shake):
 * their rows are built with those releases.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT, secure_getenv */
#include "../algorithms.h"
#include "../backend.h"

#include <nettle/aes.h>
#include <nettle/arcfour.h>
#include <nettle/blowfish.h>
#include <nettle/camellia.h>
#include <nettle/cast128.h>
#include <nettle/cbc.h>
#include <nettle/ccm.h>
#include <nettle/cfb.h>
#include <nettle/chacha-poly1305.h>
#include <nettle/chacha.h>
#include <nettle/cmac.h>
#include <nettle/ctr.h>
#include <nettle/des.h>
#include <nettle/eax.h>
#include <nettle/gcm.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/nettle-meta.h>
#include <nettle/poly1305.h>
#include <nettle/salsa20.h>
#include <nettle/serpent.h>
#include <nettle/sha3.h>
#include <nettle/twofish.h>
#include <nettle/umac.h>
#include <nettle/version.h>
#include <nettle/xts.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include "hw_x86.h"

/* Contexts are allocated with room for any library struct, suitably aligned. */
static void *nt_alloc(size_t n)
{
    return calloc(1, n ? n : 1);
}

/* ---- block ciphers Nettle has no struct nettle_cipher for ------------------ */

static void nt_des_key(void *c, const uint8_t *k) { des_set_key(c, k); }      /* weak keys still set */
static void nt_des3_key(void *c, const uint8_t *k) { des3_set_key(c, k); }
static void nt_bf_key(void *c, const uint8_t *k) { blowfish128_set_key(c, k); }
static void nt_des_enc(const void *c, size_t n, uint8_t *d, const uint8_t *s) { des_encrypt(c, n, d, s); }
static void nt_des_dec(const void *c, size_t n, uint8_t *d, const uint8_t *s) { des_decrypt(c, n, d, s); }
static void nt_des3_enc(const void *c, size_t n, uint8_t *d, const uint8_t *s) { des3_encrypt(c, n, d, s); }
static void nt_des3_dec(const void *c, size_t n, uint8_t *d, const uint8_t *s) { des3_decrypt(c, n, d, s); }
static void nt_bf_enc(const void *c, size_t n, uint8_t *d, const uint8_t *s) { blowfish_encrypt(c, n, d, s); }
static void nt_bf_dec(const void *c, size_t n, uint8_t *d, const uint8_t *s) { blowfish_decrypt(c, n, d, s); }

static const struct nettle_cipher nt_des = {
    "des", sizeof(struct des_ctx), DES_BLOCK_SIZE, DES_KEY_SIZE,
    nt_des_key, nt_des_key, nt_des_enc, nt_des_dec};
static const struct nettle_cipher nt_des3 = {
    "des3", sizeof(struct des3_ctx), DES3_BLOCK_SIZE, DES3_KEY_SIZE,
    nt_des3_key, nt_des3_key, nt_des3_enc, nt_des3_dec};
/* Blowfish and CAST5 take keys of several lengths (RFC 2144 has 40-, 80-
 * and 128-bit CAST5 examples); one key schedule serves both directions. */
static int nt_bf_varkey(void *c, size_t len, const uint8_t *k)
{
    if (len < BLOWFISH_MIN_KEY_SIZE || len > BLOWFISH_MAX_KEY_SIZE)
        return CB_ERR_PARAM;
    blowfish_set_key(c, len, k);   /* a weak-key report still leaves the key set */
    return CB_OK;
}
static int nt_cast5_varkey(void *c, size_t len, const uint8_t *k)
{
    if (len < CAST5_MIN_KEY_SIZE || len > CAST5_MAX_KEY_SIZE)
        return CB_ERR_PARAM;
    cast5_set_key(c, len, k);
    return CB_OK;
}

static const struct nettle_cipher nt_blowfish = {
    "blowfish128", sizeof(struct blowfish_ctx), BLOWFISH_BLOCK_SIZE, BLOWFISH128_KEY_SIZE,
    nt_bf_key, nt_bf_key, nt_bf_enc, nt_bf_dec};

/* ---- ciphers: block modes and stream ciphers ------------------------------- */

enum nt_mode { NT_ECB, NT_CBC, NT_CTR, NT_CFB, NT_CFB8, NT_XTS, NT_STREAM };

typedef struct nt_cipher_ctx nt_cipher_ctx;

typedef struct nt_stream {
    size_t ctx_size;
    size_t block;   /* keystream block; calls may stop mid-block */
    int (*setup)(void *lib, const cb_setup *s);
    void (*crypt)(void *lib, size_t n, uint8_t *dst, const uint8_t *src);
} nt_stream;

typedef void nt_cbc_enc_fn(const void *lib, uint8_t *iv, size_t n, uint8_t *dst, const uint8_t *src);

typedef struct nt_cipher_row {
    enum nt_mode mode;
    const struct nettle_cipher *meta;   /* block modes and XTS */
    const nt_stream *stream;            /* NT_STREAM */
    /* Ciphers with a variable key length (the meta has one fixed size):
     * sets the key for both directions; returns cb_status. */
    int (*varkey)(void *lib, size_t len, const uint8_t *key);
    /* A cipher-specific CBC encryption the library documents as the fast
     * path (NULL: the generic cbc_encrypt over meta->encrypt). */
    nt_cbc_enc_fn *cbc_enc;
} nt_cipher_row;

/* Nettle 3.8 added cbc_aes128_encrypt and friends: on x86-64 they keep the
 * chain in AES-NI registers, where the generic cbc_encrypt calls the block
 * function once per 16 bytes (nettle-benchmark times these). */
#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 8)
static void nt_cbc_aes128(const void *c, uint8_t *iv, size_t n, uint8_t *d, const uint8_t *s) { cbc_aes128_encrypt(c, iv, n, d, s); }
static void nt_cbc_aes192(const void *c, uint8_t *iv, size_t n, uint8_t *d, const uint8_t *s) { cbc_aes192_encrypt(c, iv, n, d, s); }
static void nt_cbc_aes256(const void *c, uint8_t *iv, size_t n, uint8_t *d, const uint8_t *s) { cbc_aes256_encrypt(c, iv, n, d, s); }
#define NT_CBC_AES(bits) nt_cbc_aes##bits
#else
#define NT_CBC_AES(bits) NULL
#endif

struct nt_cipher_ctx {
    const nt_cipher_row *row;
    int decrypt;
    size_t pos;        /* bytes of ks already used (CTR, CFB, streams) */
    uint8_t iv[16];    /* CBC chain, CTR counter, CFB feedback register */
    uint8_t ks[64];    /* keystream of the block a previous call stopped in */
    void *lib;         /* the library's context (two of them for XTS) */
};

static const uint8_t nt_zeros[64];

static int chacha_setup(void *lib, const cb_setup *s)
{
    if (s->key_len != CHACHA_KEY_SIZE || s->iv_len != CHACHA_NONCE96_SIZE)
        return CB_ERR_PARAM;
    chacha_set_key(lib, s->key);
    chacha_set_nonce96(lib, s->iv);   /* block counter starts at 0 */
    return CB_OK;
}
static void chacha_run(void *lib, size_t n, uint8_t *d, const uint8_t *s) { chacha_crypt32(lib, n, d, s); }

/* The original ChaCha20: an 8-byte nonce and a 64-bit block counter (chacha_crypt). */
static int chacha64_setup(void *lib, const cb_setup *s)
{
    if (s->key_len != CHACHA_KEY_SIZE || s->iv_len != CHACHA_NONCE_SIZE)
        return CB_ERR_PARAM;
    chacha_set_key(lib, s->key);
    chacha_set_nonce(lib, s->iv);     /* block counter starts at 0 */
    return CB_OK;
}
static void chacha64_run(void *lib, size_t n, uint8_t *d, const uint8_t *s) { chacha_crypt(lib, n, d, s); }

static int salsa_setup(void *lib, const cb_setup *s)
{
    if (s->iv_len != SALSA20_NONCE_SIZE)
        return CB_ERR_PARAM;
    if (s->key_len == SALSA20_256_KEY_SIZE)
        salsa20_256_set_key(lib, s->key);
    else if (s->key_len == SALSA20_128_KEY_SIZE)
        salsa20_128_set_key(lib, s->key);
    else
        return CB_ERR_PARAM;
    salsa20_set_nonce(lib, s->iv);
    return CB_OK;
}
static void salsa_run(void *lib, size_t n, uint8_t *d, const uint8_t *s) { salsa20_crypt(lib, n, d, s); }
static void salsa12_run(void *lib, size_t n, uint8_t *d, const uint8_t *s) { salsa20r12_crypt(lib, n, d, s); }

static int arcfour_setup(void *lib, const cb_setup *s)
{
    if (s->key_len < ARCFOUR_MIN_KEY_SIZE || s->key_len > ARCFOUR_MAX_KEY_SIZE)
        return CB_ERR_PARAM;
    arcfour_set_key(lib, s->key_len, s->key);
    return CB_OK;
}
static void arcfour_run(void *lib, size_t n, uint8_t *d, const uint8_t *s) { arcfour_crypt(lib, n, d, s); }

static const nt_stream nt_chacha = {sizeof(struct chacha_ctx), CHACHA_BLOCK_SIZE, chacha_setup, chacha_run};
static const nt_stream nt_chacha64 = {sizeof(struct chacha_ctx), CHACHA_BLOCK_SIZE, chacha64_setup, chacha64_run};
static const nt_stream nt_salsa20 = {sizeof(struct salsa20_ctx), SALSA20_BLOCK_SIZE, salsa_setup, salsa_run};
static const nt_stream nt_salsa20r12 = {sizeof(struct salsa20_ctx), SALSA20_BLOCK_SIZE, salsa_setup, salsa12_run};
static const nt_stream nt_arcfour = {sizeof(struct arcfour_ctx), 1, arcfour_setup, arcfour_run};

static void nt_cipher_finish(void *p)
{
    nt_cipher_ctx *c = p;
    if (!c)
        return;
    free(c->lib);
    free(c);
}

static int nt_cipher_init(void **out, const void *arg, const cb_setup *s)
{
    const nt_cipher_row *row = arg;
    const struct nettle_cipher *m = row->meta;
    nt_cipher_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->row = row;
    c->decrypt = s->decrypt;

    if (row->mode == NT_STREAM) {
        if (!(c->lib = nt_alloc(row->stream->ctx_size)))
            goto oom;
        int st = row->stream->setup(c->lib, s);
        if (st != CB_OK) {
            nt_cipher_finish(c);
            return st;
        }
        *out = c;
        return CB_OK;
    }

    if (row->mode == NT_XTS) {
        /* Two keys of the cipher's size: data key, then tweak key. */
        if (s->key_len != 2 * m->key_size || m->block_size != XTS_BLOCK_SIZE)
            goto param;
        if (!(c->lib = nt_alloc(2 * (size_t)m->context_size)))
            goto oom;
        uint8_t *twk = (uint8_t *)c->lib + m->context_size;
        if (s->decrypt)
            m->set_decrypt_key(c->lib, s->key);
        else
            m->set_encrypt_key(c->lib, s->key);
        m->set_encrypt_key(twk, s->key + m->key_size);
        *out = c;
        return CB_OK;
    }

    if (s->key_len != m->key_size && !row->varkey)
        goto param;
    if (row->mode != NT_ECB && (s->iv_len != m->block_size || s->iv_len > sizeof c->iv))
        goto param;
    if (!(c->lib = nt_alloc(m->context_size)))
        goto oom;
    if (row->varkey) {
        int st = row->varkey(c->lib, s->key_len, s->key);
        if (st != CB_OK) {
            nt_cipher_finish(c);
            return st;
        }
    } else if (s->decrypt && (row->mode == NT_ECB || row->mode == NT_CBC))
        /* Only ECB and CBC decryption run the block cipher backwards. */
        m->set_decrypt_key(c->lib, s->key);
    else
        m->set_encrypt_key(c->lib, s->key);
    if (s->iv_len)
        memcpy(c->iv, s->iv, s->iv_len);
    *out = c;
    return CB_OK;
param:
    nt_cipher_finish(c);
    return CB_ERR_PARAM;
oom:
    nt_cipher_finish(c);
    return CB_ERR;
}

/* Whole keystream blocks for CTR and the stream ciphers. */
static void nt_bulk(nt_cipher_ctx *c, size_t n, uint8_t *dst, const uint8_t *src)
{
    const nt_cipher_row *row = c->row;
    if (row->mode == NT_CTR)
        ctr_crypt(c->lib, row->meta->encrypt, row->meta->block_size, c->iv, n, dst, src);
    else
        row->stream->crypt(c->lib, n, dst, src);
}

/* XOR with a keystream that continues across calls, even when a call ends
 * inside a block (Nettle's own functions drop the rest of that block). */
static void nt_stream_xor(nt_cipher_ctx *c, size_t blk, uint8_t *out, const uint8_t *in, size_t len)
{
    while (c->pos && len) {
        *out++ = *in++ ^ c->ks[c->pos];
        c->pos = (c->pos + 1) % blk;
        len--;
    }
    size_t full = len - len % blk;
    if (full)
        nt_bulk(c, full, out, in);
    if (len > full) {
        nt_bulk(c, blk, c->ks, nt_zeros);
        for (size_t i = 0; i < len - full; i++)
            out[full + i] = in[full + i] ^ c->ks[i];
        c->pos = len - full;
    }
}

/* CFB with the same continuation: the feedback register fills with
 * ciphertext byte by byte while ks holds the encrypted previous register. */
static void nt_cfb(nt_cipher_ctx *c, uint8_t *out, const uint8_t *in, size_t len)
{
    const struct nettle_cipher *m = c->row->meta;
    size_t bs = m->block_size;
    while (len && (c->pos || len < bs)) {
        if (c->pos == 0)
            m->encrypt(c->lib, bs, c->ks, c->iv);
        uint8_t x = *in++;
        uint8_t y = x ^ c->ks[c->pos];
        c->iv[c->pos] = c->decrypt ? x : y;
        *out++ = y;
        c->pos = (c->pos + 1) % bs;
        len--;
    }
    size_t full = len - len % bs;
    if (full) {
        if (c->decrypt)
            cfb_decrypt(c->lib, m->encrypt, bs, c->iv, full, out, in);
        else
            cfb_encrypt(c->lib, m->encrypt, bs, c->iv, full, out, in);
        if (len > full)
            nt_cfb(c, out + full, in + full, len - full);
    }
}

static int nt_cipher_run(void *p, cb_msg *m)
{
    nt_cipher_ctx *c = p;
    const struct nettle_cipher *b = c->row->meta;

    switch (c->row->mode) {
    case NT_ECB:
        if (m->len % b->block_size)
            return CB_ERR_PARAM;
        (c->decrypt ? b->decrypt : b->encrypt)(c->lib, m->len, m->out, m->in);
        return CB_OK;
    case NT_CBC:
        if (m->len % b->block_size)
            return CB_ERR_PARAM;
        if (c->decrypt)
            cbc_decrypt(c->lib, b->decrypt, b->block_size, c->iv, m->len, m->out, m->in);
        else if (c->row->cbc_enc)
            c->row->cbc_enc(c->lib, c->iv, m->len, m->out, m->in);
        else
            cbc_encrypt(c->lib, b->encrypt, b->block_size, c->iv, m->len, m->out, m->in);
        return CB_OK;
    case NT_CTR:
        nt_stream_xor(c, b->block_size, m->out, m->in, m->len);
        return CB_OK;
    case NT_STREAM:
        nt_stream_xor(c, c->row->stream->block, m->out, m->in, m->len);
        return CB_OK;
    case NT_CFB:
        nt_cfb(c, m->out, m->in, m->len);
        return CB_OK;
    case NT_CFB8: /* one byte per block call: any length continues the register */
        if (c->decrypt)
            cfb8_decrypt(c->lib, b->encrypt, b->block_size, c->iv, m->len, m->out, m->in);
        else
            cfb8_encrypt(c->lib, b->encrypt, b->block_size, c->iv, m->len, m->out, m->in);
        return CB_OK;
    case NT_XTS: {
        /* One data unit; Nettle asserts on units shorter than a block. */
        if (m->len < XTS_BLOCK_SIZE || m->nonce_len != XTS_BLOCK_SIZE)
            return CB_ERR_PARAM;
        const void *twk = (const uint8_t *)c->lib + b->context_size;
        if (c->decrypt)
            xts_decrypt_message(c->lib, twk, b->decrypt, b->encrypt, m->nonce, m->len, m->out, m->in);
        else
            xts_encrypt_message(c->lib, twk, b->encrypt, m->nonce, m->len, m->out, m->in);
        return CB_OK;
    }
    }
    return CB_ERR;
}

/* ---- AEAD ---------------------------------------------------------------- */

typedef struct nt_aead {
    size_t ctx_size, key_len;
    void (*set_key)(void *c, const uint8_t *k);
    /* Start a message: nonce, and for CCM the lengths; returns cb_status. */
    int (*start)(void *c, const cb_msg *m);
    void (*update)(void *c, size_t n, const uint8_t *d);
    void (*encrypt)(void *c, size_t n, uint8_t *dst, const uint8_t *src);
    void (*decrypt)(void *c, size_t n, uint8_t *dst, const uint8_t *src);
    void (*digest)(void *c, size_t n, uint8_t *d);
} nt_aead;

/* Adapters from one family's typed functions to the void* ones above. */
#define NT_AEAD_FNS(p, T)                                                                       \
    static void p##_k(void *c, const uint8_t *k) { p##_set_key((T *)c, k); }                 \
    static void p##_u(void *c, size_t n, const uint8_t *d) { p##_update((T *)c, n, d); }      \
    static void p##_e(void *c, size_t n, uint8_t *d, const uint8_t *s) { p##_encrypt((T *)c, n, d, s); } \
    static void p##_d(void *c, size_t n, uint8_t *d, const uint8_t *s) { p##_decrypt((T *)c, n, d, s); } \
    static void p##_t(void *c, size_t n, uint8_t *d) { p##_digest((T *)c, n, d); }

NT_AEAD_FNS(gcm_aes128, struct gcm_aes128_ctx)
NT_AEAD_FNS(gcm_aes256, struct gcm_aes256_ctx)
NT_AEAD_FNS(gcm_aes192, struct gcm_aes192_ctx)
NT_AEAD_FNS(gcm_camellia128, struct gcm_camellia128_ctx)
NT_AEAD_FNS(gcm_camellia256, struct gcm_camellia256_ctx)
NT_AEAD_FNS(eax_aes128, struct eax_aes128_ctx)
NT_AEAD_FNS(ccm_aes128, struct ccm_aes128_ctx)
NT_AEAD_FNS(ccm_aes256, struct ccm_aes256_ctx)
NT_AEAD_FNS(ccm_aes192, struct ccm_aes192_ctx)
NT_AEAD_FNS(chacha_poly1305, struct chacha_poly1305_ctx)

/* SM4 (GB/T 32907-2016) came with Nettle 3.9: the block cipher (struct nettle_cipher
 * nettle_sm4, in the generic modes, as Camellia) and GCM over it, through its own gcm_sm4_*. */
#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 9)
#include <nettle/sm4.h>
#define NT_HAVE_SM4 1
NT_AEAD_FNS(gcm_sm4, struct gcm_sm4_ctx)
static int gcmsm4_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
        return CB_ERR_PARAM;
    gcm_sm4_set_iv(c, m->nonce_len, m->nonce);
    return CB_OK;
}
#endif

/* GCM takes an IV of any length (12 bytes fast path, others hashed). */
static int gcm128_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
        return CB_ERR_PARAM;
    gcm_aes128_set_iv(c, m->nonce_len, m->nonce);
    return CB_OK;
}
static int gcm192_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
        return CB_ERR_PARAM;
    gcm_aes192_set_iv(c, m->nonce_len, m->nonce);
    return CB_OK;
}
static int gcm256_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
        return CB_ERR_PARAM;
    gcm_aes256_set_iv(c, m->nonce_len, m->nonce);
    return CB_OK;
}

static int gcmcam128_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
        return CB_ERR_PARAM;
    gcm_camellia128_set_iv(c, m->nonce_len, m->nonce);
    return CB_OK;
}
static int gcmcam256_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
        return CB_ERR_PARAM;
    gcm_camellia256_set_iv(c, m->nonce_len, m->nonce);
    return CB_OK;
}

/* CCM fixes nonce, AAD, message and tag lengths up front; Nettle asserts on
 * values outside SP 800-38C, so they are checked here first. */
static int ccm_ok(const cb_msg *m)
{
    return m->nonce_len >= CCM_MIN_NONCE_SIZE && m->nonce_len <= CCM_MAX_NONCE_SIZE &&
           m->tag_len >= 4 && m->tag_len <= 16 && m->tag_len % 2 == 0;
}
static int ccm128_start(void *c, const cb_msg *m)
{
    if (!ccm_ok(m))
        return CB_ERR_PARAM;
    ccm_aes128_set_nonce(c, m->nonce_len, m->nonce, m->aad_len, m->len, m->tag_len);
    return CB_OK;
}
static int ccm192_start(void *c, const cb_msg *m)
{
    if (!ccm_ok(m))
        return CB_ERR_PARAM;
    ccm_aes192_set_nonce(c, m->nonce_len, m->nonce, m->aad_len, m->len, m->tag_len);
    return CB_OK;
}
static int ccm256_start(void *c, const cb_msg *m)
{
    if (!ccm_ok(m))
        return CB_ERR_PARAM;
    ccm_aes256_set_nonce(c, m->nonce_len, m->nonce, m->aad_len, m->len, m->tag_len);
    return CB_OK;
}

/* EAX takes a nonce of any length and gives a tag of up to 16 bytes. */
static int eax128_start(void *c, const cb_msg *m)
{
    if (!m->nonce_len || m->tag_len > EAX_DIGEST_SIZE)
        return CB_ERR_PARAM;
    eax_aes128_set_nonce(c, m->nonce_len, m->nonce);
    return CB_OK;
}

static int cp_start(void *c, const cb_msg *m)
{
    if (m->nonce_len != CHACHA_POLY1305_NONCE_SIZE || m->tag_len > CHACHA_POLY1305_DIGEST_SIZE)
        return CB_ERR_PARAM;
    chacha_poly1305_set_nonce(c, m->nonce);
    return CB_OK;
}

#define NT_AEAD(p, T, klen, st) \
    (&(const nt_aead){sizeof(T), klen, p##_k, st, p##_u, p##_e, p##_d, p##_t})

typedef struct nt_aead_ctx {
    const nt_aead *a;
    int decrypt;
    void *lib;
} nt_aead_ctx;

static void nt_aead_finish(void *p)
{
    nt_aead_ctx *c = p;
    if (!c)
        return;
    free(c->lib);
    free(c);
}

static int nt_aead_init(void **out, const void *arg, const cb_setup *s)
{
    const nt_aead *a = arg;
    if (s->key_len != a->key_len)
        return CB_ERR_PARAM;
    nt_aead_ctx *c = calloc(1, sizeof *c);
    if (!c || !(c->lib = nt_alloc(a->ctx_size))) {
        nt_aead_finish(c);
        return CB_ERR;
    }
    c->a = a;
    c->decrypt = s->decrypt;
    a->set_key(c->lib, s->key);   /* once: messages only set a new nonce */
    *out = c;
    return CB_OK;
}

static int nt_aead_run(void *p, cb_msg *m)
{
    nt_aead_ctx *c = p;
    const nt_aead *a = c->a;
    int st = a->start(c->lib, m);
    if (st != CB_OK)
        return st;
    if (m->aad_len)
        a->update(c->lib, m->aad_len, m->aad);
    if (!c->decrypt) {
        a->encrypt(c->lib, m->len, m->out, m->in);
        a->digest(c->lib, m->tag_len, m->tag);
        return CB_OK;
    }
    uint8_t tag[16];
    a->decrypt(c->lib, m->len, m->out, m->in);
    a->digest(c->lib, m->tag_len, tag);
    return memeql_sec(tag, m->tag, m->tag_len) ? CB_OK : CB_ERR_AUTH;
}

/* ---- hashes --------------------------------------------------------------- */

typedef struct nt_hash_ctx {
    const struct nettle_hash *h;
    void *lib;
} nt_hash_ctx;

static void nt_hash_finish(void *p)
{
    nt_hash_ctx *c = p;
    if (!c)
        return;
    free(c->lib);
    free(c);
}

static int nt_hash_init(void **out, const void *arg, const cb_setup *s)
{
    (void)s;
    nt_hash_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->h = arg;
    if (!(c->lib = nt_alloc(c->h->context_size))) {
        nt_hash_finish(c);
        return CB_ERR;
    }
    *out = c;
    return CB_OK;
}

static int nt_hash_run(void *p, cb_msg *m)
{
    nt_hash_ctx *c = p;
    if (m->tag_len > c->h->digest_size)
        return CB_ERR_PARAM;
    c->h->init(c->lib);
    c->h->update(c->lib, m->len, m->in);
    c->h->digest(c->lib, m->tag_len, m->tag);
    return CB_OK;
}

/* SHAKE256 as a struct nettle_hash: the SHA3-256 sponge with the shake
 * digest, which gives any output length (the row's digest_size is a cap). */
static void nt_shake256_digest(void *c, size_t n, uint8_t *d) { sha3_256_shake(c, n, d); }
static const struct nettle_hash nt_shake256 = {
    "shake256", sizeof(struct sha3_256_ctx), 1024, SHA3_256_BLOCK_SIZE,
    (nettle_hash_init_func *)sha3_256_init, (nettle_hash_update_func *)sha3_256_update,
    nt_shake256_digest};

/* SHAKE128 came with Nettle 3.10 (sha3_128_*), the same way. */
#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 10)
#define NT_HAVE_SHAKE128 1
static void nt_shake128_digest(void *c, size_t n, uint8_t *d) { sha3_128_shake(c, n, d); }
static const struct nettle_hash nt_shake128 = {
    "shake128", sizeof(struct sha3_128_ctx), 1024, SHA3_128_BLOCK_SIZE,
    (nettle_hash_init_func *)sha3_128_init, (nettle_hash_update_func *)sha3_128_update,
    nt_shake128_digest};
#endif

/* ---- MACs ----------------------------------------------------------------- */

enum nt_mac_kind { NT_HMAC, NT_CMAC, NT_GMAC, NT_UMAC64, NT_UMAC128, NT_POLY1305_AES, NT_UMAC96 };

typedef struct nt_mac_row {
    enum nt_mac_kind kind;
    const struct nettle_hash *hash;   /* HMAC */
    const struct nettle_mac *mac;     /* CMAC */
} nt_mac_row;

typedef struct nt_mac_ctx {
    const nt_mac_row *row;
    size_t lib_size;
    void *lib;   /* HMAC: outer, inner, state hash contexts back to back */
} nt_mac_ctx;

static void nt_mac_finish(void *p)
{
    nt_mac_ctx *c = p;
    if (!c)
        return;
    free(c->lib);
    free(c);
}

static int nt_mac_init(void **out, const void *arg, const cb_setup *s)
{
    const nt_mac_row *row = arg;
    size_t size = 0, key_len = 0;
    switch (row->kind) {
    case NT_HMAC: size = 3 * (size_t)row->hash->context_size; break;
    case NT_CMAC: size = row->mac->context_size; key_len = row->mac->key_size; break;
    case NT_GMAC: size = sizeof(struct gcm_aes128_ctx); key_len = AES128_KEY_SIZE; break;
    case NT_UMAC64: size = sizeof(struct umac64_ctx); key_len = UMAC_KEY_SIZE; break;
    case NT_UMAC128: size = sizeof(struct umac128_ctx); key_len = UMAC_KEY_SIZE; break;
    case NT_UMAC96: size = sizeof(struct umac96_ctx); key_len = UMAC_KEY_SIZE; break;
    case NT_POLY1305_AES: size = sizeof(struct poly1305_aes_ctx); key_len = POLY1305_AES_KEY_SIZE; break;
    }
    if (key_len && s->key_len != key_len)
        return CB_ERR_PARAM;
    nt_mac_ctx *c = calloc(1, sizeof *c);
    if (!c || !(c->lib = nt_alloc(size))) {
        nt_mac_finish(c);
        return CB_ERR;
    }
    c->row = row;
    c->lib_size = size;
    uint8_t *l = c->lib;
    switch (row->kind) {
    case NT_HMAC: {
        size_t cs = row->hash->context_size;
        hmac_set_key(l, l + cs, l + 2 * cs, row->hash, s->key_len, s->key);
        break;
    }
    case NT_CMAC: row->mac->set_key(l, s->key); break;
    case NT_GMAC: gcm_aes128_set_key((void *)l, s->key); break;
    case NT_UMAC64: umac64_set_key((void *)l, s->key); break;
    case NT_UMAC128: umac128_set_key((void *)l, s->key); break;
    case NT_UMAC96: umac96_set_key((void *)l, s->key); break;
    case NT_POLY1305_AES: poly1305_aes_set_key((void *)l, s->key); break;
    }
    *out = c;
    return CB_OK;
}

static int nt_mac_run(void *p, cb_msg *m)
{
    nt_mac_ctx *c = p;
    const nt_mac_row *row = c->row;
    uint8_t *l = c->lib;
    switch (row->kind) {
    case NT_HMAC: {
        /* hmac_digest leaves the state keyed for the next message. */
        size_t cs = row->hash->context_size;
        if (m->tag_len > row->hash->digest_size)
            return CB_ERR_PARAM;
        hmac_update(l + 2 * cs, row->hash, m->len, m->in);
        hmac_digest(l, l + cs, l + 2 * cs, row->hash, m->tag_len, m->tag);
        return CB_OK;
    }
    case NT_CMAC: /* the digest resets the context, keeping the key */
        if (m->tag_len > row->mac->digest_size)
            return CB_ERR_PARAM;
        row->mac->update(l, m->len, m->in);
        row->mac->digest(l, m->tag_len, m->tag);
        return CB_OK;
    case NT_GMAC: /* GMAC is GCM over an empty plaintext, the message as AAD */
        if (!m->nonce_len || m->tag_len > GCM_DIGEST_SIZE)
            return CB_ERR_PARAM;
        gcm_aes128_set_iv((void *)l, m->nonce_len, m->nonce);
        gcm_aes128_update((void *)l, m->len, m->in);
        gcm_aes128_digest((void *)l, m->tag_len, m->tag);
        return CB_OK;
    case NT_UMAC64:
        if (!m->nonce_len || m->nonce_len > UMAC_MAX_NONCE_SIZE || !m->tag_len ||
            m->tag_len > UMAC64_DIGEST_SIZE)
            return CB_ERR_PARAM;
        umac64_set_nonce((void *)l, m->nonce_len, m->nonce);
        umac64_update((void *)l, m->len, m->in);
        umac64_digest((void *)l, m->tag_len, m->tag);
        return CB_OK;
    case NT_UMAC128:
        if (!m->nonce_len || m->nonce_len > UMAC_MAX_NONCE_SIZE || !m->tag_len ||
            m->tag_len > UMAC128_DIGEST_SIZE)
            return CB_ERR_PARAM;
        umac128_set_nonce((void *)l, m->nonce_len, m->nonce);
        umac128_update((void *)l, m->len, m->in);
        umac128_digest((void *)l, m->tag_len, m->tag);
        return CB_OK;
    case NT_UMAC96:
        if (!m->nonce_len || m->nonce_len > UMAC_MAX_NONCE_SIZE || !m->tag_len ||
            m->tag_len > UMAC96_DIGEST_SIZE)
            return CB_ERR_PARAM;
        umac96_set_nonce((void *)l, m->nonce_len, m->nonce);
        umac96_update((void *)l, m->len, m->in);
        umac96_digest((void *)l, m->tag_len, m->tag);
        return CB_OK;
    case NT_POLY1305_AES: /* the key (AES key, r) stays; a nonce per message */
        if (m->nonce_len != POLY1305_AES_NONCE_SIZE || m->tag_len > POLY1305_AES_DIGEST_SIZE)
            return CB_ERR_PARAM;
        poly1305_aes_set_nonce((void *)l, m->nonce);
        poly1305_aes_update((void *)l, m->len, m->in);
        poly1305_aes_digest((void *)l, m->tag_len, m->tag);
        return CB_OK;
    }
    return CB_ERR;
}

/* ---- SIV-CMAC (RFC 5297), Nettle 3.7 and later ----------------------------- */

#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 7)
#include <nettle/siv-cmac.h>
#define NT_HAVE_SIV 1

/* Nettle's SIV is message-based: one call takes the nonce, the associated data (one S2V
 * component each) and the whole message, and writes (or reads) the synthetic IV before
 * the ciphertext. The harness keeps the tag apart, so the message passes through a
 * buffer of V || C (a copy of the message beside two passes of AES over it). */
typedef struct nt_siv_ctx {
    int aes256, decrypt;
    union { struct siv_cmac_aes128_ctx a128; struct siv_cmac_aes256_ctx a256; } k;
    cb_scratch buf;
} nt_siv_ctx;

static void nt_siv_finish(void *p)
{
    nt_siv_ctx *c = p;
    if (!c)
        return;
    free(c->buf.p);
    free(c);
}

static int nt_siv_init(void **out, const void *arg, const cb_setup *s)
{
    int aes256 = *(const int *)arg;
    if (s->key_len != (aes256 ? SIV_CMAC_AES256_KEY_SIZE : SIV_CMAC_AES128_KEY_SIZE))
        return CB_ERR_PARAM;
    nt_siv_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->aes256 = aes256;
    c->decrypt = s->decrypt;
    if (aes256)
        siv_cmac_aes256_set_key(&c->k.a256, s->key);
    else
        siv_cmac_aes128_set_key(&c->k.a128, s->key);
    *out = c;
    return CB_OK;
}

static int nt_siv_run(void *p, cb_msg *m)
{
    nt_siv_ctx *c = p;
    if (m->tag_len != SIV_DIGEST_SIZE || m->nonce_len < SIV_MIN_NONCE_SIZE)
        return CB_ERR_PARAM;
    size_t need = m->len + SIV_DIGEST_SIZE;
    if (!cb_scratch_reserve(&c->buf, need))
        return CB_ERR;
    if (!c->decrypt) {
        if (c->aes256)
            siv_cmac_aes256_encrypt_message(&c->k.a256, m->nonce_len, m->nonce, m->aad_len,
                                            m->aad, need, c->buf.p, m->in);
        else
            siv_cmac_aes128_encrypt_message(&c->k.a128, m->nonce_len, m->nonce, m->aad_len,
                                            m->aad, need, c->buf.p, m->in);
        memcpy(m->tag, c->buf.p, SIV_DIGEST_SIZE);
        memcpy(m->out, c->buf.p + SIV_DIGEST_SIZE, m->len);
        return CB_OK;
    }
    memcpy(c->buf.p, m->tag, SIV_DIGEST_SIZE);
    memcpy(c->buf.p + SIV_DIGEST_SIZE, m->in, m->len);
    int ok = c->aes256
        ? siv_cmac_aes256_decrypt_message(&c->k.a256, m->nonce_len, m->nonce, m->aad_len,
                                          m->aad, m->len, m->out, c->buf.p)
        : siv_cmac_aes128_decrypt_message(&c->k.a128, m->nonce_len, m->nonce, m->aad_len,
                                          m->aad, m->len, m->out, c->buf.p);
    return ok ? CB_OK : CB_ERR_AUTH;
}
#endif

/* ---- AES-GCM-SIV (RFC 8452) and OCB (RFC 7253), Nettle 3.9 and later ------------ */

#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 9)
#include <nettle/ocb.h>
#include <nettle/siv-gcm.h>
#define NT_HAVE_GCM_SIV_OCB 1

/* Nettle's GCM-SIV is message-based, as its SIV-CMAC above, with the tag after the
 * ciphertext: the message passes through a buffer of C || T. */
typedef struct nt_gcmsiv_ctx {
    int aes256, decrypt;
    union { struct aes128_ctx a128; struct aes256_ctx a256; } k;   /* encryption keys both ways */
    cb_scratch buf;
} nt_gcmsiv_ctx;

static void nt_gcmsiv_finish(void *p)
{
    nt_gcmsiv_ctx *c = p;
    if (!c)
        return;
    free(c->buf.p);
    free(c);
}

static int nt_gcmsiv_init(void **out, const void *arg, const cb_setup *s)
{
    int aes256 = *(const int *)arg;
    if (s->key_len != (aes256 ? AES256_KEY_SIZE : AES128_KEY_SIZE))
        return CB_ERR_PARAM;
    nt_gcmsiv_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->aes256 = aes256;
    c->decrypt = s->decrypt;
    if (aes256)
        aes256_set_encrypt_key(&c->k.a256, s->key);
    else
        aes128_set_encrypt_key(&c->k.a128, s->key);
    *out = c;
    return CB_OK;
}

static int nt_gcmsiv_run(void *p, cb_msg *m)
{
    nt_gcmsiv_ctx *c = p;
    /* Nettle asserts on another nonce size; the tag is always 16 bytes */
    if (m->tag_len != SIV_GCM_DIGEST_SIZE || m->nonce_len != SIV_GCM_NONCE_SIZE)
        return CB_ERR_PARAM;
    size_t need = m->len + SIV_GCM_DIGEST_SIZE;
    if (!cb_scratch_reserve(&c->buf, need))
        return CB_ERR;
    if (!c->decrypt) {
        if (c->aes256)
            siv_gcm_aes256_encrypt_message(&c->k.a256, m->nonce_len, m->nonce, m->aad_len,
                                           m->aad, need, c->buf.p, m->in);
        else
            siv_gcm_aes128_encrypt_message(&c->k.a128, m->nonce_len, m->nonce, m->aad_len,
                                           m->aad, need, c->buf.p, m->in);
        memcpy(m->out, c->buf.p, m->len);
        memcpy(m->tag, c->buf.p + m->len, SIV_GCM_DIGEST_SIZE);
        return CB_OK;
    }
    memcpy(c->buf.p, m->in, m->len);
    memcpy(c->buf.p + m->len, m->tag, SIV_GCM_DIGEST_SIZE);
    int ok = c->aes256
        ? siv_gcm_aes256_decrypt_message(&c->k.a256, m->nonce_len, m->nonce, m->aad_len,
                                         m->aad, m->len, m->out, c->buf.p)
        : siv_gcm_aes128_decrypt_message(&c->k.a128, m->nonce_len, m->nonce, m->aad_len,
                                         m->aad, m->len, m->out, c->buf.p);
    return ok ? CB_OK : CB_ERR_AUTH;
}

/* OCB: ocb_aes128_* for AES-128; AES-192 and AES-256 have no such functions, so the
 * generic ocb_* run over their block functions (what ocb_aes128_* does for AES-128).
 * Decryption needs the encryption key (offsets, checksum) and the decryption key. */
typedef struct nt_ocb_ctx {
    const struct nettle_cipher *meta;
    int decrypt;
    struct ocb_ctx ocb;
    struct ocb_aes128_encrypt_key k128;   /* AES-128: its OCB key and encryption key */
    struct ocb_key key;                   /* the others: the OCB key ... */
    void *enc, *dec;                      /* ... and the cipher's contexts */
} nt_ocb_ctx;

static void nt_ocb_finish(void *p)
{
    nt_ocb_ctx *c = p;
    if (!c)
        return;
    free(c->enc);
    free(c->dec);
    free(c);
}

static int nt_ocb_init(void **out, const void *arg, const cb_setup *s)
{
    const struct nettle_cipher *m = arg;
    if (s->key_len != m->key_size)
        return CB_ERR_PARAM;
    nt_ocb_ctx *c = calloc(1, sizeof *c);
    if (!c || !(c->enc = nt_alloc(m->context_size)) || !(c->dec = nt_alloc(m->context_size))) {
        nt_ocb_finish(c);
        return CB_ERR;
    }
    c->meta = m;
    c->decrypt = s->decrypt;
    if (m == &nettle_aes128) {
        if (s->decrypt)
            ocb_aes128_set_decrypt_key(&c->k128, c->dec, s->key);
        else
            ocb_aes128_set_encrypt_key(&c->k128, s->key);
    } else {
        m->set_encrypt_key(c->enc, s->key);
        m->set_decrypt_key(c->dec, s->key);
        ocb_set_key(&c->key, c->enc, m->encrypt);
    }
    *out = c;
    return CB_OK;
}

static int nt_ocb_run(void *p, cb_msg *msg)
{
    nt_ocb_ctx *c = p;
    const struct nettle_cipher *m = c->meta;
    int a128 = m == &nettle_aes128;
    uint8_t tag[OCB_DIGEST_SIZE];
    /* RFC 7253: a nonce of 1 to 15 bytes (Nettle asserts), a tag of 1 to 16 */
    if (!msg->nonce_len || msg->nonce_len > OCB_MAX_NONCE_SIZE || !msg->tag_len ||
        msg->tag_len > OCB_DIGEST_SIZE)
        return CB_ERR_PARAM;
    if (a128)
        ocb_aes128_set_nonce(&c->ocb, &c->k128, msg->tag_len, msg->nonce_len, msg->nonce);
    else
        ocb_set_nonce(&c->ocb, c->enc, m->encrypt, msg->tag_len, msg->nonce_len, msg->nonce);
    if (msg->aad_len) {
        if (a128)
            ocb_aes128_update(&c->ocb, &c->k128, msg->aad_len, msg->aad);
        else
            ocb_update(&c->ocb, &c->key, c->enc, m->encrypt, msg->aad_len, msg->aad);
    }
    if (!c->decrypt) {
        if (a128) {
            ocb_aes128_encrypt(&c->ocb, &c->k128, msg->len, msg->out, msg->in);
            ocb_aes128_digest(&c->ocb, &c->k128, msg->tag_len, msg->tag);
        } else {
            ocb_encrypt(&c->ocb, &c->key, c->enc, m->encrypt, msg->len, msg->out, msg->in);
            ocb_digest(&c->ocb, &c->key, c->enc, m->encrypt, msg->tag_len, msg->tag);
        }
        return CB_OK;
    }
    if (a128) {
        ocb_aes128_decrypt(&c->ocb, &c->k128, c->dec, msg->len, msg->out, msg->in);
        ocb_aes128_digest(&c->ocb, &c->k128, msg->tag_len, tag);
    } else {
        ocb_decrypt(&c->ocb, &c->key, c->enc, m->encrypt, c->dec, m->decrypt, msg->len, msg->out,
                    msg->in);
        ocb_digest(&c->ocb, &c->key, c->enc, m->encrypt, msg->tag_len, tag);
    }
    return memeql_sec(tag, msg->tag, msg->tag_len) ? CB_OK : CB_ERR_AUTH;
}
#endif

/* ---- AES key wrap (RFC 3394), Nettle 3.5 and later -------------------------- */

#if NETTLE_VERSION_MAJOR > 3 || (NETTLE_VERSION_MAJOR == 3 && NETTLE_VERSION_MINOR >= 5)
#include <nettle/nist-keywrap.h>
#define NT_HAVE_KEYWRAP 1

/* RFC 3394 section 2.2.3.1: the default initial value. */
static const uint8_t nt_kw_iv[8] = {0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6};

/* The AES-specific calls of nist-keywrap.h, one per key size; the key is set
 * for the direction the context runs (unwrap uses the decryption schedule). */
typedef struct nt_kw_ctx {
    size_t key_len;
    int decrypt;
    union { struct aes128_ctx a128; struct aes192_ctx a192; struct aes256_ctx a256; } k;
    cb_scratch in;   /* a copy of the input when it overlaps the output */
} nt_kw_ctx;

static void nt_kw_finish(void *p)
{
    nt_kw_ctx *c = p;
    if (c)
        free(c->in.p);
    free(c);
}

static int nt_kw_init(void **out, const void *arg, const cb_setup *s)
{
    (void)arg;
    nt_kw_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->key_len = s->key_len;
    c->decrypt = s->decrypt;
    switch (s->key_len) {
    case AES128_KEY_SIZE:
        (s->decrypt ? aes128_set_decrypt_key : aes128_set_encrypt_key)(&c->k.a128, s->key);
        break;
    case AES192_KEY_SIZE:
        (s->decrypt ? aes192_set_decrypt_key : aes192_set_encrypt_key)(&c->k.a192, s->key);
        break;
    case AES256_KEY_SIZE:
        (s->decrypt ? aes256_set_decrypt_key : aes256_set_encrypt_key)(&c->k.a256, s->key);
        break;
    default:
        free(c);
        return CB_ERR_PARAM;
    }
    *out = c;
    return CB_OK;
}

static int nt_kw_run(void *p, cb_msg *m)
{
    nt_kw_ctx *c = p;
    if (m->len < 16 || m->len % 8)
        return CB_ERR_PARAM;
    size_t w = cb_keywrap_len(m->len);
    /* Nettle moves the text between in and out with memcpy: never one buffer twice. */
    const uint8_t *in = c->decrypt ? cb_input_apart(&c->in, m, w, m->len)
                                   : cb_input_apart(&c->in, m, m->len, w);
    if (!in)
        return CB_ERR;
    if (!c->decrypt) {
        if (c->key_len == AES128_KEY_SIZE)
            aes128_keywrap(&c->k.a128, nt_kw_iv, w, m->out, in);
        else if (c->key_len == AES192_KEY_SIZE)
            aes192_keywrap(&c->k.a192, nt_kw_iv, w, m->out, in);
        else
            aes256_keywrap(&c->k.a256, nt_kw_iv, w, m->out, in);
        return CB_OK;
    }
    int ok = c->key_len == AES128_KEY_SIZE ? aes128_keyunwrap(&c->k.a128, nt_kw_iv, m->len, m->out, in)
           : c->key_len == AES192_KEY_SIZE ? aes192_keyunwrap(&c->k.a192, nt_kw_iv, m->len, m->out, in)
           : aes256_keyunwrap(&c->k.a256, nt_kw_iv, m->len, m->out, in);
    return ok ? CB_OK : CB_ERR_AUTH;
}
#endif

/* ---- the table ------------------------------------------------------------ */

#define BLK(name, mode, meta) \
    {name, &(const nt_cipher_row){NT_##mode, &(meta), NULL, NULL, NULL}, nt_cipher_init, nt_cipher_run, nt_cipher_finish}
#define CBCFAST(name, meta, enc) \
    {name, &(const nt_cipher_row){NT_CBC, &(meta), NULL, NULL, enc}, nt_cipher_init, nt_cipher_run, nt_cipher_finish}
#define VARBLK(name, mode, meta, vk) \
    {name, &(const nt_cipher_row){NT_##mode, &(meta), NULL, vk, NULL}, nt_cipher_init, nt_cipher_run, nt_cipher_finish}
#define STREAM(name, s) \
    {name, &(const nt_cipher_row){NT_STREAM, NULL, &(s), NULL, NULL}, nt_cipher_init, nt_cipher_run, nt_cipher_finish}
#define AEAD(name, a) {name, a, nt_aead_init, nt_aead_run, nt_aead_finish}
#define HASH(name, h) {name, &(h), nt_hash_init, nt_hash_run, nt_hash_finish}
#define MAC(name, kind, h, m) {name, &(const nt_mac_row){kind, h, m}, nt_mac_init, nt_mac_run, nt_mac_finish}

static const cb_op nt_ops[] = {
    AEAD("aes-128-gcm", NT_AEAD(gcm_aes128, struct gcm_aes128_ctx, AES128_KEY_SIZE, gcm128_start)),
    AEAD("aes-256-gcm", NT_AEAD(gcm_aes256, struct gcm_aes256_ctx, AES256_KEY_SIZE, gcm256_start)),
    AEAD("aes-192-gcm", NT_AEAD(gcm_aes192, struct gcm_aes192_ctx, AES192_KEY_SIZE, gcm192_start)),
    AEAD("chacha20-poly1305", NT_AEAD(chacha_poly1305, struct chacha_poly1305_ctx,
                                      CHACHA_POLY1305_KEY_SIZE, cp_start)),
    AEAD("aes-128-ccm", NT_AEAD(ccm_aes128, struct ccm_aes128_ctx, AES128_KEY_SIZE, ccm128_start)),
    AEAD("aes-192-ccm", NT_AEAD(ccm_aes192, struct ccm_aes192_ctx, AES192_KEY_SIZE, ccm192_start)),
    AEAD("aes-256-ccm", NT_AEAD(ccm_aes256, struct ccm_aes256_ctx, AES256_KEY_SIZE, ccm256_start)),
    AEAD("aes-128-ccm-8", NT_AEAD(ccm_aes128, struct ccm_aes128_ctx, AES128_KEY_SIZE, ccm128_start)),
    AEAD("aes-256-ccm-8", NT_AEAD(ccm_aes256, struct ccm_aes256_ctx, AES256_KEY_SIZE, ccm256_start)),
    AEAD("aes-128-eax", NT_AEAD(eax_aes128, struct eax_aes128_ctx, AES128_KEY_SIZE, eax128_start)),
    AEAD("camellia-128-gcm", NT_AEAD(gcm_camellia128, struct gcm_camellia128_ctx, CAMELLIA128_KEY_SIZE,
                                     gcmcam128_start)),
    AEAD("camellia-256-gcm", NT_AEAD(gcm_camellia256, struct gcm_camellia256_ctx, CAMELLIA256_KEY_SIZE,
                                     gcmcam256_start)),
#ifdef NT_HAVE_GCM_SIV_OCB   /* Nettle 3.9 and later */
    {"aes-128-gcm-siv", &(const int){0}, nt_gcmsiv_init, nt_gcmsiv_run, nt_gcmsiv_finish},
    {"aes-256-gcm-siv", &(const int){1}, nt_gcmsiv_init, nt_gcmsiv_run, nt_gcmsiv_finish},
    {"aes-128-ocb", &nettle_aes128, nt_ocb_init, nt_ocb_run, nt_ocb_finish},
    {"aes-192-ocb", &nettle_aes192, nt_ocb_init, nt_ocb_run, nt_ocb_finish},
    {"aes-256-ocb", &nettle_aes256, nt_ocb_init, nt_ocb_run, nt_ocb_finish},
#endif
#ifdef NT_HAVE_SM4   /* Nettle 3.9 and later */
    AEAD("sm4-gcm", NT_AEAD(gcm_sm4, struct gcm_sm4_ctx, SM4_KEY_SIZE, gcmsm4_start)),
    BLK("sm4-ecb", ECB, nettle_sm4),
    BLK("sm4-cbc", CBC, nettle_sm4),
    BLK("sm4-ctr", CTR, nettle_sm4),
    BLK("sm4-cfb", CFB, nettle_sm4),
    BLK("sm4-cfb8", CFB8, nettle_sm4),
    BLK("sm4-xts", XTS, nettle_sm4),
#endif
#ifdef NT_HAVE_SIV
    {"aes-128-siv", &(const int){0}, nt_siv_init, nt_siv_run, nt_siv_finish},
    {"aes-256-siv", &(const int){1}, nt_siv_init, nt_siv_run, nt_siv_finish},
#endif
#ifdef NT_HAVE_KEYWRAP
    {"aes-128-kw", NULL, nt_kw_init, nt_kw_run, nt_kw_finish},
    {"aes-192-kw", NULL, nt_kw_init, nt_kw_run, nt_kw_finish},
    {"aes-256-kw", NULL, nt_kw_init, nt_kw_run, nt_kw_finish},
#endif

    CBCFAST("aes-128-cbc", nettle_aes128, NT_CBC_AES(128)),
    CBCFAST("aes-192-cbc", nettle_aes192, NT_CBC_AES(192)),
    CBCFAST("aes-256-cbc", nettle_aes256, NT_CBC_AES(256)),
    BLK("aes-128-ctr", CTR, nettle_aes128),
    BLK("aes-192-ctr", CTR, nettle_aes192),
    BLK("aes-256-ctr", CTR, nettle_aes256),
    BLK("aes-128-cfb", CFB, nettle_aes128),
    BLK("aes-192-cfb", CFB, nettle_aes192),
    BLK("aes-256-cfb", CFB, nettle_aes256),
    BLK("aes-128-ecb", ECB, nettle_aes128),
    BLK("aes-192-ecb", ECB, nettle_aes192),
    BLK("aes-256-ecb", ECB, nettle_aes256),
    BLK("aes-128-xts", XTS, nettle_aes128),
    BLK("aes-256-xts", XTS, nettle_aes256),
    BLK("camellia-128-cbc", CBC, nettle_camellia128),
    BLK("camellia-256-cbc", CBC, nettle_camellia256),
    BLK("camellia-128-ctr", CTR, nettle_camellia128),
    BLK("camellia-256-ctr", CTR, nettle_camellia256),
    BLK("camellia-192-cbc", CBC, nettle_camellia192),
    BLK("camellia-192-ctr", CTR, nettle_camellia192),
    BLK("twofish-256-cbc", CBC, nettle_twofish256),
    BLK("serpent-256-cbc", CBC, nettle_serpent256),
    VARBLK("blowfish-cbc", CBC, nt_blowfish, nt_bf_varkey),
    VARBLK("cast5-cbc", CBC, nettle_cast128, nt_cast5_varkey),
    BLK("3des-cbc", CBC, nt_des3),
    BLK("des-cbc", CBC, nt_des),
    STREAM("rc4", nt_arcfour),
    STREAM("rc4-40", nt_arcfour),   /* arcfour takes any key of 1 to 256 bytes */
    STREAM("chacha20", nt_chacha),
    STREAM("chacha20-nonce64", nt_chacha64),
    STREAM("salsa20", nt_salsa20),
    STREAM("salsa20r12", nt_salsa20r12),
    BLK("twofish-256-cfb", CFB, nettle_twofish256),
    BLK("camellia-128-cfb", CFB, nettle_camellia128),
    BLK("camellia-192-cfb", CFB, nettle_camellia192),
    BLK("camellia-256-cfb", CFB, nettle_camellia256),
    VARBLK("cast5-cfb", CFB, nettle_cast128, nt_cast5_varkey),
    VARBLK("blowfish-cfb", CFB, nt_blowfish, nt_bf_varkey),
    BLK("3des-cfb", CFB, nt_des3),
    BLK("camellia-128-ecb", ECB, nettle_camellia128),
    BLK("camellia-192-ecb", ECB, nettle_camellia192),
    BLK("camellia-256-ecb", ECB, nettle_camellia256),
    BLK("twofish-256-ecb", ECB, nettle_twofish256),
    BLK("serpent-256-ecb", ECB, nettle_serpent256),
    VARBLK("blowfish-ecb", ECB, nt_blowfish, nt_bf_varkey),
    VARBLK("cast5-ecb", ECB, nettle_cast128, nt_cast5_varkey),
    BLK("3des-ecb", ECB, nt_des3),
    BLK("des-ecb", ECB, nt_des),
    BLK("twofish-128-ecb", ECB, nettle_twofish128),
    BLK("twofish-128-cbc", CBC, nettle_twofish128),
    BLK("twofish-256-ctr", CTR, nettle_twofish256),
    BLK("serpent-128-ecb", ECB, nettle_serpent128),
    BLK("serpent-128-cbc", CBC, nettle_serpent128),
    BLK("serpent-192-cbc", CBC, nettle_serpent192),
    BLK("serpent-256-ctr", CTR, nettle_serpent256),
    BLK("rc2-ecb", ECB, nettle_arctwo128),     /* arctwo128: 128 effective key bits */
    BLK("rc2-cbc", CBC, nettle_arctwo128),
    BLK("aes-128-cfb8", CFB8, nettle_aes128),
    BLK("aes-192-cfb8", CFB8, nettle_aes192),
    BLK("aes-256-cfb8", CFB8, nettle_aes256),
    BLK("3des-ctr", CTR, nt_des3),
    VARBLK("blowfish-ctr", CTR, nt_blowfish, nt_bf_varkey),
    VARBLK("cast5-ctr", CTR, nettle_cast128, nt_cast5_varkey),
    /* the block-cipher grid (algorithms.c): the generic modes over the ciphers above; XTS
     * through the generic xts_*_message, which takes any 128-bit block cipher */
    BLK("camellia-128-cfb8", CFB8, nettle_camellia128),
    BLK("camellia-128-xts", XTS, nettle_camellia128),
    BLK("camellia-192-cfb8", CFB8, nettle_camellia192),
    BLK("camellia-192-xts", XTS, nettle_camellia192),
    BLK("camellia-256-cfb8", CFB8, nettle_camellia256),
    BLK("camellia-256-xts", XTS, nettle_camellia256),
    BLK("serpent-128-ctr", CTR, nettle_serpent128),
    BLK("serpent-128-cfb", CFB, nettle_serpent128),
    BLK("serpent-128-cfb8", CFB8, nettle_serpent128),
    BLK("serpent-128-xts", XTS, nettle_serpent128),
    BLK("serpent-192-ecb", ECB, nettle_serpent192),
    BLK("serpent-192-ctr", CTR, nettle_serpent192),
    BLK("serpent-192-cfb", CFB, nettle_serpent192),
    BLK("serpent-192-cfb8", CFB8, nettle_serpent192),
    BLK("serpent-192-xts", XTS, nettle_serpent192),
    BLK("serpent-256-cfb", CFB, nettle_serpent256),
    BLK("serpent-256-cfb8", CFB8, nettle_serpent256),
    BLK("serpent-256-xts", XTS, nettle_serpent256),
    BLK("twofish-128-ctr", CTR, nettle_twofish128),
    BLK("twofish-128-cfb", CFB, nettle_twofish128),
    BLK("twofish-128-cfb8", CFB8, nettle_twofish128),
    BLK("twofish-128-xts", XTS, nettle_twofish128),
    BLK("twofish-192-ecb", ECB, nettle_twofish192),
    BLK("twofish-192-cbc", CBC, nettle_twofish192),
    BLK("twofish-192-ctr", CTR, nettle_twofish192),
    BLK("twofish-192-cfb", CFB, nettle_twofish192),
    BLK("twofish-192-cfb8", CFB8, nettle_twofish192),
    BLK("twofish-192-xts", XTS, nettle_twofish192),
    BLK("twofish-256-cfb8", CFB8, nettle_twofish256),
    BLK("twofish-256-xts", XTS, nettle_twofish256),
    BLK("aes-192-xts", XTS, nettle_aes192),
    VARBLK("blowfish-cfb8", CFB8, nt_blowfish, nt_bf_varkey),
    VARBLK("cast5-cfb8", CFB8, nettle_cast128, nt_cast5_varkey),
    BLK("des-cfb", CFB, nt_des),
    BLK("des-cfb8", CFB8, nt_des),
    BLK("des-ctr", CTR, nt_des),
    BLK("3des-cfb8", CFB8, nt_des3),
    BLK("rc2-ctr", CTR, nettle_arctwo128),
    BLK("rc2-cfb", CFB, nettle_arctwo128),
    BLK("rc2-cfb8", CFB8, nettle_arctwo128),
    BLK("rc2-40-ecb", ECB, nettle_arctwo40),
    BLK("rc2-40-cbc", CBC, nettle_arctwo40),
    BLK("rc2-40-ctr", CTR, nettle_arctwo40),
    BLK("rc2-40-cfb", CFB, nettle_arctwo40),
    BLK("rc2-40-cfb8", CFB8, nettle_arctwo40),
    BLK("rc2-64-ecb", ECB, nettle_arctwo64),
    BLK("rc2-64-cbc", CBC, nettle_arctwo64),
    BLK("rc2-64-ctr", CTR, nettle_arctwo64),
    BLK("rc2-64-cfb", CFB, nettle_arctwo64),
    BLK("rc2-64-cfb8", CFB8, nettle_arctwo64),
    BLK("rc2-gutmann-ecb", ECB, nettle_arctwo_gutmann128),   /* 1024 effective key bits */
    BLK("rc2-gutmann-cbc", CBC, nettle_arctwo_gutmann128),
    BLK("rc2-gutmann-ctr", CTR, nettle_arctwo_gutmann128),
    BLK("rc2-gutmann-cfb", CFB, nettle_arctwo_gutmann128),
    BLK("rc2-gutmann-cfb8", CFB8, nettle_arctwo_gutmann128),

    HASH("md5", nettle_md5),
    HASH("sha1", nettle_sha1),
    HASH("sha224", nettle_sha224),
    HASH("sha256", nettle_sha256),
    HASH("sha384", nettle_sha384),
    HASH("sha512", nettle_sha512),
    HASH("sha512-256", nettle_sha512_256),
    HASH("sha512-224", nettle_sha512_224),
    HASH("sha3-256", nettle_sha3_256),
    HASH("sha3-512", nettle_sha3_512),
    HASH("ripemd160", nettle_ripemd160),
    HASH("sm3", nettle_sm3),
    HASH("sha3-224", nettle_sha3_224),
    HASH("sha3-384", nettle_sha3_384),
    HASH("shake256", nt_shake256),
#ifdef NT_HAVE_SHAKE128   /* Nettle 3.10 and later */
    HASH("shake128", nt_shake128),
#endif
    HASH("md4", nettle_md4),
    HASH("streebog-256", nettle_streebog256),
    HASH("streebog-512", nettle_streebog512),
    HASH("gostr3411-94", nettle_gosthash94cp),   /* CryptoPro S-boxes; gosthash94 has the test ones */
    HASH("gostr3411-94-test", nettle_gosthash94),
    HASH("md2", nettle_md2),

    MAC("hmac-md5", NT_HMAC, &nettle_md5, NULL),
    MAC("hmac-sha1", NT_HMAC, &nettle_sha1, NULL),
    MAC("hmac-sha256", NT_HMAC, &nettle_sha256, NULL),
    MAC("hmac-sha512", NT_HMAC, &nettle_sha512, NULL),
    MAC("hmac-sha224", NT_HMAC, &nettle_sha224, NULL),
    MAC("hmac-sha384", NT_HMAC, &nettle_sha384, NULL),
    MAC("cmac-aes-128", NT_CMAC, NULL, &nettle_cmac_aes128),
    MAC("cmac-aes-256", NT_CMAC, NULL, &nettle_cmac_aes256),
    MAC("gmac-aes-128", NT_GMAC, NULL, NULL),
    MAC("umac-64", NT_UMAC64, NULL, NULL),
    MAC("umac-128", NT_UMAC128, NULL, NULL),
    MAC("umac-96", NT_UMAC96, NULL, NULL),
    /* HMAC over the other hashes: Nettle's hmac_set_key, hmac_update and hmac_digest take
     * any struct nettle_hash (its hmac_ripemd160, hmac_streebog and hmac_sm3 are these) */
    MAC("hmac-ripemd160", NT_HMAC, &nettle_ripemd160, NULL),
    MAC("hmac-streebog-256", NT_HMAC, &nettle_streebog256, NULL),
    MAC("hmac-streebog-512", NT_HMAC, &nettle_streebog512, NULL),
    MAC("hmac-sm3", NT_HMAC, &nettle_sm3, NULL),
    MAC("hmac-sha512-224", NT_HMAC, &nettle_sha512_224, NULL),
    MAC("hmac-sha512-256", NT_HMAC, &nettle_sha512_256, NULL),
    MAC("hmac-sha3-224", NT_HMAC, &nettle_sha3_224, NULL),
    MAC("hmac-sha3-256", NT_HMAC, &nettle_sha3_256, NULL),
    MAC("hmac-sha3-384", NT_HMAC, &nettle_sha3_384, NULL),
    MAC("hmac-sha3-512", NT_HMAC, &nettle_sha3_512, NULL),
    MAC("hmac-gostr3411-94", NT_HMAC, &nettle_gosthash94cp, NULL),
    MAC("hmac-md4", NT_HMAC, &nettle_md4, NULL),
    MAC("hmac-md2", NT_HMAC, &nettle_md2, NULL),
    MAC("hmac-gostr3411-94-test", NT_HMAC, &nettle_gosthash94, NULL),
    MAC("cmac-3des", NT_CMAC, NULL, &nettle_cmac_des3),
    MAC("poly1305-aes", NT_POLY1305_AES, NULL, NULL),
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- what Nettle offers (list --offered) ----------------------------------------
 * Nettle lists its block ciphers, hashes, AEADs (with the stream ciphers) and
 * MACs (nettle_get_*). A listed block cipher is offered in each generic mode
 * Nettle has (ECB, CBC, CTR, CFB, CFB8), and a 128-bit one in XTS (the generic
 * xts_*_message); the row is the one with that meta and mode. AEADs and MACs
 * are matched by Nettle's name. */

static const struct { enum nt_mode mode; const char *name; } nt_offer_modes[] = {
    {NT_ECB, "ecb"}, {NT_CBC, "cbc"}, {NT_CTR, "ctr"}, {NT_CFB, "cfb"}, {NT_CFB8, "cfb8"},
};

static const char *const nt_named_rows[][2] = {
    {"gcm_aes128", "aes-128-gcm"}, {"gcm_aes192", "aes-192-gcm"}, {"gcm_aes256", "aes-256-gcm"},
    {"gcm_camellia128", "camellia-128-gcm"}, {"gcm_camellia256", "camellia-256-gcm"},
    {"chacha_poly1305", "chacha20-poly1305"}, {"eax_aes128", "aes-128-eax"}, {"arcfour128", "rc4"},
    {"chacha", "chacha20-nonce64"},   /* Nettle's listed chacha takes the original 8-byte nonce */
    {"salsa20", "salsa20"}, {"salsa20r12", "salsa20r12"},
    {"cmac_aes128", "cmac-aes-128"}, {"hmac_md5", "hmac-md5"}, {"hmac_sha1", "hmac-sha1"},
    {"hmac_sha256", "hmac-sha256"}, {"hmac_sha512", "hmac-sha512"},
    {"hmac_sha224", "hmac-sha224"}, {"hmac_sha384", "hmac-sha384"}, {"cmac_aes256", "cmac-aes-256"},
    {"umac64", "umac-64"}, {"umac128", "umac-128"}, {"umac96", "umac-96"},
    {"hmac_ripemd160", "hmac-ripemd160"}, {"hmac_streebog256", "hmac-streebog-256"},
    {"hmac_streebog512", "hmac-streebog-512"}, {"hmac_sm3", "hmac-sm3"}, {"cmac_des3", "cmac-3des"},
    {"gcm_sm4", "sm4-gcm"},   /* Nettle 3.9 */
    /* Nettle 3.10.1 lists HMAC over GOST R 34.11-94 (its nettle_mac structs); the rows
     * (hmac_set_key over nettle_gosthash94 and _cp, as hmac_gosthash94_set_key does)
     * are older */
    {"hmac_gosthash94", "hmac-gostr3411-94-test"}, {"hmac_gosthash94cp", "hmac-gostr3411-94"},
};

static const char *nt_named_row(const char *name)
{
    for (size_t i = 0; i < sizeof nt_named_rows / sizeof nt_named_rows[0]; i++)
        if (strcmp(nt_named_rows[i][0], name) == 0)
            return nt_named_rows[i][1];
    return NULL;
}

static const char *nt_cipher_row_for(const struct nettle_cipher *meta, enum nt_mode mode)
{
    for (const cb_op *r = nt_ops; r->algo; r++) {
        if (r->init != nt_cipher_init)
            continue;
        const nt_cipher_row *row = r->arg;
        if (row->meta == meta && row->mode == mode)
            return r->algo;
    }
    return NULL;
}

void cb_offered_nettle(cb_offer_fn *offer, void *u);
void cb_offered_nettle(cb_offer_fn *offer, void *u)
{
    char name[64];
    for (const struct nettle_cipher *const *c = nettle_get_ciphers(); *c; c++) {
        for (size_t i = 0; i < sizeof nt_offer_modes / sizeof nt_offer_modes[0]; i++) {
            snprintf(name, sizeof name, "%s/%s", (*c)->name, nt_offer_modes[i].name);
            offer(u, "cipher", name, nt_cipher_row_for(*c, nt_offer_modes[i].mode));
        }
        if ((*c)->block_size == XTS_BLOCK_SIZE) {   /* xts_*_message takes any of them */
            snprintf(name, sizeof name, "%s/xts", (*c)->name);
            offer(u, "cipher", name, nt_cipher_row_for(*c, NT_XTS));
        }
    }
    for (const struct nettle_hash *const *h = nettle_get_hashes(); *h; h++) {
        const char *algo = NULL;
        for (const cb_op *r = nt_ops; r->algo && !algo; r++)
            if (r->init == nt_hash_init && r->arg == *h)
                algo = r->algo;
        offer(u, "hash", (*h)->name, algo);
    }
    for (const struct nettle_aead *const *a = nettle_get_aeads(); *a; a++) {
        const char *algo = nt_named_row((*a)->name);
        int stream = !(*a)->digest_size;   /* the stream ciphers have no tag */
        offer(u, stream ? "cipher" : "aead", (*a)->name, algo);
    }
    for (const struct nettle_mac *const *m = nettle_get_macs(); *m; m++)
        offer(u, "mac", (*m)->name, nt_named_row((*m)->name));
}

/* ---- library-wide --------------------------------------------------------- */

static const char *nt_version(void)
{
    static char v[32];
    if (!v[0])
        snprintf(v, sizeof v, "%d.%d", nettle_version_major(), nettle_version_minor());
    return v;
}

/* Nettle does not report which code it picked. A "fat" build (Debian's is
 * one) picks at load time from CPUID, or from NETTLE_FAT_OVERRIDE when that
 * is set: "aesni", "pclmul", "sha_ni" (x86-64). The rules are mirrored here,
 * and only when the library really carries the AES-NI variants. */
static unsigned nt_hw;
static int nt_hw_known;

#if defined(__x86_64__) || defined(__aarch64__)
static int nt_token(const char *list, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *s = list; s && *s;) {
        const char *sep = strchr(s, ',');
        size_t len = sep ? (size_t)(sep - s) : strlen(s);
        if (len == n && memcmp(s, tok, n) == 0)
            return 1;
        s = sep ? sep + 1 : NULL;
    }
    return 0;
}
#endif

static void nt_detect(void)
{
    if (nt_hw_known)
        return;
    nt_hw_known = 1;
#if defined(__x86_64__)
    if (!dlsym(RTLD_DEFAULT, "_nettle_aes128_encrypt_aesni"))
        return;   /* not a fat x86-64 build: nothing to say */
    const char *ov = secure_getenv("NETTLE_FAT_OVERRIDE");
    if (ov) {
        if (nt_token(ov, "aesni")) nt_hw |= CB_CAP_AES_HW;
        if (nt_token(ov, "pclmul")) nt_hw |= CB_CAP_CLMUL_HW;
        if (nt_token(ov, "sha_ni")) nt_hw |= CB_CAP_SHA_HW;
        return;
    }
    unsigned a, b, cx, d;
    if (__get_cpuid(1, &a, &b, &cx, &d)) {
        if (cx & (1u << 25)) nt_hw |= CB_CAP_AES_HW;
        if (cx & (1u << 1)) nt_hw |= CB_CAP_CLMUL_HW;
    }
    if (__get_cpuid_count(7, 0, &a, &b, &cx, &d) && (b & (1u << 29)))
        nt_hw |= CB_CAP_SHA_HW;
#elif defined(__aarch64__)
    /* fat-arm64.c: "aes", "pmull", "sha1", "sha2", else the HWCAP bits */
    if (!dlsym(RTLD_DEFAULT, "_nettle_aes128_encrypt_arm64"))
        return;
    const char *ov = secure_getenv("NETTLE_FAT_OVERRIDE");
    if (ov) {
        if (nt_token(ov, "aes")) nt_hw |= CB_CAP_AES_HW;
        if (nt_token(ov, "pmull")) nt_hw |= CB_CAP_CLMUL_HW;
        if (nt_token(ov, "sha1") || nt_token(ov, "sha2")) nt_hw |= CB_CAP_SHA_HW;
        return;
    }
    cb_arm c;
    cb_arm_detect(&c);
    nt_hw = (c.hw & CB_HW_AES ? CB_CAP_AES_HW : 0u) | (c.hw & CB_HW_PCLMUL ? CB_CAP_CLMUL_HW : 0u)
          | (c.hw & CB_HW_SHA ? CB_CAP_SHA_HW : 0u);
#endif
    /* 32-bit ARM (fat-arm.c) chooses between plain and NEON code only:
     * no AES, PMULL or SHA instructions to report. */
}

static unsigned nt_caps(void)
{
    nt_detect();
    return nt_hw;
}

static const char *nt_provider(void)
{
    static char p[64];
    nt_detect();
    if (!p[0]) {
        snprintf(p, sizeof p, "%s%s%s%s",
                 nt_hw & CB_CAP_AES_HW ? "aesni," : "",
                 nt_hw & CB_CAP_CLMUL_HW ? "pclmul," : "",
                 nt_hw & CB_CAP_SHA_HW ? "sha_ni," : "",
                 nt_hw ? "" : "generic");
        size_t n = strlen(p);
        if (n && p[n - 1] == ',')
            p[n - 1] = '\0';
    }
    return p;
}

/* ---- turning hardware off ------------------------------------------------ */

/* NETTLE_FAT_OVERRIDE (hw_x86.h, hw_arm.h). Nettle's x86-64 code has no AVX2
 * or VAES paths (and Arm none of either), so those have nothing to turn off. */
static int nt_hw_env(unsigned off, char env[][CB_HW_ENV_LEN], int max)
{
    if (max < 1)
        return -1;
    return cb_nettle_fat_env(off, env[0], CB_HW_ENV_LEN) == 1 ? 1 : -1;
}

/* The features the override logic above gives Nettle (nt_detect). */
static unsigned nt_hw_used(void)
{
    nt_detect();
    return (nt_hw & CB_CAP_AES_HW ? CB_HW_AES : 0u) | (nt_hw & CB_CAP_CLMUL_HW ? CB_HW_PCLMUL : 0u)
         | (nt_hw & CB_CAP_SHA_HW ? CB_HW_SHA : 0u);
}

const cb_backend cb_backend_nettle = {
    .name = "nettle",
    .version = nt_version,
    .global_init = NULL,
    .caps = nt_caps,
    .provider = nt_provider,
    .ops = nt_ops,
#if defined(__x86_64__) || defined(__aarch64__)
    .hw_switch = CB_HW_ALL,
#endif
    .hw_env = nt_hw_env,
    .hw_used = nt_hw_used,
};
