/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vectors.h - known-answer vector files (vectors/README.md), loaded and
 * decoded up front so that a malformed file is reported before any work. */
#ifndef CB_VECTORS_H
#define CB_VECTORS_H
#include <stddef.h>
#include <stdint.h>
#include "algorithms.h"

typedef struct cb_bytes {
    uint8_t *p;
    size_t n;
    int present;
} cb_bytes;

typedef struct cb_vector {
    char name[160];
    cb_bytes key, iv, aad, pt, ct, tag, msg, md, mac;  /* msg already repeated */
    int invalid;   /* "result": "invalid": an AEAD must refuse to decrypt it (an
                      authentication failure, or the sizes refused); a MAC must
                      not give this mac */
} cb_vector;

typedef struct cb_vecfile {
    char path[512];
    const cb_algorithm *alg;
    char source[512];
    cb_vector *v;
    size_t n;
} cb_vecfile;

typedef struct cb_vecset {
    cb_vecfile *files;
    size_t n;
    char (*bad)[512];   /* directory only: why each unreadable file was left out */
    size_t n_bad;
    char (*unknown)[512]; /* directory only: files for an algorithm this build does not know */
    size_t n_unknown;
} cb_vecset;

/* Loads one file, or every *.json in a directory (sorted by name), then
 * every *.json of its invalid/ subdirectory (must-fail cases), if any.
 * Returns 0, or -1 with one line naming the file and the problem in err.
 * In a directory a malformed file does not stop the others: it is left out
 * and listed in set->bad (its algorithm then has no vectors, so it is not
 * timed); `kat` reports those as failures. */
int cb_vectors_load(const char *path, cb_vecset *set, char *err, size_t errlen);
void cb_vectors_free(cb_vecset *set);

/* Where vectors are: the argument, else $CIPHERBENCH_VECTORS, else the
 * source tree's vectors/ compiled in. */
const char *cb_vectors_path(const char *arg);

#endif
