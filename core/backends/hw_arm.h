/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hw_arm.h - what an Arm CPU offers, as the kernel reports it (the HWCAP
 * words of the auxiliary vector: the bits the libraries' own detection
 * reads too), and the ARM forms of the libraries' switches. The ARM twin of
 * hw_x86.h. */
#ifndef CB_HW_ARM_H
#define CB_HW_ARM_H
#include "../backend.h"
#include <stdio.h>
#include <string.h>
#if (defined(__aarch64__) || defined(__arm__)) && defined(__linux__)
#include <sys/auxv.h>
#define CB_ARM_AUXV 1
#endif

/* CPU features as CB_HW_* bits (AES: the AES instructions, PCLMUL: PMULL,
 * SHA: SHA-1 and SHA-256), plus the others the libraries dispatch on. */
typedef struct cb_arm {
    unsigned hw;
    int neon, sha3, sha512;
} cb_arm;

/* The kernel's bit numbers (asm/hwcap.h), spelled out so that the header
 * builds against any libc. */
static inline void cb_arm_detect(cb_arm *c)
{
    memset(c, 0, sizeof *c);
#if defined(CB_ARM_AUXV) && defined(__aarch64__)
    unsigned long h = getauxval(AT_HWCAP);
    c->neon = (h >> 1) & 1;                         /* HWCAP_ASIMD */
    if (h & (1ul << 3)) c->hw |= CB_HW_AES;         /* HWCAP_AES */
    if (h & (1ul << 4)) c->hw |= CB_HW_PCLMUL;      /* HWCAP_PMULL */
    if (h & (3ul << 5)) c->hw |= CB_HW_SHA;         /* HWCAP_SHA1, HWCAP_SHA2 */
    c->sha3 = (h >> 17) & 1;                        /* HWCAP_SHA3 */
    c->sha512 = (h >> 21) & 1;                      /* HWCAP_SHA512 */
#elif defined(CB_ARM_AUXV)
    /* 32-bit: NEON in AT_HWCAP, the Armv8 crypto extensions in AT_HWCAP2. */
    unsigned long h = getauxval(AT_HWCAP), h2 = getauxval(AT_HWCAP2);
    c->neon = (h >> 12) & 1;                        /* HWCAP_NEON */
    if (h2 & (1ul << 0)) c->hw |= CB_HW_AES;        /* HWCAP2_AES */
    if (h2 & (1ul << 1)) c->hw |= CB_HW_PCLMUL;     /* HWCAP2_PMULL */
    if (h2 & (3ul << 2)) c->hw |= CB_HW_SHA;        /* HWCAP2_SHA1, HWCAP2_SHA2 */
#endif
}

/* Nettle's arm64 fat build (fat-arm64.c) reads NETTLE_FAT_OVERRIDE as a
 * list of "aes", "pmull", "sha1", "sha2" in place of the HWCAP bits. Writes
 * the string keeping what the CPU has minus `off`. Returns 1, or 0 off
 * arm64 (Nettle's 32-bit ARM code has no AES, PMULL or SHA paths). */
static inline int cb_nettle_fat_env_arm64(unsigned off, char *out, size_t len)
{
#if defined(__aarch64__)
    cb_arm c;
    cb_arm_detect(&c);
    unsigned keep = c.hw & ~off;
    unsigned long h = 0;
#if defined(CB_ARM_AUXV)
    h = getauxval(AT_HWCAP);
#endif
    snprintf(out, len, "NETTLE_FAT_OVERRIDE=%s%s%s%s",
             keep & CB_HW_AES ? "aes," : "", keep & CB_HW_PCLMUL ? "pmull," : "",
             keep & CB_HW_SHA && h & (1ul << 5) ? "sha1," : "",
             keep & CB_HW_SHA && h & (1ul << 6) ? "sha2," : "");
    size_t n = strlen(out);
    if (out[n - 1] == ',')
        out[n - 1] = '\0';
    return 1;
#else
    (void)off; (void)out; (void)len;
    return 0;
#endif
}

/* OpenSSL's OPENSSL_armcap bits (crypto/arm_arch.h), which the variable of
 * that name replaces whole (a number, no "~" form as on x86). */
#define CB_OSSL_ARMV7_NEON   (1ul << 0)
#define CB_OSSL_ARMV8_AES    (1ul << 2)
#define CB_OSSL_ARMV8_SHA1   (1ul << 3)
#define CB_OSSL_ARMV8_SHA256 (1ul << 4)
#define CB_OSSL_ARMV8_PMULL  (1ul << 5)
#define CB_OSSL_ARMV8_SHA512 (1ul << 6)
#define CB_OSSL_ARMV8_SHA3   (1ul << 11)

/* The bits of an OPENSSL_armcap word that `off` (CB_HW_*) asks cleared. */
static inline unsigned long cb_ossl_armcap_bits(unsigned off)
{
    unsigned long b = 0;
    if (off & CB_HW_AES) b |= CB_OSSL_ARMV8_AES;
    if (off & CB_HW_PCLMUL) b |= CB_OSSL_ARMV8_PMULL;
    if (off & CB_HW_SHA) b |= CB_OSSL_ARMV8_SHA1 | CB_OSSL_ARMV8_SHA256 | CB_OSSL_ARMV8_SHA512;
    return b;
}

#endif
