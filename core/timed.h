/* SPDX-License-Identifier: GPL-3.0-or-later */
/* timed.h - `cipherbench-core time` (timed.c, docs/protocol.md). */
#ifndef CB_TIMED_H
#define CB_TIMED_H

/* argv[1] is "time". Returns the exit status (0: the record was written; 2: bad arguments). */
int cb_cmd_time(int argc, char **argv);

#endif
