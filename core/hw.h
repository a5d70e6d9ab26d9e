/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hw.h - asking a library to leave CPU features unused (--cpu-profile,
 * --no-hw, --disable-cpu-feature) through the library's own switch, and saying
 * whether it did (see the hw_* slots of cb_backend in backend.h). */
#ifndef CB_HW_H
#define CB_HW_H
#include <stddef.h>
#include "backend.h"

/* Set in the child before the env re-exec (main.c); records the mask. */
#define CB_HW_MARKER "CIPHERBENCH_CORE_HW_OFF"

/* CB_HW_* features asked off in this process; 0: none (the default). */
extern unsigned cb_hw_request;

/* The name of one CB_HW_* bit ("aes", "pclmul", "avx2", "vaes", "sha",
 * "avx512", "avx", "ssse3", "bmi"). */
const char *cb_hw_name(unsigned bit);
/* "aes,pclmul,..." into *mask. Returns 0, or 2 with one line in err. */
int cb_hw_parse(const char *list, unsigned *mask, char *err, size_t errlen);
/* A profile's features ("no-aes", "baseline") ORed into *mask. Returns 0,
 * or 2 with one line in err. */
int cb_hw_profile(const char *name, unsigned *mask, char *err, size_t errlen);
/* Takes --cpu-profile[=]NAME, --no-hw (= --cpu-profile no-aes) and
 * --disable-cpu-feature[=]LIST out of argv (every command accepts them),
 * ORing what they ask into *mask. Returns 0, or 2 with one line in err. */
int cb_hw_take_args(int *argc, char **argv, unsigned *mask, char *err, size_t errlen);

/* The CB_HW_* features this CPU has (CPUID, or the kernel's HWCAP). */
unsigned cb_hw_cpu(void);

/* The library's global init, its in-process switch (disable_hw) first. */
int cb_hw_global_init(const cb_backend *b);

/* Under cb_hw_request: "applied" (the switch covers every feature asked and
 * the library's own report, if it gives one, shows none of them in use),
 * "cannot_disable" (no switch for some feature asked that the CPU has), "failed" (the
 * library reports a feature asked off still in use); NULL when nothing was
 * asked. Call after cb_hw_global_init(b). */
const char *cb_hw_status(const cb_backend *b);

#endif
