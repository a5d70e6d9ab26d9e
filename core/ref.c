/* ref.c - reference rows: "memcpy" (the memory ceiling at the same size) and
 * "null" (what the harness's loop costs per call), plus library lookup. */
#include "ref.h"
#include <stdio.h>
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

const cb_backend *cb_lib_find(const char *name)
{
    for (const cb_backend *const *b = cb_backends; *b; b++)
        if (strcmp((*b)->name, name) == 0)
            return *b;
    if (strcmp(name, cb_backend_ref.name) == 0)
        return &cb_backend_ref;
    return NULL;
}

const cb_op *cb_lib_op(const cb_backend *b, const char *algo)
{
    for (const cb_op *o = b->ops; o->algo; o++)
        if (strcmp(o->algo, algo) == 0)
            return o;
    return NULL;
}

/* Appends s to buf with a ", " separator, truncating safely. */
static void append(char *buf, size_t cap, size_t *off, const char *s)
{
    if (*off >= cap)
        return;
    int n = snprintf(buf + *off, cap - *off, "%s%s", *off ? ", " : "", s);
    if (n > 0)
        *off += (size_t)n;
}

void cb_lib_names(char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = '\0';
    for (const cb_backend *const *b = cb_backends; *b; b++)
        append(buf, cap, &off, (*b)->name);
    append(buf, cap, &off, cb_backend_ref.name);
}

void cb_lib_algo_names(const cb_backend *b, char *buf, size_t cap)
{
    size_t off = 0;
    buf[0] = '\0';
    for (const cb_op *o = b->ops; o->algo; o++)
        append(buf, cap, &off, o->algo);
}
