/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kat.h - known-answer checks of one backend row, and the cross-library
 * differential check. Nothing is timed before these pass. */
#ifndef CB_KAT_H
#define CB_KAT_H
#include <stddef.h>
#include "backend.h"
#include "algorithms.h"
#include "vectors.h"

#define CB_KAT_CRASHES 4             /* vectors a crash stopped, named in the record (at most) */

typedef struct cb_kat_result {
    int passed, failed, skipped;   /* skipped: the library rejects the sizes (CB_ERR_PARAM) */
    int must_fail, refused;        /* "result": "invalid" vectors tried, and of those refused */
    int n_crashed;                 /* vectors the library crashed on (each also failed) */
    char crashed[CB_KAT_CRASHES][160];
    char message[384];             /* the first failure (or skip), "" if none */
} cb_kat_result;

/* Runs every vector of f through op (whose algorithm is f->alg). */
void cb_kat_file(const cb_op *op, const cb_vecfile *f, cb_kat_result *r);

/* Runs every file of set for algo against op, emitting one `kat` record per
 * file under lib's name. Returns 1 if all passed and at least one vector
 * passed, 0 if any failed, -1 if no file covers algo. On 0 or -1, why is
 * written to why. */
int cb_kat_algo(const char *lib, const cb_op *op, const cb_algorithm *alg,
                const cb_vecset *set, char *why, size_t whylen);

/* Random key, nonce and messages through every lib's row for alg: all must
 * give the same bytes, and decrypt what the first produced. Returns 1 if
 * they agree, 0 if not (why says where), -1 if fewer than two could run. */
int cb_differential(const cb_algorithm *alg, const cb_backend *const *libs, size_t n,
                    char *why, size_t whylen);

/* Checks every row of b (every_algo: also those no vector file covers) in a
 * process of its own, emitting the library record and a kat record per file
 * (see cb_kat_algo). A crash fails the vector it was checking, named in its
 * file's kat record with the signal, and a new process resumes with the next
 * vector: one abort costs one vector.
 * init is the library's global initialisation (0: done), run in that
 * process. Returns the number of failures. */
int cb_kat_library(const cb_backend *b, const cb_vecset *set, int every_algo,
                   int (*init)(const cb_backend *));

/* cb_differential in a process of its own, emitting the differential record
 * (names are the libs' names); a crash is a failed check that names the
 * library that crashed. Returns 1, 0 or -1 as cb_differential. */
int cb_differential_isolated(const cb_algorithm *alg, const cb_backend *const *libs,
                             const char *const *names, size_t n);

#endif
