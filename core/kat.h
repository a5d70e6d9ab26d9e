/* kat.h - known-answer checks of one backend row, and the cross-library
 * differential check. Nothing is timed before these pass. */
#ifndef CB_KAT_H
#define CB_KAT_H
#include <stddef.h>
#include "backend.h"
#include "algorithms.h"
#include "vectors.h"

typedef struct cb_kat_result {
    int passed, failed, skipped;   /* skipped: the library rejects the sizes (CB_ERR_PARAM) */
    char message[256];             /* the first failure (or skip), "" if none */
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

#endif
