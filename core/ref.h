/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ref.h - the harness's own reference rows (lib "ref"). */
#ifndef CB_REF_H
#define CB_REF_H
#include "backend.h"

extern const cb_backend cb_backend_ref;

#endif
