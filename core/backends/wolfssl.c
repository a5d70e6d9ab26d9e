/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wolfssl.c - the wolfSSL backend, through the wolfCrypt API.
 *
 * What wolfCrypt offers depends on how it was configured; every row here is
 * guarded by the feature macro of the installed <wolfssl/options.h>, so a
 * build only lists what its library really has. (Debian's build, for
 * instance, has no SHAKE128, no Camellia-CTR, no AES-NI.)
 */
#include <wolfssl/options.h>
#include <wolfssl/wolfcrypt/settings.h>

#include <wolfssl/ssl.h>
#include <wolfssl/wolfcrypt/aes.h>
#include <wolfssl/wolfcrypt/arc4.h>
#include <wolfssl/wolfcrypt/blake2.h>
#include <wolfssl/wolfcrypt/camellia.h>
#include <wolfssl/wolfcrypt/chacha.h>
#include <wolfssl/wolfcrypt/chacha20_poly1305.h>
#include <wolfssl/wolfcrypt/cmac.h>
#include <wolfssl/wolfcrypt/des3.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/hmac.h>
#include <wolfssl/wolfcrypt/md5.h>
#include <wolfssl/wolfcrypt/poly1305.h>
#include <wolfssl/wolfcrypt/ripemd.h>
#include <wolfssl/wolfcrypt/sha.h>
#include <wolfssl/wolfcrypt/sha256.h>
#include <wolfssl/wolfcrypt/sha3.h>
#include <wolfssl/wolfcrypt/sha512.h>
#include <wolfssl/wolfcrypt/wc_port.h>

#include <stdlib.h>
#include <string.h>

#include "../backend.h"

/* wolfCrypt's lengths are 32-bit */
#define TOO_LONG(n) ((uint64_t)(n) > 0xffffffffu)

/* ---- AEAD: one Aes context keyed once; the nonce is given per call -------- */

enum { AEAD_GCM, AEAD_CCM, AEAD_CHACHAPOLY };
typedef struct { int mode; size_t key_len; } aead_def;

typedef struct {
    const aead_def *d;
    int decrypt;
    Aes aes;
    uint8_t key[32];            /* ChaCha20-Poly1305 takes the key per call */
} aead_ctx;

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
    int r = 0;
    if (d->mode == AEAD_CHACHAPOLY) {
        memcpy(c->key, s->key, 32);
    } else {
        r = wc_AesInit(&c->aes, NULL, INVALID_DEVID);
#ifdef HAVE_AESGCM
        if (!r && d->mode == AEAD_GCM)
            r = wc_AesGcmSetKey(&c->aes, s->key, (word32)s->key_len);
#endif
#ifdef HAVE_AESCCM
        if (!r && d->mode == AEAD_CCM)
            r = wc_AesCcmSetKey(&c->aes, s->key, (word32)s->key_len);
#endif
    }
    if (r) {
        if (d->mode != AEAD_CHACHAPOLY)
            wc_AesFree(&c->aes);
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int aead_run(void *ctx, cb_msg *m)
{
    aead_ctx *c = ctx;
    word32 len = (word32)m->len, nl = (word32)m->nonce_len, tl = (word32)m->tag_len;
    word32 al = (word32)m->aad_len;
    int r = BAD_FUNC_ARG;
    if (TOO_LONG(m->len) || TOO_LONG(m->aad_len))
        return CB_ERR_PARAM;
    switch (c->d->mode) {
#ifdef HAVE_AESGCM
    case AEAD_GCM:
        r = c->decrypt
            ? wc_AesGcmDecrypt(&c->aes, m->out, m->in, len, m->nonce, nl, m->tag, tl, m->aad, al)
            : wc_AesGcmEncrypt(&c->aes, m->out, m->in, len, m->nonce, nl, m->tag, tl, m->aad, al);
        if (r == AES_GCM_AUTH_E)
            return CB_ERR_AUTH;
        break;
#endif
#ifdef HAVE_AESCCM
    case AEAD_CCM:
        r = c->decrypt
            ? wc_AesCcmDecrypt(&c->aes, m->out, m->in, len, m->nonce, nl, m->tag, tl, m->aad, al)
            : wc_AesCcmEncrypt(&c->aes, m->out, m->in, len, m->nonce, nl, m->tag, tl, m->aad, al);
        if (r == AES_CCM_AUTH_E)
            return CB_ERR_AUTH;
        break;
#endif
#if defined(HAVE_CHACHA) && defined(HAVE_POLY1305)
    case AEAD_CHACHAPOLY:
        if (nl != CHACHA20_POLY1305_AEAD_IV_SIZE || tl != CHACHA20_POLY1305_AEAD_AUTHTAG_SIZE)
            return CB_ERR_PARAM;
        r = c->decrypt
            ? wc_ChaCha20Poly1305_Decrypt(c->key, m->nonce, m->aad, al, m->in, len, m->tag, m->out)
            : wc_ChaCha20Poly1305_Encrypt(c->key, m->nonce, m->aad, al, m->in, len, m->out, m->tag);
        if (r == MAC_CMP_FAILED_E)
            return CB_ERR_AUTH;
        break;
#endif
    default:
        break;
    }
    if (r == BAD_FUNC_ARG)
        return CB_ERR_PARAM;  /* a nonce or tag length it does not take */
    return r ? CB_ERR : CB_OK;
}

static void aead_finish(void *ctx)
{
    aead_ctx *c = ctx;
    if (!c)
        return;
    if (c->d->mode != AEAD_CHACHAPOLY)
        wc_AesFree(&c->aes);
    free(c);
}

/* ---- ciphers: one context continues the chain or stream ------------------- */

enum { C_AES_CBC, C_AES_CTR, C_AES_CFB, C_AES_ECB, C_AES_XTS, C_CAMELLIA_CBC,
       C_3DES_CBC, C_DES_CBC, C_RC4, C_CHACHA20,
       C_AES_OFB, C_AES_CFB8, C_CAMELLIA_ECB, C_3DES_ECB, C_DES_ECB };
typedef struct { int kind; size_t key_len, iv_len; } cipher_def;

typedef struct {
    const cipher_def *d;
    int decrypt;
    union {
        Aes aes;
#ifdef WOLFSSL_AES_XTS
        XtsAes xts;
#endif
#ifdef HAVE_CAMELLIA
        Camellia cam;
#endif
#ifndef NO_DES3
        Des3 des3;
        Des des;
#endif
#ifndef NO_RC4
        Arc4 rc4;
#endif
#ifdef HAVE_CHACHA
        ChaCha chacha;
#endif
    } u;
} cipher_ctx;

static void cipher_free(cipher_ctx *c)
{
    switch (c->d->kind) {
    case C_AES_CBC: case C_AES_CTR: case C_AES_CFB: case C_AES_ECB: case C_AES_OFB: case C_AES_CFB8:
        wc_AesFree(&c->u.aes);
        break;
#ifdef WOLFSSL_AES_XTS
    case C_AES_XTS:
        wc_AesXtsFree(&c->u.xts);
        break;
#endif
#ifndef NO_DES3
    case C_3DES_CBC: case C_3DES_ECB:
        wc_Des3Free(&c->u.des3);
        break;
#endif
#ifndef NO_RC4
    case C_RC4:
        wc_Arc4Free(&c->u.rc4);
        break;
#endif
    default:
        break;
    }
    free(c);
}

static int cipher_init(void **ctx, const void *arg, const cb_setup *s)
{
    const cipher_def *d = arg;
    if (d->kind == C_RC4 ? (s->key_len < 1 || s->key_len > 256) : s->key_len != d->key_len)
        return CB_ERR_PARAM;
    if (d->kind != C_AES_XTS && (s->iv_len != d->iv_len || (d->iv_len && !s->iv)))
        return CB_ERR_PARAM;
    cipher_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->d = d;
    c->decrypt = s->decrypt;
    word32 kl = (word32)s->key_len;
    int r = -1;
    /* CTR, CFB, CFB8 and OFB use the forward cipher in both directions */
    int aes_dir = s->decrypt && (d->kind == C_AES_CBC || d->kind == C_AES_ECB)
                  ? AES_DECRYPTION : AES_ENCRYPTION;
    switch (d->kind) {
    case C_AES_CBC: case C_AES_CTR: case C_AES_CFB: case C_AES_ECB: case C_AES_OFB: case C_AES_CFB8:
        r = wc_AesInit(&c->u.aes, NULL, INVALID_DEVID);
        if (!r)
            r = wc_AesSetKey(&c->u.aes, s->key, kl, s->iv, aes_dir);
        break;
#ifdef WOLFSSL_AES_XTS
    case C_AES_XTS:
        r = wc_AesXtsSetKey(&c->u.xts, s->key, kl, s->decrypt ? AES_DECRYPTION : AES_ENCRYPTION,
                            NULL, INVALID_DEVID);
        break;
#endif
#ifdef HAVE_CAMELLIA
    case C_CAMELLIA_CBC: case C_CAMELLIA_ECB:   /* one key schedule serves both directions */
        r = wc_CamelliaSetKey(&c->u.cam, s->key, kl, s->iv);
        break;
#endif
#ifndef NO_DES3
    case C_3DES_CBC: case C_3DES_ECB:   /* a NULL IV (ECB) is a zero one */
        r = wc_Des3Init(&c->u.des3, NULL, INVALID_DEVID);
        if (!r)
            r = wc_Des3_SetKey(&c->u.des3, s->key, s->iv, s->decrypt ? DES_DECRYPTION : DES_ENCRYPTION);
        break;
    case C_DES_CBC: case C_DES_ECB:
        r = wc_Des_SetKey(&c->u.des, s->key, s->iv, s->decrypt ? DES_DECRYPTION : DES_ENCRYPTION);
        break;
#endif
#ifndef NO_RC4
    case C_RC4:
        r = wc_Arc4Init(&c->u.rc4, NULL, INVALID_DEVID);
        if (!r)
            r = wc_Arc4SetKey(&c->u.rc4, s->key, kl);
        break;
#endif
#ifdef HAVE_CHACHA
    case C_CHACHA20:
        r = wc_Chacha_SetKey(&c->u.chacha, s->key, kl);
        if (!r)
            r = wc_Chacha_SetIV(&c->u.chacha, s->iv, 0);   /* RFC 8439, block counter 0 */
        break;
#endif
    default:
        break;
    }
    if (r) {
        /* cipher_free only frees what its init set up; the union is zeroed */
        cipher_free(c);
        return r == BAD_FUNC_ARG ? CB_ERR_PARAM : CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int cipher_run(void *ctx, cb_msg *m)
{
    cipher_ctx *c = ctx;
    word32 len = (word32)m->len;
    int dec = c->decrypt, r = -1;
    if (TOO_LONG(m->len))
        return CB_ERR_PARAM;
    switch (c->d->kind) {
    case C_AES_CBC:
        r = dec ? wc_AesCbcDecrypt(&c->u.aes, m->out, m->in, len)
                : wc_AesCbcEncrypt(&c->u.aes, m->out, m->in, len);
        break;
#ifdef WOLFSSL_AES_COUNTER
    case C_AES_CTR:
        r = wc_AesCtrEncrypt(&c->u.aes, m->out, m->in, len);
        break;
#endif
#ifdef WOLFSSL_AES_CFB
    case C_AES_CFB:
        r = dec ? wc_AesCfbDecrypt(&c->u.aes, m->out, m->in, len)
                : wc_AesCfbEncrypt(&c->u.aes, m->out, m->in, len);
        break;
#endif
#ifdef HAVE_AES_ECB
    case C_AES_ECB:
        r = dec ? wc_AesEcbDecrypt(&c->u.aes, m->out, m->in, len)
                : wc_AesEcbEncrypt(&c->u.aes, m->out, m->in, len);
        break;
#endif
#ifdef WOLFSSL_AES_XTS
    case C_AES_XTS:
        if (m->nonce_len != 16)
            return CB_ERR_PARAM;
        r = dec ? wc_AesXtsDecrypt(&c->u.xts, m->out, m->in, len, m->nonce, 16)
                : wc_AesXtsEncrypt(&c->u.xts, m->out, m->in, len, m->nonce, 16);
        break;
#endif
#ifdef HAVE_CAMELLIA
    case C_CAMELLIA_CBC:
        r = dec ? wc_CamelliaCbcDecrypt(&c->u.cam, m->out, m->in, len)
                : wc_CamelliaCbcEncrypt(&c->u.cam, m->out, m->in, len);
        break;
    case C_CAMELLIA_ECB:   /* wolfCrypt's Camellia has no ECB call: its block function */
        if (len % CAMELLIA_BLOCK_SIZE)
            return CB_ERR_PARAM;
        r = 0;
        for (word32 i = 0; i < len && !r; i += CAMELLIA_BLOCK_SIZE)
            r = dec ? wc_CamelliaDecryptDirect(&c->u.cam, m->out + i, m->in + i)
                    : wc_CamelliaEncryptDirect(&c->u.cam, m->out + i, m->in + i);
        break;
#endif
#ifdef WOLFSSL_AES_OFB
    case C_AES_OFB:
        r = dec ? wc_AesOfbDecrypt(&c->u.aes, m->out, m->in, len)
                : wc_AesOfbEncrypt(&c->u.aes, m->out, m->in, len);
        break;
#endif
#ifdef WOLFSSL_AES_CFB
    case C_AES_CFB8:
        r = dec ? wc_AesCfb8Decrypt(&c->u.aes, m->out, m->in, len)
                : wc_AesCfb8Encrypt(&c->u.aes, m->out, m->in, len);
        break;
#endif
#ifndef NO_DES3
    case C_3DES_CBC:
        r = dec ? wc_Des3_CbcDecrypt(&c->u.des3, m->out, m->in, len)
                : wc_Des3_CbcEncrypt(&c->u.des3, m->out, m->in, len);
        break;
    case C_DES_CBC:
        r = dec ? wc_Des_CbcDecrypt(&c->u.des, m->out, m->in, len)
                : wc_Des_CbcEncrypt(&c->u.des, m->out, m->in, len);
        break;
#ifdef WOLFSSL_DES_ECB
    /* the key was set for the direction: the ECB call serves both */
    case C_DES_ECB:
        if (len % DES_BLOCK_SIZE)
            return CB_ERR_PARAM;
        r = wc_Des_EcbEncrypt(&c->u.des, m->out, m->in, len);
        break;
    case C_3DES_ECB:
        if (len % DES_BLOCK_SIZE)
            return CB_ERR_PARAM;
        r = wc_Des3_EcbEncrypt(&c->u.des3, m->out, m->in, len);
        break;
#endif
#endif
#ifndef NO_RC4
    case C_RC4:
        r = wc_Arc4Process(&c->u.rc4, m->out, m->in, len);
        break;
#endif
#ifdef HAVE_CHACHA
    case C_CHACHA20:
        r = wc_Chacha_Process(&c->u.chacha, m->out, m->in, len);
        break;
#endif
    default:
        break;
    }
    if (r == BAD_FUNC_ARG || r == BAD_LENGTH_E)
        return CB_ERR_PARAM;  /* e.g. not whole blocks */
    return r ? CB_ERR : CB_OK;
}

static void cipher_finish(void *ctx)
{
    if (ctx)
        cipher_free(ctx);
}

/* ---- hashes: init + update + final per message ----------------------------- */

enum { H_MD5, H_SHA1, H_SHA224, H_SHA256, H_SHA384, H_SHA512, H_SHA512_256,
       H_SHA3_256, H_SHA3_512, H_BLAKE2B, H_BLAKE2S, H_RIPEMD160,
       H_SHA3_224, H_SHA3_384, H_SHAKE256 };
typedef struct { int kind; size_t full; } hash_def;

typedef struct {
    const hash_def *d;
    union {
#ifndef NO_MD5
        wc_Md5 md5;
#endif
        wc_Sha sha;
        wc_Sha256 sha256;     /* also SHA-224 */
#ifdef WOLFSSL_SHA512
        wc_Sha512 sha512;     /* also SHA-384 and SHA-512/256 */
#endif
#ifdef WOLFSSL_SHA3
        wc_Sha3 sha3;
#endif
#ifdef WOLFSSL_SHAKE256
        wc_Shake shake;
#endif
#ifdef HAVE_BLAKE2B
        Blake2b b2b;
#endif
#ifdef HAVE_BLAKE2S
        Blake2s b2s;
#endif
#ifdef WOLFSSL_RIPEMD
        RipeMd rmd;
#endif
    } u;
} hash_ctx;

static int hash_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)s;
    hash_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->d = arg;
    *ctx = c;
    return CB_OK;
}

static int hash_once(hash_ctx *c, const uint8_t *in, word32 len, uint8_t *md)
{
    int r = -1;
    switch (c->d->kind) {
#ifndef NO_MD5
    case H_MD5:
        if (!(r = wc_InitMd5(&c->u.md5)) && !(r = wc_Md5Update(&c->u.md5, in, len)))
            r = wc_Md5Final(&c->u.md5, md);
        break;
#endif
    case H_SHA1:
        if (!(r = wc_InitSha(&c->u.sha)) && !(r = wc_ShaUpdate(&c->u.sha, in, len)))
            r = wc_ShaFinal(&c->u.sha, md);
        break;
#ifdef WOLFSSL_SHA224
    case H_SHA224:
        if (!(r = wc_InitSha224(&c->u.sha256)) && !(r = wc_Sha224Update(&c->u.sha256, in, len)))
            r = wc_Sha224Final(&c->u.sha256, md);
        break;
#endif
    case H_SHA256:
        if (!(r = wc_InitSha256(&c->u.sha256)) && !(r = wc_Sha256Update(&c->u.sha256, in, len)))
            r = wc_Sha256Final(&c->u.sha256, md);
        break;
#ifdef WOLFSSL_SHA384
    case H_SHA384:
        if (!(r = wc_InitSha384(&c->u.sha512)) && !(r = wc_Sha384Update(&c->u.sha512, in, len)))
            r = wc_Sha384Final(&c->u.sha512, md);
        break;
#endif
#ifdef WOLFSSL_SHA512
    case H_SHA512:
        if (!(r = wc_InitSha512(&c->u.sha512)) && !(r = wc_Sha512Update(&c->u.sha512, in, len)))
            r = wc_Sha512Final(&c->u.sha512, md);
        break;
#if !defined(WOLFSSL_NOSHA512_256)
    case H_SHA512_256:
        if (!(r = wc_InitSha512_256(&c->u.sha512)) &&
            !(r = wc_Sha512_256Update(&c->u.sha512, in, len)))
            r = wc_Sha512_256Final(&c->u.sha512, md);
        break;
#endif
#endif
#ifdef WOLFSSL_SHA3
    case H_SHA3_256:
        if (!(r = wc_InitSha3_256(&c->u.sha3, NULL, INVALID_DEVID)) &&
            !(r = wc_Sha3_256_Update(&c->u.sha3, in, len)))
            r = wc_Sha3_256_Final(&c->u.sha3, md);
        break;
    case H_SHA3_512:
        if (!(r = wc_InitSha3_512(&c->u.sha3, NULL, INVALID_DEVID)) &&
            !(r = wc_Sha3_512_Update(&c->u.sha3, in, len)))
            r = wc_Sha3_512_Final(&c->u.sha3, md);
        break;
    case H_SHA3_224:
        if (!(r = wc_InitSha3_224(&c->u.sha3, NULL, INVALID_DEVID)) &&
            !(r = wc_Sha3_224_Update(&c->u.sha3, in, len)))
            r = wc_Sha3_224_Final(&c->u.sha3, md);
        break;
    case H_SHA3_384:
        if (!(r = wc_InitSha3_384(&c->u.sha3, NULL, INVALID_DEVID)) &&
            !(r = wc_Sha3_384_Update(&c->u.sha3, in, len)))
            r = wc_Sha3_384_Final(&c->u.sha3, md);
        break;
#endif
#ifdef WOLFSSL_SHAKE256
    case H_SHAKE256:   /* the row's full length; a shorter output is its prefix */
        if (!(r = wc_InitShake256(&c->u.shake, NULL, INVALID_DEVID)) &&
            !(r = wc_Shake256_Update(&c->u.shake, in, len)))
            r = wc_Shake256_Final(&c->u.shake, md, (word32)c->d->full);
        break;
#endif
#ifdef HAVE_BLAKE2B
    case H_BLAKE2B:
        if (!(r = wc_InitBlake2b(&c->u.b2b, (word32)c->d->full)) &&
            !(r = wc_Blake2bUpdate(&c->u.b2b, in, len)))
            r = wc_Blake2bFinal(&c->u.b2b, md, (word32)c->d->full);
        break;
#endif
#ifdef HAVE_BLAKE2S
    case H_BLAKE2S:
        if (!(r = wc_InitBlake2s(&c->u.b2s, (word32)c->d->full)) &&
            !(r = wc_Blake2sUpdate(&c->u.b2s, in, len)))
            r = wc_Blake2sFinal(&c->u.b2s, md, (word32)c->d->full);
        break;
#endif
#ifdef WOLFSSL_RIPEMD
    case H_RIPEMD160:
        if (!(r = wc_InitRipeMd(&c->u.rmd)) && !(r = wc_RipeMdUpdate(&c->u.rmd, in, len)))
            r = wc_RipeMdFinal(&c->u.rmd, md);
        break;
#endif
    default:
        break;
    }
    return r;
}

static int hash_run(void *ctx, cb_msg *m)
{
    hash_ctx *c = ctx;
    uint8_t md[64];
    if (m->tag_len > c->d->full)
        return CB_ERR_PARAM;
    if (TOO_LONG(m->len))
        return CB_ERR_PARAM;
    if (hash_once(c, m->in, (word32)m->len, md))
        return CB_ERR;
    memcpy(m->tag, md, m->tag_len);
    return CB_OK;
}

static void hash_finish(void *ctx) { free(ctx); }

/* ---- MACs --------------------------------------------------------------------
 * HMAC: wc_HmacFinal leaves the keyed pads in place for the next message.
 * CMAC: the keyed context is kept and copied for each message, so the AES
 * key schedule is done once. GMAC: one keyed context, the nonce per call.
 * Poly1305 is keyed per message, as a one-time key is meant to be. */

enum { M_HMAC, M_CMAC, M_GMAC, M_POLY1305 };
typedef struct { int kind; int hash_type; size_t full; } mac_def;

typedef struct {
    const mac_def *d;
    union {
        Hmac hmac;
#ifdef WOLFSSL_CMAC
        Cmac cmac;
#endif
#ifdef HAVE_AESGCM
        Gmac gmac;
#endif
    } u;
    uint8_t key[32];
} mac_ctx;

static int mac_init(void **ctx, const void *arg, const cb_setup *s)
{
    const mac_def *d = arg;
    if ((d->kind == M_CMAC || d->kind == M_GMAC) && s->key_len != 16)
        return CB_ERR_PARAM;
    if (d->kind == M_POLY1305 && s->key_len != 32)
        return CB_ERR_PARAM;
    if (TOO_LONG(s->key_len))
        return CB_ERR_PARAM;
    mac_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return CB_ERR;
    c->d = d;
    int r = -1;
    switch (d->kind) {
    case M_HMAC:
        r = wc_HmacInit(&c->u.hmac, NULL, INVALID_DEVID);
        if (!r)
            r = wc_HmacSetKey(&c->u.hmac, d->hash_type, s->key, (word32)s->key_len);
        if (r)
            wc_HmacFree(&c->u.hmac);
        break;
#ifdef WOLFSSL_CMAC
    case M_CMAC:
        r = wc_InitCmac(&c->u.cmac, s->key, 16, WC_CMAC_AES, NULL);
        break;
#endif
#ifdef HAVE_AESGCM
    case M_GMAC:
        r = wc_AesInit(&c->u.gmac.aes, NULL, INVALID_DEVID);
        if (!r)
            r = wc_GmacSetKey(&c->u.gmac, s->key, 16);
        break;
#endif
    case M_POLY1305:
        memcpy(c->key, s->key, 32);
        r = 0;
        break;
    default:
        break;
    }
    if (r) {
        free(c);
        return CB_ERR;
    }
    *ctx = c;
    return CB_OK;
}

static int mac_run(void *ctx, cb_msg *m)
{
    mac_ctx *c = ctx;
    uint8_t mac[WC_MAX_DIGEST_SIZE];
    word32 len = (word32)m->len;
    int r = -1;
    if (m->tag_len > c->d->full || TOO_LONG(m->len))
        return CB_ERR_PARAM;
    switch (c->d->kind) {
    case M_HMAC:
        if (!(r = wc_HmacUpdate(&c->u.hmac, m->in, len)))
            r = wc_HmacFinal(&c->u.hmac, mac);
        break;
#ifdef WOLFSSL_CMAC
    case M_CMAC: {
        Cmac w = c->u.cmac;
        word32 out_len = 16;
        if (!(r = wc_CmacUpdate(&w, m->in, len)))
            r = wc_CmacFinal(&w, mac, &out_len);
        break;
    }
#endif
#ifdef HAVE_AESGCM
    case M_GMAC:
        if (!m->nonce || m->nonce_len == 0 || TOO_LONG(m->nonce_len))
            return CB_ERR_PARAM;
        /* the tag is asked for in full; wolfCrypt refuses GCM tags under 12 bytes */
        r = wc_GmacUpdate(&c->u.gmac, m->nonce, (word32)m->nonce_len, m->in, len, mac, 16);
        break;
#endif
#ifdef HAVE_POLY1305
    case M_POLY1305: {
        Poly1305 p;
        if (!(r = wc_Poly1305SetKey(&p, c->key, 32)) && !(r = wc_Poly1305Update(&p, m->in, len)))
            r = wc_Poly1305Final(&p, mac);
        break;
    }
#endif
    default:
        break;
    }
    if (r == BAD_FUNC_ARG)
        return CB_ERR_PARAM;
    if (r)
        return CB_ERR;
    memcpy(m->tag, mac, m->tag_len);
    return CB_OK;
}

static void mac_finish(void *ctx)
{
    mac_ctx *c = ctx;
    if (!c)
        return;
    if (c->d->kind == M_HMAC)
        wc_HmacFree(&c->u.hmac);
#ifdef HAVE_AESGCM
    if (c->d->kind == M_GMAC)
        wc_AesFree(&c->u.gmac.aes);
#endif
    free(c);
}

/* ---- the table ---------------------------------------------------------------- */

static const aead_def a_gcm128 = {AEAD_GCM, 16}, a_gcm256 = {AEAD_GCM, 32}, a_gcm192 = {AEAD_GCM, 24},
                      a_ccm128 = {AEAD_CCM, 16}, a_ccm256 = {AEAD_CCM, 32}, a_ccm192 = {AEAD_CCM, 24},
                      a_chapoly = {AEAD_CHACHAPOLY, 32};

static const cipher_def
    c_aes128cbc = {C_AES_CBC, 16, 16}, c_aes192cbc = {C_AES_CBC, 24, 16}, c_aes256cbc = {C_AES_CBC, 32, 16},
    c_aes128ctr = {C_AES_CTR, 16, 16}, c_aes192ctr = {C_AES_CTR, 24, 16}, c_aes256ctr = {C_AES_CTR, 32, 16},
    c_aes128cfb = {C_AES_CFB, 16, 16}, c_aes192cfb = {C_AES_CFB, 24, 16}, c_aes256cfb = {C_AES_CFB, 32, 16},
    c_aes128ecb = {C_AES_ECB, 16, 0}, c_aes192ecb = {C_AES_ECB, 24, 0}, c_aes256ecb = {C_AES_ECB, 32, 0},
    c_aes128xts = {C_AES_XTS, 32, 16}, c_aes256xts = {C_AES_XTS, 64, 16},
    c_cam128cbc = {C_CAMELLIA_CBC, 16, 16}, c_cam256cbc = {C_CAMELLIA_CBC, 32, 16},
    c_3descbc = {C_3DES_CBC, 24, 8}, c_descbc = {C_DES_CBC, 8, 8},
    c_aes128ofb = {C_AES_OFB, 16, 16}, c_aes192ofb = {C_AES_OFB, 24, 16}, c_aes256ofb = {C_AES_OFB, 32, 16},
    c_aes128cfb8 = {C_AES_CFB8, 16, 16}, c_aes192cfb8 = {C_AES_CFB8, 24, 16},
    c_aes256cfb8 = {C_AES_CFB8, 32, 16},
    c_cam192cbc = {C_CAMELLIA_CBC, 24, 16}, c_cam128ecb = {C_CAMELLIA_ECB, 16, 0},
    c_cam192ecb = {C_CAMELLIA_ECB, 24, 0}, c_cam256ecb = {C_CAMELLIA_ECB, 32, 0},
    c_3desecb = {C_3DES_ECB, 24, 0}, c_desecb = {C_DES_ECB, 8, 0},
    c_rc4 = {C_RC4, 16, 0}, c_chacha20 = {C_CHACHA20, 32, 12};

static const hash_def
    h_md5 = {H_MD5, 16}, h_sha1 = {H_SHA1, 20}, h_sha224 = {H_SHA224, 28},
    h_sha256 = {H_SHA256, 32}, h_sha384 = {H_SHA384, 48}, h_sha512 = {H_SHA512, 64},
    h_sha512_256 = {H_SHA512_256, 32}, h_sha3_256 = {H_SHA3_256, 32},
    h_sha3_512 = {H_SHA3_512, 64}, h_blake2b = {H_BLAKE2B, 64}, h_blake2s = {H_BLAKE2S, 32},
    h_rmd160 = {H_RIPEMD160, 20}, h_sha3_224 = {H_SHA3_224, 28}, h_sha3_384 = {H_SHA3_384, 48},
    h_shake256 = {H_SHAKE256, 64},
    h_blake2b_160 = {H_BLAKE2B, 20}, h_blake2b_256 = {H_BLAKE2B, 32}, h_blake2b_384 = {H_BLAKE2B, 48},
    h_blake2s_128 = {H_BLAKE2S, 16}, h_blake2s_160 = {H_BLAKE2S, 20}, h_blake2s_224 = {H_BLAKE2S, 28};

static const mac_def
    m_hmac_md5 = {M_HMAC, WC_MD5, 16}, m_hmac_sha1 = {M_HMAC, WC_SHA, 20},
    m_hmac_sha256 = {M_HMAC, WC_SHA256, 32}, m_hmac_sha512 = {M_HMAC, WC_SHA512, 64},
    m_hmac_sha224 = {M_HMAC, WC_SHA224, 28}, m_hmac_sha384 = {M_HMAC, WC_SHA384, 48},
    m_cmac = {M_CMAC, 0, 16}, m_gmac = {M_GMAC, 0, 16}, m_poly1305 = {M_POLY1305, 0, 16};
#ifdef WOLFSSL_SHA3
static const mac_def
    m_hmac_sha3_224 = {M_HMAC, WC_SHA3_224, 28}, m_hmac_sha3_256 = {M_HMAC, WC_SHA3_256, 32},
    m_hmac_sha3_384 = {M_HMAC, WC_SHA3_384, 48}, m_hmac_sha3_512 = {M_HMAC, WC_SHA3_512, 64};
#endif

#define AEAD(n, a) {n, a, aead_init, aead_run, aead_finish},
#define CIPHER(n, a) {n, a, cipher_init, cipher_run, cipher_finish},
#define HASH(n, a) {n, a, hash_init, hash_run, hash_finish},
#define MAC(n, a) {n, a, mac_init, mac_run, mac_finish},

static const cb_op wolfssl_ops[] = {
#ifdef HAVE_AESGCM
    AEAD("aes-128-gcm", &a_gcm128)
    AEAD("aes-256-gcm", &a_gcm256)
#ifdef WOLFSSL_AES_192
    AEAD("aes-192-gcm", &a_gcm192)
#endif
#endif
#if defined(HAVE_CHACHA) && defined(HAVE_POLY1305)
    AEAD("chacha20-poly1305", &a_chapoly)
#endif
#ifdef HAVE_AESCCM
    AEAD("aes-128-ccm", &a_ccm128)
    AEAD("aes-256-ccm", &a_ccm256)
    AEAD("aes-128-ccm-8", &a_ccm128)   /* the tag length from the row */
    AEAD("aes-256-ccm-8", &a_ccm256)
#ifdef WOLFSSL_AES_192
    AEAD("aes-192-ccm", &a_ccm192)
#endif
#endif
#ifdef HAVE_AES_CBC
    CIPHER("aes-128-cbc", &c_aes128cbc)
    CIPHER("aes-192-cbc", &c_aes192cbc)
    CIPHER("aes-256-cbc", &c_aes256cbc)
#endif
#ifdef WOLFSSL_AES_COUNTER
    CIPHER("aes-128-ctr", &c_aes128ctr)
    CIPHER("aes-192-ctr", &c_aes192ctr)
    CIPHER("aes-256-ctr", &c_aes256ctr)
#endif
#ifdef WOLFSSL_AES_CFB
    CIPHER("aes-128-cfb", &c_aes128cfb)
    CIPHER("aes-192-cfb", &c_aes192cfb)
    CIPHER("aes-256-cfb", &c_aes256cfb)
#endif
#ifdef HAVE_AES_ECB
    CIPHER("aes-128-ecb", &c_aes128ecb)
    CIPHER("aes-192-ecb", &c_aes192ecb)
    CIPHER("aes-256-ecb", &c_aes256ecb)
#endif
#ifdef WOLFSSL_AES_XTS
    CIPHER("aes-128-xts", &c_aes128xts)
    CIPHER("aes-256-xts", &c_aes256xts)
#endif
#ifdef HAVE_CAMELLIA
    CIPHER("camellia-128-cbc", &c_cam128cbc)
    CIPHER("camellia-256-cbc", &c_cam256cbc)
    CIPHER("camellia-192-cbc", &c_cam192cbc)
    CIPHER("camellia-128-ecb", &c_cam128ecb)
    CIPHER("camellia-192-ecb", &c_cam192ecb)
    CIPHER("camellia-256-ecb", &c_cam256ecb)
#endif
#ifdef WOLFSSL_AES_OFB
    CIPHER("aes-128-ofb", &c_aes128ofb)
    CIPHER("aes-192-ofb", &c_aes192ofb)
    CIPHER("aes-256-ofb", &c_aes256ofb)
#endif
#ifdef WOLFSSL_AES_CFB
    CIPHER("aes-128-cfb8", &c_aes128cfb8)
    CIPHER("aes-192-cfb8", &c_aes192cfb8)
    CIPHER("aes-256-cfb8", &c_aes256cfb8)
#endif
#if !defined(NO_DES3) && defined(WOLFSSL_DES_ECB)
    CIPHER("3des-ecb", &c_3desecb)
    CIPHER("des-ecb", &c_desecb)
#endif
#ifndef NO_DES3
    CIPHER("3des-cbc", &c_3descbc)
    CIPHER("des-cbc", &c_descbc)
#endif
#ifndef NO_RC4
    CIPHER("rc4", &c_rc4)
    CIPHER("rc4-40", &c_rc4)   /* any key of 1 to 256 bytes */
#endif
#ifdef HAVE_CHACHA
    CIPHER("chacha20", &c_chacha20)
#endif
#ifndef NO_MD5
    HASH("md5", &h_md5)
#endif
    HASH("sha1", &h_sha1)
#ifdef WOLFSSL_SHA224
    HASH("sha224", &h_sha224)
#endif
    HASH("sha256", &h_sha256)
#ifdef WOLFSSL_SHA384
    HASH("sha384", &h_sha384)
#endif
#ifdef WOLFSSL_SHA512
    HASH("sha512", &h_sha512)
#if !defined(WOLFSSL_NOSHA512_256)
    HASH("sha512-256", &h_sha512_256)
#endif
#endif
#ifdef WOLFSSL_SHA3
    HASH("sha3-256", &h_sha3_256)
    HASH("sha3-512", &h_sha3_512)
    HASH("sha3-224", &h_sha3_224)
    HASH("sha3-384", &h_sha3_384)
#endif
#ifdef WOLFSSL_SHAKE256
    HASH("shake256", &h_shake256)
#endif
#ifdef HAVE_BLAKE2B
    HASH("blake2b-512", &h_blake2b)
    HASH("blake2b-160", &h_blake2b_160)
    HASH("blake2b-256", &h_blake2b_256)
    HASH("blake2b-384", &h_blake2b_384)
#endif
#ifdef HAVE_BLAKE2S
    HASH("blake2s-256", &h_blake2s)
    HASH("blake2s-128", &h_blake2s_128)
    HASH("blake2s-160", &h_blake2s_160)
    HASH("blake2s-224", &h_blake2s_224)
#endif
#ifdef WOLFSSL_RIPEMD
    HASH("ripemd160", &h_rmd160)
#endif
#ifndef NO_MD5
    MAC("hmac-md5", &m_hmac_md5)
#endif
    MAC("hmac-sha1", &m_hmac_sha1)
    MAC("hmac-sha256", &m_hmac_sha256)
#ifdef WOLFSSL_SHA512
    MAC("hmac-sha512", &m_hmac_sha512)
#ifdef WOLFSSL_SHA384
    MAC("hmac-sha384", &m_hmac_sha384)
#endif
#ifdef WOLFSSL_SHA224
    MAC("hmac-sha224", &m_hmac_sha224)
#endif
#endif
#ifdef WOLFSSL_SHA3
    MAC("hmac-sha3-224", &m_hmac_sha3_224)
    MAC("hmac-sha3-256", &m_hmac_sha3_256)
    MAC("hmac-sha3-384", &m_hmac_sha3_384)
    MAC("hmac-sha3-512", &m_hmac_sha3_512)
#endif
#ifdef HAVE_POLY1305
    MAC("poly1305", &m_poly1305)
#endif
#ifdef WOLFSSL_CMAC
    MAC("cmac-aes-128", &m_cmac)
#endif
#ifdef HAVE_AESGCM
    MAC("gmac-aes-128", &m_gmac)
#endif
    {NULL, NULL, NULL, NULL, NULL},
};

static const char *wolfssl_version(void) { return wolfSSL_lib_version(); }

static int wolfssl_global_init(void) { return wolfCrypt_Init() == 0 ? CB_OK : CB_ERR; }

/* wolfCrypt has no call that says which implementation it runs. Built
 * without WOLFSSL_AESNI and USE_INTEL_SPEEDUP (as Debian's is), all of it
 * is portable C, and that is known here; with them, it chooses at run time
 * and does not tell, so the capabilities are left unknown. */
#if !defined(WOLFSSL_AESNI) && !defined(USE_INTEL_SPEEDUP) && !defined(WOLFSSL_ARMASM)
static unsigned wolfssl_caps(void) { return 0; }
static const char *wolfssl_provider(void) { return "c"; }
#define WOLFSSL_CAPS wolfssl_caps
#define WOLFSSL_PROVIDER wolfssl_provider
/* Portable C has no code beyond the architecture's baseline, so every CPU
 * profile holds with nothing to switch (as LibTomCrypt's). */
#define WOLFSSL_HW_SWITCH CB_HW_ALL
#else
#define WOLFSSL_CAPS NULL
#define WOLFSSL_PROVIDER NULL
/* Built with its assembly, wolfCrypt's cpuid_select_flags() covers AES-NI,
 * AVX and BMI but says nothing of what else the build may use, so no profile
 * is claimed: such a build is reported cannot_disable, not measured as if
 * switched off. */
#define WOLFSSL_HW_SWITCH 0
#endif

const cb_backend cb_backend_wolfssl = {
    .name = "wolfssl",
    .version = wolfssl_version,
    .global_init = wolfssl_global_init,
    .caps = WOLFSSL_CAPS,
    .provider = WOLFSSL_PROVIDER,
    .ops = wolfssl_ops,
    .hw_switch = WOLFSSL_HW_SWITCH,
};
