/* SPDX-License-Identifier: GPL-3.0-or-later */
/* algorithms.h - the core's registry of algorithms: kind and default sizes.
 * Backends name rows by these canonical names; the harness takes key, nonce
 * and tag sizes from here when it measures (vectors may use other sizes). */
#ifndef CB_ALGORITHMS_H
#define CB_ALGORITHMS_H
#include <stddef.h>

typedef enum { CB_AEAD, CB_CIPHER, CB_HASH, CB_MAC, CB_REF, CB_KEYWRAP } cb_kind;

typedef struct cb_algorithm {
    const char *name;
    cb_kind kind;
    size_t key_len;     /* bytes; 0 for hashes */
    size_t iv_len;      /* cipher IV set at init, or per-message nonce (AEAD, XTS, CBC-CTS, GMAC, UMAC) */
    size_t tag_len;     /* AEAD tag, MAC or digest bytes */
    size_t block_len;   /* message length must be a multiple of this (1 for streams) */
    int per_message_nonce; /* 1: nonce passed in cb_msg each call, not at init */
} cb_algorithm;

/* The associated data of each timed AEAD message: 13 bytes, as in a TLS record. */
#define CB_AAD_LEN 13

extern const cb_algorithm cb_algorithms[];
const cb_algorithm *cb_algorithm_find(const char *name);
const char *cb_kind_name(cb_kind k);
/* Bytes of associated data a timed message of a carries: CB_AAD_LEN for an AEAD,
 * 0 for one that takes none (NaCl's secretbox) and for every other kind. */
size_t cb_aad_len(const cb_algorithm *a);
/* Operations valid for a kind, NULL-terminated ("encrypt","decrypt" / "hash" / "mac" / "ref";
 * a key wrap's "encrypt" wraps and its "decrypt" unwraps). */
const char *const *cb_kind_ops(cb_kind k);
/* Key wrap: the wrapped form of len bytes of key data (RFC 3394 / RFC 5649: the
 * data padded to 8 bytes, plus the 8-byte integrity check value). */
size_t cb_keywrap_len(size_t len);
/* Key wrap: the wrapped form of len bytes of key data for row a: the data padded to 8
 * bytes, plus tag_len (RFC 3394 / 5649: the 8-byte check; RFC 3217: the IV and the check). */
size_t cb_keywrap_out(const cb_algorithm *a, size_t len);
/* Key wrap: 1 when each wrap draws a random IV (RFC 3217), so a wrap has no fixed answer:
 * the known answers unwrap, and check that what the row wraps unwraps to the key data. */
int cb_keywrap_random(const cb_algorithm *a);
/* Key wrap: the fewest bytes of key data a row takes (RFC 3394: two 8-byte blocks). */
size_t cb_keywrap_min(const cb_algorithm *a);
/* The longest message a row takes, or 0 for any length (the TLS record rows: one record). */
size_t cb_max_len(const cb_algorithm *a);
#endif
