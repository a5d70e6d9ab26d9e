/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gnutls.c - the GnuTLS backend, through its public crypto API
 * (gnutls/crypto.h): gnutls_aead_cipher_*, gnutls_cipher_*, gnutls_hash_*
 * and gnutls_hmac_* (which also serves CMAC, GMAC and UMAC).
 *
 * GnuTLS 3.7 has no AES-CTR, AES-CFB128, ECB, OCB or SHAKE in this API, no
 * BLAKE2 or Poly1305 on their own, and refuses RIPEMD-160 as a hash; those
 * rows are absent, as is Salsa20 (see the table).
 */
#include "../backend.h"
#include "keystream.h"

#include "hw_x86.h"
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- AEAD ---------------------------------------------------------------
 * GCM and ChaCha20-Poly1305 with a 12-byte nonce run through the streaming
 * gnutls_cipher_* calls (set_iv, add_auth, encrypt2, tag): the same work as
 * GnuTLS's AEAD call, but out of place and with the tag apart, as cb_msg
 * holds them. Decrypt compares the tag in constant time. CCM, which GnuTLS
 * offers only through gnutls_aead_cipher_*, and other nonce lengths use the
 * v2 AEAD calls; those work in place, so separate buffers cost a copy. */

typedef struct {
    gnutls_cipher_algorithm_t alg;
    int streaming;           /* also usable through gnutls_cipher_* */
    size_t nonce_len;        /* the only nonce length it takes, 0: any GnuTLS accepts */
    int tag_at;              /* where one whole-message call puts the tag (below) */
} aead_def;

/* GT_TAG_FIRST: SIV, the tag (the synthetic IV) before the text; GT_TAG_LAST: GCM-SIV,
 * the tag after it; GT_TAG_APART: the streaming or v2 calls, the tag apart */
enum { GT_TAG_APART = 0, GT_TAG_FIRST = 1, GT_TAG_LAST = 2 };

typedef struct {
    gnutls_aead_cipher_hd_t h;
    gnutls_cipher_hd_t sh;   /* streaming handle, or NULL */
    int decrypt;
    size_t nonce_len;        /* from aead_def */
    int tag_at;
    cb_scratch buf;          /* V || C (SIV) or C || T (GCM-SIV) as GnuTLS reads and writes it */
} aead_ctx;

static int aead_init(void **ctx, const void *arg, const cb_setup *s)
{
    const aead_def *d = arg;
    if (s->key_len != gnutls_cipher_get_key_size(d->alg))
        return CB_ERR_PARAM;
    if (s->tag_len > gnutls_cipher_get_tag_size(d->alg))
        return CB_ERR_PARAM;
    aead_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    gnutls_datum_t key = {(unsigned char *)s->key, (unsigned)s->key_len};
    if (gnutls_aead_cipher_init(&c->h, d->alg, &key) < 0) {
        free(c);
        return CB_ERR;
    }
    if (d->streaming && gnutls_cipher_init(&c->sh, d->alg, &key, NULL) < 0) {
        gnutls_aead_cipher_deinit(c->h);
        free(c);
        return CB_ERR;
    }
    c->decrypt = s->decrypt;
    c->nonce_len = d->nonce_len;
    c->tag_at = d->tag_at;
    *ctx = c;
    return CB_OK;
}

/* SIV through gnutls_aead_cipher_encrypt/decrypt, whose text carries the tag in front:
 * the message passes through a buffer of V || C (one copy beside two AES passes). The v2
 * calls with the tag apart do not give RFC 5297's output for SIV (GnuTLS 3.7.9 fails the
 * vectors that way), so they are not used for it. GCM-SIV (GnuTLS 3.8.2) takes the same
 * calls with the tag after the text, C || T: its v2 calls only copy into such a buffer
 * themselves (allocated per message) before making this call. */
static int aead_run_whole(aead_ctx *c, cb_msg *m)
{
    size_t need = m->len + m->tag_len;
    if (!cb_scratch_reserve(&c->buf, need))
        return CB_ERR;
    uint8_t *tag = c->tag_at == GT_TAG_FIRST ? c->buf.p : c->buf.p + m->len;
    uint8_t *text = c->tag_at == GT_TAG_FIRST ? c->buf.p + m->tag_len : c->buf.p;
    int r;
    if (!c->decrypt) {
        size_t out_len = need;
        r = gnutls_aead_cipher_encrypt(c->h, m->nonce, m->nonce_len, m->aad, m->aad_len,
                                       m->tag_len, m->in, m->len, c->buf.p, &out_len);
        if (r >= 0 && out_len != need)
            return CB_ERR;
        if (r >= 0) {
            memcpy(m->tag, tag, m->tag_len);
            memcpy(m->out, text, m->len);
        }
    } else {
        size_t out_len = m->len;
        memcpy(tag, m->tag, m->tag_len);
        memcpy(text, m->in, m->len);
        r = gnutls_aead_cipher_decrypt(c->h, m->nonce, m->nonce_len, m->aad, m->aad_len,
                                       m->tag_len, c->buf.p, need, m->out, &out_len);
        if (r == GNUTLS_E_DECRYPTION_FAILED)
            return CB_ERR_AUTH;
    }
    if (r == GNUTLS_E_INVALID_REQUEST)
        return CB_ERR_PARAM;
    return r < 0 ? CB_ERR : CB_OK;
}

static int aead_run_streaming(aead_ctx *c, cb_msg *m)
{
    uint8_t tag[16];
    if (m->tag_len > sizeof tag)
        return CB_ERR_PARAM;
    gnutls_cipher_set_iv(c->sh, (void *)m->nonce, m->nonce_len);
    if (m->aad_len && gnutls_cipher_add_auth(c->sh, m->aad, m->aad_len) < 0)
        return CB_ERR;
    int r = c->decrypt ? gnutls_cipher_decrypt2(c->sh, m->in, m->len, m->out, m->len)
                       : gnutls_cipher_encrypt2(c->sh, m->in, m->len, m->out, m->len);
    if (r < 0 || gnutls_cipher_tag(c->sh, c->decrypt ? tag : m->tag, m->tag_len) < 0)
        return CB_ERR;
    if (c->decrypt) {
        uint8_t diff = 0;
        for (size_t i = 0; i < m->tag_len; i++)
            diff |= (uint8_t)(tag[i] ^ m->tag[i]);
        if (diff)
            return CB_ERR_AUTH;
    }
    return CB_OK;
}

static int aead_run(void *ctx, cb_msg *m)
{
    aead_ctx *c = ctx;
    /* GnuTLS's ChaCha20-Poly1305 takes any nonce length and reads 12 bytes whatever it is
     * given, so a wrong length is refused here rather than read past. */
    if (c->nonce_len && m->nonce_len != c->nonce_len)
        return CB_ERR_PARAM;
    /* GnuTLS hands a shorter GCM-SIV tag's length on to Nettle's siv_gcm_*_message, which
     * always writes and reads 16 bytes of tag: only the whole tag is given to it */
    if (c->tag_at == GT_TAG_LAST && m->tag_len != 16)
        return CB_ERR_PARAM;
    if (c->tag_at != GT_TAG_APART)
        return aead_run_whole(c, m);
    if (c->sh && m->nonce_len == 12)
        return aead_run_streaming(c, m);
    if (m->in != m->out && m->len)
        memmove(m->out, m->in, m->len);
    giovec_t data = {m->out, m->len};
    giovec_t aad = {(void *)m->aad, m->aad_len};
    int r;
    if (!c->decrypt) {
        size_t tag_len = m->tag_len;
        r = gnutls_aead_cipher_encryptv2(c->h, m->nonce, m->nonce_len,
                                         &aad, m->aad_len ? 1 : 0, &data, 1,
                                         m->tag, &tag_len);
        if (r >= 0 && tag_len != m->tag_len)
            return CB_ERR_PARAM;
    } else {
        r = gnutls_aead_cipher_decryptv2(c->h, m->nonce, m->nonce_len,
                                         &aad, m->aad_len ? 1 : 0, &data, 1,
                                         m->tag, m->tag_len);
        if (r == GNUTLS_E_DECRYPTION_FAILED)
            return CB_ERR_AUTH;
    }
    if (r == GNUTLS_E_INVALID_REQUEST)
        return CB_ERR_PARAM;  /* a nonce or tag length this cipher refuses */
    return r < 0 ? CB_ERR : CB_OK;
}

static void aead_finish(void *ctx)
{
    aead_ctx *c = ctx;
    if (!c)
        return;
    gnutls_aead_cipher_deinit(c->h);
    if (c->sh)
        gnutls_cipher_deinit(c->sh);
    free(c->buf.p);
    free(c);
}

/* ---- ciphers --------------------------------------------------------------
 * One handle continues the stream or chain. XTS sets the tweak per call. */

typedef struct {
    gnutls_cipher_algorithm_t alg;
    size_t key_len, iv_len;  /* what the caller gives; 0 iv for RC4 */
    int chacha_iv;           /* GnuTLS takes counter || nonce, 16 bytes: 1 for a 4-byte
                              * counter (CHACHA20_32), 2 for an 8-byte one (CHACHA20_64) */
    int xts;
    int block_stream;        /* ChaCha20: see stream_run */
} cipher_def;

typedef struct {
    gnutls_cipher_hd_t h;
    const cipher_def *d;
    int decrypt;
    cb_keystream ks;         /* ChaCha20: the rest of a split block */
} cipher_ctx;

static int cipher_init(void **ctx, const void *arg, const cb_setup *s)
{
    const cipher_def *d = arg;
    int var_key = d->alg == GNUTLS_CIPHER_ARCFOUR_128;  /* RC4 takes 1..256 bytes */
    if ((!var_key && s->key_len != d->key_len) || (var_key && (s->key_len < 1 || s->key_len > 256)))
        return CB_ERR_PARAM;
    if (!d->xts && s->iv_len != d->iv_len)
        return CB_ERR_PARAM;
    if (d->iv_len && !d->xts && !s->iv)
        return CB_ERR_PARAM;
    uint8_t ivbuf[16] = {0};
    gnutls_datum_t key = {(unsigned char *)s->key, (unsigned)s->key_len};
    gnutls_datum_t iv = {ivbuf, 0};
    if (d->chacha_iv) {
        size_t counter = d->chacha_iv == 2 ? 8 : 4;
        memcpy(ivbuf + counter, s->iv, 16 - counter);     /* block counter 0 */
        iv.size = 16;
    } else if (d->xts) {
        iv.size = 16;                     /* replaced by each call's tweak */
    } else if (d->iv_len) {
        memcpy(ivbuf, s->iv, d->iv_len);
        iv.size = (unsigned)d->iv_len;
    }
    cipher_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    int r = gnutls_cipher_init(&c->h, d->alg, &key, iv.size ? &iv : NULL);
    if (r < 0) {
        free(c);
        /* GnuTLS refuses XTS keys whose two halves are equal; a GnuTLS built without
         * GOST (--disable-gost) does not offer those ciphers */
        return r == GNUTLS_E_INVALID_REQUEST || r == GNUTLS_E_UNKNOWN_CIPHER_TYPE ? CB_ERR_PARAM : CB_ERR;
    }
    c->d = d;
    c->decrypt = s->decrypt;
    *ctx = c;
    return CB_OK;
}

/* GnuTLS (through Nettle) ChaCha20 continues the stream only
 * across calls of whole 64-byte blocks: a partial block ends the stream.
 * Whole blocks go straight through; for a split block one block of
 * keystream is drawn from the library and the unused part is kept for the
 * next call, so any lengths continue the stream as the contract asks. */
static int stream_run(cipher_ctx *c, cb_msg *m)
{
    const uint8_t *in = m->in;
    uint8_t *out = m->out;
    size_t len = m->len;
    size_t n = cb_keystream_use(&c->ks, out, in, len);
    in += n; out += n; len -= n;

    size_t whole = len & ~(size_t)63;
    if (whole && gnutls_cipher_encrypt2(c->h, in, whole, out, whole) < 0)
        return CB_ERR;
    in += whole; out += whole; len -= whole;
    if (len) {
        memset(c->ks.block, 0, 64);
        if (gnutls_cipher_encrypt2(c->h, c->ks.block, 64, c->ks.block, 64) < 0)
            return CB_ERR;
        cb_keystream_keep(&c->ks, out, in, len);
    }
    return CB_OK;
}

static int cipher_run(void *ctx, cb_msg *m)
{
    cipher_ctx *c = ctx;
    if (c->d->xts) {
        if (m->nonce_len != 16 || m->len < 16)
            return CB_ERR_PARAM;
        gnutls_cipher_set_iv(c->h, (void *)m->nonce, 16);
    }
    if (c->d->block_stream)
        return stream_run(c, m);
    int r = c->decrypt ? gnutls_cipher_decrypt2(c->h, m->in, m->len, m->out, m->len)
                       : gnutls_cipher_encrypt2(c->h, m->in, m->len, m->out, m->len);
    if (r == GNUTLS_E_INVALID_REQUEST)
        return CB_ERR_PARAM;  /* e.g. a length that is not whole blocks */
    return r < 0 ? CB_ERR : CB_OK;
}

static void cipher_finish(void *ctx)
{
    cipher_ctx *c = ctx;
    if (!c)
        return;
    gnutls_cipher_deinit(c->h);
    free(c);
}

/* ---- hashes: one handle; gnutls_hash_output resets it for the next message */

typedef struct {
    gnutls_hash_hd_t h;
    size_t full;
} hash_ctx;

static int hash_init(void **ctx, const void *arg, const cb_setup *s)
{
    gnutls_digest_algorithm_t alg = *(const gnutls_digest_algorithm_t *)arg;
    (void)s;
    hash_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    if (gnutls_hash_init(&c->h, alg) < 0) {
        free(c);
        return CB_ERR;
    }
    c->full = gnutls_hash_get_len(alg);
    *ctx = c;
    return CB_OK;
}

static int hash_run(void *ctx, cb_msg *m)
{
    hash_ctx *c = ctx;
    uint8_t md[64];
    if (m->tag_len > c->full || c->full > sizeof md)
        return CB_ERR_PARAM;
    if (gnutls_hash(c->h, m->in, m->len) < 0)
        return CB_ERR;
    gnutls_hash_output(c->h, md);
    memcpy(m->tag, md, m->tag_len);
    return CB_OK;
}

static void hash_finish(void *ctx)
{
    hash_ctx *c = ctx;
    if (!c)
        return;
    gnutls_hash_deinit(c->h, NULL);
    free(c);
}

/* ---- MACs: the key is set once; gnutls_hmac_output returns the handle to
 * its keyed state. GMAC and UMAC take the message's nonce each call. */

typedef struct {
    gnutls_hmac_hd_t h;
    size_t full;
    int nonce;
    int copy;     /* each message from a copy of the keyed handle (see mac_run) */
} mac_ctx;

static int mac_init(void **ctx, const void *arg, const cb_setup *s)
{
    gnutls_mac_algorithm_t alg = *(const gnutls_mac_algorithm_t *)arg;
    int keyed_cipher = alg == GNUTLS_MAC_AES_CMAC_128 || alg == GNUTLS_MAC_AES_GMAC_128 ||
                       alg == GNUTLS_MAC_UMAC_128 || alg == GNUTLS_MAC_UMAC_96;
    if (keyed_cipher && s->key_len != 16)
        return CB_ERR_PARAM;
    if ((alg == GNUTLS_MAC_AES_CMAC_256 || alg == GNUTLS_MAC_AES_GMAC_256) && s->key_len != 32)
        return CB_ERR_PARAM;
    if (alg == GNUTLS_MAC_AES_GMAC_192 && s->key_len != 24)
        return CB_ERR_PARAM;
    int gost = alg == GNUTLS_MAC_GOST28147_TC26Z_IMIT || alg == GNUTLS_MAC_MAGMA_OMAC ||
               alg == GNUTLS_MAC_KUZNYECHIK_OMAC;
    if (gost && s->key_len != 32)
        return CB_ERR_PARAM;   /* GnuTLS asserts on any other length */
    mac_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    if (gnutls_hmac_init(&c->h, alg, s->key, s->key_len) < 0) {
        free(c);
        return gost ? CB_ERR_PARAM : CB_ERR;   /* a GnuTLS built without GOST */
    }
    c->full = gnutls_hmac_get_len(alg);
    c->nonce = gnutls_mac_get_nonce_size(alg) != 0;
    c->copy = alg == GNUTLS_MAC_GOST28147_TC26Z_IMIT;
    *ctx = c;
    return CB_OK;
}

static int mac_run(void *ctx, cb_msg *m)
{
    mac_ctx *c = ctx;
    uint8_t mac[64];
    if (m->tag_len > c->full || c->full > sizeof mac)
        return CB_ERR_PARAM;
    if (c->nonce) {
        /* GMAC takes any non-empty IV, UMAC 1 to 16 bytes */
        if (!m->nonce || m->nonce_len == 0 || m->nonce_len > 16)
            return CB_ERR_PARAM;
        gnutls_hmac_set_nonce(c->h, m->nonce, m->nonce_len);
    }
    if (c->copy) {
        /* GnuTLS 3.7.9's GOST 28147-89 MAC keeps the key meshed after 1 KiB of one message
         * for the next (gnutls_hmac_output restarts the chain, not the key), so every
         * message starts from a copy of the keyed handle, as a caller must use it */
        gnutls_hmac_hd_t h = gnutls_hmac_copy(c->h);
        if (!h)
            return CB_ERR;
        int r = gnutls_hmac(h, m->in, m->len);
        gnutls_hmac_deinit(h, r < 0 ? NULL : mac);
        if (r < 0)
            return CB_ERR;
        memcpy(m->tag, mac, m->tag_len);
        return CB_OK;
    }
    if (gnutls_hmac(c->h, m->in, m->len) < 0)
        return CB_ERR;
    gnutls_hmac_output(c->h, mac);
    memcpy(m->tag, mac, m->tag_len);
    return CB_OK;
}

static void mac_finish(void *ctx)
{
    mac_ctx *c = ctx;
    if (!c)
        return;
    gnutls_hmac_deinit(c->h, NULL);
    free(c);
}

/* ---- the table ------------------------------------------------------------ */

static const aead_def
    a_gcm128 = {GNUTLS_CIPHER_AES_128_GCM, 1, 0, 0}, a_gcm256 = {GNUTLS_CIPHER_AES_256_GCM, 1, 0, 0},
    a_gcm192 = {GNUTLS_CIPHER_AES_192_GCM, 1, 0, 0},
    a_chapoly = {GNUTLS_CIPHER_CHACHA20_POLY1305, 1, 12, 0},
    a_ccm128 = {GNUTLS_CIPHER_AES_128_CCM, 0, 0, 0}, a_ccm256 = {GNUTLS_CIPHER_AES_256_CCM, 0, 0, 0},
    a_ccm8_128 = {GNUTLS_CIPHER_AES_128_CCM_8, 0, 0, 0}, a_ccm8_256 = {GNUTLS_CIPHER_AES_256_CCM_8, 0, 0, 0};
/* Camellia-GCM (RFC 6367's TLS suites) streams like AES-GCM */
static const aead_def a_camgcm128 = {GNUTLS_CIPHER_CAMELLIA_128_GCM, 1, 0, 0},
                      a_camgcm256 = {GNUTLS_CIPHER_CAMELLIA_256_GCM, 1, 0, 0};
/* AES-SIV (RFC 5297) came with GnuTLS 3.6.13, through the AEAD calls only. */
#if GNUTLS_VERSION_NUMBER >= 0x03060d
#define GT_HAVE_SIV 1
static const aead_def a_siv128 = {GNUTLS_CIPHER_AES_128_SIV, 0, 0, 1},
                      a_siv256 = {GNUTLS_CIPHER_AES_256_SIV, 0, 0, 1};
#endif
/* AES-GCM-SIV (RFC 8452) came with GnuTLS 3.8.2, through the AEAD calls only (a 12-byte
 * nonce, the 16-byte tag after the text). */
#if GNUTLS_VERSION_NUMBER >= 0x030802
#define GT_HAVE_GCM_SIV 1
static const aead_def a_gcmsiv128 = {GNUTLS_CIPHER_AES_128_SIV_GCM, 0, 12, GT_TAG_LAST},
                      a_gcmsiv256 = {GNUTLS_CIPHER_AES_256_SIV_GCM, 0, 12, GT_TAG_LAST};
#endif

/*                                       alg                           key iv chacha xts stream */
static const cipher_def c_aes128cbc   = {GNUTLS_CIPHER_AES_128_CBC,        16, 16, 0, 0, 0};
static const cipher_def c_aes192cbc   = {GNUTLS_CIPHER_AES_192_CBC,        24, 16, 0, 0, 0};
static const cipher_def c_aes256cbc   = {GNUTLS_CIPHER_AES_256_CBC,        32, 16, 0, 0, 0};
static const cipher_def c_aes128xts   = {GNUTLS_CIPHER_AES_128_XTS,        32, 16, 0, 1, 0};
static const cipher_def c_aes256xts   = {GNUTLS_CIPHER_AES_256_XTS,        64, 16, 0, 1, 0};
static const cipher_def c_cam128cbc   = {GNUTLS_CIPHER_CAMELLIA_128_CBC,   16, 16, 0, 0, 0};
static const cipher_def c_cam256cbc   = {GNUTLS_CIPHER_CAMELLIA_256_CBC,   32, 16, 0, 0, 0};
static const cipher_def c_3descbc     = {GNUTLS_CIPHER_3DES_CBC,           24, 8, 0, 0, 0};
static const cipher_def c_descbc      = {GNUTLS_CIPHER_DES_CBC,            8, 8, 0, 0, 0};
static const cipher_def c_aes128cfb8  = {GNUTLS_CIPHER_AES_128_CFB8,       16, 16, 0, 0, 0};
static const cipher_def c_aes192cfb8  = {GNUTLS_CIPHER_AES_192_CFB8,       24, 16, 0, 0, 0};
static const cipher_def c_aes256cfb8  = {GNUTLS_CIPHER_AES_256_CFB8,       32, 16, 0, 0, 0};
static const cipher_def c_cam192cbc   = {GNUTLS_CIPHER_CAMELLIA_192_CBC,   24, 16, 0, 0, 0};
static const cipher_def c_rc4         = {GNUTLS_CIPHER_ARCFOUR_128,        16, 0, 0, 0, 0};
static const cipher_def c_rc2_40cbc   = {GNUTLS_CIPHER_RC2_40_CBC,         5, 8, 0, 0, 0};
static const cipher_def c_chacha20    = {GNUTLS_CIPHER_CHACHA20_32,        32, 12, 1, 0, 1};
static const cipher_def c_chacha20_64 = {GNUTLS_CIPHER_CHACHA20_64,        32, 8, 2, 0, 1};
/* GOST 28147-89 with the TC26 Z and CryptoPro A-D S-boxes and CryptoPro key meshing: CFB
 * (through Nettle's cfb_encrypt, which ends the chain at a partial block: the rows take
 * whole blocks) and CNT, the counter mode, which keeps a split block's gamma. */
static const cipher_def c_gost_z_cfb = {GNUTLS_CIPHER_GOST28147_TC26Z_CFB, 32, 8, 0, 0, 0},
                        c_gost_a_cfb = {GNUTLS_CIPHER_GOST28147_CPA_CFB, 32, 8, 0, 0, 0},
                        c_gost_b_cfb = {GNUTLS_CIPHER_GOST28147_CPB_CFB, 32, 8, 0, 0, 0},
                        c_gost_c_cfb = {GNUTLS_CIPHER_GOST28147_CPC_CFB, 32, 8, 0, 0, 0},
                        c_gost_d_cfb = {GNUTLS_CIPHER_GOST28147_CPD_CFB, 32, 8, 0, 0, 0},
                        c_gost_z_cnt = {GNUTLS_CIPHER_GOST28147_TC26Z_CNT, 32, 8, 0, 0, 0};
/* CTR-ACPKM over Magma and Kuznyechik (RFC 8645), the IV half a block; Nettle's ctr_crypt
 * beneath ends the stream at a partial block, so the rows take whole blocks */
static const cipher_def c_magma_acpkm = {GNUTLS_CIPHER_MAGMA_CTR_ACPKM, 32, 4, 0, 0, 0},
                        c_kuz_acpkm = {GNUTLS_CIPHER_KUZNYECHIK_CTR_ACPKM, 32, 8, 0, 0, 0};
/* No Salsa20 rows: GnuTLS 3.7.9's SALSA20-256 and ESTREAM-SALSA20-256 (Salsa20/12)
 * ignore the IV given to gnutls_cipher_init or gnutls_cipher_set_iv: the output under
 * any nonce is that of the all-zero nonce (checked against libsodium's
 * crypto_stream_salsa20 and _salsa2012 under nonces 00..00 and 00 01 .. 07). Its
 * Nettle table (lib/nettle/cipher.c) gives these two no set_iv, so the IV is only
 * copied aside and never reaches salsa20_set_nonce; the public API has no other call
 * that sets it, so they cannot be measured correctly (core/unmeasured.c says so in
 * `list --missing`). */

static const gnutls_digest_algorithm_t
    h_md5 = GNUTLS_DIG_MD5, h_sha1 = GNUTLS_DIG_SHA1, h_sha224 = GNUTLS_DIG_SHA224,
    h_sha256 = GNUTLS_DIG_SHA256, h_sha384 = GNUTLS_DIG_SHA384, h_sha512 = GNUTLS_DIG_SHA512,
    h_sha3_256 = GNUTLS_DIG_SHA3_256, h_sha3_512 = GNUTLS_DIG_SHA3_512,
    h_sha3_224 = GNUTLS_DIG_SHA3_224, h_sha3_384 = GNUTLS_DIG_SHA3_384,
    h_streebog256 = GNUTLS_DIG_STREEBOG_256, h_streebog512 = GNUTLS_DIG_STREEBOG_512,
    h_gost94 = GNUTLS_DIG_GOSTR_94;   /* CryptoPro parameters, as in the GOST cipher suites */

static const gnutls_mac_algorithm_t
    m_md5 = GNUTLS_MAC_MD5, m_sha1 = GNUTLS_MAC_SHA1, m_sha256 = GNUTLS_MAC_SHA256,
    m_sha512 = GNUTLS_MAC_SHA512, m_cmac = GNUTLS_MAC_AES_CMAC_128,
    m_sha224 = GNUTLS_MAC_SHA224, m_sha384 = GNUTLS_MAC_SHA384, m_cmac256 = GNUTLS_MAC_AES_CMAC_256,
    m_gmac = GNUTLS_MAC_AES_GMAC_128, m_umac128 = GNUTLS_MAC_UMAC_128;
/* HMAC over the GOST hashes (GOSTR341194: the CryptoPro parameters, as its hash row) */
static const gnutls_mac_algorithm_t
    m_streebog256 = GNUTLS_MAC_STREEBOG_256, m_streebog512 = GNUTLS_MAC_STREEBOG_512,
    m_gost94 = GNUTLS_MAC_GOSTR_94;
static const gnutls_mac_algorithm_t m_gost_imit = GNUTLS_MAC_GOST28147_TC26Z_IMIT,
                                    m_magma_omac = GNUTLS_MAC_MAGMA_OMAC,
                                    m_kuz_omac = GNUTLS_MAC_KUZNYECHIK_OMAC;
static const gnutls_mac_algorithm_t m_gmac192 = GNUTLS_MAC_AES_GMAC_192, m_gmac256 = GNUTLS_MAC_AES_GMAC_256,
                                    m_umac96 = GNUTLS_MAC_UMAC_96;

#define AEAD(n, a) {n, a, aead_init, aead_run, aead_finish}
#define CIPHER(n, a) {n, a, cipher_init, cipher_run, cipher_finish}
#define HASH(n, a) {n, a, hash_init, hash_run, hash_finish}
#define MAC(n, a) {n, a, mac_init, mac_run, mac_finish}

static const cb_op gnutls_ops[] = {
    AEAD("aes-128-gcm", &a_gcm128),
    AEAD("aes-256-gcm", &a_gcm256),
    AEAD("aes-192-gcm", &a_gcm192),
    AEAD("chacha20-poly1305", &a_chapoly),
    AEAD("aes-128-ccm", &a_ccm128),
    AEAD("aes-256-ccm", &a_ccm256),
    AEAD("aes-128-ccm-8", &a_ccm8_128),   /* RFC 6655's CCM_8: an 8-byte tag */
    AEAD("aes-256-ccm-8", &a_ccm8_256),
    AEAD("camellia-128-gcm", &a_camgcm128),
    AEAD("camellia-256-gcm", &a_camgcm256),
#ifdef GT_HAVE_SIV
    AEAD("aes-128-siv", &a_siv128),
    AEAD("aes-256-siv", &a_siv256),
#endif
#ifdef GT_HAVE_GCM_SIV   /* GnuTLS 3.8.2 and later */
    AEAD("aes-128-gcm-siv", &a_gcmsiv128),
    AEAD("aes-256-gcm-siv", &a_gcmsiv256),
#endif
    CIPHER("aes-128-cbc", &c_aes128cbc),
    CIPHER("aes-192-cbc", &c_aes192cbc),
    CIPHER("aes-256-cbc", &c_aes256cbc),
    CIPHER("aes-128-xts", &c_aes128xts),
    CIPHER("aes-256-xts", &c_aes256xts),
    CIPHER("camellia-128-cbc", &c_cam128cbc),
    CIPHER("camellia-256-cbc", &c_cam256cbc),
    CIPHER("camellia-192-cbc", &c_cam192cbc),
    CIPHER("aes-128-cfb8", &c_aes128cfb8),
    CIPHER("aes-192-cfb8", &c_aes192cfb8),
    CIPHER("aes-256-cfb8", &c_aes256cfb8),
    CIPHER("3des-cbc", &c_3descbc),
    CIPHER("des-cbc", &c_descbc),
    CIPHER("rc4", &c_rc4),
    CIPHER("rc2-40-cbc", &c_rc2_40cbc),   /* a 5-byte key, 40 effective bits */
    CIPHER("chacha20", &c_chacha20),
    CIPHER("chacha20-nonce64", &c_chacha20_64),   /* the original ChaCha20: 64-bit counter */
    CIPHER("gost28147-tc26z-cfb", &c_gost_z_cfb),
    CIPHER("gost28147-cpa-cfb", &c_gost_a_cfb),
    CIPHER("gost28147-cpb-cfb", &c_gost_b_cfb),
    CIPHER("gost28147-cpc-cfb", &c_gost_c_cfb),
    CIPHER("gost28147-cpd-cfb", &c_gost_d_cfb),
    CIPHER("gost28147-tc26z-cnt", &c_gost_z_cnt),
    CIPHER("magma-ctr-acpkm", &c_magma_acpkm),
    CIPHER("kuznyechik-ctr-acpkm", &c_kuz_acpkm),
    HASH("md5", &h_md5),
    HASH("sha1", &h_sha1),
    HASH("sha224", &h_sha224),
    HASH("sha256", &h_sha256),
    HASH("sha384", &h_sha384),
    HASH("sha512", &h_sha512),
    HASH("sha3-256", &h_sha3_256),
    HASH("sha3-512", &h_sha3_512),
    HASH("sha3-224", &h_sha3_224),
    HASH("sha3-384", &h_sha3_384),
    HASH("streebog-256", &h_streebog256),
    HASH("streebog-512", &h_streebog512),
    HASH("gostr3411-94", &h_gost94),
    MAC("hmac-md5", &m_md5),
    MAC("hmac-sha1", &m_sha1),
    MAC("hmac-sha256", &m_sha256),
    MAC("hmac-sha512", &m_sha512),
    MAC("hmac-sha224", &m_sha224),
    MAC("hmac-sha384", &m_sha384),
    MAC("cmac-aes-256", &m_cmac256),
    MAC("cmac-aes-128", &m_cmac),
    MAC("gmac-aes-128", &m_gmac),
    MAC("umac-128", &m_umac128),
    MAC("hmac-streebog-256", &m_streebog256),
    MAC("hmac-streebog-512", &m_streebog512),
    MAC("hmac-gostr3411-94", &m_gost94),
    MAC("gmac-aes-192", &m_gmac192),
    MAC("gmac-aes-256", &m_gmac256),
    MAC("umac-96", &m_umac96),
    MAC("gost28147-tc26z-imit", &m_gost_imit),
    MAC("cmac-magma", &m_magma_omac),
    MAC("cmac-kuznyechik", &m_kuz_omac),
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- what GnuTLS offers (list --offered) ------------------------------------
 * gnutls_cipher_list, gnutls_digest_list and gnutls_mac_list name what this
 * GnuTLS supports; a row measures an algorithm when its argument is that id. */

static const char *gnutls_row_for(int kind, int id)
{
    for (const cb_op *r = gnutls_ops; r->algo; r++) {
        int row_id = -1;
        if (kind == 0 && r->init == aead_init)
            row_id = (int)((const aead_def *)r->arg)->alg;
        else if (kind == 0 && r->init == cipher_init)
            row_id = (int)((const cipher_def *)r->arg)->alg;
        else if (kind == 1 && r->init == hash_init)
            row_id = (int)*(const gnutls_digest_algorithm_t *)r->arg;
        else if (kind == 2 && r->init == mac_init)
            row_id = (int)*(const gnutls_mac_algorithm_t *)r->arg;
        if (row_id == id)
            return r->algo;
    }
    return NULL;
}

void cb_offered_gnutls(cb_offer_fn *offer, void *u);
void cb_offered_gnutls(cb_offer_fn *offer, void *u)
{
    for (const gnutls_cipher_algorithm_t *c = gnutls_cipher_list(); *c; c++) {
        if (*c == GNUTLS_CIPHER_NULL)
            continue;
        const char *kind = gnutls_cipher_get_tag_size(*c) ? "aead" : "cipher";
        offer(u, kind, gnutls_cipher_get_name(*c), gnutls_row_for(0, (int)*c));
    }
    for (const gnutls_digest_algorithm_t *d = gnutls_digest_list(); *d; d++)
        offer(u, "hash", gnutls_digest_get_name(*d), gnutls_row_for(1, (int)*d));
    for (const gnutls_mac_algorithm_t *m = gnutls_mac_list(); *m; m++)
        if (*m != GNUTLS_MAC_AEAD && *m != GNUTLS_MAC_NULL)
            offer(u, "mac", gnutls_mac_get_name(*m), gnutls_row_for(2, (int)*m));
}

/* ---- version and what the library says about the CPU ----------------------
 * GnuTLS has no call that returns the accelerators it registered; it only
 * logs them ("Intel AES accelerator was detected") while it initialises.
 * global_init re-initialises the library once with a log hook to read those
 * lines. GNUTLS_CPUID_OVERRIDE is its switch to turn them off. */

static unsigned g_caps;
static char g_provider[96];

static void add_provider(const char *name)
{
    if (strstr(g_provider, name))
        return;
    size_t n = strlen(g_provider);
    snprintf(g_provider + n, sizeof g_provider - n, "%s%s", n ? "," : "", name);
}

static int g_reinit_seen;     /* the re-initialisation logged at all */

static void gnutls_log_hook(int level, const char *line)
{
    (void)level;
    g_reinit_seen = 1;
    if (!strstr(line, "was detected"))
        return;
    if (strstr(line, "AES accelerator")) {
        g_caps |= CB_CAP_AES_HW;
        add_provider("aesni");
    }
    if (strstr(line, "GCM accelerator")) {
        g_caps |= CB_CAP_CLMUL_HW;
        add_provider(strstr(line, "AVX") ? "gcm-pclmul-avx" : "gcm-pclmul");
    }
    if (strstr(line, "SHA was detected")) {
        g_caps |= CB_CAP_SHA_HW;
        add_provider("sha-ni");
    }
    if (strstr(line, "SSSE3 was detected")) {
        g_caps |= CB_CAP_VECTOR;
        add_provider("ssse3");
    }
    if (strstr(line, "Padlock") || strstr(line, "PADLOCK")) {
        g_caps |= CB_CAP_AES_HW;
        add_provider("padlock");
    }
}

static int gnutls_backend_init(void)
{
    g_caps = 0;
    g_reinit_seen = 0;
    g_provider[0] = '\0';
    gnutls_global_set_log_function(gnutls_log_hook);
    gnutls_global_set_log_level(2);
    gnutls_global_deinit();        /* undoes the implicit init at load time */
    int r = gnutls_global_init();
    gnutls_global_set_log_level(0);
    return r < 0 ? CB_ERR : CB_OK;
}

static const char *gnutls_backend_version(void) { return gnutls_check_version(NULL); }

static unsigned gnutls_backend_caps(void) { return g_caps; }

/* "generic" only when the library's initialisation was heard and named no
 * accelerator; NULL (unknown) when it could not be observed, e.g. because
 * another user of GnuTLS in this process kept it initialised. */
static const char *gnutls_backend_provider(void)
{
    if (g_provider[0])
        return g_provider;
    return g_reinit_seen ? "generic" : NULL;
}

/* ---- turning hardware off ------------------------------------------------ */

/* GNUTLS_CPUID_OVERRIDE, read when the library initialises, replaces its CPU
 * detection: 0x1 nothing, else the sum of 0x2 AES-NI, 0x4 SSSE3, 0x8 PCLMUL,
 * 0x10 AVX, 0x20 SHA (checked against its initialisation log). What GnuTLS's
 * own code does not cover falls to Nettle, so Nettle's switch is set too.
 * GnuTLS 3.7 has no AVX2, AVX-512, VAES or BMI code of its own. */
static int gnutls_hw_env(unsigned off, char env[][CB_HW_ENV_LEN], int max)
{
#if defined(__x86_64__)
    cb_x86 c;
    cb_x86_detect(&c);
    unsigned keep = c.hw & ~off, v = 0;
    if (keep & CB_HW_AES) v |= 0x2;
    if (keep & CB_HW_SSSE3) v |= 0x4;
    if (keep & CB_HW_PCLMUL) v |= 0x8;
    if (keep & CB_HW_AVX) v |= 0x10;
    if (keep & CB_HW_SHA) v |= 0x20;
    if (max < 2)
        return -1;
    snprintf(env[0], CB_HW_ENV_LEN, "GNUTLS_CPUID_OVERRIDE=0x%x", v ? v : 0x1);
    return 1 + cb_nettle_fat_env(off, env[1], CB_HW_ENV_LEN);
#else
    (void)off; (void)env; (void)max;
    return -1;
#endif
}

/* What its initialisation log said it registered. */
static unsigned gnutls_hw_used(void)
{
    return (g_caps & CB_CAP_AES_HW ? CB_HW_AES : 0u) | (g_caps & CB_CAP_CLMUL_HW ? CB_HW_PCLMUL : 0u)
         | (g_caps & CB_CAP_SHA_HW ? CB_HW_SHA : 0u);
}

const cb_backend cb_backend_gnutls = {
    .name = "gnutls",
    .version = gnutls_backend_version,
    .global_init = gnutls_backend_init,
    .caps = gnutls_backend_caps,
    .provider = gnutls_backend_provider,
    .ops = gnutls_ops,
#if defined(__x86_64__)
    .hw_switch = CB_HW_ALL,
#endif
    .hw_env = gnutls_hw_env,
    .hw_used = gnutls_hw_used,
};
