/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hw.c - feature names, the command-line options and the status of a
 * library's hardware switch (see hw.h). */
#include "hw.h"
#include "backends/hw_x86.h"
#include <stdio.h>
#include <string.h>

unsigned cb_hw_request;

static const char *const names[] = {"aes", "pclmul", "avx2", "vaes", "sha",
                                    "avx512", "avx", "ssse3", "bmi"};
#define N_NAMES (sizeof names / sizeof names[0])
#define VALID "aes, pclmul, avx2, vaes, sha, avx512, avx, ssse3, bmi"

static const struct { const char *name; unsigned mask; } profiles[] = {
    {"no-aes", CB_HW_NO_AES},
    {"baseline", CB_HW_ALL},
};
#define N_PROFILES (sizeof profiles / sizeof profiles[0])

const char *cb_hw_name(unsigned bit)
{
    for (size_t i = 0; i < N_NAMES; i++)
        if (bit == 1u << i)
            return names[i];
    return NULL;
}

int cb_hw_parse(const char *list, unsigned *mask, char *err, size_t errlen)
{
    const char *s = list;
    unsigned m = 0;
    for (;;) {
        const char *sep = strchr(s, ',');
        size_t len = sep ? (size_t)(sep - s) : strlen(s);
        size_t i = 0;
        while (i < N_NAMES && !(strlen(names[i]) == len && memcmp(names[i], s, len) == 0))
            i++;
        if (i == N_NAMES) {
            snprintf(err, errlen, "--disable-cpu-feature: unknown feature '%.*s'; valid: " VALID " (comma-separated)",
                     (int)(len > 32 ? 32 : len), s);
            return 2;
        }
        m |= 1u << i;
        if (!sep)
            break;
        s = sep + 1;
    }
    *mask |= m;
    return 0;
}

int cb_hw_profile(const char *name, unsigned *mask, char *err, size_t errlen)
{
    for (size_t i = 0; i < N_PROFILES; i++)
        if (strcmp(name, profiles[i].name) == 0) {
            *mask |= profiles[i].mask;
            return 0;
        }
    snprintf(err, errlen, "--cpu-profile: unknown profile '%.32s'; valid: no-aes, baseline", name);
    return 2;
}

int cb_hw_take_args(int *argc, char **argv, unsigned *mask, char *err, size_t errlen)
{
    static const char opt[] = "--disable-cpu-feature", prof[] = "--cpu-profile";
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--no-hw") == 0) {
            *mask |= CB_HW_NO_AES;
        } else if (strcmp(a, prof) == 0) {
            if (i + 1 >= *argc) {
                snprintf(err, errlen, "option %s needs a value; valid: no-aes, baseline", prof);
                return 2;
            }
            if (cb_hw_profile(argv[++i], mask, err, errlen))
                return 2;
        } else if (strncmp(a, prof, sizeof prof - 1) == 0 && a[sizeof prof - 1] == '=') {
            if (cb_hw_profile(a + sizeof prof, mask, err, errlen))
                return 2;
        } else if (strcmp(a, opt) == 0) {
            if (i + 1 >= *argc) {
                snprintf(err, errlen, "option %s needs a value; valid: " VALID, opt);
                return 2;
            }
            if (cb_hw_parse(argv[++i], mask, err, errlen))
                return 2;
        } else if (strncmp(a, opt, sizeof opt - 1) == 0 && a[sizeof opt - 1] == '=') {
            if (cb_hw_parse(a + sizeof opt, mask, err, errlen))
                return 2;
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    *argc = out;
    return 0;
}

int cb_hw_global_init(const cb_backend *b)
{
    unsigned want = cb_hw_request & b->hw_switch;
    if (want && b->disable_hw && b->disable_hw(want) != 0)
        fprintf(stderr, "cipherbench-core: warning: %s refused to turn off its hardware features\n", b->name);
    return b->global_init ? b->global_init() : 0;
}

unsigned cb_hw_cpu(void)
{
#if defined(__x86_64__) || defined(__i386__)
    cb_x86 c;
    cb_x86_detect(&c);
    return c.hw;
#elif defined(__aarch64__) || defined(__arm__)
    cb_arm c;
    cb_arm_detect(&c);
    return c.hw;
#else
    return CB_HW_ALL;   /* unknown: every feature counts as present */
#endif
}

const char *cb_hw_status(const cb_backend *b)
{
    if (!cb_hw_request)
        return NULL;
    /* A feature the CPU lacks is off whatever the library does. */
    if (cb_hw_request & cb_hw_cpu() & ~b->hw_switch)
        return "cannot_disable";
    if (b->hw_used && (b->hw_used() & cb_hw_request))
        return "failed";
    return "applied";
}
