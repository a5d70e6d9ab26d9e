/* SPDX-License-Identifier: GPL-3.0-or-later */
/* request.h - one request of `serve`: a JSON object on one line naming what
 * to time, e.g. {"algo":["aes-128-gcm"],"op":"encrypt","sizes":[1024],"samples":20}
 * (docs/protocol.md). */
#ifndef CB_REQUEST_H
#define CB_REQUEST_H
#include <stddef.h>
#include "args.h"

/* The longest request line read; a longer one is refused whole. */
#define CB_MAX_REQUEST 65536

/* Refuses a line that is not text: a NUL byte, or bytes that are not UTF-8
 * (len bytes at line). Returns 0, or -1 with one line in err naming the
 * first such byte. */
int cb_request_text(const char *line, size_t len, char *err, size_t errlen);

/* Cuts s before a last UTF-8 character that is incomplete (a message cut by
 * its buffer or by a precision), and replaces any other invalid byte by '?'. */
void cb_utf8_trim(char *s);

/* Parses one request line into req: the library, CPU and vectors of serve,
 * the default sizes and samples of `bench`, then the request's fields.
 * Strict: a field that is not known, given twice, of the wrong type or out
 * of its range refuses the whole request. Returns 0, or -1 with one line in
 * err. Checks syntax and ranges only (cb_bench_check does the rest). */
int cb_request_parse(const char *line, const cb_args *serve, cb_args *req,
                     char *err, size_t errlen);

/* Frees what the last parsed request's strings point into. */
void cb_request_free(void);

#endif
