/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gone.c - a library the module-loading test removes (libcb_gone.so), and, built with
 * CB_GONE_MODULE, a module linked against it: loading that module without its library is
 * what the loader does on a host that lacks a backend's library. Built with CB_GONE_ABI: a
 * module of another module ABI (module.h), which the core must refuse. */
#if defined(CB_GONE_ABI)
#include "../module.h"
__attribute__((visibility("default"))) extern const cb_module cipherbench_module;
const cb_module cipherbench_module = {.abi = CB_MODULE_ABI + 998};
#elif defined(CB_GONE_MODULE)
int cb_gone_answer(void);
int cb_gone_use(void);
int cb_gone_use(void)
{
    return cb_gone_answer();
}
#else
int cb_gone_answer(void);
int cb_gone_answer(void)
{
    return 42;
}
#endif
