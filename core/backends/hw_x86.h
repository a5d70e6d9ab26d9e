/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hw_x86.h - what the CPU offers (CPUID) and Nettle's fat-build override
 * string, shared by the Nettle and GnuTLS backends (GnuTLS falls back to
 * Nettle for what its own accelerated code does not cover, so both
 * libraries' switches are needed to turn AES-NI off in GnuTLS). */
#ifndef CB_HW_X86_H
#define CB_HW_X86_H
#include "../backend.h"
#include "hw_arm.h"
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* CPU features as CB_HW_* bits. */
typedef struct cb_x86 {
    unsigned hw;        /* CB_HW_* the CPU has */
    int intel, amd;
} cb_x86;

static inline void cb_x86_detect(cb_x86 *c)
{
    memset(c, 0, sizeof *c);
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, cx, d;
    if (__get_cpuid(0, &a, &b, &cx, &d)) {
        c->intel = b == 0x756e6547 && d == 0x49656e69 && cx == 0x6c65746e;   /* GenuineIntel */
        c->amd = b == 0x68747541 && d == 0x69746e65 && cx == 0x444d4163;     /* AuthenticAMD */
    }
    if (__get_cpuid(1, &a, &b, &cx, &d)) {
        if (cx & (1u << 25)) c->hw |= CB_HW_AES;
        if (cx & (1u << 1)) c->hw |= CB_HW_PCLMUL;
        if (cx & (1u << 9 | 1u << 19 | 1u << 20)) c->hw |= CB_HW_SSSE3;
        if (cx & (1u << 28)) c->hw |= CB_HW_AVX;
    }
    if (__get_cpuid_count(7, 0, &a, &b, &cx, &d)) {
        if (b & (1u << 5)) c->hw |= CB_HW_AVX2;
        if (b & (1u << 29)) c->hw |= CB_HW_SHA;
        if (cx & (1u << 9)) c->hw |= CB_HW_VAES;
        if (b & (1u << 16)) c->hw |= CB_HW_AVX512;
        if (b & (1u << 3 | 1u << 8 | 1u << 19)) c->hw |= CB_HW_BMI;
    }
#endif
}

/* NETTLE_FAT_OVERRIDE replaces Nettle's own detection with the listed
 * features ("vendor:intel", "aesni", "pclmul", "sha_ni"; x86-64 fat builds,
 * read when libnettle loads; arm64's names in hw_arm.h). Nettle's other x86-64
 * code is SSE2 (the baseline), so the list covers every profile. Writes
 * "NETTLE_FAT_OVERRIDE=..." keeping what the CPU has minus `off`. Returns 1
 * (one string), or 0 off x86-64 and arm64. */
static inline int cb_nettle_fat_env(unsigned off, char *out, size_t len)
{
#if defined(__x86_64__)
    cb_x86 c;
    cb_x86_detect(&c);
    unsigned keep = c.hw & ~off;
    snprintf(out, len, "NETTLE_FAT_OVERRIDE=%s%s%s%s",
             c.intel ? "vendor:intel" : c.amd ? "vendor:amd" : "",
             keep & CB_HW_AES ? ",aesni" : "", keep & CB_HW_PCLMUL ? ",pclmul" : "",
             keep & CB_HW_SHA ? ",sha_ni" : "");
    return 1;
#elif defined(__aarch64__)
    return cb_nettle_fat_env_arm64(off, out, len);
#else
    (void)off; (void)out; (void)len;
    return 0;
#endif
}

#endif
