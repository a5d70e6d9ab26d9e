/* SPDX-License-Identifier: GPL-3.0-or-later */
/* prng.h - a fixed-seed generator (splitmix64) for benchmark inputs and the
 * differential check: the same seed gives the same bytes on every run, so two
 * runs time the same work. Not for keys that protect anything. */
#ifndef CB_PRNG_H
#define CB_PRNG_H
#include <stddef.h>
#include <stdint.h>

static inline uint64_t cb_prng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline void cb_prng_fill(uint64_t *s, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) {
            uint64_t v = cb_prng_next(s);
            for (size_t j = 0; j < 8 && i + j < n; j++)
                p[i + j] = (uint8_t)(v >> (8 * j));
        }
    }
}
#endif
