/* SPDX-License-Identifier: GPL-3.0-or-later */
/* keystream.h - keeping the unused part of a 64-byte keystream block between calls.
 *
 * Some libraries continue a ChaCha20/Salsa20 stream only across whole 64-byte blocks.
 * A backend then draws one whole block of keystream for a message's last partial block,
 * uses its front, and keeps the rest here for the next call, so any split of a stream
 * gives the same bytes as one call (the contract in backend.h). */
#ifndef CB_KEYSTREAM_H
#define CB_KEYSTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct cb_keystream {
    uint8_t block[64];   /* keystream of the last split block */
    size_t left;         /* its unused bytes, at the end of block */
} cb_keystream;

/* XOR the kept keystream into the front of the message; returns the bytes done. */
static inline size_t cb_keystream_use(cb_keystream *k, uint8_t *out, const uint8_t *in,
                                      size_t len)
{
    size_t n = len < k->left ? len : k->left;
    const uint8_t *ks = k->block + 64 - k->left;
    for (size_t i = 0; i < n; i++)
        out[i] = in[i] ^ ks[i];
    k->left -= n;
    return n;
}

/* The caller has just written a fresh keystream block into k->block: XOR its first len
 * (< 64) bytes into the message's tail and keep the rest. */
static inline void cb_keystream_keep(cb_keystream *k, uint8_t *out, const uint8_t *in,
                                     size_t len)
{
    for (size_t i = 0; i < len; i++)
        out[i] = in[i] ^ k->block[i];
    k->left = 64 - len;
}

#endif
