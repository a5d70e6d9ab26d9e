/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ref.c - reference rows: "memcpy" (the memory ceiling at the same size) and
 * "null" (what the harness's loop costs per call). */
#include "ref.h"
#include <string.h>

static int ref_init(void **ctx, const void *arg, const cb_setup *s)
{
    (void)arg;
    (void)s;
    *ctx = NULL;
    return CB_OK;
}

static int ref_memcpy(void *ctx, cb_msg *m)
{
    (void)ctx;
    memcpy(m->out, m->in, m->len);
    return CB_OK;
}

static int ref_null(void *ctx, cb_msg *m)
{
    (void)ctx;
    (void)m;
    return CB_OK;
}

static void ref_finish(void *ctx)
{
    (void)ctx;
}

static const char *ref_version(void)
{
#ifdef CB_CORE_VERSION
    return "cipherbench-core " CB_CORE_VERSION;
#else
    return "cipherbench-core";
#endif
}

static const cb_op ref_ops[] = {
    {"memcpy", NULL, ref_init, ref_memcpy, ref_finish},
    {"null",   NULL, ref_init, ref_null,   ref_finish},
    {NULL, NULL, NULL, NULL, NULL},
};

const cb_backend cb_backend_ref = {
    .name = "ref",
    .version = ref_version,
    .global_init = NULL,
    .caps = NULL,
    .provider = NULL,
    .ops = ref_ops,
    .hw_switch = CB_HW_ALL,   /* memcpy and null: no crypto code to turn off */
};
