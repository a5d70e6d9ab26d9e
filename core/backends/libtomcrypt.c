/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libtomcrypt.c - LibTomCrypt backend (portable C, descriptor tables).
 *
 * LibTomCrypt checks its arguments with LTC_ARGCHK, which aborts the process
 * on a NULL pointer even for empty buffers, so every pointer handed to it is
 * made non-NULL here (NZ) and every size it would silently adjust (CCM nonce
 * and tag lengths) is checked first.
 */
#include "../backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tomcrypt.h>

static const unsigned char empty_in[16];
static unsigned char empty_out[16];
#define NZ(p) ((p) ? (p) : empty_in)     /* const input */
#define NZO(p) ((p) ? (p) : empty_out)   /* output */

static int map_err(int err)
{
    switch (err) {
    case CRYPT_OK: return CB_OK;
    case CRYPT_INVALID_KEYSIZE:
    case CRYPT_INVALID_ROUNDS:
    case CRYPT_INVALID_ARG:
    case CRYPT_BUFFER_OVERFLOW:
        return CB_ERR_PARAM;
    default: return CB_ERR;
    }
}

/* register_cipher/register_hash return the existing index when the
 * descriptor is already there, so each init() can ask for it. */
static int cipher_idx(const struct ltc_cipher_descriptor *d)
{
    return register_cipher(d);
}

/* ------------------------------------------------------------------- AEAD */

enum aead_type { AEAD_GCM, AEAD_OCB3, AEAD_CCM, AEAD_CHACHA };

typedef struct {
    enum aead_type type;
    size_t key_len;
    const struct ltc_cipher_descriptor *desc;   /* the block cipher (NULL for ChaCha20-Poly1305) */
} aead_arg;

typedef struct {
    enum aead_type type;
    int cipher, decrypt;
    size_t tag_len, key_len;
    unsigned char key[32];
    union {
        gcm_state gcm;                 /* key schedule and GHASH tables */
        ocb3_state ocb;
        symmetric_key skey;            /* CCM: the scheduled key */
        chacha20poly1305_state cp;
    } u;
} aead_ctx;

static void aead_finish(void *ctx)
{
    free(ctx);
}

static int aead_init(void **ctx, const void *arg, const cb_setup *s)
{
    const aead_arg *a = arg;
    int err = CRYPT_OK;
    if (!s->key || s->key_len != a->key_len)
        return CB_ERR_PARAM;
    aead_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->type = a->type;
    x->decrypt = s->decrypt;
    x->tag_len = s->tag_len ? s->tag_len : 16;
    x->key_len = s->key_len;
    memcpy(x->key, s->key, s->key_len);
    if (x->tag_len > 16 || (a->type == AEAD_CHACHA && x->tag_len != 16) ||
        (a->type == AEAD_CCM && (x->tag_len < 4 || x->tag_len % 2))) {
        free(x);
        return CB_ERR_PARAM;
    }
    const struct ltc_cipher_descriptor *desc = a->desc;
    if (a->type != AEAD_CHACHA && (x->cipher = cipher_idx(desc)) < 0) {
        free(x);
        return CB_ERR;
    }
    switch (a->type) {
    case AEAD_GCM:
        err = gcm_init(&x->u.gcm, x->cipher, s->key, (int)s->key_len);
        break;
    case AEAD_CCM:
        err = desc->setup(s->key, (int)s->key_len, 0, &x->u.skey);
        break;
    case AEAD_CHACHA:
    case AEAD_OCB3:
        /* Keyed per message: ocb3_init takes key and nonce together, and
         * chacha20poly1305_done wipes the key (see run_chacha). */
        break;
    }
    if (err != CRYPT_OK) {
        free(x);
        return map_err(err);
    }
    *ctx = x;
    return CB_OK;
}

static int run_gcm(aead_ctx *x, cb_msg *m, unsigned char *tag)
{
    gcm_state *g = &x->u.gcm;
    unsigned long tl = x->tag_len;
    int err;
    if (m->nonce_len == 0)
        return CRYPT_INVALID_ARG;
    if ((err = gcm_reset(g)) != CRYPT_OK ||
        (err = gcm_add_iv(g, m->nonce, m->nonce_len)) != CRYPT_OK ||
        (err = gcm_add_aad(g, NZ(m->aad), m->aad_len)) != CRYPT_OK)
        return err;
    if (!x->decrypt)
        err = gcm_process(g, (unsigned char *)NZ(m->in), m->len, NZO(m->out), GCM_ENCRYPT);
    else
        err = gcm_process(g, NZO(m->out), m->len, (unsigned char *)NZ(m->in), GCM_DECRYPT);
    if (err == CRYPT_OK)
        err = gcm_done(g, tag, &tl);
    return err == CRYPT_OK && tl != x->tag_len ? CRYPT_INVALID_ARG : err;
}

static int run_ocb3(aead_ctx *x, cb_msg *m, unsigned char *tag)
{
    ocb3_state *o = &x->u.ocb;
    unsigned long tl = x->tag_len, full = m->len / 16 * 16;
    const unsigned char *in = NZ(m->in);
    unsigned char *out = NZO(m->out);
    int err;
    if (m->nonce_len == 0 || m->nonce_len > 15)
        return CRYPT_INVALID_ARG;
    err = ocb3_init(o, x->cipher, x->key, x->key_len, m->nonce, m->nonce_len, x->tag_len);
    if (err == CRYPT_OK && m->aad_len)
        err = ocb3_add_aad(o, m->aad, m->aad_len);
    if (err != CRYPT_OK)
        return err;
    if (!x->decrypt) {
        if (full)
            err = ocb3_encrypt(o, in, full, out);
        if (err == CRYPT_OK)
            err = ocb3_encrypt_last(o, in + full, m->len - full, out + full);
    } else {
        if (full)
            err = ocb3_decrypt(o, in, full, out);
        if (err == CRYPT_OK)
            err = ocb3_decrypt_last(o, in + full, m->len - full, out + full);
    }
    if (err == CRYPT_OK)
        err = ocb3_done(o, tag, &tl);
    return err == CRYPT_OK && tl != x->tag_len ? CRYPT_INVALID_ARG : err;
}

static int run_chacha(aead_ctx *x, cb_msg *m, unsigned char *tag)
{
    chacha20poly1305_state *st = &x->u.cp;
    unsigned long tl = 16;
    int err;
    /* LibTomCrypt also takes an 8-byte nonce: that is another construction. */
    if (m->nonce_len != 12)
        return CRYPT_INVALID_ARG;
    /* LibTomCrypt 1.18 pads the AAD to 16 bytes only when some text follows:
     * an empty message after unaligned AAD gets a wrong tag. Refuse it. */
    if (m->len == 0 && m->aad_len % 16)
        return CRYPT_INVALID_ARG;
    /* chacha20poly1305_done wipes the ChaCha key from the state, so it is
     * loaded again for each message (a copy: ChaCha has no key schedule). */
    err = chacha20poly1305_init(st, x->key, x->key_len);
    if (err == CRYPT_OK)
        err = chacha20poly1305_setiv(st, m->nonce, m->nonce_len);
    if (err == CRYPT_OK && m->aad_len)
        err = chacha20poly1305_add_aad(st, m->aad, m->aad_len);
    if (err != CRYPT_OK)
        return err;
    if (!x->decrypt)
        err = chacha20poly1305_encrypt(st, NZ(m->in), m->len, NZO(m->out));
    else
        err = chacha20poly1305_decrypt(st, NZ(m->in), m->len, NZO(m->out));
    if (err == CRYPT_OK)
        err = chacha20poly1305_done(st, tag, &tl);
    return err;
}

static int aead_run(void *ctx, cb_msg *m)
{
    aead_ctx *x = ctx;
    unsigned char tag[16];
    int err;

    if (m->tag_len != x->tag_len)
        return CB_ERR_PARAM;
    if (x->type == AEAD_CCM) {
        /* ccm_memory verifies the tag itself (CRYPT_ERROR on mismatch) and
         * would quietly shorten a nonce too long for the message length. */
        size_t L = 15 - m->nonce_len;
        unsigned long tl = x->tag_len;
        if (m->nonce_len < 7 || m->nonce_len > 13 || (L < 8 && (uint64_t)m->len >> (8 * L)))
            return CB_ERR_PARAM;
        if (!x->decrypt)
            err = ccm_memory(x->cipher, x->key, x->key_len, &x->u.skey, m->nonce, m->nonce_len,
                             NZ(m->aad), m->aad_len, (unsigned char *)NZ(m->in), m->len,
                             NZO(m->out), m->tag, &tl, CCM_ENCRYPT);
        else
            err = ccm_memory(x->cipher, x->key, x->key_len, &x->u.skey, m->nonce, m->nonce_len,
                             NZ(m->aad), m->aad_len, NZO(m->out), m->len,
                             (unsigned char *)NZ(m->in), m->tag, &tl, CCM_DECRYPT);
        if (x->decrypt && err == CRYPT_ERROR)
            return CB_ERR_AUTH;
        return map_err(err);
    }

    switch (x->type) {
    case AEAD_GCM: err = run_gcm(x, m, tag); break;
    case AEAD_OCB3: err = run_ocb3(x, m, tag); break;
    default: err = run_chacha(x, m, tag); break;
    }
    if (err != CRYPT_OK)
        return map_err(err);
    if (!x->decrypt) {
        memcpy(m->tag, tag, x->tag_len);
        return CB_OK;
    }
    /* These modes hand back the computed tag: compare in constant time. */
    return mem_neq(tag, m->tag, x->tag_len) ? CB_ERR_AUTH : CB_OK;
}

static const aead_arg gcm128 = {AEAD_GCM, 16, &aes_desc}, gcm192 = {AEAD_GCM, 24, &aes_desc},
                      gcm256 = {AEAD_GCM, 32, &aes_desc};
static const aead_arg ocb128 = {AEAD_OCB3, 16, &aes_desc}, ocb192 = {AEAD_OCB3, 24, &aes_desc},
                      ocb256 = {AEAD_OCB3, 32, &aes_desc};
static const aead_arg ccm128 = {AEAD_CCM, 16, &aes_desc}, ccm192 = {AEAD_CCM, 24, &aes_desc},
                      ccm256 = {AEAD_CCM, 32, &aes_desc};
static const aead_arg chapoly = {AEAD_CHACHA, 32, NULL};
/* GCM, CCM and OCB3 over the other 128-bit block ciphers */
static const aead_arg a_camellia_128_gcm = {AEAD_GCM, 16, &camellia_desc};
static const aead_arg a_camellia_192_gcm = {AEAD_GCM, 24, &camellia_desc};
static const aead_arg a_camellia_256_gcm = {AEAD_GCM, 32, &camellia_desc};
static const aead_arg a_seed_gcm = {AEAD_GCM, 16, &kseed_desc};
static const aead_arg a_twofish_128_gcm = {AEAD_GCM, 16, &twofish_desc};
static const aead_arg a_twofish_256_gcm = {AEAD_GCM, 32, &twofish_desc};
static const aead_arg a_camellia_128_ccm = {AEAD_CCM, 16, &camellia_desc};
static const aead_arg a_camellia_192_ccm = {AEAD_CCM, 24, &camellia_desc};
static const aead_arg a_camellia_256_ccm = {AEAD_CCM, 32, &camellia_desc};
static const aead_arg a_seed_ccm = {AEAD_CCM, 16, &kseed_desc};
static const aead_arg a_twofish_128_ccm = {AEAD_CCM, 16, &twofish_desc};
static const aead_arg a_twofish_256_ccm = {AEAD_CCM, 32, &twofish_desc};
static const aead_arg a_camellia_128_ocb = {AEAD_OCB3, 16, &camellia_desc};
static const aead_arg a_camellia_192_ocb = {AEAD_OCB3, 24, &camellia_desc};
static const aead_arg a_camellia_256_ocb = {AEAD_OCB3, 32, &camellia_desc};
static const aead_arg a_seed_ocb = {AEAD_OCB3, 16, &kseed_desc};
static const aead_arg a_twofish_128_ocb = {AEAD_OCB3, 16, &twofish_desc};
static const aead_arg a_twofish_256_ocb = {AEAD_OCB3, 32, &twofish_desc};
/* over RC6-128 and Noekeon (direct-key mode) */
static const aead_arg a_rc6_128_gcm = {AEAD_GCM, 16, &rc6_desc};
static const aead_arg a_rc6_128_ccm = {AEAD_CCM, 16, &rc6_desc};
static const aead_arg a_rc6_128_ocb = {AEAD_OCB3, 16, &rc6_desc};
static const aead_arg a_noekeon_direct_gcm = {AEAD_GCM, 16, &noekeon_desc};
static const aead_arg a_noekeon_direct_ccm = {AEAD_CCM, 16, &noekeon_desc};
static const aead_arg a_noekeon_direct_ocb = {AEAD_OCB3, 16, &noekeon_desc};
static const aead_arg a_anubis_128_gcm = {AEAD_GCM, 16, &anubis_desc};
static const aead_arg a_anubis_128_ccm = {AEAD_CCM, 16, &anubis_desc};
static const aead_arg a_anubis_128_ocb = {AEAD_OCB3, 16, &anubis_desc};
static const aead_arg a_safer_plus_128_gcm = {AEAD_GCM, 16, &saferp_desc};
static const aead_arg a_safer_plus_128_ccm = {AEAD_CCM, 16, &saferp_desc};
static const aead_arg a_safer_plus_128_ocb = {AEAD_OCB3, 16, &saferp_desc};

/* ---------------------------------------------------------------- ciphers */

enum mode { M_CBC, M_CTR, M_CFB, M_ECB, M_XTS, M_CHACHA, M_RC4, M_OFB };

typedef struct {
    enum mode mode;
    const struct ltc_cipher_descriptor *desc;   /* NULL for the stream ciphers */
    size_t key_len;                             /* 0: the library checks */
    int rounds;                                 /* handed to the cipher's setup; 0: its default */
} cipher_arg;

typedef struct {
    enum mode mode;
    int decrypt;
    size_t block;
    union {
        symmetric_CBC cbc;
        symmetric_CTR ctr;
        symmetric_CFB cfb;
        symmetric_OFB ofb;
        symmetric_ECB ecb;
        symmetric_xts xts;
        chacha_state chacha;
        rc4_state rc4;
    } u;
} cipher_ctx;

static void cipher_finish(void *ctx)
{
    free(ctx);
}

static int cipher_init(void **ctx, const void *arg, const cb_setup *s)
{
    const cipher_arg *a = arg;
    int idx = -1, err;
    if (!s->key || (a->key_len && s->key_len != a->key_len))
        return CB_ERR_PARAM;
    if (a->mode == M_RC4 && (s->key_len < 5 || s->key_len > 256))
        return CB_ERR_PARAM;  /* rc4_stream_setup aborts on a shorter key */
    cipher_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->mode = a->mode;
    x->decrypt = s->decrypt;
    x->block = 1;
    if (a->desc) {
        if ((idx = cipher_idx(a->desc)) < 0) {
            free(x);
            return CB_ERR;
        }
        if ((a->mode == M_CBC || a->mode == M_CTR || a->mode == M_CFB || a->mode == M_OFB) &&
            (!s->iv || s->iv_len != (size_t)a->desc->block_length)) {
            free(x);
            return CB_ERR_PARAM;
        }
    }
    switch (a->mode) {
    case M_CBC:
        err = cbc_start(idx, s->iv, s->key, (int)s->key_len, a->rounds, &x->u.cbc);
        x->block = (size_t)a->desc->block_length;
        break;
    case M_CTR:
        /* Big-endian counter over the whole block, as SP 800-38A. */
        err = ctr_start(idx, s->iv, s->key, (int)s->key_len, a->rounds, CTR_COUNTER_BIG_ENDIAN, &x->u.ctr);
        break;
    case M_CFB:
        err = cfb_start(idx, s->iv, s->key, (int)s->key_len, a->rounds, &x->u.cfb);
        break;
    case M_OFB:
        err = ofb_start(idx, s->iv, s->key, (int)s->key_len, a->rounds, &x->u.ofb);
        break;
    case M_ECB:
        err = ecb_start(idx, s->key, (int)s->key_len, a->rounds, &x->u.ecb);
        x->block = (size_t)a->desc->block_length;
        break;
    case M_XTS:
        /* The key is two keys of the cipher; the tweak comes with each message. */
        err = xts_start(idx, s->key, s->key + s->key_len / 2, s->key_len / 2, a->rounds, &x->u.xts);
        break;
    case M_CHACHA:
        if (!s->iv || s->iv_len != 12) {
            err = CRYPT_INVALID_ARG;
            break;
        }
        err = chacha_setup(&x->u.chacha, s->key, s->key_len, 20);
        if (err == CRYPT_OK)  /* RFC 8439: 96-bit nonce, 32-bit counter from 0 */
            err = chacha_ivctr32(&x->u.chacha, s->iv, s->iv_len, 0);
        break;
    case M_RC4:
        err = rc4_stream_setup(&x->u.rc4, s->key, s->key_len);
        break;
    default:
        err = CRYPT_INVALID_ARG;
    }
    if (err != CRYPT_OK) {
        free(x);
        return map_err(err);
    }
    *ctx = x;
    return CB_OK;
}

static int cipher_run(void *ctx, cb_msg *m)
{
    cipher_ctx *x = ctx;
    unsigned char tweak[16];
    int err, d = x->decrypt;

    if (m->len % x->block)
        return CB_ERR_PARAM;
    if (x->mode == M_XTS) {
        if (m->nonce_len != 16 || m->len < 16)
            return CB_ERR_PARAM;
        memcpy(tweak, m->nonce, 16);  /* xts_* take a non-const tweak */
        err = d ? xts_decrypt(m->in, m->len, m->out, tweak, &x->u.xts)
                : xts_encrypt(m->in, m->len, m->out, tweak, &x->u.xts);
        return map_err(err);
    }
    if (m->len == 0)
        return CB_OK;
    switch (x->mode) {
    case M_CBC:
        err = d ? cbc_decrypt(m->in, m->out, m->len, &x->u.cbc)
                : cbc_encrypt(m->in, m->out, m->len, &x->u.cbc);
        break;
    case M_CTR:
        err = ctr_encrypt(m->in, m->out, m->len, &x->u.ctr);
        break;
    case M_CFB:
        err = d ? cfb_decrypt(m->in, m->out, m->len, &x->u.cfb)
                : cfb_encrypt(m->in, m->out, m->len, &x->u.cfb);
        break;
    case M_OFB:
        err = d ? ofb_decrypt(m->in, m->out, m->len, &x->u.ofb)
                : ofb_encrypt(m->in, m->out, m->len, &x->u.ofb);
        break;
    case M_ECB:
        err = d ? ecb_decrypt(m->in, m->out, m->len, &x->u.ecb)
                : ecb_encrypt(m->in, m->out, m->len, &x->u.ecb);
        break;
    case M_CHACHA:
        err = chacha_crypt(&x->u.chacha, m->in, m->len, m->out);
        break;
    case M_RC4:
        err = rc4_stream_crypt(&x->u.rc4, m->in, m->len, m->out);
        break;
    default:
        err = CRYPT_INVALID_ARG;
    }
    return map_err(err);
}

static const cipher_arg aes128_cbc = {M_CBC, &aes_desc, 16, 0}, aes192_cbc = {M_CBC, &aes_desc, 24, 0},
                        aes256_cbc = {M_CBC, &aes_desc, 32, 0};
static const cipher_arg aes128_ctr = {M_CTR, &aes_desc, 16, 0}, aes192_ctr = {M_CTR, &aes_desc, 24, 0},
                        aes256_ctr = {M_CTR, &aes_desc, 32, 0};
static const cipher_arg aes128_cfb = {M_CFB, &aes_desc, 16, 0}, aes192_cfb = {M_CFB, &aes_desc, 24, 0},
                        aes256_cfb = {M_CFB, &aes_desc, 32, 0};
static const cipher_arg aes128_ecb = {M_ECB, &aes_desc, 16, 0}, aes192_ecb = {M_ECB, &aes_desc, 24, 0},
                        aes256_ecb = {M_ECB, &aes_desc, 32, 0};
static const cipher_arg aes128_xts = {M_XTS, &aes_desc, 32, 0}, aes256_xts = {M_XTS, &aes_desc, 64, 0};
static const cipher_arg cam128_cbc = {M_CBC, &camellia_desc, 16, 0}, cam256_cbc = {M_CBC, &camellia_desc, 32, 0};
static const cipher_arg cam128_ctr = {M_CTR, &camellia_desc, 16, 0}, cam256_ctr = {M_CTR, &camellia_desc, 32, 0};
static const cipher_arg cam192_cbc = {M_CBC, &camellia_desc, 24, 0}, cam192_ctr = {M_CTR, &camellia_desc, 24, 0};
static const cipher_arg twofish_cbc = {M_CBC, &twofish_desc, 32, 0};
static const cipher_arg twofish_cfb = {M_CFB, &twofish_desc, 32, 0};
static const cipher_arg cam128_cfb = {M_CFB, &camellia_desc, 16, 0}, cam192_cfb = {M_CFB, &camellia_desc, 24, 0},
                        cam256_cfb = {M_CFB, &camellia_desc, 32, 0};
static const cipher_arg cast5_cfb = {M_CFB, &cast5_desc, 0, 0};
static const cipher_arg blowfish_cfb = {M_CFB, &blowfish_desc, 0, 0};
static const cipher_arg des3_cfb = {M_CFB, &des3_desc, 24, 0};
static const cipher_arg blowfish_cbc = {M_CBC, &blowfish_desc, 0, 0};
static const cipher_arg cast5_cbc = {M_CBC, &cast5_desc, 0, 0};
static const cipher_arg des3_cbc = {M_CBC, &des3_desc, 24, 0};
static const cipher_arg des_cbc = {M_CBC, &des_desc, 8, 0};
static const cipher_arg chacha20 = {M_CHACHA, NULL, 32, 0};
static const cipher_arg rc4 = {M_RC4, NULL, 0, 0};
static const cipher_arg cam128_ecb = {M_ECB, &camellia_desc, 16, 0}, cam192_ecb = {M_ECB, &camellia_desc, 24, 0},
                        cam256_ecb = {M_ECB, &camellia_desc, 32, 0};
static const cipher_arg twofish_ecb = {M_ECB, &twofish_desc, 32, 0};
static const cipher_arg blowfish_ecb = {M_ECB, &blowfish_desc, 0, 0};
static const cipher_arg cast5_ecb = {M_ECB, &cast5_desc, 0, 0};
static const cipher_arg des3_ecb = {M_ECB, &des3_desc, 24, 0};
static const cipher_arg des_ecb = {M_ECB, &des_desc, 8, 0};
static const cipher_arg twofish128_ecb = {M_ECB, &twofish_desc, 16, 0}, twofish128_cbc = {M_CBC, &twofish_desc, 16, 0},
                        twofish256_ctr = {M_CTR, &twofish_desc, 32, 0};
static const cipher_arg aes128_ofb = {M_OFB, &aes_desc, 16, 0}, aes192_ofb = {M_OFB, &aes_desc, 24, 0},
                        aes256_ofb = {M_OFB, &aes_desc, 32, 0};
static const cipher_arg des3_ofb = {M_OFB, &des3_desc, 24, 0}, des3_ctr = {M_CTR, &des3_desc, 24, 0},
                        blowfish_ofb = {M_OFB, &blowfish_desc, 0, 0}, blowfish_ctr = {M_CTR, &blowfish_desc, 0, 0},
                        cast5_ofb = {M_OFB, &cast5_desc, 0, 0}, cast5_ctr = {M_CTR, &cast5_desc, 0, 0};
static const cipher_arg seed_ecb = {M_ECB, &kseed_desc, 16, 0}, seed_cbc = {M_CBC, &kseed_desc, 16, 0};
/* The block-cipher grid (algorithms.c): the other modes of the ciphers above; RC2's setup
 * takes as many effective key bits as the key has, 64 at the least (8 bytes) */
static const cipher_arg g_camellia_128_ofb = {M_OFB, &camellia_desc, 16, 0};
static const cipher_arg g_camellia_128_xts = {M_XTS, &camellia_desc, 32, 0};
static const cipher_arg g_camellia_192_ofb = {M_OFB, &camellia_desc, 24, 0};
static const cipher_arg g_camellia_192_xts = {M_XTS, &camellia_desc, 48, 0};
static const cipher_arg g_camellia_256_ofb = {M_OFB, &camellia_desc, 32, 0};
static const cipher_arg g_camellia_256_xts = {M_XTS, &camellia_desc, 64, 0};
static const cipher_arg g_twofish_128_ctr = {M_CTR, &twofish_desc, 16, 0};
static const cipher_arg g_twofish_128_cfb = {M_CFB, &twofish_desc, 16, 0};
static const cipher_arg g_twofish_128_ofb = {M_OFB, &twofish_desc, 16, 0};
static const cipher_arg g_twofish_128_xts = {M_XTS, &twofish_desc, 32, 0};
static const cipher_arg g_twofish_192_ecb = {M_ECB, &twofish_desc, 24, 0};
static const cipher_arg g_twofish_192_cbc = {M_CBC, &twofish_desc, 24, 0};
static const cipher_arg g_twofish_192_ctr = {M_CTR, &twofish_desc, 24, 0};
static const cipher_arg g_twofish_192_cfb = {M_CFB, &twofish_desc, 24, 0};
static const cipher_arg g_twofish_192_ofb = {M_OFB, &twofish_desc, 24, 0};
static const cipher_arg g_twofish_192_xts = {M_XTS, &twofish_desc, 48, 0};
static const cipher_arg g_twofish_256_ofb = {M_OFB, &twofish_desc, 32, 0};
static const cipher_arg g_twofish_256_xts = {M_XTS, &twofish_desc, 64, 0};
static const cipher_arg g_seed_ctr = {M_CTR, &kseed_desc, 16, 0};
static const cipher_arg g_seed_cfb = {M_CFB, &kseed_desc, 16, 0};
static const cipher_arg g_seed_ofb = {M_OFB, &kseed_desc, 16, 0};
static const cipher_arg g_seed_xts = {M_XTS, &kseed_desc, 32, 0};
static const cipher_arg g_des_ctr = {M_CTR, &des_desc, 8, 0};
static const cipher_arg g_des_cfb = {M_CFB, &des_desc, 8, 0};
static const cipher_arg g_des_ofb = {M_OFB, &des_desc, 8, 0};
static const cipher_arg g_rc2_ecb = {M_ECB, &rc2_desc, 16, 0};
static const cipher_arg g_rc2_cbc = {M_CBC, &rc2_desc, 16, 0};
static const cipher_arg g_rc2_ctr = {M_CTR, &rc2_desc, 16, 0};
static const cipher_arg g_rc2_cfb = {M_CFB, &rc2_desc, 16, 0};
static const cipher_arg g_rc2_ofb = {M_OFB, &rc2_desc, 16, 0};
static const cipher_arg g_rc2_64_ecb = {M_ECB, &rc2_desc, 8, 0};
static const cipher_arg g_rc2_64_cbc = {M_CBC, &rc2_desc, 8, 0};
static const cipher_arg g_rc2_64_ctr = {M_CTR, &rc2_desc, 8, 0};
static const cipher_arg g_rc2_64_cfb = {M_CFB, &rc2_desc, 8, 0};
static const cipher_arg g_rc2_64_ofb = {M_OFB, &rc2_desc, 8, 0};
/* More block ciphers at their standard key sizes and LibTomCrypt's default rounds (RC5 12,
 * RC6 20, XTEA 32 cycles); LibTomCrypt's Noekeon is the direct-key mode */
static const cipher_arg m_xtea_ecb = {M_ECB, &xtea_desc, 16, 0};
static const cipher_arg m_xtea_cbc = {M_CBC, &xtea_desc, 16, 0};
static const cipher_arg m_xtea_cfb = {M_CFB, &xtea_desc, 16, 0};
static const cipher_arg m_xtea_ofb = {M_OFB, &xtea_desc, 16, 0};
static const cipher_arg m_xtea_ctr = {M_CTR, &xtea_desc, 16, 0};
static const cipher_arg m_rc5_ecb = {M_ECB, &rc5_desc, 16, 0};
static const cipher_arg m_rc5_cbc = {M_CBC, &rc5_desc, 16, 0};
static const cipher_arg m_rc5_cfb = {M_CFB, &rc5_desc, 16, 0};
static const cipher_arg m_rc5_ofb = {M_OFB, &rc5_desc, 16, 0};
static const cipher_arg m_rc5_ctr = {M_CTR, &rc5_desc, 16, 0};
static const cipher_arg m_rc6_128_ecb = {M_ECB, &rc6_desc, 16, 0};
static const cipher_arg m_rc6_128_cbc = {M_CBC, &rc6_desc, 16, 0};
static const cipher_arg m_rc6_128_cfb = {M_CFB, &rc6_desc, 16, 0};
static const cipher_arg m_rc6_128_ofb = {M_OFB, &rc6_desc, 16, 0};
static const cipher_arg m_rc6_128_ctr = {M_CTR, &rc6_desc, 16, 0};
static const cipher_arg m_rc6_128_xts = {M_XTS, &rc6_desc, 32, 0};
static const cipher_arg m_skipjack_ecb = {M_ECB, &skipjack_desc, 10, 0};
static const cipher_arg m_skipjack_cbc = {M_CBC, &skipjack_desc, 10, 0};
static const cipher_arg m_skipjack_cfb = {M_CFB, &skipjack_desc, 10, 0};
static const cipher_arg m_skipjack_ofb = {M_OFB, &skipjack_desc, 10, 0};
static const cipher_arg m_skipjack_ctr = {M_CTR, &skipjack_desc, 10, 0};
static const cipher_arg m_kasumi_ecb = {M_ECB, &kasumi_desc, 16, 0};
static const cipher_arg m_kasumi_cbc = {M_CBC, &kasumi_desc, 16, 0};
static const cipher_arg m_kasumi_cfb = {M_CFB, &kasumi_desc, 16, 0};
static const cipher_arg m_kasumi_ofb = {M_OFB, &kasumi_desc, 16, 0};
static const cipher_arg m_kasumi_ctr = {M_CTR, &kasumi_desc, 16, 0};
static const cipher_arg m_noekeon_direct_ecb = {M_ECB, &noekeon_desc, 16, 0};
static const cipher_arg m_noekeon_direct_cbc = {M_CBC, &noekeon_desc, 16, 0};
static const cipher_arg m_noekeon_direct_cfb = {M_CFB, &noekeon_desc, 16, 0};
static const cipher_arg m_noekeon_direct_ofb = {M_OFB, &noekeon_desc, 16, 0};
static const cipher_arg m_noekeon_direct_ctr = {M_CTR, &noekeon_desc, 16, 0};
static const cipher_arg m_noekeon_direct_xts = {M_XTS, &noekeon_desc, 32, 0};
/* SAFER K-64 at its 6 rounds (LibTomCrypt's default for an 8-byte key) */
static const cipher_arg m_safer_k64_ecb = {M_ECB, &safer_k64_desc, 8, 0};
static const cipher_arg m_safer_k64_cbc = {M_CBC, &safer_k64_desc, 8, 0};
static const cipher_arg m_safer_k64_cfb = {M_CFB, &safer_k64_desc, 8, 0};
static const cipher_arg m_safer_k64_ofb = {M_OFB, &safer_k64_desc, 8, 0};
static const cipher_arg m_safer_k64_ctr = {M_CTR, &safer_k64_desc, 8, 0};
/* Anubis and Khazad with the tweaked S-box (Khazad always; Anubis as tomcrypt_custom.h defines
 * LTC_ANUBIS_TWEAK, which the known answers check), a 128-bit key, the default rounds (Anubis
 * 12 for that key, Khazad 8) */
static const cipher_arg m_anubis_128_ecb = {M_ECB, &anubis_desc, 16, 0};
static const cipher_arg m_anubis_128_cbc = {M_CBC, &anubis_desc, 16, 0};
static const cipher_arg m_anubis_128_cfb = {M_CFB, &anubis_desc, 16, 0};
static const cipher_arg m_anubis_128_ofb = {M_OFB, &anubis_desc, 16, 0};
static const cipher_arg m_anubis_128_ctr = {M_CTR, &anubis_desc, 16, 0};
static const cipher_arg m_anubis_128_xts = {M_XTS, &anubis_desc, 32, 0};
static const cipher_arg m_khazad_ecb = {M_ECB, &khazad_desc, 16, 0};
static const cipher_arg m_khazad_cbc = {M_CBC, &khazad_desc, 16, 0};
static const cipher_arg m_khazad_cfb = {M_CFB, &khazad_desc, 16, 0};
static const cipher_arg m_khazad_ofb = {M_OFB, &khazad_desc, 16, 0};
static const cipher_arg m_khazad_ctr = {M_CTR, &khazad_desc, 16, 0};
/* SAFER+ with a 128-bit key at its 8 rounds */
static const cipher_arg m_safer_plus_128_ecb = {M_ECB, &saferp_desc, 16, 0};
static const cipher_arg m_safer_plus_128_cbc = {M_CBC, &saferp_desc, 16, 0};
static const cipher_arg m_safer_plus_128_cfb = {M_CFB, &saferp_desc, 16, 0};
static const cipher_arg m_safer_plus_128_ofb = {M_OFB, &saferp_desc, 16, 0};
static const cipher_arg m_safer_plus_128_ctr = {M_CTR, &saferp_desc, 16, 0};
static const cipher_arg m_safer_plus_128_xts = {M_XTS, &saferp_desc, 32, 0};
/* SAFER SK-64, K-128 and SK-128 at LibTomCrypt's default rounds (8, 10, 10; set here). The
 * published SK-64 and K-128 answers are for 6 and 12 rounds: the -r6 and -r12 ECB rows run
 * them through the same setup with that count, and the rows at the default count carry
 * answers computed by vectors/block_refs.py, which reproduces the published ones first */
static const cipher_arg m_safer_sk64_ecb = {M_ECB, &safer_sk64_desc, 8, 8};
static const cipher_arg m_safer_sk64_cbc = {M_CBC, &safer_sk64_desc, 8, 8};
static const cipher_arg m_safer_sk64_cfb = {M_CFB, &safer_sk64_desc, 8, 8};
static const cipher_arg m_safer_sk64_ofb = {M_OFB, &safer_sk64_desc, 8, 8};
static const cipher_arg m_safer_sk64_ctr = {M_CTR, &safer_sk64_desc, 8, 8};
static const cipher_arg m_safer_sk64_r6_ecb = {M_ECB, &safer_sk64_desc, 8, 6};
static const cipher_arg m_safer_k128_ecb = {M_ECB, &safer_k128_desc, 16, 10};
static const cipher_arg m_safer_k128_cbc = {M_CBC, &safer_k128_desc, 16, 10};
static const cipher_arg m_safer_k128_cfb = {M_CFB, &safer_k128_desc, 16, 10};
static const cipher_arg m_safer_k128_ofb = {M_OFB, &safer_k128_desc, 16, 10};
static const cipher_arg m_safer_k128_ctr = {M_CTR, &safer_k128_desc, 16, 10};
static const cipher_arg m_safer_k128_r12_ecb = {M_ECB, &safer_k128_desc, 16, 12};
static const cipher_arg m_safer_sk128_ecb = {M_ECB, &safer_sk128_desc, 16, 10};
static const cipher_arg m_safer_sk128_cbc = {M_CBC, &safer_sk128_desc, 16, 10};
static const cipher_arg m_safer_sk128_cfb = {M_CFB, &safer_sk128_desc, 16, 10};
static const cipher_arg m_safer_sk128_ofb = {M_OFB, &safer_sk128_desc, 16, 10};
static const cipher_arg m_safer_sk128_ctr = {M_CTR, &safer_sk128_desc, 16, 10};

/* ----------------------------------------------------------------- hashes */

/* The index of a hash in LibTomCrypt's table, registered on first use. chc_hash (the cipher
 * hash construction) has no size until chc_register binds it to a cipher whose key size can
 * equal its block: here always AES-128, so its rows are named chc-aes128. Sizes are read from
 * the table entry, which chc_register fills, not from the constant descriptor; the entry is
 * found by name, as register_hash compares whole descriptors and would add chc_hash again
 * once its entry has sizes. */
static int hash_idx(const struct ltc_hash_descriptor *d)
{
    int idx = find_hash(d->name), aes;
    if (idx < 0)
        idx = register_hash(d);
    if (idx >= 0 && d == &chc_desc &&
        ((aes = cipher_idx(&aes_desc)) < 0 || chc_register(aes) != CRYPT_OK))
        return -1;
    return idx;
}

typedef struct {
    const struct ltc_hash_descriptor *d;  /* NULL: SHAKE */
    int shake;                            /* 128 or 256 when d is NULL */
} hash_arg;

typedef struct {
    const struct ltc_hash_descriptor *d;
    int shake;
    size_t out_len;
    hash_state st;
} hash_ctx;

static void hash_finish(void *ctx)
{
    free(ctx);
}

static int hash_init(void **ctx, const void *arg, const cb_setup *s)
{
    const hash_arg *a = arg;
    hash_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    int idx = a->d ? hash_idx(a->d) : 0;
    if (idx < 0) {
        free(x);
        return CB_ERR;
    }
    x->d = a->d ? &hash_descriptor[idx] : NULL;
    x->shake = a->shake;
    x->out_len = a->d ? x->d->hashsize : s->tag_len;
    if (s->tag_len && s->tag_len != x->out_len) {
        free(x);
        return CB_ERR_PARAM;
    }
    *ctx = x;
    return CB_OK;
}

static int hash_run(void *ctx, cb_msg *m)
{
    hash_ctx *x = ctx;
    int err;
    if (!x->d) {
        /* SHAKE: any output length, set at the end. */
        if (m->tag_len == 0)
            return CB_ERR_PARAM;
        if ((err = sha3_shake_init(&x->st, x->shake)) == CRYPT_OK &&
            (err = sha3_shake_process(&x->st, NZ(m->in), m->len)) == CRYPT_OK)
            err = sha3_shake_done(&x->st, m->tag, m->tag_len);
        return map_err(err);
    }
    if (m->tag_len != x->out_len)
        return CB_ERR_PARAM;
    if ((err = x->d->init(&x->st)) == CRYPT_OK &&
        (err = x->d->process(&x->st, NZ(m->in), m->len)) == CRYPT_OK)
        err = x->d->done(&x->st, m->tag);
    return map_err(err);
}

static const hash_arg h_md5 = {&md5_desc, 0}, h_sha1 = {&sha1_desc, 0}, h_sha224 = {&sha224_desc, 0},
                      h_sha256 = {&sha256_desc, 0}, h_sha384 = {&sha384_desc, 0}, h_sha512 = {&sha512_desc, 0},
                      h_sha512_256 = {&sha512_256_desc, 0}, h_sha3_256 = {&sha3_256_desc, 0},
                      h_sha3_512 = {&sha3_512_desc, 0}, h_shake128 = {NULL, 128},
                      h_blake2b = {&blake2b_512_desc, 0}, h_blake2s = {&blake2s_256_desc, 0},
                      h_rmd160 = {&rmd160_desc, 0};
static const hash_arg h_sha3_224 = {&sha3_224_desc, 0}, h_sha3_384 = {&sha3_384_desc, 0},
                      h_shake256 = {NULL, 256}, h_blake2b_160 = {&blake2b_160_desc, 0},
                      h_blake2b_256 = {&blake2b_256_desc, 0}, h_blake2b_384 = {&blake2b_384_desc, 0},
                      h_blake2s_128 = {&blake2s_128_desc, 0}, h_blake2s_160 = {&blake2s_160_desc, 0},
                      h_blake2s_224 = {&blake2s_224_desc, 0}, h_md4 = {&md4_desc, 0}, h_sha512_224 = {&sha512_224_desc, 0},
                      h_whirlpool = {&whirlpool_desc, 0}, h_tiger = {&tiger_desc, 0}, h_md2 = {&md2_desc, 0};
static const hash_arg h_rmd128 = {&rmd128_desc, 0}, h_rmd256 = {&rmd256_desc, 0}, h_rmd320 = {&rmd320_desc, 0};
static const hash_arg h_chc_aes128 = {&chc_desc, 0};   /* bound to AES-128 by hash_idx */

/* ------------------------------------------------------------------- MACs */

enum mac_type { MAC_HMAC, MAC_CMAC, MAC_POLY1305, MAC_GMAC, MAC_BLAKE2B, MAC_BLAKE2S };

typedef struct {
    enum mac_type type;
    const struct ltc_hash_descriptor *hash;     /* HMAC */
    const struct ltc_cipher_descriptor *cipher; /* CMAC: NULL for AES */
} mac_arg;

typedef struct {
    enum mac_type type;
    int idx;
    size_t full_len;
    unsigned char *key;
    size_t key_len;
    union {
        hmac_state hmac;
        omac_state omac[2];   /* [0] keyed template, [1] per message */
        blake2bmac_state b2b;
        blake2smac_state b2s;
        poly1305_state poly;
        gcm_state gcm;
    } u;
} mac_ctx;

static void mac_finish(void *ctx)
{
    mac_ctx *x = ctx;
    if (!x)
        return;
    free(x->key);
    free(x);
}

static int mac_init(void **ctx, const void *arg, const cb_setup *s)
{
    const mac_arg *a = arg;
    int err = CRYPT_OK;
    mac_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->type = a->type;
    x->key_len = s->key_len;
    x->key = malloc(s->key_len ? s->key_len : 1);
    if (!x->key) {
        free(x);
        return CB_ERR;
    }
    memcpy(x->key, NZ(s->key), s->key_len);
    switch (a->type) {
    case MAC_HMAC:
        /* hmac_state holds a malloc'd key: it cannot be copied, so HMAC
         * is keyed for each message (as hmac_memory does). */
        if ((x->idx = hash_idx(a->hash)) < 0)
            err = CRYPT_INVALID_HASH;
        else
            x->full_len = hash_descriptor[x->idx].hashsize;
        break;
    case MAC_CMAC:
        x->full_len = a->cipher ? (size_t)a->cipher->block_length : 16;
        if ((x->idx = cipher_idx(a->cipher ? a->cipher : &aes_desc)) < 0)
            err = CRYPT_INVALID_CIPHER;
        else
            err = omac_init(&x->u.omac[0], x->idx, x->key, x->key_len);
        break;
    case MAC_POLY1305:
        x->full_len = 16;
        if (s->key_len != 32)
            err = CRYPT_INVALID_KEYSIZE;
        break;
    case MAC_GMAC:
        x->full_len = 16;
        if ((x->idx = cipher_idx(&aes_desc)) < 0)
            err = CRYPT_INVALID_CIPHER;
        else
            err = gcm_init(&x->u.gcm, x->idx, x->key, (int)x->key_len);
        break;
    case MAC_BLAKE2B:
        x->full_len = 64;
        break;
    case MAC_BLAKE2S:
        x->full_len = 32;
        break;
    }
    if (err == CRYPT_OK && s->tag_len > x->full_len)
        err = CRYPT_INVALID_ARG;
    if (err != CRYPT_OK) {
        mac_finish(x);
        return map_err(err);
    }
    *ctx = x;
    return CB_OK;
}

static int mac_run(void *ctx, cb_msg *m)
{
    mac_ctx *x = ctx;
    unsigned char full[MAXBLOCKSIZE > 64 ? MAXBLOCKSIZE : 64];
    unsigned long outlen = x->full_len;
    const unsigned char *in = NZ(m->in);
    int err;

    if (m->tag_len == 0 || m->tag_len > x->full_len)
        return CB_ERR_PARAM;
    switch (x->type) {
    case MAC_HMAC:
        if ((err = hmac_init(&x->u.hmac, x->idx, x->key, x->key_len)) == CRYPT_OK &&
            (err = hmac_process(&x->u.hmac, in, m->len)) == CRYPT_OK)
            err = hmac_done(&x->u.hmac, full, &outlen);
        break;
    case MAC_CMAC:
        /* omac_state is plain data: start each message from the keyed copy. */
        x->u.omac[1] = x->u.omac[0];
        if ((err = omac_process(&x->u.omac[1], in, m->len)) == CRYPT_OK)
            err = omac_done(&x->u.omac[1], full, &outlen);
        break;
    case MAC_POLY1305:
        /* A one-time key: keyed for each message, as an AEAD uses it. */
        if ((err = poly1305_init(&x->u.poly, x->key, x->key_len)) == CRYPT_OK &&
            (err = poly1305_process(&x->u.poly, in, m->len)) == CRYPT_OK)
            err = poly1305_done(&x->u.poly, full, &outlen);
        break;
    case MAC_BLAKE2B:   /* keyed for each message, as blake2bmac_memory does */
        if ((err = blake2bmac_init(&x->u.b2b, x->full_len, x->key, x->key_len)) == CRYPT_OK &&
            (err = blake2bmac_process(&x->u.b2b, in, m->len)) == CRYPT_OK)
            err = blake2bmac_done(&x->u.b2b, full, &outlen);
        break;
    case MAC_BLAKE2S:
        if ((err = blake2smac_init(&x->u.b2s, x->full_len, x->key, x->key_len)) == CRYPT_OK &&
            (err = blake2smac_process(&x->u.b2s, in, m->len)) == CRYPT_OK)
            err = blake2smac_done(&x->u.b2s, full, &outlen);
        break;
    default:
        /* GMAC (SP 800-38D): GCM with the message as AAD and no plaintext. */
        if (m->nonce_len == 0)
            return CB_ERR_PARAM;
        if ((err = gcm_reset(&x->u.gcm)) == CRYPT_OK &&
            (err = gcm_add_iv(&x->u.gcm, m->nonce, m->nonce_len)) == CRYPT_OK &&
            (err = gcm_add_aad(&x->u.gcm, in, m->len)) == CRYPT_OK &&
            (err = gcm_process(&x->u.gcm, empty_out, 0, empty_out, GCM_ENCRYPT)) == CRYPT_OK)
            err = gcm_done(&x->u.gcm, full, &outlen);
        break;
    }
    if (err != CRYPT_OK)
        return map_err(err);
    if (outlen != x->full_len)
        return CB_ERR;
    memcpy(m->tag, full, m->tag_len);  /* a shorter tag is a prefix */
    return CB_OK;
}

static const mac_arg hmac_md5 = {MAC_HMAC, &md5_desc, NULL}, hmac_sha1 = {MAC_HMAC, &sha1_desc, NULL},
                     hmac_sha256 = {MAC_HMAC, &sha256_desc, NULL}, hmac_sha512 = {MAC_HMAC, &sha512_desc, NULL},
                     hmac_sha224 = {MAC_HMAC, &sha224_desc, NULL}, hmac_sha384 = {MAC_HMAC, &sha384_desc, NULL},
                     cmac = {MAC_CMAC, NULL, NULL}, poly1305 = {MAC_POLY1305, NULL, NULL}, gmac = {MAC_GMAC, NULL, NULL};
/* CMAC over the other ciphers (omac_* takes any cipher descriptor; the `cmac` and `gmac` rows
 * take any AES key); BLAKE2's keyed mode (blake2bmac_*, blake2smac_*) */
static const mac_arg cmac_des3 = {MAC_CMAC, NULL, &des3_desc}, cmac_camellia = {MAC_CMAC, NULL, &camellia_desc},
                     cmac_cast5 = {MAC_CMAC, NULL, &cast5_desc}, cmac_blowfish = {MAC_CMAC, NULL, &blowfish_desc},
                     cmac_rc2 = {MAC_CMAC, NULL, &rc2_desc},   /* effective key bits = key bits */
                     cmac_seed = {MAC_CMAC, NULL, &kseed_desc}, cmac_twofish = {MAC_CMAC, NULL, &twofish_desc};
static const mac_arg blake2b_mac = {MAC_BLAKE2B, NULL, NULL}, blake2s_mac = {MAC_BLAKE2S, NULL, NULL};
/* HMAC over the other hashes (hmac_* takes any hash descriptor) */
static const mac_arg hmac_md2 = {MAC_HMAC, &md2_desc, NULL}, hmac_rmd128 = {MAC_HMAC, &rmd128_desc, NULL},
                     hmac_rmd256 = {MAC_HMAC, &rmd256_desc, NULL}, hmac_rmd320 = {MAC_HMAC, &rmd320_desc, NULL};
static const mac_arg hmac_chc_aes128 = {MAC_HMAC, &chc_desc, NULL};   /* CHC bound to AES-128 */
static const mac_arg hmac_sha512_224 = {MAC_HMAC, &sha512_224_desc, NULL}, hmac_sha512_256 = {MAC_HMAC, &sha512_256_desc, NULL},
                     hmac_sha3_224 = {MAC_HMAC, &sha3_224_desc, NULL}, hmac_sha3_256 = {MAC_HMAC, &sha3_256_desc, NULL},
                     hmac_sha3_384 = {MAC_HMAC, &sha3_384_desc, NULL}, hmac_sha3_512 = {MAC_HMAC, &sha3_512_desc, NULL},
                     hmac_rmd160 = {MAC_HMAC, &rmd160_desc, NULL}, hmac_whirlpool = {MAC_HMAC, &whirlpool_desc, NULL},
                     hmac_tiger = {MAC_HMAC, &tiger_desc, NULL}, hmac_md4 = {MAC_HMAC, &md4_desc, NULL},
                     hmac_blake2b_160 = {MAC_HMAC, &blake2b_160_desc, NULL}, hmac_blake2b_256 = {MAC_HMAC, &blake2b_256_desc, NULL},
                     hmac_blake2b_384 = {MAC_HMAC, &blake2b_384_desc, NULL}, hmac_blake2b_512 = {MAC_HMAC, &blake2b_512_desc, NULL},
                     hmac_blake2s_128 = {MAC_HMAC, &blake2s_128_desc, NULL}, hmac_blake2s_160 = {MAC_HMAC, &blake2s_160_desc, NULL},
                     hmac_blake2s_224 = {MAC_HMAC, &blake2s_224_desc, NULL}, hmac_blake2s_256 = {MAC_HMAC, &blake2s_256_desc, NULL};

/* ------------------------------------------------------------------ table */

/* The runtime library's own banner: "LibTomCrypt 1.18.2 (www.libtom.net)". */
static const char *ltc_version(void)
{
    static char v[64];
    if (!v[0]) {
        size_t n = strcspn(crypt_build_settings, "(\n");
        while (n && crypt_build_settings[n - 1] == ' ')
            n--;
        if (n >= sizeof v)
            n = sizeof v - 1;
        memcpy(v, crypt_build_settings, n);
        v[n] = '\0';
    }
    return v;
}

/* LibTomCrypt 1.18 is portable C: no AES, carry-less multiply or SHA
 * instructions, so all capability bits are clear. Its build settings name
 * the GHASH variant ("GCM (tables)"). */
static unsigned ltc_caps(void)
{
    return 0;
}

static const char *ltc_provider(void)
{
    return strstr(crypt_build_settings, "GCM (tables)") ? "c (gcm tables)" : "c";
}

#define AEAD(n, a) {n, &a, aead_init, aead_run, aead_finish}
#define CIPHER(n, a) {n, &a, cipher_init, cipher_run, cipher_finish}
#define HASH(n, a) {n, &a, hash_init, hash_run, hash_finish}
#define MAC(n, a) {n, &a, mac_init, mac_run, mac_finish}

static const cb_op ltc_ops[] = {
    AEAD("aes-128-gcm", gcm128),
    AEAD("aes-256-gcm", gcm256),
    AEAD("chacha20-poly1305", chapoly),
    AEAD("aes-128-ocb", ocb128),
    AEAD("aes-192-ocb", ocb192),
    AEAD("aes-256-ocb", ocb256),
    AEAD("aes-192-gcm", gcm192),
    AEAD("aes-128-ccm", ccm128),
    AEAD("aes-192-ccm", ccm192),
    AEAD("aes-256-ccm", ccm256),
    AEAD("camellia-128-gcm", a_camellia_128_gcm),
    AEAD("camellia-192-gcm", a_camellia_192_gcm),
    AEAD("camellia-256-gcm", a_camellia_256_gcm),
    AEAD("seed-gcm", a_seed_gcm),
    AEAD("twofish-128-gcm", a_twofish_128_gcm),
    AEAD("twofish-256-gcm", a_twofish_256_gcm),
    AEAD("camellia-128-ccm", a_camellia_128_ccm),
    AEAD("camellia-192-ccm", a_camellia_192_ccm),
    AEAD("camellia-256-ccm", a_camellia_256_ccm),
    AEAD("seed-ccm", a_seed_ccm),
    AEAD("twofish-128-ccm", a_twofish_128_ccm),
    AEAD("twofish-256-ccm", a_twofish_256_ccm),
    AEAD("camellia-128-ocb", a_camellia_128_ocb),
    AEAD("camellia-192-ocb", a_camellia_192_ocb),
    AEAD("camellia-256-ocb", a_camellia_256_ocb),
    AEAD("seed-ocb", a_seed_ocb),
    AEAD("twofish-128-ocb", a_twofish_128_ocb),
    AEAD("twofish-256-ocb", a_twofish_256_ocb),
    AEAD("rc6-128-gcm", a_rc6_128_gcm),
    AEAD("rc6-128-ccm", a_rc6_128_ccm),
    AEAD("rc6-128-ocb", a_rc6_128_ocb),
    AEAD("noekeon-direct-gcm", a_noekeon_direct_gcm),
    AEAD("noekeon-direct-ccm", a_noekeon_direct_ccm),
    AEAD("noekeon-direct-ocb", a_noekeon_direct_ocb),
    AEAD("anubis-128-gcm", a_anubis_128_gcm),
    AEAD("anubis-128-ccm", a_anubis_128_ccm),
    AEAD("anubis-128-ocb", a_anubis_128_ocb),
    AEAD("safer-plus-128-gcm", a_safer_plus_128_gcm),
    AEAD("safer-plus-128-ccm", a_safer_plus_128_ccm),
    AEAD("safer-plus-128-ocb", a_safer_plus_128_ocb),

    CIPHER("aes-128-cbc", aes128_cbc),
    CIPHER("aes-192-cbc", aes192_cbc),
    CIPHER("aes-256-cbc", aes256_cbc),
    CIPHER("aes-128-ctr", aes128_ctr),
    CIPHER("aes-192-ctr", aes192_ctr),
    CIPHER("aes-256-ctr", aes256_ctr),
    CIPHER("aes-128-cfb", aes128_cfb),
    CIPHER("aes-192-cfb", aes192_cfb),
    CIPHER("aes-256-cfb", aes256_cfb),
    CIPHER("aes-128-ecb", aes128_ecb),
    CIPHER("aes-192-ecb", aes192_ecb),
    CIPHER("aes-256-ecb", aes256_ecb),
    CIPHER("aes-128-xts", aes128_xts),
    CIPHER("aes-256-xts", aes256_xts),
    CIPHER("camellia-128-cbc", cam128_cbc),
    CIPHER("camellia-256-cbc", cam256_cbc),
    CIPHER("camellia-128-ctr", cam128_ctr),
    CIPHER("camellia-256-ctr", cam256_ctr),
    CIPHER("camellia-192-cbc", cam192_cbc),
    CIPHER("camellia-192-ctr", cam192_ctr),
    CIPHER("twofish-256-cbc", twofish_cbc),
    CIPHER("twofish-256-cfb", twofish_cfb),
    CIPHER("camellia-128-cfb", cam128_cfb),
    CIPHER("camellia-192-cfb", cam192_cfb),
    CIPHER("camellia-256-cfb", cam256_cfb),
    CIPHER("cast5-cfb", cast5_cfb),
    CIPHER("blowfish-cfb", blowfish_cfb),
    CIPHER("3des-cfb", des3_cfb),
    CIPHER("blowfish-cbc", blowfish_cbc),
    CIPHER("cast5-cbc", cast5_cbc),
    CIPHER("3des-cbc", des3_cbc),
    CIPHER("des-cbc", des_cbc),
    CIPHER("rc4", rc4),
    CIPHER("chacha20", chacha20),
    CIPHER("camellia-128-ecb", cam128_ecb),
    CIPHER("camellia-192-ecb", cam192_ecb),
    CIPHER("camellia-256-ecb", cam256_ecb),
    CIPHER("twofish-256-ecb", twofish_ecb),
    CIPHER("blowfish-ecb", blowfish_ecb),
    CIPHER("cast5-ecb", cast5_ecb),
    CIPHER("3des-ecb", des3_ecb),
    CIPHER("des-ecb", des_ecb),
    CIPHER("twofish-128-ecb", twofish128_ecb),
    CIPHER("twofish-128-cbc", twofish128_cbc),
    CIPHER("twofish-256-ctr", twofish256_ctr),
    CIPHER("aes-128-ofb", aes128_ofb),
    CIPHER("aes-192-ofb", aes192_ofb),
    CIPHER("aes-256-ofb", aes256_ofb),
    CIPHER("3des-ofb", des3_ofb),
    CIPHER("3des-ctr", des3_ctr),
    CIPHER("blowfish-ofb", blowfish_ofb),
    CIPHER("blowfish-ctr", blowfish_ctr),
    CIPHER("cast5-ofb", cast5_ofb),
    CIPHER("cast5-ctr", cast5_ctr),
    CIPHER("seed-ecb", seed_ecb),
    CIPHER("seed-cbc", seed_cbc),
    /* the block-cipher grid */
    CIPHER("camellia-128-ofb", g_camellia_128_ofb),
    CIPHER("camellia-128-xts", g_camellia_128_xts),
    CIPHER("camellia-192-ofb", g_camellia_192_ofb),
    CIPHER("camellia-192-xts", g_camellia_192_xts),
    CIPHER("camellia-256-ofb", g_camellia_256_ofb),
    CIPHER("camellia-256-xts", g_camellia_256_xts),
    CIPHER("twofish-128-ctr", g_twofish_128_ctr),
    CIPHER("twofish-128-cfb", g_twofish_128_cfb),
    CIPHER("twofish-128-ofb", g_twofish_128_ofb),
    CIPHER("twofish-128-xts", g_twofish_128_xts),
    CIPHER("twofish-192-ecb", g_twofish_192_ecb),
    CIPHER("twofish-192-cbc", g_twofish_192_cbc),
    CIPHER("twofish-192-ctr", g_twofish_192_ctr),
    CIPHER("twofish-192-cfb", g_twofish_192_cfb),
    CIPHER("twofish-192-ofb", g_twofish_192_ofb),
    CIPHER("twofish-192-xts", g_twofish_192_xts),
    CIPHER("twofish-256-ofb", g_twofish_256_ofb),
    CIPHER("twofish-256-xts", g_twofish_256_xts),
    CIPHER("seed-ctr", g_seed_ctr),
    CIPHER("seed-cfb", g_seed_cfb),
    CIPHER("seed-ofb", g_seed_ofb),
    CIPHER("seed-xts", g_seed_xts),
    CIPHER("des-ctr", g_des_ctr),
    CIPHER("des-cfb", g_des_cfb),
    CIPHER("des-ofb", g_des_ofb),
    CIPHER("rc2-ecb", g_rc2_ecb),
    CIPHER("rc2-cbc", g_rc2_cbc),
    CIPHER("rc2-ctr", g_rc2_ctr),
    CIPHER("rc2-cfb", g_rc2_cfb),
    CIPHER("rc2-ofb", g_rc2_ofb),
    CIPHER("rc2-64-ecb", g_rc2_64_ecb),
    CIPHER("rc2-64-cbc", g_rc2_64_cbc),
    CIPHER("rc2-64-ctr", g_rc2_64_ctr),
    CIPHER("rc2-64-cfb", g_rc2_64_cfb),
    CIPHER("rc2-64-ofb", g_rc2_64_ofb),
    /* more block ciphers */
    CIPHER("xtea-ecb", m_xtea_ecb),
    CIPHER("xtea-cbc", m_xtea_cbc),
    CIPHER("xtea-cfb", m_xtea_cfb),
    CIPHER("xtea-ofb", m_xtea_ofb),
    CIPHER("xtea-ctr", m_xtea_ctr),
    CIPHER("rc5-ecb", m_rc5_ecb),
    CIPHER("rc5-cbc", m_rc5_cbc),
    CIPHER("rc5-cfb", m_rc5_cfb),
    CIPHER("rc5-ofb", m_rc5_ofb),
    CIPHER("rc5-ctr", m_rc5_ctr),
    CIPHER("rc6-128-ecb", m_rc6_128_ecb),
    CIPHER("rc6-128-cbc", m_rc6_128_cbc),
    CIPHER("rc6-128-cfb", m_rc6_128_cfb),
    CIPHER("rc6-128-ofb", m_rc6_128_ofb),
    CIPHER("rc6-128-ctr", m_rc6_128_ctr),
    CIPHER("rc6-128-xts", m_rc6_128_xts),
    CIPHER("skipjack-ecb", m_skipjack_ecb),
    CIPHER("skipjack-cbc", m_skipjack_cbc),
    CIPHER("skipjack-cfb", m_skipjack_cfb),
    CIPHER("skipjack-ofb", m_skipjack_ofb),
    CIPHER("skipjack-ctr", m_skipjack_ctr),
    CIPHER("kasumi-ecb", m_kasumi_ecb),
    CIPHER("kasumi-cbc", m_kasumi_cbc),
    CIPHER("kasumi-cfb", m_kasumi_cfb),
    CIPHER("kasumi-ofb", m_kasumi_ofb),
    CIPHER("kasumi-ctr", m_kasumi_ctr),
    CIPHER("noekeon-direct-ecb", m_noekeon_direct_ecb),
    CIPHER("noekeon-direct-cbc", m_noekeon_direct_cbc),
    CIPHER("noekeon-direct-cfb", m_noekeon_direct_cfb),
    CIPHER("noekeon-direct-ofb", m_noekeon_direct_ofb),
    CIPHER("noekeon-direct-ctr", m_noekeon_direct_ctr),
    CIPHER("noekeon-direct-xts", m_noekeon_direct_xts),
    CIPHER("safer-k64-ecb", m_safer_k64_ecb),
    CIPHER("safer-k64-cbc", m_safer_k64_cbc),
    CIPHER("safer-k64-cfb", m_safer_k64_cfb),
    CIPHER("safer-k64-ofb", m_safer_k64_ofb),
    CIPHER("safer-k64-ctr", m_safer_k64_ctr),
    CIPHER("anubis-128-ecb", m_anubis_128_ecb),
    CIPHER("anubis-128-cbc", m_anubis_128_cbc),
    CIPHER("anubis-128-cfb", m_anubis_128_cfb),
    CIPHER("anubis-128-ofb", m_anubis_128_ofb),
    CIPHER("anubis-128-ctr", m_anubis_128_ctr),
    CIPHER("anubis-128-xts", m_anubis_128_xts),
    CIPHER("khazad-ecb", m_khazad_ecb),
    CIPHER("khazad-cbc", m_khazad_cbc),
    CIPHER("khazad-cfb", m_khazad_cfb),
    CIPHER("khazad-ofb", m_khazad_ofb),
    CIPHER("khazad-ctr", m_khazad_ctr),
    CIPHER("safer-plus-128-ecb", m_safer_plus_128_ecb),
    CIPHER("safer-plus-128-cbc", m_safer_plus_128_cbc),
    CIPHER("safer-plus-128-cfb", m_safer_plus_128_cfb),
    CIPHER("safer-plus-128-ofb", m_safer_plus_128_ofb),
    CIPHER("safer-plus-128-ctr", m_safer_plus_128_ctr),
    CIPHER("safer-plus-128-xts", m_safer_plus_128_xts),
    /* SAFER SK-64, K-128, SK-128 (the rows at the default rounds first: list --offered
     * names the first row of a cipher and mode) */
    CIPHER("safer-sk64-ecb", m_safer_sk64_ecb),
    CIPHER("safer-sk64-cbc", m_safer_sk64_cbc),
    CIPHER("safer-sk64-cfb", m_safer_sk64_cfb),
    CIPHER("safer-sk64-ofb", m_safer_sk64_ofb),
    CIPHER("safer-sk64-ctr", m_safer_sk64_ctr),
    CIPHER("safer-k128-ecb", m_safer_k128_ecb),
    CIPHER("safer-k128-cbc", m_safer_k128_cbc),
    CIPHER("safer-k128-cfb", m_safer_k128_cfb),
    CIPHER("safer-k128-ofb", m_safer_k128_ofb),
    CIPHER("safer-k128-ctr", m_safer_k128_ctr),
    CIPHER("safer-sk128-ecb", m_safer_sk128_ecb),
    CIPHER("safer-sk128-cbc", m_safer_sk128_cbc),
    CIPHER("safer-sk128-cfb", m_safer_sk128_cfb),
    CIPHER("safer-sk128-ofb", m_safer_sk128_ofb),
    CIPHER("safer-sk128-ctr", m_safer_sk128_ctr),
    CIPHER("safer-sk64-r6-ecb", m_safer_sk64_r6_ecb),
    CIPHER("safer-k128-r12-ecb", m_safer_k128_r12_ecb),

    HASH("md5", h_md5),
    HASH("sha1", h_sha1),
    HASH("sha224", h_sha224),
    HASH("sha256", h_sha256),
    HASH("sha384", h_sha384),
    HASH("sha512", h_sha512),
    HASH("sha512-256", h_sha512_256),
    HASH("sha512-224", h_sha512_224),
    HASH("sha3-256", h_sha3_256),
    HASH("sha3-512", h_sha3_512),
    HASH("shake128", h_shake128),
    HASH("blake2b-512", h_blake2b),
    HASH("blake2s-256", h_blake2s),
    HASH("ripemd160", h_rmd160),
    HASH("sha3-224", h_sha3_224),
    HASH("sha3-384", h_sha3_384),
    HASH("shake256", h_shake256),
    HASH("blake2b-160", h_blake2b_160),
    HASH("blake2b-256", h_blake2b_256),
    HASH("blake2b-384", h_blake2b_384),
    HASH("blake2s-128", h_blake2s_128),
    HASH("blake2s-160", h_blake2s_160),
    HASH("blake2s-224", h_blake2s_224),
    HASH("md4", h_md4),
    HASH("whirlpool", h_whirlpool),
    HASH("tiger", h_tiger),
    HASH("md2", h_md2),
    HASH("ripemd128", h_rmd128),
    HASH("ripemd256", h_rmd256),
    HASH("ripemd320", h_rmd320),
    HASH("chc-aes128", h_chc_aes128),

    MAC("hmac-md5", hmac_md5),
    MAC("hmac-sha1", hmac_sha1),
    MAC("hmac-sha256", hmac_sha256),
    MAC("hmac-sha512", hmac_sha512),
    MAC("poly1305", poly1305),
    MAC("cmac-aes-128", cmac),
    MAC("cmac-aes-256", cmac),       /* omac_init takes the AES key length given */
    MAC("hmac-sha224", hmac_sha224),
    MAC("hmac-sha384", hmac_sha384),
    MAC("gmac-aes-128", gmac),
    MAC("hmac-sha512-224", hmac_sha512_224),
    MAC("hmac-sha512-256", hmac_sha512_256),
    MAC("hmac-sha3-224", hmac_sha3_224),
    MAC("hmac-sha3-256", hmac_sha3_256),
    MAC("hmac-sha3-384", hmac_sha3_384),
    MAC("hmac-sha3-512", hmac_sha3_512),
    MAC("hmac-ripemd160", hmac_rmd160),
    MAC("hmac-whirlpool", hmac_whirlpool),
    MAC("hmac-tiger", hmac_tiger),
    MAC("hmac-md4", hmac_md4),
    MAC("hmac-blake2b-160", hmac_blake2b_160),
    MAC("hmac-blake2b-256", hmac_blake2b_256),
    MAC("hmac-blake2b-384", hmac_blake2b_384),
    MAC("hmac-blake2b-512", hmac_blake2b_512),
    MAC("hmac-blake2s-128", hmac_blake2s_128),
    MAC("hmac-blake2s-160", hmac_blake2s_160),
    MAC("hmac-blake2s-224", hmac_blake2s_224),
    MAC("hmac-blake2s-256", hmac_blake2s_256),
    MAC("cmac-aes-192", cmac),
    MAC("cmac-3des", cmac_des3),
    MAC("cmac-camellia-128", cmac_camellia),
    MAC("cmac-camellia-192", cmac_camellia),
    MAC("cmac-camellia-256", cmac_camellia),
    MAC("cmac-cast5", cmac_cast5),
    MAC("cmac-blowfish", cmac_blowfish),
    MAC("cmac-rc2", cmac_rc2),
    MAC("cmac-seed", cmac_seed),
    MAC("cmac-twofish-256", cmac_twofish),
    MAC("gmac-aes-192", gmac),
    MAC("gmac-aes-256", gmac),
    MAC("blake2b-mac", blake2b_mac),
    MAC("blake2s-mac", blake2s_mac),
    MAC("hmac-md2", hmac_md2),
    MAC("hmac-ripemd128", hmac_rmd128),
    MAC("hmac-ripemd256", hmac_rmd256),
    MAC("hmac-ripemd320", hmac_rmd320),
    MAC("hmac-chc-aes128", hmac_chc_aes128),
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- what LibTomCrypt offers (list --offered) ------------------------------
 * register_all_ciphers and register_all_hashes fill LibTomCrypt's public
 * descriptor tables with everything this build has; each cipher is offered
 * in the generic modes (ECB, CBC, CTR, CFB, OFB; XTS, GCM, CCM and OCB3 for
 * 16-byte blocks), each hash plain and in HMAC. Rows match by descriptor
 * name and mode. */

static const struct { const char *name; int mode; } ltc_offer_modes[] = {
    {"ecb", M_ECB}, {"cbc", M_CBC}, {"ctr", M_CTR}, {"cfb", M_CFB}, {"ofb", M_OFB}, {"xts", M_XTS},
};
static const struct { const char *name; int type; } ltc_offer_aeads[] = {
    {"gcm", AEAD_GCM}, {"ccm", AEAD_CCM}, {"ocb3", AEAD_OCB3},
};

static const char *ltc_row_for(const char *cipher, int mode, int aead_type, const char *hash, int hmac)
{
    for (const cb_op *r = ltc_ops; r->algo; r++) {
        if (cipher && mode >= 0 && r->init == cipher_init) {
            const cipher_arg *a = r->arg;
            if (a->desc && (int)a->mode == mode && strcmp(a->desc->name, cipher) == 0)
                return r->algo;
        } else if (cipher && aead_type >= 0 && r->init == aead_init) {
            const aead_arg *a = r->arg;
            if ((int)a->type == aead_type && a->desc && strcmp(cipher, a->desc->name) == 0)
                return r->algo;
        } else if (hash && !hmac && r->init == hash_init) {
            const hash_arg *a = r->arg;
            if (a->d && strcmp(a->d->name, hash) == 0)
                return r->algo;
        } else if (hash && hmac && r->init == mac_init) {
            const mac_arg *a = r->arg;
            if (a->type == MAC_HMAC && strcmp(a->hash->name, hash) == 0)
                return r->algo;
        }
    }
    return NULL;
}

void cb_offered_libtomcrypt(cb_offer_fn *offer, void *u);
void cb_offered_libtomcrypt(cb_offer_fn *offer, void *u)
{
    char name[96];
    register_all_ciphers();
    register_all_hashes();
    for (int i = 0; i < TAB_SIZE; i++) {
        const struct ltc_cipher_descriptor *c = &cipher_descriptor[i];
        if (!c->name)
            continue;
        for (size_t m = 0; m < sizeof ltc_offer_modes / sizeof ltc_offer_modes[0]; m++) {
            if (ltc_offer_modes[m].mode == M_XTS && c->block_length != 16)
                continue;
            snprintf(name, sizeof name, "%s/%s", c->name, ltc_offer_modes[m].name);
            offer(u, "cipher", name, ltc_row_for(c->name, ltc_offer_modes[m].mode, -1, NULL, 0));
        }
        for (size_t m = 0; c->block_length == 16 && m < sizeof ltc_offer_aeads / sizeof ltc_offer_aeads[0]; m++) {
            snprintf(name, sizeof name, "%s/%s", c->name, ltc_offer_aeads[m].name);
            offer(u, "aead", name, ltc_row_for(c->name, -1, ltc_offer_aeads[m].type, NULL, 0));
        }
    }
    for (int i = 0; i < TAB_SIZE; i++) {
        const struct ltc_hash_descriptor *h = &hash_descriptor[i];
        if (!h->name)
            continue;
        offer(u, "hash", h->name, ltc_row_for(NULL, -1, -1, h->name, 0));
        snprintf(name, sizeof name, "hmac-%s", h->name);
        offer(u, "mac", name, ltc_row_for(NULL, -1, -1, h->name, 1));
    }
}

const cb_backend cb_backend_libtomcrypt = {
    .name = "libtomcrypt",
    .version = ltc_version,
    .global_init = NULL,      /* descriptors are registered by each init() */
    .caps = ltc_caps,
    .provider = ltc_provider,
    .ops = ltc_ops,
    /* Portable C built for the architecture's baseline: no code beyond it,
     * so every profile holds with nothing to turn off (see ltc_caps). */
    .hw_switch = CB_HW_ALL,
};
