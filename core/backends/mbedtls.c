/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mbedtls.c - the Mbed TLS backend (libmbedcrypto), for 3.x (3.6 LTS) and
 * 2.28: the API used here is common to both; the differences are under
 * MBEDTLS_VERSION_MAJOR or the library's own MBEDTLS_*_C switches (3.0 took
 * out RC4 and Blowfish, 3.5 brought SHA-3).
 *
 * Ciphers go through the generic mbedtls_cipher_* layer, hashes and HMAC
 * through mbedtls_md_*, CMAC through mbedtls_cipher_cmac_*. The AEADs use
 * the GCM, CCM and ChaCha20-Poly1305 modules' one-shot calls: they are what
 * the generic mbedtls_cipher_auth_encrypt_ext() calls, and unlike it they
 * keep the tag apart from the ciphertext, as cb_msg does (the PSA API of 3.x
 * reaches the same modules through a key store). XTS and RC4 use their
 * modules too: the generic layer has no XTS, and its RC4 takes only 128-bit
 * keys. AES key wrap (3.x builds with MBEDTLS_NIST_KW_C) uses the nist_kw
 * module, which the generic layer's KW types stand for.
 */
#include "../algorithms.h"
#include "../backend.h"

#include <mbedtls/version.h>   /* first: brings in the library's configuration */

#include <mbedtls/aes.h>
#if MBEDTLS_VERSION_MAJOR < 3
#include <mbedtls/aesni.h>     /* private from 3.0 on */
#endif
#if defined(MBEDTLS_ARC4_C)
#include <mbedtls/arc4.h>
#endif
#include <mbedtls/ccm.h>
#include <mbedtls/chachapoly.h>
#include <mbedtls/cipher.h>
#include <mbedtls/cmac.h>
#include <mbedtls/gcm.h>
#include <mbedtls/md.h>
#if defined(MBEDTLS_NIST_KW_C)
#include <mbedtls/nist_kw.h>
#endif
#include <mbedtls/poly1305.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MBEDTLS_VERSION_MAJOR >= 3
#include "hw_x86.h"
#endif

/* ---- AEAD ------------------------------------------------------------------ */

enum { AEAD_GCM, AEAD_CCM, AEAD_CHACHAPOLY };

/* id: the block cipher under GCM or CCM */
typedef struct { int mode; size_t key_len; mbedtls_cipher_id_t id; } aead_def;

typedef struct {
    const aead_def *d;
    int decrypt;
    union {
        mbedtls_gcm_context gcm;
        mbedtls_ccm_context ccm;
        mbedtls_chachapoly_context cp;
    } u;
} aead_ctx;

static void aead_free(aead_ctx *c)
{
    switch (c->d->mode) {
    case AEAD_GCM: mbedtls_gcm_free(&c->u.gcm); break;
    case AEAD_CCM: mbedtls_ccm_free(&c->u.ccm); break;
    default: mbedtls_chachapoly_free(&c->u.cp); break;
    }
    free(c);
}

static int aead_init(void **ctx, const void *arg, const cb_setup *s)
{
    const aead_def *d = arg;
    if (s->key_len != d->key_len || s->tag_len > 16)
        return CB_ERR_PARAM;
    aead_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->d = d;
    c->decrypt = s->decrypt;
    unsigned bits = (unsigned)s->key_len * 8;
    int r;
    switch (d->mode) {
    case AEAD_GCM:
        mbedtls_gcm_init(&c->u.gcm);
        r = mbedtls_gcm_setkey(&c->u.gcm, d->id, s->key, bits);
        break;
    case AEAD_CCM:
        mbedtls_ccm_init(&c->u.ccm);
        r = mbedtls_ccm_setkey(&c->u.ccm, d->id, s->key, bits);
        break;
    default:
        mbedtls_chachapoly_init(&c->u.cp);
        r = mbedtls_chachapoly_setkey(&c->u.cp, s->key);
        break;
    }
    if (r != 0) {
        aead_free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int aead_run(void *ctx, cb_msg *m)
{
    aead_ctx *c = ctx;
    int r;
    switch (c->d->mode) {
    case AEAD_GCM:
        r = c->decrypt
            ? mbedtls_gcm_auth_decrypt(&c->u.gcm, m->len, m->nonce, m->nonce_len, m->aad,
                                       m->aad_len, m->tag, m->tag_len, m->in, m->out)
            : mbedtls_gcm_crypt_and_tag(&c->u.gcm, MBEDTLS_GCM_ENCRYPT, m->len, m->nonce,
                                        m->nonce_len, m->aad, m->aad_len, m->in, m->out,
                                        m->tag_len, m->tag);
        if (r == MBEDTLS_ERR_GCM_AUTH_FAILED)
            return CB_ERR_AUTH;
        if (r == MBEDTLS_ERR_GCM_BAD_INPUT)
            return CB_ERR_PARAM;
        break;
    case AEAD_CCM:
        r = c->decrypt
            ? mbedtls_ccm_auth_decrypt(&c->u.ccm, m->len, m->nonce, m->nonce_len, m->aad,
                                       m->aad_len, m->in, m->out, m->tag, m->tag_len)
            : mbedtls_ccm_encrypt_and_tag(&c->u.ccm, m->len, m->nonce, m->nonce_len, m->aad,
                                          m->aad_len, m->in, m->out, m->tag, m->tag_len);
        if (r == MBEDTLS_ERR_CCM_AUTH_FAILED)
            return CB_ERR_AUTH;
        if (r == MBEDTLS_ERR_CCM_BAD_INPUT)
            return CB_ERR_PARAM;
        break;
    default:
        if (m->nonce_len != 12 || m->tag_len != 16)
            return CB_ERR_PARAM;  /* the module takes only these */
        r = c->decrypt
            ? mbedtls_chachapoly_auth_decrypt(&c->u.cp, m->len, m->nonce, m->aad, m->aad_len,
                                              m->tag, m->in, m->out)
            : mbedtls_chachapoly_encrypt_and_tag(&c->u.cp, m->len, m->nonce, m->aad,
                                                 m->aad_len, m->in, m->out, m->tag);
        if (r == MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED)
            return CB_ERR_AUTH;
        break;
    }
    return r == 0 ? CB_OK : CB_ERR;
}

static void aead_finish(void *ctx)
{
    if (ctx)
        aead_free(ctx);
}

/* ---- ciphers through the generic layer ------------------------------------
 * One context continues the chain or stream: CBC without padding is whole
 * blocks straight through; CTR, CFB and ChaCha20 keep their partial block.
 * The generic layer takes ECB one block per call. */

typedef struct {
    mbedtls_cipher_type_t type;
    size_t key_len, iv_len;
    int var_key;            /* Blowfish: any key of 4 to 56 bytes */
} cipher_def;

typedef struct {
    mbedtls_cipher_context_t c;
    int ecb;
} cipher_ctx;

static int cipher_init(void **ctx, const void *arg, const cb_setup *s)
{
    const cipher_def *d = arg;
    if (d->var_key ? (s->key_len < 4 || s->key_len > 56) : s->key_len != d->key_len)
        return CB_ERR_PARAM;
    if (s->iv_len != d->iv_len || (d->iv_len && !s->iv))
        return CB_ERR_PARAM;
    const mbedtls_cipher_info_t *info = mbedtls_cipher_info_from_type(d->type);
    if (!info)
        return CB_ERR;
    cipher_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    mbedtls_cipher_init(&c->c);
    int r = mbedtls_cipher_setup(&c->c, info);
    mbedtls_cipher_mode_t mode = r ? MBEDTLS_MODE_NONE : mbedtls_cipher_get_cipher_mode(&c->c);
    c->ecb = mode == MBEDTLS_MODE_ECB;
    if (!r)
        r = mbedtls_cipher_setkey(&c->c, s->key, (int)(s->key_len * 8),
                                  s->decrypt ? MBEDTLS_DECRYPT : MBEDTLS_ENCRYPT);
    if (!r && mode == MBEDTLS_MODE_CBC)
        r = mbedtls_cipher_set_padding_mode(&c->c, MBEDTLS_PADDING_NONE);
    if (!r && d->iv_len)
        r = mbedtls_cipher_set_iv(&c->c, s->iv, d->iv_len);
    if (!r)
        r = mbedtls_cipher_reset(&c->c);
    if (r) {
        mbedtls_cipher_free(&c->c);
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int cipher_run(void *ctx, cb_msg *m)
{
    cipher_ctx *c = ctx;
    size_t olen;
    if (c->ecb) {
        size_t bs = mbedtls_cipher_get_block_size(&c->c);   /* 16, or 8 for DES and Blowfish */
        if (!bs || m->len % bs)
            return CB_ERR_PARAM;
        for (size_t i = 0; i < m->len; i += bs)
            if (mbedtls_cipher_update(&c->c, m->in + i, bs, m->out + i, &olen) != 0)
                return CB_ERR;
        return CB_OK;
    }
    int r = mbedtls_cipher_update(&c->c, m->in, m->len, m->out, &olen);
    if (r == MBEDTLS_ERR_CIPHER_BAD_INPUT_DATA && m->in == m->out) {
        /* The generic layer refuses in-place CTR/CFB calls that do not
         * start and end on a block boundary; such calls go through a
         * bounce buffer (whole-block in-place calls never get here). */
        uint8_t tmp[256];
        size_t done = 0;
        while (done < m->len) {
            size_t n = m->len - done < sizeof tmp ? m->len - done : sizeof tmp;
            r = mbedtls_cipher_update(&c->c, m->in + done, n, tmp, &olen);
            if (r || olen != n)
                break;
            memcpy(m->out + done, tmp, n);
            done += n;
        }
        if (!r)
            olen = done;
    }
    if (r == MBEDTLS_ERR_CIPHER_FULL_BLOCK_EXPECTED)
        return CB_ERR_PARAM;
    if (r != 0)
        return CB_ERR;
    /* A CBC length that is not whole blocks would be held back. */
    return olen == m->len ? CB_OK : CB_ERR_PARAM;
}

static void cipher_finish(void *ctx)
{
    cipher_ctx *c = ctx;
    if (!c)
        return;
    mbedtls_cipher_free(&c->c);
    free(c);
}

/* ---- AES-XTS: each call is one data unit, its tweak the message nonce ---- */

typedef struct {
    mbedtls_aes_xts_context x;
    int decrypt;
} xts_ctx;

static int xts_init(void **ctx, const void *arg, const cb_setup *s)
{
    size_t key_len = *(const size_t *)arg;
    if (s->key_len != key_len)
        return CB_ERR_PARAM;
    xts_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    mbedtls_aes_xts_init(&c->x);
    unsigned bits = (unsigned)key_len * 8;
    int r = s->decrypt ? mbedtls_aes_xts_setkey_dec(&c->x, s->key, bits)
                       : mbedtls_aes_xts_setkey_enc(&c->x, s->key, bits);
    if (r) {
        mbedtls_aes_xts_free(&c->x);
        free(c);
        return CB_ERR;
    }
    c->decrypt = s->decrypt;
    *ctx = c;
    return CB_OK;
}

static int xts_run(void *ctx, cb_msg *m)
{
    xts_ctx *c = ctx;
    if (m->nonce_len != 16)
        return CB_ERR_PARAM;
    int r = mbedtls_aes_crypt_xts(&c->x, c->decrypt ? MBEDTLS_AES_DECRYPT : MBEDTLS_AES_ENCRYPT,
                                  m->len, m->nonce, m->in, m->out);
    if (r == MBEDTLS_ERR_AES_INVALID_INPUT_LENGTH)
        return CB_ERR_PARAM;   /* under 16 bytes or over 2^24 */
    return r ? CB_ERR : CB_OK;
}

static void xts_finish(void *ctx)
{
    xts_ctx *c = ctx;
    if (!c)
        return;
    mbedtls_aes_xts_free(&c->x);
    free(c);
}

/* ---- AES key wrap (NIST SP 800-38F KW and KWP; RFC 3394 and 5649) -------- */

#if defined(MBEDTLS_NIST_KW_C)

typedef struct { mbedtls_nist_kw_mode_t mode; size_t key_len; } kw_def;

typedef struct {
    mbedtls_nist_kw_context kw;
    mbedtls_nist_kw_mode_t mode;
    int decrypt;
    cb_scratch buf;         /* KWP unwraps whole semiblocks, padding included; a wrap in
                             * place reads its input from here */
} kw_ctx;

static void kw_finish(void *ctx)
{
    kw_ctx *c = ctx;
    if (!c)
        return;
    mbedtls_nist_kw_free(&c->kw);
    free(c->buf.p);
    free(c);
}

static int kw_init(void **ctx, const void *arg, const cb_setup *s)
{
    const kw_def *d = arg;
    if (s->key_len != d->key_len)
        return CB_ERR_PARAM;
    kw_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    mbedtls_nist_kw_init(&c->kw);
    c->mode = d->mode;
    c->decrypt = s->decrypt;
    if (mbedtls_nist_kw_setkey(&c->kw, MBEDTLS_CIPHER_ID_AES, s->key, (unsigned)d->key_len * 8,
                               !s->decrypt)) {
        kw_finish(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int kw_run(void *ctx, cb_msg *m)
{
    kw_ctx *c = ctx;
    size_t w = cb_keywrap_len(m->len), olen = 0;
    int r;
    if (!c->decrypt) {
        /* mbedtls_nist_kw_wrap copies the input to out + 8 before it reads it. */
        const uint8_t *in = cb_input_apart(&c->buf, m, m->len, w);
        if (!in)
            return CB_ERR;
        r = mbedtls_nist_kw_wrap(&c->kw, c->mode, in, m->len, m->out, &olen, w);
        if (r == MBEDTLS_ERR_CIPHER_BAD_INPUT_DATA)
            return CB_ERR_PARAM;
        return r || olen != w ? CB_ERR : CB_OK;
    }
    if (!cb_scratch_reserve(&c->buf, w - 8))
        return CB_ERR;
    r = mbedtls_nist_kw_unwrap(&c->kw, c->mode, m->in, w, c->buf.p, &olen, w - 8);
    if (r == MBEDTLS_ERR_CIPHER_AUTH_FAILED)
        return CB_ERR_AUTH;
    if (r == MBEDTLS_ERR_CIPHER_BAD_INPUT_DATA)
        return CB_ERR_PARAM;
    if (r)
        return CB_ERR;
    if (olen != m->len)
        return CB_ERR_AUTH;
    memcpy(m->out, c->buf.p, m->len);
    return CB_OK;
}
#endif

/* ---- RC4 (any key of 1 to 256 bytes; Mbed TLS 2 only) ----------------------- */

#if defined(MBEDTLS_ARC4_C)

static int rc4_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)arg;
    if (s->key_len < 1 || s->key_len > 256)
        return CB_ERR_PARAM;
    mbedtls_arc4_context *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    mbedtls_arc4_init(c);
    mbedtls_arc4_setup(c, s->key, (unsigned)s->key_len);
    *ctx = c;
    return CB_OK;
}

static int rc4_run(void *ctx, cb_msg *m)
{
    return mbedtls_arc4_crypt(ctx, m->len, m->in, m->out) ? CB_ERR : CB_OK;
}

static void rc4_finish(void *ctx)
{
    if (!ctx)
        return;
    mbedtls_arc4_free(ctx);
    free(ctx);
}
#endif

/* ---- hashes and HMAC through mbedtls_md ------------------------------------- */

typedef struct {
    mbedtls_md_context_t md;
    size_t full;
} md_ctx;

static md_ctx *md_new(mbedtls_md_type_t type, int hmac)
{
    const mbedtls_md_info_t *info = mbedtls_md_info_from_type(type);
    if (!info)
        return NULL;
    md_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    mbedtls_md_init(&c->md);
    if (mbedtls_md_setup(&c->md, info, hmac) != 0) {
        mbedtls_md_free(&c->md);
        free(c);
        return NULL;
    }
    c->full = mbedtls_md_get_size(info);
    return c;
}

static int hash_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)s;
    md_ctx *c = md_new(*(const mbedtls_md_type_t *)arg, 0);
    if (!c)
        return CB_ERR;
    *ctx = c;
    return CB_OK;
}

static int hash_run(void *ctx, cb_msg *m)
{
    md_ctx *c = ctx;
    uint8_t md[MBEDTLS_MD_MAX_SIZE];
    if (m->tag_len > c->full)
        return CB_ERR_PARAM;
    if (mbedtls_md_starts(&c->md) || mbedtls_md_update(&c->md, m->in, m->len) ||
        mbedtls_md_finish(&c->md, md))
        return CB_ERR;
    memcpy(m->tag, md, m->tag_len);
    return CB_OK;
}

static void md_finish(void *ctx)
{
    md_ctx *c = ctx;
    if (!c)
        return;
    mbedtls_md_free(&c->md);
    free(c);
}

/* The key is processed once by hmac_starts; hmac_reset returns to it. */
static int hmac_init(void **ctx, const void *arg, const cb_setup *s)
{
    md_ctx *c = md_new(*(const mbedtls_md_type_t *)arg, 1);
    if (!c)
        return CB_ERR;
    if (mbedtls_md_hmac_starts(&c->md, s->key, s->key_len) != 0) {
        md_finish(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int hmac_run(void *ctx, cb_msg *m)
{
    md_ctx *c = ctx;
    uint8_t mac[MBEDTLS_MD_MAX_SIZE];
    if (m->tag_len > c->full)
        return CB_ERR_PARAM;
    if (mbedtls_md_hmac_update(&c->md, m->in, m->len) || mbedtls_md_hmac_finish(&c->md, mac) ||
        mbedtls_md_hmac_reset(&c->md))
        return CB_ERR;
    memcpy(m->tag, mac, m->tag_len);
    return CB_OK;
}

/* ---- CMAC, GMAC, Poly1305 ---------------------------------------------------- */

static int cmac_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)arg;
    if (s->key_len != 16)
        return CB_ERR_PARAM;
    mbedtls_cipher_context_t *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    mbedtls_cipher_init(c);
    if (mbedtls_cipher_setup(c, mbedtls_cipher_info_from_type(MBEDTLS_CIPHER_AES_128_ECB)) ||
        mbedtls_cipher_cmac_starts(c, s->key, 128)) {
        mbedtls_cipher_free(c);
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int cmac_run(void *ctx, cb_msg *m)
{
    uint8_t mac[16];
    if (m->tag_len > 16)
        return CB_ERR_PARAM;
    if (mbedtls_cipher_cmac_reset(ctx) || mbedtls_cipher_cmac_update(ctx, m->in, m->len) ||
        mbedtls_cipher_cmac_finish(ctx, mac))
        return CB_ERR;
    memcpy(m->tag, mac, m->tag_len);
    return CB_OK;
}

static void cmac_finish(void *ctx)
{
    if (!ctx)
        return;
    mbedtls_cipher_free(ctx);
    free(ctx);
}

/* GMAC is GCM with the message as associated data and nothing to encrypt
 * (NIST SP 800-38D); Mbed TLS has no separate name for it. */
static int gmac_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)arg;
    if (s->key_len != 16 || s->tag_len > 16)
        return CB_ERR_PARAM;
    mbedtls_gcm_context *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    mbedtls_gcm_init(c);
    if (mbedtls_gcm_setkey(c, MBEDTLS_CIPHER_ID_AES, s->key, 128)) {
        mbedtls_gcm_free(c);
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int gmac_run(void *ctx, cb_msg *m)
{
    int r = mbedtls_gcm_crypt_and_tag(ctx, MBEDTLS_GCM_ENCRYPT, 0, m->nonce, m->nonce_len,
                                      m->in, m->len, NULL, NULL, m->tag_len, m->tag);
    if (r == MBEDTLS_ERR_GCM_BAD_INPUT)
        return CB_ERR_PARAM;
    return r ? CB_ERR : CB_OK;
}

static void gmac_finish(void *ctx)
{
    if (!ctx)
        return;
    mbedtls_gcm_free(ctx);
    free(ctx);
}

static int poly1305_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)arg;
    if (s->key_len != 32)
        return CB_ERR_PARAM;
    uint8_t *key = malloc(32);
    if (!key)
        return CB_ERR;
    memcpy(key, s->key, 32);
    *ctx = key;
    return CB_OK;
}

static int poly1305_run(void *ctx, cb_msg *m)
{
    uint8_t mac[16];
    if (m->tag_len > 16)
        return CB_ERR_PARAM;
    if (mbedtls_poly1305_mac(ctx, m->in, m->len, mac))
        return CB_ERR;
    memcpy(m->tag, mac, m->tag_len);
    return CB_OK;
}

static void poly1305_finish(void *ctx) { free(ctx); }

/* ---- the table ------------------------------------------------------------- */

static const aead_def a_gcm128 = {AEAD_GCM, 16, MBEDTLS_CIPHER_ID_AES},
                      a_gcm256 = {AEAD_GCM, 32, MBEDTLS_CIPHER_ID_AES},
                      a_ccm128 = {AEAD_CCM, 16, MBEDTLS_CIPHER_ID_AES},
                      a_ccm256 = {AEAD_CCM, 32, MBEDTLS_CIPHER_ID_AES},
                      a_gcm192 = {AEAD_GCM, 24, MBEDTLS_CIPHER_ID_AES},
                      a_ccm192 = {AEAD_CCM, 24, MBEDTLS_CIPHER_ID_AES},
                      a_chapoly = {AEAD_CHACHAPOLY, 32, MBEDTLS_CIPHER_ID_CHACHA20};
/* GCM and CCM over Camellia and ARIA */
static const aead_def
    a_camellia128gcm = {AEAD_GCM, 16, MBEDTLS_CIPHER_ID_CAMELLIA},
    a_camellia128ccm = {AEAD_CCM, 16, MBEDTLS_CIPHER_ID_CAMELLIA},
    a_camellia192gcm = {AEAD_GCM, 24, MBEDTLS_CIPHER_ID_CAMELLIA},
    a_camellia192ccm = {AEAD_CCM, 24, MBEDTLS_CIPHER_ID_CAMELLIA},
    a_camellia256gcm = {AEAD_GCM, 32, MBEDTLS_CIPHER_ID_CAMELLIA},
    a_camellia256ccm = {AEAD_CCM, 32, MBEDTLS_CIPHER_ID_CAMELLIA};
#if defined(MBEDTLS_ARIA_C)
static const aead_def
    a_aria128gcm = {AEAD_GCM, 16, MBEDTLS_CIPHER_ID_ARIA},
    a_aria128ccm = {AEAD_CCM, 16, MBEDTLS_CIPHER_ID_ARIA},
    a_aria192gcm = {AEAD_GCM, 24, MBEDTLS_CIPHER_ID_ARIA},
    a_aria192ccm = {AEAD_CCM, 24, MBEDTLS_CIPHER_ID_ARIA},
    a_aria256gcm = {AEAD_GCM, 32, MBEDTLS_CIPHER_ID_ARIA},
    a_aria256ccm = {AEAD_CCM, 32, MBEDTLS_CIPHER_ID_ARIA};
#endif

/*                                   type                               key iv var */
static const cipher_def c_aes128cbc = {MBEDTLS_CIPHER_AES_128_CBC,      16, 16, 0};
static const cipher_def c_aes192cbc = {MBEDTLS_CIPHER_AES_192_CBC,      24, 16, 0};
static const cipher_def c_aes256cbc = {MBEDTLS_CIPHER_AES_256_CBC,      32, 16, 0};
static const cipher_def c_aes128ctr = {MBEDTLS_CIPHER_AES_128_CTR,      16, 16, 0};
static const cipher_def c_aes192ctr = {MBEDTLS_CIPHER_AES_192_CTR,      24, 16, 0};
static const cipher_def c_aes256ctr = {MBEDTLS_CIPHER_AES_256_CTR,      32, 16, 0};
static const cipher_def c_aes128cfb = {MBEDTLS_CIPHER_AES_128_CFB128,   16, 16, 0};
static const cipher_def c_aes192cfb = {MBEDTLS_CIPHER_AES_192_CFB128,   24, 16, 0};
static const cipher_def c_aes256cfb = {MBEDTLS_CIPHER_AES_256_CFB128,   32, 16, 0};
static const cipher_def c_aes128ecb = {MBEDTLS_CIPHER_AES_128_ECB,      16, 0, 0};
static const cipher_def c_aes192ecb = {MBEDTLS_CIPHER_AES_192_ECB,      24, 0, 0};
static const cipher_def c_aes256ecb = {MBEDTLS_CIPHER_AES_256_ECB,      32, 0, 0};
static const cipher_def c_cam128cbc = {MBEDTLS_CIPHER_CAMELLIA_128_CBC, 16, 16, 0};
static const cipher_def c_cam256cbc = {MBEDTLS_CIPHER_CAMELLIA_256_CBC, 32, 16, 0};
static const cipher_def c_cam128ctr = {MBEDTLS_CIPHER_CAMELLIA_128_CTR, 16, 16, 0};
static const cipher_def c_cam256ctr = {MBEDTLS_CIPHER_CAMELLIA_256_CTR, 32, 16, 0};
static const cipher_def c_cam128cfb = {MBEDTLS_CIPHER_CAMELLIA_128_CFB128, 16, 16, 0};
static const cipher_def c_cam192cfb = {MBEDTLS_CIPHER_CAMELLIA_192_CFB128, 24, 16, 0};
static const cipher_def c_cam256cfb = {MBEDTLS_CIPHER_CAMELLIA_256_CFB128, 32, 16, 0};
#if defined(MBEDTLS_BLOWFISH_C)
static const cipher_def c_bfcbc     = {MBEDTLS_CIPHER_BLOWFISH_CBC,     16, 8, 1};
static const cipher_def c_bfcfb     = {MBEDTLS_CIPHER_BLOWFISH_CFB64,   16, 8, 1};
#endif
static const cipher_def c_3descbc   = {MBEDTLS_CIPHER_DES_EDE3_CBC,     24, 8, 0};
static const cipher_def c_descbc    = {MBEDTLS_CIPHER_DES_CBC,          8, 8, 0};
static const cipher_def c_chacha20  = {MBEDTLS_CIPHER_CHACHA20,         32, 12, 0};

/* the block-cipher grid (algorithms.c): the other modes and key sizes this library has */
static const cipher_def c_cam192ctr = {MBEDTLS_CIPHER_CAMELLIA_192_CTR, 24, 16, 0};
static const cipher_def c_cam128ecb = {MBEDTLS_CIPHER_CAMELLIA_128_ECB, 16, 0, 0};
static const cipher_def c_cam192ecb = {MBEDTLS_CIPHER_CAMELLIA_192_ECB, 24, 0, 0};
static const cipher_def c_cam256ecb = {MBEDTLS_CIPHER_CAMELLIA_256_ECB, 32, 0, 0};
static const cipher_def c_cam192cbc = {MBEDTLS_CIPHER_CAMELLIA_192_CBC, 24, 16, 0};
static const cipher_def c_desecb    = {MBEDTLS_CIPHER_DES_ECB,          8, 0, 0};
static const cipher_def c_3desecb   = {MBEDTLS_CIPHER_DES_EDE3_ECB,     24, 0, 0};
static const cipher_def c_3des2ecb  = {MBEDTLS_CIPHER_DES_EDE_ECB,      16, 0, 0};
static const cipher_def c_3des2cbc  = {MBEDTLS_CIPHER_DES_EDE_CBC,      16, 8, 0};
#if defined(MBEDTLS_BLOWFISH_C)
static const cipher_def c_bfecb     = {MBEDTLS_CIPHER_BLOWFISH_ECB,     16, 0, 1};
static const cipher_def c_bfctr     = {MBEDTLS_CIPHER_BLOWFISH_CTR,     16, 8, 1};
#endif
#if defined(MBEDTLS_ARIA_C)
static const cipher_def c_aria128ecb = {MBEDTLS_CIPHER_ARIA_128_ECB, 16, 0, 0};
static const cipher_def c_aria128cbc = {MBEDTLS_CIPHER_ARIA_128_CBC, 16, 16, 0};
static const cipher_def c_aria128cfb = {MBEDTLS_CIPHER_ARIA_128_CFB128, 16, 16, 0};
static const cipher_def c_aria128ctr = {MBEDTLS_CIPHER_ARIA_128_CTR, 16, 16, 0};
static const cipher_def c_aria192ecb = {MBEDTLS_CIPHER_ARIA_192_ECB, 24, 0, 0};
static const cipher_def c_aria192cbc = {MBEDTLS_CIPHER_ARIA_192_CBC, 24, 16, 0};
static const cipher_def c_aria192cfb = {MBEDTLS_CIPHER_ARIA_192_CFB128, 24, 16, 0};
static const cipher_def c_aria192ctr = {MBEDTLS_CIPHER_ARIA_192_CTR, 24, 16, 0};
static const cipher_def c_aria256ecb = {MBEDTLS_CIPHER_ARIA_256_ECB, 32, 0, 0};
static const cipher_def c_aria256cbc = {MBEDTLS_CIPHER_ARIA_256_CBC, 32, 16, 0};
static const cipher_def c_aria256cfb = {MBEDTLS_CIPHER_ARIA_256_CFB128, 32, 16, 0};
static const cipher_def c_aria256ctr = {MBEDTLS_CIPHER_ARIA_256_CTR, 32, 16, 0};
#endif
/* OFB through the generic layer, which keeps the keystream's offset */
static const cipher_def c_aes128ofb = {MBEDTLS_CIPHER_AES_128_OFB,      16, 16, 0};
static const cipher_def c_aes192ofb = {MBEDTLS_CIPHER_AES_192_OFB,      24, 16, 0};
static const cipher_def c_aes256ofb = {MBEDTLS_CIPHER_AES_256_OFB,      32, 16, 0};

#if defined(MBEDTLS_NIST_KW_C)
static const kw_def
    k_aes128kw = {MBEDTLS_KW_MODE_KW, 16}, k_aes192kw = {MBEDTLS_KW_MODE_KW, 24},
    k_aes256kw = {MBEDTLS_KW_MODE_KW, 32}, k_aes128kwp = {MBEDTLS_KW_MODE_KWP, 16},
    k_aes192kwp = {MBEDTLS_KW_MODE_KWP, 24}, k_aes256kwp = {MBEDTLS_KW_MODE_KWP, 32};
#endif

static const size_t x_aes128 = 32, x_aes256 = 64;

static const mbedtls_md_type_t
    h_md5 = MBEDTLS_MD_MD5, h_sha1 = MBEDTLS_MD_SHA1, h_sha224 = MBEDTLS_MD_SHA224,
    h_sha256 = MBEDTLS_MD_SHA256, h_sha384 = MBEDTLS_MD_SHA384, h_sha512 = MBEDTLS_MD_SHA512,
    h_rmd160 = MBEDTLS_MD_RIPEMD160;
#if defined(MBEDTLS_SHA3_C)
static const mbedtls_md_type_t h_sha3_256 = MBEDTLS_MD_SHA3_256, h_sha3_512 = MBEDTLS_MD_SHA3_512,
                               h_sha3_224 = MBEDTLS_MD_SHA3_224, h_sha3_384 = MBEDTLS_MD_SHA3_384;
#endif
#if defined(MBEDTLS_MD4_C)
static const mbedtls_md_type_t h_md4 = MBEDTLS_MD_MD4;
#endif
#if defined(MBEDTLS_MD2_C)
static const mbedtls_md_type_t h_md2 = MBEDTLS_MD_MD2;
#endif

#define AEAD(n, a) {n, a, aead_init, aead_run, aead_finish}
#define CIPHER(n, a) {n, a, cipher_init, cipher_run, cipher_finish}
#define XTS(n, a) {n, a, xts_init, xts_run, xts_finish}
#define HASH(n, a) {n, a, hash_init, hash_run, md_finish}
#define HMAC(n, a) {n, a, hmac_init, hmac_run, md_finish}
#define KW(n, a) {n, a, kw_init, kw_run, kw_finish}

static const cb_op mbedtls_ops[] = {
    AEAD("aes-128-gcm", &a_gcm128),
    AEAD("aes-256-gcm", &a_gcm256),
    AEAD("chacha20-poly1305", &a_chapoly),
    AEAD("aes-128-ccm", &a_ccm128),
    AEAD("aes-256-ccm", &a_ccm256),
    AEAD("aes-128-ccm-8", &a_ccm128),   /* the tag length from the row */
    AEAD("aes-256-ccm-8", &a_ccm256),
    AEAD("aes-192-gcm", &a_gcm192),
    AEAD("aes-192-ccm", &a_ccm192),
    /* GCM and CCM over Camellia and ARIA */
    AEAD("camellia-128-gcm", &a_camellia128gcm),
    AEAD("camellia-192-gcm", &a_camellia192gcm),
    AEAD("camellia-256-gcm", &a_camellia256gcm),
    AEAD("camellia-128-ccm", &a_camellia128ccm),
    AEAD("camellia-192-ccm", &a_camellia192ccm),
    AEAD("camellia-256-ccm", &a_camellia256ccm),
#if defined(MBEDTLS_ARIA_C)
    AEAD("aria-128-gcm", &a_aria128gcm),
    AEAD("aria-192-gcm", &a_aria192gcm),
    AEAD("aria-256-gcm", &a_aria256gcm),
    AEAD("aria-128-ccm", &a_aria128ccm),
    AEAD("aria-192-ccm", &a_aria192ccm),
    AEAD("aria-256-ccm", &a_aria256ccm),
#endif
    CIPHER("aes-128-cbc", &c_aes128cbc),
    CIPHER("aes-192-cbc", &c_aes192cbc),
    CIPHER("aes-256-cbc", &c_aes256cbc),
    CIPHER("aes-128-ctr", &c_aes128ctr),
    CIPHER("aes-192-ctr", &c_aes192ctr),
    CIPHER("aes-256-ctr", &c_aes256ctr),
    CIPHER("aes-128-cfb", &c_aes128cfb),
    CIPHER("aes-192-cfb", &c_aes192cfb),
    CIPHER("aes-256-cfb", &c_aes256cfb),
    CIPHER("aes-128-ecb", &c_aes128ecb),
    CIPHER("aes-192-ecb", &c_aes192ecb),
    CIPHER("aes-256-ecb", &c_aes256ecb),
    CIPHER("aes-128-ofb", &c_aes128ofb),
    CIPHER("aes-192-ofb", &c_aes192ofb),
    CIPHER("aes-256-ofb", &c_aes256ofb),
#if defined(MBEDTLS_NIST_KW_C)
    KW("aes-128-kw", &k_aes128kw),
    KW("aes-192-kw", &k_aes192kw),
    KW("aes-256-kw", &k_aes256kw),
    KW("aes-128-kwp", &k_aes128kwp),
    KW("aes-192-kwp", &k_aes192kwp),
    KW("aes-256-kwp", &k_aes256kwp),
#endif
    XTS("aes-128-xts", &x_aes128),
    XTS("aes-256-xts", &x_aes256),
    CIPHER("camellia-128-cbc", &c_cam128cbc),
    CIPHER("camellia-256-cbc", &c_cam256cbc),
    CIPHER("camellia-128-ctr", &c_cam128ctr),
    CIPHER("camellia-256-ctr", &c_cam256ctr),
#if defined(MBEDTLS_BLOWFISH_C)
    CIPHER("blowfish-cbc", &c_bfcbc),
#endif
    CIPHER("3des-cbc", &c_3descbc),
    CIPHER("des-cbc", &c_descbc),
#if defined(MBEDTLS_ARC4_C)
    {"rc4", NULL, rc4_init, rc4_run, rc4_finish},
    {"rc4-40", NULL, rc4_init, rc4_run, rc4_finish},   /* a 5-byte key */
#endif
    CIPHER("chacha20", &c_chacha20),
    /* full-block CFB, as OpenPGP uses it */
    CIPHER("camellia-128-cfb", &c_cam128cfb),
    CIPHER("camellia-192-cfb", &c_cam192cfb),
    CIPHER("camellia-256-cfb", &c_cam256cfb),
#if defined(MBEDTLS_BLOWFISH_C)
    CIPHER("blowfish-cfb", &c_bfcfb),
#endif
    /* the block-cipher grid */
    CIPHER("camellia-192-cbc", &c_cam192cbc),
    CIPHER("camellia-192-ctr", &c_cam192ctr),
    CIPHER("camellia-128-ecb", &c_cam128ecb),
    CIPHER("camellia-192-ecb", &c_cam192ecb),
    CIPHER("camellia-256-ecb", &c_cam256ecb),
    CIPHER("des-ecb", &c_desecb),
    CIPHER("3des-ecb", &c_3desecb),
    CIPHER("3des-2key-ecb", &c_3des2ecb),
    CIPHER("3des-2key-cbc", &c_3des2cbc),
#if defined(MBEDTLS_BLOWFISH_C)
    CIPHER("blowfish-ecb", &c_bfecb),
    CIPHER("blowfish-ctr", &c_bfctr),
#endif
#if defined(MBEDTLS_ARIA_C)
    CIPHER("aria-128-ecb", &c_aria128ecb),
    CIPHER("aria-128-cbc", &c_aria128cbc),
    CIPHER("aria-128-cfb", &c_aria128cfb),
    CIPHER("aria-128-ctr", &c_aria128ctr),
    CIPHER("aria-192-ecb", &c_aria192ecb),
    CIPHER("aria-192-cbc", &c_aria192cbc),
    CIPHER("aria-192-cfb", &c_aria192cfb),
    CIPHER("aria-192-ctr", &c_aria192ctr),
    CIPHER("aria-256-ecb", &c_aria256ecb),
    CIPHER("aria-256-cbc", &c_aria256cbc),
    CIPHER("aria-256-cfb", &c_aria256cfb),
    CIPHER("aria-256-ctr", &c_aria256ctr),
#endif
    HASH("md5", &h_md5),
    HASH("sha1", &h_sha1),
    HASH("sha224", &h_sha224),
    HASH("sha256", &h_sha256),
    HASH("sha384", &h_sha384),
    HASH("sha512", &h_sha512),
    HASH("ripemd160", &h_rmd160),
#if defined(MBEDTLS_SHA3_C)
    HASH("sha3-256", &h_sha3_256),
    HASH("sha3-512", &h_sha3_512),
    HASH("sha3-224", &h_sha3_224),
    HASH("sha3-384", &h_sha3_384),
#endif
#if defined(MBEDTLS_MD4_C)
    HASH("md4", &h_md4),
#endif
#if defined(MBEDTLS_MD2_C)
    HASH("md2", &h_md2),
#endif
    HMAC("hmac-md5", &h_md5),
    HMAC("hmac-sha1", &h_sha1),
    HMAC("hmac-sha256", &h_sha256),
    HMAC("hmac-sha512", &h_sha512),
    HMAC("hmac-ripemd160", &h_rmd160),
#if defined(MBEDTLS_SHA3_C)
    HMAC("hmac-sha3-256", &h_sha3_256),
    HMAC("hmac-sha3-512", &h_sha3_512),
    HMAC("hmac-sha3-224", &h_sha3_224),
    HMAC("hmac-sha3-384", &h_sha3_384),
#endif
    HMAC("hmac-sha224", &h_sha224),
    HMAC("hmac-sha384", &h_sha384),
#if defined(MBEDTLS_MD4_C)
    HMAC("hmac-md4", &h_md4),
#endif
#if defined(MBEDTLS_MD2_C)
    HMAC("hmac-md2", &h_md2),
#endif
    {"poly1305", NULL, poly1305_init, poly1305_run, poly1305_finish},
    {"cmac-aes-128", NULL, cmac_init, cmac_run, cmac_finish},
    {"gmac-aes-128", NULL, gmac_init, gmac_run, gmac_finish},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- what Mbed TLS offers (list --offered) ----------------------------------
 * mbedtls_cipher_list and mbedtls_md_list name the cipher and digest types
 * this Mbed TLS was built with. A row measures a cipher type when its
 * cipher_def has that type; an AEAD or XTS row when its block cipher, key
 * length and mode are the type's (3.x hides the block cipher's id: its name
 * starts with it). mbedtls_md_hmac works over every digest, so each digest
 * is offered as HMAC too. */

#if MBEDTLS_VERSION_MAJOR >= 3
#define INFO_NAME(i) mbedtls_cipher_info_get_name(i)
#define INFO_MODE(i) mbedtls_cipher_info_get_mode(i)
#define INFO_BITS(i) mbedtls_cipher_info_get_key_bitlen(i)
#else
#define INFO_NAME(i) ((i)->name)
#define INFO_MODE(i) ((i)->mode)
#define INFO_BITS(i) ((size_t)(i)->key_bitlen)
#endif

static int block_id_of(const char *name, mbedtls_cipher_id_t *id)
{
    static const struct { const char *prefix; mbedtls_cipher_id_t id; } ids[] = {
        {"AES-", MBEDTLS_CIPHER_ID_AES},
        {"CAMELLIA-", MBEDTLS_CIPHER_ID_CAMELLIA},
        {"ARIA-", MBEDTLS_CIPHER_ID_ARIA},
        {"CHACHA20-POLY1305", MBEDTLS_CIPHER_ID_CHACHA20},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (!strncmp(name, ids[i].prefix, strlen(ids[i].prefix))) {
            *id = ids[i].id;
            return 1;
        }
    return 0;
}

/* The aead_def mode of a cipher type's mode; -1: not an AEAD. */
static int aead_mode_of(mbedtls_cipher_mode_t mode)
{
    return mode == MBEDTLS_MODE_GCM ? AEAD_GCM
         : mode == MBEDTLS_MODE_CCM ? AEAD_CCM
         : mode == MBEDTLS_MODE_CHACHAPOLY ? AEAD_CHACHAPOLY : -1;
}

static const char *mbedtls_cipher_row_for(int type, const mbedtls_cipher_info_t *info)
{
    mbedtls_cipher_mode_t mode = INFO_MODE(info);
    size_t key_len = INFO_BITS(info) / 8;
    int aead_mode = aead_mode_of(mode);
    mbedtls_cipher_id_t id = MBEDTLS_CIPHER_ID_NONE;
    if (!block_id_of(INFO_NAME(info), &id) && aead_mode >= 0)
        return NULL;
    for (const cb_op *r = mbedtls_ops; r->algo; r++) {
        if (r->init == cipher_init && ((const cipher_def *)r->arg)->type == (mbedtls_cipher_type_t)type)
            return r->algo;
        if (r->init == aead_init && aead_mode >= 0) {
            const aead_def *d = r->arg;
            if (d->mode == aead_mode && d->key_len == key_len && d->id == id)
                return r->algo;
        }
        if (r->init == xts_init && mode == MBEDTLS_MODE_XTS &&
            *(const size_t *)r->arg == key_len)
            return r->algo;
#if defined(MBEDTLS_NIST_KW_C)
        /* the key-wrap types name their block cipher too; only AES has rows */
        if (r->init == kw_init && (mode == MBEDTLS_MODE_KW || mode == MBEDTLS_MODE_KWP) &&
            id == MBEDTLS_CIPHER_ID_AES &&
            ((const kw_def *)r->arg)->key_len == key_len &&
            (((const kw_def *)r->arg)->mode == MBEDTLS_KW_MODE_KWP) == (mode == MBEDTLS_MODE_KWP))
            return r->algo;
#endif
#if defined(MBEDTLS_ARC4_C)
        if (r->init == rc4_init && type == MBEDTLS_CIPHER_ARC4_128)
            return r->algo;
#endif
    }
    return NULL;
}

static const char *mbedtls_md_row_for(int hmac, int type)
{
    for (const cb_op *r = mbedtls_ops; r->algo; r++)
        if (r->init == (hmac ? hmac_init : hash_init) &&
            *(const mbedtls_md_type_t *)r->arg == (mbedtls_md_type_t)type)
            return r->algo;
    return NULL;
}

void cb_offered_mbedtls(cb_offer_fn *offer, void *u);
void cb_offered_mbedtls(cb_offer_fn *offer, void *u)
{
    for (const int *t = mbedtls_cipher_list(); *t; t++) {
        const mbedtls_cipher_info_t *info = mbedtls_cipher_info_from_type((mbedtls_cipher_type_t)*t);
        if (!info || *t == MBEDTLS_CIPHER_NULL)
            continue;   /* NULL: no cipher at all */
        mbedtls_cipher_mode_t mode = INFO_MODE(info);
        const char *kind = aead_mode_of(mode) >= 0 ? "aead"
                         : mode == MBEDTLS_MODE_KW || mode == MBEDTLS_MODE_KWP ? "keywrap"
                         : "cipher";
        offer(u, kind, INFO_NAME(info), mbedtls_cipher_row_for(*t, info));
    }
    for (const int *t = mbedtls_md_list(); *t; t++) {
        const mbedtls_md_info_t *info = mbedtls_md_info_from_type((mbedtls_md_type_t)*t);
        if (!info)
            continue;
        const char *name = mbedtls_md_get_name(info);
        char hmac[48];
        offer(u, "hash", name, mbedtls_md_row_for(0, *t));
        snprintf(hmac, sizeof hmac, "HMAC-%s", name);
        offer(u, "mac", hmac, mbedtls_md_row_for(1, *t));
    }
}

static const char *mbedtls_backend_version(void)
{
    static char buf[32];   /* the call needs at least 9 bytes */
    mbedtls_version_get_string(buf);
    return buf;
}

/* Mbed TLS picks AES-NI (AES rounds) and PCLMULQDQ (GHASH) at run time; it
 * has no switch to turn them off other than rebuilding.
 * 2.28 tells what it picked through mbedtls_aesni_has_support(). 3.x made
 * that header private; what it does is public all the same: a library built
 * with MBEDTLS_AESNI_C (asked of the library itself, as its build may differ
 * from these headers) has AES-NI code on x86-64 and takes it when CPUID
 * offers the instructions, as its aes.c and gcm.c do. */
enum { HW_AES, HW_CLMUL };

static int has_aesni(int what)
{
#if MBEDTLS_VERSION_MAJOR < 3 && defined(MBEDTLS_AESNI_C) && defined(MBEDTLS_AESNI_HAVE_CODE)
    return mbedtls_aesni_has_support(what == HW_AES ? MBEDTLS_AESNI_AES : MBEDTLS_AESNI_CLMUL);
#elif MBEDTLS_VERSION_MAJOR >= 3 && defined(__x86_64__) && defined(MBEDTLS_VERSION_C) && \
    defined(MBEDTLS_VERSION_FEATURES)
    if (mbedtls_version_check_feature("MBEDTLS_AESNI_C") != 0)
        return 0;
    cb_x86 cpu;
    cb_x86_detect(&cpu);
    return (cpu.hw & (what == HW_AES ? CB_HW_AES : CB_HW_PCLMUL)) != 0;
#else
    (void)what;
    return 0;
#endif
}

static unsigned mbedtls_backend_caps(void)
{
    unsigned caps = CB_CAP_NO_HW_SWITCH;
    if (has_aesni(HW_AES))
        caps |= CB_CAP_AES_HW;
    if (has_aesni(HW_CLMUL))
        caps |= CB_CAP_CLMUL_HW;
    return caps;
}

static const char *mbedtls_backend_provider(void)
{
    int aes = has_aesni(HW_AES), clmul = has_aesni(HW_CLMUL);
    return aes && clmul ? "aesni+pclmul" : aes ? "aesni" : clmul ? "pclmul" : "c";
}

const cb_backend cb_backend_mbedtls = {
    .name = "mbedtls",
    .version = mbedtls_backend_version,
    .global_init = NULL,
    .caps = mbedtls_backend_caps,
    .provider = mbedtls_backend_provider,
    .ops = mbedtls_ops,
};
