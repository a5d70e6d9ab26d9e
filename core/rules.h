/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rules.h - the sizes each row takes, checked before a library sees them.
 *
 * Given a prefix of the right tag, a nonce of another length or a key wrap of one
 * block, a library may accept it (a one-byte prefix "verifies"), refuse it, or abort
 * on an assertion of its own (Nettle's EAX with an empty tag, GnuTLS's CCM with a
 * nonce outside 7..13 bytes). None of that is the library's to decide: a row takes
 * the sizes of its line in algorithms.c and what its standard allows there, alone.
 *
 *   AEAD     the row's key, nonce and tag lengths, to the byte (a tag shorter than the
 *            row's is a forgery's first step, never a truncation the row measures);
 *            no associated data where the row takes none (NaCl's secretbox); whole
 *            blocks, and at most one record, for the TLS record rows; CCM: a message
 *            shorter than 2^(8L) bytes, L = 15 - nonce length (SP 800-38C A.1)
 *   keywrap  the row's key length; key data of whole blocks, two at least for RFC 3394
 *            and RFC 3217 (cb_keywrap_min), one byte at least for RFC 5649
 *   MAC      the row's tag length; GMAC's, UMAC's and Poly1305-AES's nonce the row's
 *
 * Every call the core makes of a row outside its timed loops goes through cb_row_init
 * and cb_row_run, which refuse (CB_ERR_PARAM) what these rules refuse and call the
 * library only with what they take. The timed loops give every row its own sizes and
 * a message size bench has checked (block, key-wrap minimum), which the rules take
 * (core/tests/test_rules.c checks every row), so nothing timed pays for the check. */
#ifndef CB_RULES_H
#define CB_RULES_H
#include "algorithms.h"
#include "backend.h"

/* NULL when row a takes what init is given; else why not, in a few words. */
const char *cb_rules_setup(const cb_algorithm *a, const cb_setup *s);
/* NULL when row a takes message m; else why not. */
const char *cb_rules_msg(const cb_algorithm *a, const cb_msg *m);

/* op->init and op->run behind the rules of op's row: CB_ERR_PARAM (and *ctx NULL) for
 * what they refuse, the library's own status otherwise. */
int cb_row_init(const cb_op *op, void **ctx, const cb_setup *s);
int cb_row_run(const cb_op *op, void *ctx, cb_msg *m);

#endif
