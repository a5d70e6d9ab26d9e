/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libs.c - the lookup of a library by name over the compiled-in backends
 * (the modules that loaded, modules.c) plus the reference rows of ref.c. */
#include "libs.h"
#include "module.h"
#include "ref.h"
#include <stdio.h>
#include <string.h>

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

void cb_lib_unknown(const char *name, char *buf, size_t cap)
{
    const cb_module_state *st = cb_module_state_of(name);
    if (st && !st->module) {
        snprintf(buf, cap, "library '%s' is not available here: its module did not load: %s",
                 name, st->why);
        return;
    }
    char valid[1024];
    cb_lib_names(valid, sizeof valid);
    snprintf(buf, cap, "unknown library '%s'; valid: %s", name, valid);
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
