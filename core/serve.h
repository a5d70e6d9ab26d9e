/* SPDX-License-Identifier: GPL-3.0-or-later */
/* serve.h - the `serve` command: one library kept set up across many
 * measuring requests, one JSON object a line on stdin (docs/protocol.md). */
#ifndef CB_SERVE_H
#define CB_SERVE_H
#include <stddef.h>
#include "args.h"

/* Runs `serve` until stdin ends; returns the exit status (0; 2 for bad
 * arguments, with one line on stderr and nothing on stdout). */
int cb_cmd_serve(const cb_args *a);

#endif
