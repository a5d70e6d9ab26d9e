/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libs.h - the lookup of a library by name over the compiled-in backends
 * plus "ref", and the name lists error messages give. */
#ifndef CB_LIBS_H
#define CB_LIBS_H
#include <stddef.h>
#include "backend.h"

/* The backend called name, or NULL. */
const cb_backend *cb_lib_find(const char *name);
/* The row for algo in b, or NULL. */
const cb_op *cb_lib_op(const cb_backend *b, const char *algo);
/* Why --lib name names nothing to measure, as one line into buf: its module did not load
 * (the loader's reason), or no library has that name (the valid ones). */
void cb_lib_unknown(const char *name, char *buf, size_t cap);
/* Every library name, ", "-separated, into buf (for error messages). */
void cb_lib_names(char *buf, size_t cap);
/* Every algorithm b has, ", "-separated, into buf. */
void cb_lib_algo_names(const cb_backend *b, char *buf, size_t cap);

#endif
