/* botan.c - Botan 2 backend, through its C FFI (botan/ffi.h).
 *
 * The FFI copies every message through an internal buffer (botan_cipher_update
 * hands the whole input to Cipher_Mode::finish), so these numbers are what a C
 * program calling Botan pays, a little above `botan speed` for small messages.
 * Each run() passes the whole message in one BOTAN_CIPHER_UPDATE_FLAG_FINAL
 * call: the FFI's non-final path works in update_granularity() pieces, which
 * is one byte for stream ciphers.
 */
#include "../backend.h"

#include <botan/ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- helpers */

/* A growable scratch buffer: AEAD ciphertext and tag are one contiguous
 * buffer for Botan, two for the harness. */
typedef struct {
    uint8_t *p;
    size_t cap;
} scratch;

static uint8_t *scratch_get(scratch *s, size_t n)
{
    if (n == 0)
        n = 1;
    if (n > s->cap) {
        uint8_t *p = realloc(s->p, n);
        if (!p)
            return NULL;
        s->p = p;
        s->cap = n;
    }
    return s->p;
}

static int map_err(int rc)
{
    switch (rc) {
    case BOTAN_FFI_SUCCESS: return CB_OK;
    case BOTAN_FFI_ERROR_BAD_MAC: return CB_ERR_AUTH;
    case BOTAN_FFI_ERROR_INVALID_KEY_LENGTH:
    case BOTAN_FFI_ERROR_BAD_PARAMETER:
    case BOTAN_FFI_ERROR_NOT_IMPLEMENTED:
        return CB_ERR_PARAM;
    default: return CB_ERR;
    }
}

/* Create a cipher object and key it. */
static int cipher_new(botan_cipher_t *c, const char *name, int decrypt,
                      const uint8_t *key, size_t key_len)
{
    int rc = botan_cipher_init(c, name, decrypt ? BOTAN_CIPHER_INIT_FLAG_DECRYPT
                                                : BOTAN_CIPHER_INIT_FLAG_ENCRYPT);
    if (rc != 0) {
        *c = NULL;
        return map_err(rc) == CB_ERR ? CB_ERR_PARAM : map_err(rc);
    }
    rc = botan_cipher_set_key(*c, key, key_len);
    if (rc != 0) {
        botan_cipher_destroy(*c);
        *c = NULL;
        return CB_ERR_PARAM;
    }
    return CB_OK;
}

/* Pass the largest multiple of the update granularity through the FFI's
 * streaming path, which copies with memmove; the final path copies its input
 * byte by byte in Botan 2, about half the time of AES-CTR at 16 KiB.
 * Granularity 1 (stream ciphers) would mean one call per byte: not used. */
static int bulk_update(botan_cipher_t c, size_t ug, const uint8_t *in, uint8_t *out,
                       size_t len, size_t *done)
{
    size_t n = ug > 1 ? len / ug * ug : 0, written = 0, consumed = 0;
    *done = 0;
    if (n == 0)
        return 0;
    int rc = botan_cipher_update(c, 0, out, n, &written, in, n, &consumed);
    if (rc != 0)
        return rc;
    if (written != n || consumed != n)
        return BOTAN_FFI_ERROR_INTERNAL_ERROR;
    *done = n;
    return 0;
}

/* ------------------------------------------------------------------- AEAD */

enum aead_type { AEAD_GCM, AEAD_OCB, AEAD_CCM, AEAD_CHACHA };

typedef struct {
    const char *base;        /* "AES-128" or "ChaCha20Poly1305" */
    enum aead_type type;
} aead_arg;

typedef struct {
    const aead_arg *a;
    botan_cipher_t c;
    uint8_t key[32];
    size_t key_len, tag_len, nonce_len;  /* nonce_len: what c was made for (CCM) */
    size_t ug;                           /* the FFI's update granularity */
    int decrypt;
    scratch buf;
} aead_ctx;

/* Botan names the tag size (and for CCM the length field L = 15 - nonce
 * length) in the algorithm string. */
static int aead_make(aead_ctx *x, size_t nonce_len)
{
    char name[64];
    switch (x->a->type) {
    case AEAD_GCM:
        snprintf(name, sizeof name, "%s/GCM(%zu)", x->a->base, x->tag_len);
        break;
    case AEAD_OCB:
        snprintf(name, sizeof name, "%s/OCB(%zu)", x->a->base, x->tag_len);
        break;
    case AEAD_CCM:
        if (nonce_len < 7 || nonce_len > 13)
            return CB_ERR_PARAM;
        snprintf(name, sizeof name, "%s/CCM(%zu,%zu)", x->a->base, x->tag_len, 15 - nonce_len);
        break;
    case AEAD_CHACHA:
        /* Botan also takes 8 and 24-byte nonces, but those are other
         * constructions (draft-agl, XChaCha), not RFC 8439. */
        if (x->tag_len != 16)
            return CB_ERR_PARAM;
        snprintf(name, sizeof name, "%s", x->a->base);
        break;
    }
    if (x->c)
        botan_cipher_destroy(x->c);
    x->c = NULL;
    int rc = cipher_new(&x->c, name, x->decrypt, x->key, x->key_len);
    if (rc == CB_OK) {
        x->nonce_len = nonce_len;
        if (botan_cipher_get_update_granularity(x->c, &x->ug) != 0)
            return CB_ERR;
    }
    return rc;
}

static void aead_finish(void *ctx)
{
    aead_ctx *x = ctx;
    if (!x)
        return;
    if (x->c)
        botan_cipher_destroy(x->c);
    free(x->buf.p);
    free(x);
}

static int aead_init(void **ctx, const void *arg, const cb_setup *s)
{
    aead_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->a = arg;
    x->decrypt = s->decrypt;
    x->tag_len = s->tag_len ? s->tag_len : 16;
    if (s->key_len > sizeof x->key) {
        free(x);
        return CB_ERR_PARAM;
    }
    memcpy(x->key, s->key, s->key_len);
    x->key_len = s->key_len;
    /* CCM's object depends on the nonce length: remade in run() if a
     * message comes with another length. */
    size_t nl = s->iv_len >= 7 && s->iv_len <= 13 ? s->iv_len : 12;
    int rc = aead_make(x, nl);
    if (rc != CB_OK) {
        aead_finish(x);
        return rc;
    }
    *ctx = x;
    return CB_OK;
}

static int aead_run(void *ctx, cb_msg *m)
{
    aead_ctx *x = ctx;
    size_t written = 0, consumed = 0, bulk = 0;
    int rc;

    if (m->tag_len != x->tag_len)
        return CB_ERR_PARAM;
    if (x->a->type == AEAD_CCM && m->nonce_len != x->nonce_len) {
        if ((rc = aead_make(x, m->nonce_len)) != CB_OK)
            return rc;
    }
    if (botan_cipher_valid_nonce_length(x->c, m->nonce_len) != 1 ||
        (x->a->type == AEAD_CHACHA && m->nonce_len != 12))
        return CB_ERR_PARAM;

    /* Botan takes the associated data before start(). */
    rc = botan_cipher_set_associated_data(x->c, m->aad, m->aad_len);
    if (rc == 0)
        rc = botan_cipher_start(x->c, m->nonce, m->nonce_len);
    if (rc == 0 && x->a->type != AEAD_CCM) {
        /* CCM needs the whole message at once; the others stream. */
        rc = bulk_update(x->c, x->ug, m->in, m->out, m->len, &bulk);
    }
    if (rc != 0)
        goto fail;

    size_t rest = m->len - bulk;
    uint8_t *b = scratch_get(&x->buf, rest + x->tag_len);
    if (!b)
        return CB_ERR;
    if (!x->decrypt) {
        rc = botan_cipher_update(x->c, BOTAN_CIPHER_UPDATE_FLAG_FINAL, b, rest + x->tag_len,
                                 &written, m->in + bulk, rest, &consumed);
        if (rc != 0)
            goto fail;
        if (written != rest + x->tag_len)
            return CB_ERR;
        memcpy(m->out + bulk, b, rest);
        memcpy(m->tag, b + rest, x->tag_len);
    } else {
        /* Botan reads the tag as the last bytes of the ciphertext. */
        memcpy(b, m->in + bulk, rest);
        memcpy(b + rest, m->tag, x->tag_len);
        uint8_t dummy;  /* the FFI wants an output pointer even for zero bytes */
        rc = botan_cipher_update(x->c, BOTAN_CIPHER_UPDATE_FLAG_FINAL,
                                 rest ? m->out + bulk : &dummy, rest,
                                 &written, b, rest + x->tag_len, &consumed);
        if (rc != 0)
            goto fail;
        if (written != rest)
            return CB_ERR;
    }
    return CB_OK;

fail:
    /* Drop any half-processed message state, keep the key. */
    botan_cipher_reset(x->c);
    return map_err(rc);
}

static const aead_arg gcm128 = {"AES-128", AEAD_GCM}, gcm256 = {"AES-256", AEAD_GCM};
static const aead_arg ocb128 = {"AES-128", AEAD_OCB}, ocb256 = {"AES-256", AEAD_OCB};
static const aead_arg ccm128 = {"AES-128", AEAD_CCM}, ccm256 = {"AES-256", AEAD_CCM};
static const aead_arg chapoly = {"ChaCha20Poly1305", AEAD_CHACHA};

/* ---------------------------------------------------------------- ciphers */

typedef struct {
    botan_cipher_t c;
    size_t ug;
    int xts;
} cipher_ctx;

static void cipher_finish(void *ctx)
{
    cipher_ctx *x = ctx;
    if (!x)
        return;
    if (x->c)
        botan_cipher_destroy(x->c);
    free(x);
}

/* Botan's ChaCha and Salsa20 also take other nonce sizes (DJB's 64-bit
 * ChaCha, XSalsa20): the rows are RFC 8439 ChaCha20 and plain Salsa20. */
static size_t fixed_iv_len(const char *name)
{
    if (strcmp(name, "ChaCha(20)") == 0)
        return 12;
    if (strcmp(name, "Salsa20") == 0)
        return 8;
    return 0;
}

/* arg: a Botan mode name, e.g. "AES-128/CBC/NoPadding" or "CTR(AES-128)". */
static int cipher_init(void **ctx, const void *arg, const cb_setup *s)
{
    const char *name = arg;
    if (fixed_iv_len(name) && s->iv_len != fixed_iv_len(name))
        return CB_ERR_PARAM;
    cipher_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->xts = strstr(name, "/XTS") != NULL;
    int rc = cipher_new(&x->c, name, s->decrypt, s->key, s->key_len);
    if (rc == CB_OK && botan_cipher_get_update_granularity(x->c, &x->ug) != 0)
        rc = CB_ERR;
    if (rc == CB_OK && !x->xts) {
        /* The chain or stream starts here and runs on across run() calls. */
        if (botan_cipher_valid_nonce_length(x->c, s->iv_len) != 1)
            rc = CB_ERR_PARAM;
        else if (botan_cipher_start(x->c, s->iv, s->iv_len) != 0)
            rc = CB_ERR;
    }
    if (rc != CB_OK) {
        cipher_finish(x);
        return rc;
    }
    *ctx = x;
    return CB_OK;
}

static int cipher_run(void *ctx, cb_msg *m)
{
    cipher_ctx *x = ctx;
    size_t written = 0, consumed = 0, bulk = 0, n = m->len;
    int rc;

    if (x->xts) {
        /* One data unit per call, the tweak in msg->nonce. */
        if (m->nonce_len != 16 || m->len < 16)
            return CB_ERR_PARAM;
        if ((rc = botan_cipher_start(x->c, m->nonce, m->nonce_len)) != 0)
            return map_err(rc);
        n = m->len - 16;  /* ciphertext stealing needs a last block in finish() */
    }
    rc = bulk_update(x->c, x->ug, m->in, m->out, n, &bulk);
    if (rc == 0 && bulk < m->len) {
        /* A final update leaves CBC/CFB/CTR state where it was: the next call
         * continues the chain or key stream without a new start(). */
        size_t rest = m->len - bulk;
        rc = botan_cipher_update(x->c, BOTAN_CIPHER_UPDATE_FLAG_FINAL, m->out + bulk, rest,
                                 &written, m->in + bulk, rest, &consumed);
        if (rc == 0 && written != rest)
            return CB_ERR;
    }
    if (rc != 0)
        return map_err(rc) == CB_ERR ? CB_ERR_PARAM : map_err(rc);
    return CB_OK;
}

/* ECB: the FFI has no ECB mode, but its block cipher call is exactly that. */
typedef struct {
    botan_block_cipher_t bc;
    size_t bs;
    int decrypt;
} ecb_ctx;

static void ecb_finish(void *ctx)
{
    ecb_ctx *x = ctx;
    if (!x)
        return;
    if (x->bc)
        botan_block_cipher_destroy(x->bc);
    free(x);
}

static int ecb_init(void **ctx, const void *arg, const cb_setup *s)
{
    ecb_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->decrypt = s->decrypt;
    if (botan_block_cipher_init(&x->bc, arg) != 0) {
        x->bc = NULL;
        ecb_finish(x);
        return CB_ERR;
    }
    int bs = botan_block_cipher_block_size(x->bc);
    if (bs <= 0 || botan_block_cipher_set_key(x->bc, s->key, s->key_len) != 0) {
        ecb_finish(x);
        return CB_ERR_PARAM;
    }
    x->bs = (size_t)bs;
    *ctx = x;
    return CB_OK;
}

static int ecb_run(void *ctx, cb_msg *m)
{
    ecb_ctx *x = ctx;
    if (m->len % x->bs)
        return CB_ERR_PARAM;
    if (m->len == 0)
        return CB_OK;
    int rc = x->decrypt ? botan_block_cipher_decrypt_blocks(x->bc, m->in, m->out, m->len / x->bs)
                        : botan_block_cipher_encrypt_blocks(x->bc, m->in, m->out, m->len / x->bs);
    return rc == 0 ? CB_OK : CB_ERR;
}

/* ----------------------------------------------------------------- hashes */

typedef struct {
    botan_hash_t h;
    size_t out_len;
    const char *name;
} hash_ctx;

static void hash_finish(void *ctx)
{
    hash_ctx *x = ctx;
    if (!x)
        return;
    if (x->h)
        botan_hash_destroy(x->h);
    free(x);
}

/* SHAKE's output length is part of Botan's name: "SHAKE-128(256)". */
static int hash_make(hash_ctx *x, size_t out_len)
{
    char name[48];
    int xof = strncmp(x->name, "SHAKE", 5) == 0;
    if (xof) {
        if (out_len == 0 || out_len > 1024)
            return CB_ERR_PARAM;
        snprintf(name, sizeof name, "%s(%zu)", x->name, out_len * 8);
    } else {
        snprintf(name, sizeof name, "%s", x->name);
    }
    if (x->h)
        botan_hash_destroy(x->h);
    x->h = NULL;
    if (botan_hash_init(&x->h, name, 0) != 0) {
        x->h = NULL;
        return CB_ERR;
    }
    if (botan_hash_output_length(x->h, &x->out_len) != 0)
        return CB_ERR;
    if (out_len && x->out_len != out_len)
        return CB_ERR_PARAM;
    return CB_OK;
}

static int hash_init(void **ctx, const void *arg, const cb_setup *s)
{
    hash_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    x->name = arg;
    int rc = hash_make(x, s->tag_len);
    if (rc != CB_OK) {
        hash_finish(x);
        return rc;
    }
    *ctx = x;
    return CB_OK;
}

static int hash_run(void *ctx, cb_msg *m)
{
    hash_ctx *x = ctx;
    int rc;
    if (m->tag_len != x->out_len) {
        if (strncmp(x->name, "SHAKE", 5) != 0)
            return CB_ERR_PARAM;
        if ((rc = hash_make(x, m->tag_len)) != CB_OK)
            return rc;
    }
    /* botan_hash_final leaves the object ready for the next message. */
    if (botan_hash_update(x->h, m->in, m->len) != 0 || botan_hash_final(x->h, m->tag) != 0)
        return CB_ERR;
    return CB_OK;
}

/* ------------------------------------------------------------------- MACs */

typedef struct {
    botan_mac_t mac;
    size_t out_len;
    int one_time, used;      /* Poly1305: Botan forgets the key in final() */
    uint8_t key[32];
} mac_ctx;

static void mac_finish(void *ctx)
{
    mac_ctx *x = ctx;
    if (!x)
        return;
    if (x->mac)
        botan_mac_destroy(x->mac);
    free(x);
}

static int mac_init(void **ctx, const void *arg, const cb_setup *s)
{
    mac_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    if (botan_mac_init(&x->mac, arg, 0) != 0) {
        x->mac = NULL;
        mac_finish(x);
        return CB_ERR;
    }
    if (botan_mac_output_length(x->mac, &x->out_len) != 0 || x->out_len > 64 ||
        (s->tag_len && s->tag_len > x->out_len) ||
        botan_mac_set_key(x->mac, s->key, s->key_len) != 0) {
        mac_finish(x);
        return CB_ERR_PARAM;
    }
    x->one_time = strcmp(arg, "Poly1305") == 0;
    if (x->one_time) {
        if (s->key_len != sizeof x->key) {
            mac_finish(x);
            return CB_ERR_PARAM;
        }
        memcpy(x->key, s->key, sizeof x->key);
    }
    *ctx = x;
    return CB_OK;
}

static int mac_run(void *ctx, cb_msg *m)
{
    mac_ctx *x = ctx;
    uint8_t full[64];
    if (m->tag_len == 0 || m->tag_len > x->out_len)
        return CB_ERR_PARAM;
    /* A one-time key is part of each message, as Poly1305 is used. */
    if (x->one_time && x->used && botan_mac_set_key(x->mac, x->key, sizeof x->key) != 0)
        return CB_ERR;
    x->used = 1;
    if (botan_mac_update(x->mac, m->in, m->len) != 0 || botan_mac_final(x->mac, full) != 0)
        return CB_ERR;
    memcpy(m->tag, full, m->tag_len);  /* a shorter tag is a prefix (RFC 4231 test 5) */
    return CB_OK;
}

/* GMAC: Botan 2's FFI has no call to give a MAC its nonce, so GMAC is run as
 * what SP 800-38D defines it to be: GCM over an empty plaintext with the
 * message as associated data. */
typedef struct {
    botan_cipher_t c;
} gmac_ctx;

static void gmac_finish(void *ctx)
{
    gmac_ctx *x = ctx;
    if (!x)
        return;
    if (x->c)
        botan_cipher_destroy(x->c);
    free(x);
}

static int gmac_init(void **ctx, const void *arg, const cb_setup *s)
{
    gmac_ctx *x = calloc(1, sizeof *x);
    if (!x)
        return CB_ERR;
    if (s->tag_len > 16) {
        free(x);
        return CB_ERR_PARAM;
    }
    int rc = cipher_new(&x->c, arg, 0, s->key, s->key_len);
    if (rc != CB_OK) {
        free(x);
        return rc;
    }
    *ctx = x;
    return CB_OK;
}

static int gmac_run(void *ctx, cb_msg *m)
{
    gmac_ctx *x = ctx;
    uint8_t full[16], none = 0;
    size_t written = 0, consumed = 0;
    if (m->tag_len == 0 || m->tag_len > 16 || m->nonce_len == 0)
        return CB_ERR_PARAM;
    int rc = botan_cipher_set_associated_data(x->c, m->in, m->len);
    if (rc == 0)
        rc = botan_cipher_start(x->c, m->nonce, m->nonce_len);
    if (rc == 0)
        rc = botan_cipher_update(x->c, BOTAN_CIPHER_UPDATE_FLAG_FINAL, full, sizeof full,
                                 &written, &none, 0, &consumed);
    if (rc != 0) {
        botan_cipher_reset(x->c);
        return map_err(rc);
    }
    if (written != 16)
        return CB_ERR;
    memcpy(m->tag, full, m->tag_len);
    return CB_OK;
}

/* ------------------------------------------------------------------ table */

static const char *botan_version(void)
{
    return botan_version_string();
}

static int botan_global_init(void)
{
    /* The header's API level must be one the loaded library serves. */
    return botan_ffi_supports_api(BOTAN_HAS_FFI) == 0 ? CB_OK : CB_ERR;
}

#define AEAD(n, a) {n, &a, aead_init, aead_run, aead_finish}
#define CIPHER(n, s) {n, s, cipher_init, cipher_run, cipher_finish}
#define ECB(n, s) {n, s, ecb_init, ecb_run, ecb_finish}
#define HASH(n, s) {n, s, hash_init, hash_run, hash_finish}
#define MAC(n, s) {n, s, mac_init, mac_run, mac_finish}

static const cb_op botan_ops[] = {
    AEAD("aes-128-gcm", gcm128),
    AEAD("aes-256-gcm", gcm256),
    AEAD("chacha20-poly1305", chapoly),
    AEAD("aes-128-ocb", ocb128),
    AEAD("aes-256-ocb", ocb256),
    AEAD("aes-128-ccm", ccm128),
    AEAD("aes-256-ccm", ccm256),

    CIPHER("aes-128-cbc", "AES-128/CBC/NoPadding"),
    CIPHER("aes-192-cbc", "AES-192/CBC/NoPadding"),
    CIPHER("aes-256-cbc", "AES-256/CBC/NoPadding"),
    CIPHER("aes-128-ctr", "CTR-BE(AES-128)"),
    CIPHER("aes-192-ctr", "CTR-BE(AES-192)"),
    CIPHER("aes-256-ctr", "CTR-BE(AES-256)"),
    CIPHER("aes-128-cfb", "AES-128/CFB"),
    CIPHER("aes-192-cfb", "AES-192/CFB"),
    CIPHER("aes-256-cfb", "AES-256/CFB"),
    ECB("aes-128-ecb", "AES-128"),
    ECB("aes-192-ecb", "AES-192"),
    ECB("aes-256-ecb", "AES-256"),
    CIPHER("aes-128-xts", "AES-128/XTS"),
    CIPHER("aes-256-xts", "AES-256/XTS"),
    CIPHER("camellia-128-cbc", "Camellia-128/CBC/NoPadding"),
    CIPHER("camellia-256-cbc", "Camellia-256/CBC/NoPadding"),
    CIPHER("camellia-128-ctr", "CTR-BE(Camellia-128)"),
    CIPHER("camellia-256-ctr", "CTR-BE(Camellia-256)"),
    CIPHER("twofish-256-cbc", "Twofish/CBC/NoPadding"),
    CIPHER("twofish-256-cfb", "Twofish/CFB"),
    CIPHER("camellia-128-cfb", "Camellia-128/CFB"),
    CIPHER("camellia-192-cfb", "Camellia-192/CFB"),
    CIPHER("camellia-256-cfb", "Camellia-256/CFB"),
    CIPHER("cast5-cfb", "CAST-128/CFB"),
    CIPHER("blowfish-cfb", "Blowfish/CFB"),
    CIPHER("3des-cfb", "TripleDES/CFB"),
    CIPHER("idea-cfb", "IDEA/CFB"),
    CIPHER("serpent-256-cbc", "Serpent/CBC/NoPadding"),
    CIPHER("blowfish-cbc", "Blowfish/CBC/NoPadding"),
    CIPHER("cast5-cbc", "CAST-128/CBC/NoPadding"),
    CIPHER("idea-cbc", "IDEA/CBC/NoPadding"),
    CIPHER("3des-cbc", "TripleDES/CBC/NoPadding"),
    CIPHER("des-cbc", "DES/CBC/NoPadding"),
    CIPHER("sm4-cbc", "SM4/CBC/NoPadding"),
    CIPHER("rc4", "RC4"),
    CIPHER("chacha20", "ChaCha(20)"),
    CIPHER("salsa20", "Salsa20"),

    HASH("md5", "MD5"),
    HASH("sha1", "SHA-1"),
    HASH("sha224", "SHA-224"),
    HASH("sha256", "SHA-256"),
    HASH("sha384", "SHA-384"),
    HASH("sha512", "SHA-512"),
    HASH("sha512-256", "SHA-512-256"),
    HASH("sha3-256", "SHA-3(256)"),
    HASH("sha3-512", "SHA-3(512)"),
    HASH("shake128", "SHAKE-128"),
    HASH("blake2b-512", "BLAKE2b(512)"),
    HASH("ripemd160", "RIPEMD-160"),
    HASH("sm3", "SM3"),

    MAC("hmac-md5", "HMAC(MD5)"),
    MAC("hmac-sha1", "HMAC(SHA-1)"),
    MAC("hmac-sha256", "HMAC(SHA-256)"),
    MAC("hmac-sha512", "HMAC(SHA-512)"),
    MAC("poly1305", "Poly1305"),
    MAC("cmac-aes-128", "CMAC(AES-128)"),
    {"gmac-aes-128", "AES-128/GCM", gmac_init, gmac_run, gmac_finish},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Botan 2's FFI says neither which implementation it picked (AES-NI, vperm,
 * table) nor which CPU features it uses, so provider and caps stay unknown. */
const cb_backend cb_backend_botan = {
    .name = "botan",
    .version = botan_version,
    .global_init = botan_global_init,
    .caps = NULL,
    .provider = NULL,
    .ops = botan_ops,
};
