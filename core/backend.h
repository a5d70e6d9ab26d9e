/* SPDX-License-Identifier: GPL-3.0-or-later */
/* backend.h - the contract between the measurement core and one crypto library.
 *
 * A backend is one source file (C, or C++ with C linkage) that defines one constant
 * `cb_backend` table; it is built as a shared module with its library (module.h), which
 * exports that table to the core.
 * Each row of its `ops` array is one algorithm the library can run, given by
 * its canonical name (see algorithms.c for key, nonce and tag sizes) and three
 * small functions. One function usually serves many rows through `arg`
 * (an EVP name, a gcrypt algorithm id, a nettle struct ...).
 *
 * What one call of run() means (the unit the harness times):
 *   AEAD    one whole message: set the nonce given in msg, authenticate
 *           msg->aad, encrypt (or decrypt) msg->len bytes, write (or verify)
 *           the tag. Decrypt returns CB_ERR_AUTH if the tag does not verify.
 *   cipher  continue the stream or chain set up by init() over msg->len
 *           bytes, as `openssl speed` does. XTS and CBC-CTS are the exceptions:
 *           each call is one data unit (message) whose tweak (IV) is msg->nonce.
 *   hash    init+update+final of msg->in into msg->tag (tag_len bytes).
 *   mac     the MAC of msg->in under the key from init() into msg->tag;
 *           GMAC and UMAC take their per-message nonce from msg->nonce.
 *   ref     memcpy / null: the harness's own reference rows.
 *   keywrap one whole key: msg->len bytes of key data. Wrap (encrypt) reads
 *           msg->in and writes cb_keywrap_out(row, msg->len) bytes (algorithms.h:
 *           cb_keywrap_len(msg->len) for RFC 3394 / 5649, 16 more than the key data
 *           for RFC 3217) to msg->out; unwrap (decrypt) reads that many from msg->in
 *           and writes msg->len bytes. Unwrap returns CB_ERR_AUTH when the integrity
 *           check fails or the unwrapped length is not msg->len.
 */
#ifndef CB_BACKEND_H
#define CB_BACKEND_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum cb_status {
    CB_OK = 0,
    CB_ERR = 1,          /* the library reported a failure */
    CB_ERR_AUTH = 2,     /* AEAD/MAC tag did not verify */
    CB_ERR_PARAM = 3,    /* key, nonce, tag or length the library does not accept */
};

/* What init() is given: fixed for the life of one context. */
typedef struct cb_setup {
    const uint8_t *key;  size_t key_len;
    const uint8_t *iv;   size_t iv_len;   /* cipher IV / initial counter; NULL for ECB, hashes */
    size_t tag_len;                       /* AEAD tag, MAC or digest length wanted */
    int decrypt;                          /* 0 encrypt (or hash/mac), 1 decrypt */
} cb_setup;

/* One message. in and out may be the same buffer (core/tests/test_in_place.c checks every
 * cipher, AEAD and key-wrap row; the rows known to break it are listed there). */
typedef struct cb_msg {
    const uint8_t *in;   uint8_t *out;  size_t len;
    const uint8_t *nonce; size_t nonce_len;  /* AEAD nonce, XTS tweak, GMAC/UMAC nonce */
    const uint8_t *aad;   size_t aad_len;    /* AEAD associated data */
    uint8_t *tag;         size_t tag_len;    /* AEAD tag (written or checked), digest, MAC */
} cb_msg;

typedef struct cb_op {
    const char *algo;       /* canonical name, e.g. "aes-128-gcm" */
    const void *arg;        /* backend-private: which cipher/hash this row is */
    int  (*init)(void **ctx, const void *arg, const cb_setup *s); /* returns cb_status */
    int  (*run)(void *ctx, cb_msg *m);                            /* returns cb_status */
    void (*finish)(void *ctx);                                    /* frees ctx; NULL-safe */
} cb_op;

/* Capability bits a library may report about itself. */
enum cb_caps {
    CB_CAP_AES_HW    = 1u << 0,   /* library uses AES instructions (AES-NI, ARMv8 AES) */
    CB_CAP_CLMUL_HW  = 1u << 1,   /* carry-less multiply for GHASH */
    CB_CAP_SHA_HW    = 1u << 2,   /* SHA instructions */
    CB_CAP_VECTOR    = 1u << 3,   /* SIMD (SSSE3/AVX2/NEON) code paths for ChaCha etc. */
    CB_CAP_NO_HW_SWITCH = 1u << 8 /* the library has no supported way to turn hardware off */
};

/* CPU features --cpu-profile, --no-hw and --disable-cpu-feature can ask a
 * library to leave unused (x86-64 names; hw.c maps them to words and back).
 * The profiles: no-aes (CB_HW_NO_AES, what --no-hw always meant) and
 * baseline (CB_HW_ALL: nothing beyond the architecture's baseline, SSE2 on
 * x86-64, Armv8-A with NEON on arm64). */
enum cb_hw_feature {
    CB_HW_AES    = 1u << 0,   /* AES-NI */
    CB_HW_PCLMUL = 1u << 1,   /* PCLMULQDQ (GHASH) */
    CB_HW_AVX2   = 1u << 2,   /* AVX2 code paths */
    CB_HW_VAES   = 1u << 3,   /* VAES and VPCLMULQDQ (wide AES-GCM), GFNI */
    CB_HW_SHA    = 1u << 4,   /* SHA extensions */
    CB_HW_NO_AES = (1u << 5) - 1,
    CB_HW_AVX512 = 1u << 5,   /* AVX-512 (F, DQ, BW, VL, IFMA, VBMI ...) */
    CB_HW_AVX    = 1u << 6,   /* AVX, FMA, F16C */
    CB_HW_SSSE3  = 1u << 7,   /* SSE3, SSSE3, SSE4.1, SSE4.2, MOVBE, POPCNT */
    CB_HW_BMI    = 1u << 8,   /* BMI1, BMI2, ADX */
    CB_HW_ALL    = (1u << 9) - 1
};

/* Room for one "NAME=VALUE" string from hw_env(). */
#define CB_HW_ENV_LEN 128

typedef struct cb_backend {
    const char *name;                      /* "openssl", "libgcrypt", "nettle" ... */
    const char *(*version)(void);          /* runtime library version string */
    int (*global_init)(void);              /* once per process before any op; may be NULL */
    unsigned (*caps)(void);                /* cb_caps bits; may be NULL (unknown) */
    const char *(*provider)(void);         /* implementation it picked, e.g. "aesni"; may be NULL */
    const cb_op *ops;                      /* rows, ended by a row with algo == NULL */

    /* ---- Turning hardware off (--cpu-profile, --no-hw, --disable-cpu-feature). Appended
     * after ops so that older initialisers stay valid; all may be 0/NULL,
     * which means "this library has no supported switch" (reported as
     * cannot_disable, never measured as if switched off).
     *
     * hw_switch   CB_HW_* features the library's own switch guarantees unused;
     *             a feature it has no code for at all counts too (there is
     *             nothing to turn off); say so at the definition.
     * hw_env      fills env[0..max) with "NAME=VALUE" strings that turn off
     *             `features` when set before the library loads (the core sets
     *             them and re-executes itself before any library initialises);
     *             returns how many, or -1 if it cannot express that set.
     * disable_hw  an in-process switch, called before global_init() (e.g.
     *             libgcrypt's GCRYCTL_DISABLE_HWF); returns 0 or -1.
     * hw_used     after global_init(): the CB_HW_* features the library itself
     *             reports it uses, so a switch that did not take effect is
     *             caught; NULL when the library does not say. */
    unsigned hw_switch;
    int (*hw_env)(unsigned features, char env[][CB_HW_ENV_LEN], int max);
    int (*disable_hw)(unsigned features);
    unsigned (*hw_used)(void);
} cb_backend;

/* Every backend whose module loaded, NULL-terminated, in the build's order (modules.c,
 * filled by cb_modules_load()). */
extern const cb_backend *cb_backends[];

/* What a library offers, by its own enumeration (`list --offered`): offer() is
 * called once per algorithm with its kind ("aead", "cipher", "hash", "mac"),
 * the library's own name for it and the canonical name of the row measuring
 * it, or NULL when no row does. A library without an enumeration call may
 * give a static table of its documented API (say so at the table); one with
 * neither has no entry. The library is initialised before list runs. */
typedef void cb_offer_fn(void *u, const char *kind, const char *name, const char *algo);
typedef void cb_offer_fn_list(cb_offer_fn *offer, void *u);

/* The enumeration of the loaded backend called lib, or NULL when it has none. */
cb_offer_fn_list *cb_offer_source_of(const char *lib);

/* Why no row measures what a library offers under `name`, when that is on
 * purpose (unmeasured.c); NULL for a gap not yet closed. */
const char *cb_unmeasured_why(const char *lib, const char *name);

/* A buffer a backend keeps across messages, for library calls that want the text and its tag
 * (or a padded key, a whole record) in one place: grown when a message needs more, never
 * shrunk, freed with the context (free(s.p)). */
typedef struct cb_scratch {
    uint8_t *p;
    size_t cap;
} cb_scratch;

/* At least `need` bytes at s->p; 0 when memory runs out (s->p unchanged). */
static inline int cb_scratch_reserve(cb_scratch *s, size_t need)
{
    if (need <= s->cap)
        return 1;
    uint8_t *b = (uint8_t *)realloc(s->p, need);
    if (!b)
        return 0;
    s->p = b;
    s->cap = need;
    return 1;
}

/* The message's `in_len` input bytes where the library may write its output without
 * overwriting them: m->in itself, or a copy in s when in and out overlap, for library calls
 * that do not allow one buffer passed twice (the bench never does, so the copy is made only
 * for a caller that uses the in-place promise). NULL when memory runs out. */
static inline const uint8_t *cb_input_apart(cb_scratch *s, const cb_msg *m, size_t in_len, size_t out_len)
{
    uintptr_t i = (uintptr_t)m->in, o = (uintptr_t)m->out;
    if (i + in_len <= o || o + out_len <= i)
        return m->in;
    if (!cb_scratch_reserve(s, in_len))
        return NULL;
    memcpy(s->p, m->in, in_len);
    return s->p;
}

#endif
