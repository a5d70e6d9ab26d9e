/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rules.c - the sizes each row takes (see rules.h). */
#include "rules.h"
#include <string.h>

/* CCM (SP 800-38C): the rows named -ccm and -ccm-8. */
static int is_ccm(const cb_algorithm *a)
{
    const char *p = strstr(a->name, "-ccm");
    return p && (p[4] == '\0' || strcmp(p + 4, "-8") == 0);
}

const char *cb_rules_setup(const cb_algorithm *a, const cb_setup *s)
{
    switch (a->kind) {
    case CB_AEAD:
        if (s->key_len != a->key_len)
            return "a key of another length than the row's";
        if (s->iv && s->iv_len != a->iv_len)
            return "a nonce of another length than the row's";
        if (s->tag_len != a->tag_len)
            return "a tag of another length than the row's";
        return NULL;
    case CB_KEYWRAP:
        return s->key_len != a->key_len ? "a key-encryption key of another length than the row's" : NULL;
    case CB_MAC:
        return s->tag_len != a->tag_len ? "a tag of another length than the row's" : NULL;
    default:
        return NULL;
    }
}

const char *cb_rules_msg(const cb_algorithm *a, const cb_msg *m)
{
    switch (a->kind) {
    case CB_AEAD:
        if (m->nonce_len != a->iv_len)
            return "a nonce of another length than the row's";
        if (m->tag_len != a->tag_len)
            return "a tag of another length than the row's";
        if (m->aad_len && !cb_aad_len(a))
            return "associated data, which the row takes none of";
        if (m->len % a->block_len || (cb_max_len(a) && m->len > cb_max_len(a)))
            return "a message of a length the row does not take";
        if (is_ccm(a) && a->iv_len >= 8 && (m->len >> (8 * (15 - a->iv_len))) != 0)
            return "a message longer than CCM's length field holds";
        return NULL;
    case CB_KEYWRAP:
        if (m->len < cb_keywrap_min(a) || m->len % a->block_len)
            return "key data of a length the row does not wrap";
        return NULL;
    case CB_MAC:
        if (a->per_message_nonce && m->nonce_len != a->iv_len)
            return "a nonce of another length than the row's";
        return NULL;
    default:
        return NULL;
    }
}

int cb_row_init(const cb_op *op, void **ctx, const cb_setup *s)
{
    const cb_algorithm *a = cb_algorithm_find(op->algo);
    *ctx = NULL;
    if (a && cb_rules_setup(a, s))
        return CB_ERR_PARAM;
    return op->init(ctx, op->arg, s);
}

int cb_row_run(const cb_op *op, void *ctx, cb_msg *m)
{
    const cb_algorithm *a = cb_algorithm_find(op->algo);
    if (a && cb_rules_msg(a, m))
        return CB_ERR_PARAM;
    return op->run(ctx, m);
}
