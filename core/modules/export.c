/* SPDX-License-Identifier: GPL-3.0-or-later */
/* export.c - the one symbol a backend's module exports (module.h), compiled into each
 * module with CB_MODULE_LIB (its backend's name) and, when it has them, CB_MODULE_OFFERS
 * (it enumerates what its library offers) and CB_MODULE_TLS (the `tls` command's table). */
#include "../module.h"
#include "../tls/tls.h"

#define CB_CAT_(a, b) a##b
#define CB_CAT(a, b) CB_CAT_(a, b)

extern const cb_backend CB_CAT(cb_backend_, CB_MODULE_LIB);
#ifdef CB_MODULE_OFFERS
void CB_CAT(cb_offered_, CB_MODULE_LIB)(cb_offer_fn *offer, void *u);
#endif
#ifdef CB_MODULE_TLS
extern const cb_tls_lib CB_CAT(cb_tls_, CB_MODULE_LIB);
#endif

__attribute__((visibility("default")))
extern const cb_module cipherbench_module;
const cb_module cipherbench_module = {
    .abi = CB_MODULE_ABI,
    .backend = &CB_CAT(cb_backend_, CB_MODULE_LIB),
#ifdef CB_MODULE_OFFERS
    .offered = CB_CAT(cb_offered_, CB_MODULE_LIB),
#endif
#ifdef CB_MODULE_TLS
    .tls = &CB_CAT(cb_tls_, CB_MODULE_LIB),
#endif
};
