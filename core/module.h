/* SPDX-License-Identifier: GPL-3.0-or-later */
/* module.h - one library backend as a shared module, loaded by the core at run time.
 *
 * Each backend of the build (backend_list.h) is a module `<lib>.so` linked against its
 * library alone; the core links none. A module exports one symbol, `cipherbench_module`, a
 * constant cb_module: the backend's table (backend.h), its enumeration of what the
 * library offers and its TLS table when it has them. The core loads every module when it
 * starts (modules.c); one whose file is missing, whose library the loader cannot resolve,
 * or whose ABI differs is left out with the reason, and every other library is measured.
 *
 * Where the modules are: $CIPHERBENCH_MODULES (directories, ':'-separated), else
 * `modules/` beside the executable (the build tree), else the installed directory
 * relative to the executable (CB_MODULES_REL, e.g. ../lib/<triplet>/cipherbench/modules),
 * so that a copy of the executable with its modules beside it runs anywhere. */
#ifndef CB_MODULE_H
#define CB_MODULE_H
#include "backend.h"

struct cb_tls_lib;

/* Raised whenever backend.h, tls/tls.h or this struct change in a way an older module
 * would misread: a module built for another ABI is refused with both numbers. */
#define CB_MODULE_ABI 1
#define CB_MODULE_SYMBOL "cipherbench_module"

typedef struct cb_module {
    unsigned abi;                               /* CB_MODULE_ABI of its build */
    const cb_backend *backend;                  /* the constant table */
    cb_offer_fn_list *offered;                 /* `list --offered`; NULL: none */
    const struct cb_tls_lib *tls;               /* the `tls` command's table; NULL: none */
} cb_module;

/* What became of one backend of the build. */
typedef struct cb_module_state {
    const char *lib;           /* its name (backend_list.h) */
    char path[4096];           /* the file loaded or tried; "" when none was found */
    const cb_module *module;   /* NULL: not loaded */
    char why[4096 + 512];      /* the loader's (or the core's) reason when not loaded */
} cb_module_state;

/* Loads every module of the build once (later calls return at once) and fills
 * cb_backends (backend.h) and cb_tls_libs with the ones that loaded, in the build's order. */
void cb_modules_load(void);
/* The state of every backend of the build, in its order; *n their count. */
const cb_module_state *cb_module_states(size_t *n);
/* The state of the backend called lib, or NULL when the build has none of that name. */
const cb_module_state *cb_module_state_of(const char *lib);
/* The TLS tables of the loaded modules, NULL-terminated. */
extern const struct cb_tls_lib *cb_tls_libs[];

#endif
