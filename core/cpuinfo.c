/* cpuinfo.c - CPU model, crypto flags and measured core frequency. */
#include "cpuinfo.h"
#include "measure.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The flags that change which code a crypto library runs (x86 and Arm names
 * as /proc/cpuinfo spells them). */
static const char *const wanted[] = {
    "aes", "vaes", "pclmulqdq", "vpclmulqdq", "sha_ni", "ssse3", "sse4_1", "sse4_2",
    "avx", "avx2", "avx512f", "avx512vl", "bmi2", "adx",
    "pmull", "sha1", "sha2", "sha3", "sha512", "sm3", "sm4", "asimd", "sve",
};

static int has_word(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = list; (p = strstr(p, w)) != NULL; p += n) {
        int start = p == list || p[-1] == ' ' || p[-1] == '\t' || p[-1] == ':';
        int end = p[n] == '\0' || p[n] == ' ' || p[n] == '\n' || p[n] == '\t';
        if (start && end)
            return 1;
    }
    return 0;
}

static void trim_copy(char *dst, size_t cap, const char *src)
{
    while (*src == ' ' || *src == '\t')
        src++;
    snprintf(dst, cap, "%s", src);
    size_t n = strlen(dst);
    while (n && (dst[n - 1] == '\n' || dst[n - 1] == ' '))
        dst[--n] = '\0';
}

void cb_cpuinfo_read(cb_cpuinfo *ci)
{
    memset(ci, 0, sizeof *ci);
    snprintf(ci->model, sizeof ci->model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[8192];
    int have_model = 0, have_flags = 0;
    while (fgets(line, sizeof line, f) && !(have_model && have_flags)) {
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        if (!have_model && (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0)) {
            trim_copy(ci->model, sizeof ci->model, colon + 1);
            have_model = 1;
        } else if (!have_flags && (strncmp(line, "flags", 5) == 0 || strncmp(line, "Features", 8) == 0)) {
            for (size_t i = 0; i < sizeof wanted / sizeof wanted[0] && ci->n_flags < CB_CPU_MAX_FLAGS; i++)
                if (has_word(colon + 1, wanted[i]))
                    ci->flags[ci->n_flags++] = wanted[i];
            have_flags = 1;
        }
    }
    fclose(f);
}

/* Adds per call of add_chain(); each is one dependent add (latency 1 cycle
 * on every x86-64 and Armv8 core we know of). The loop counter runs on
 * another port in parallel with the chain, so the chain sets the pace. */
#define CB_ADDS_PER_ROUND 32
#define ADD4(i) i i i i
#define ADD32(i) ADD4(ADD4(i)) ADD4(ADD4(i))

static uint64_t add_chain(uint64_t rounds)
{
    uint64_t x = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    for (uint64_t r = 0; r < rounds; r++)
        __asm__ __volatile__(ADD32("add $1, %0\n\t") : "+r"(x));
#elif defined(__aarch64__) && defined(__GNUC__)
    for (uint64_t r = 0; r < rounds; r++)
        __asm__ __volatile__(ADD32("add %0, %0, #1\n\t") : "+r"(x));
#elif defined(__GNUC__)
    /* Portable: the empty asm makes each add depend on the previous one
     * and keeps the compiler from folding the chain. */
    for (uint64_t r = 0; r < rounds; r++)
        for (int i = 0; i < CB_ADDS_PER_ROUND; i++) {
            x += 1;
            __asm__ __volatile__("" : "+r"(x));
        }
#else
    (void)rounds;
    return 0;
#endif
    return x;
}

double cb_measure_freq_hz(void)
{
    const uint64_t rounds = 100000;  /* 3.2 M adds: about 1 ms at 3 GHz */
    if (add_chain(1) == 0)
        return 0;
    add_chain(rounds); /* wake the core up from a low clock */
    uint64_t best = UINT64_MAX;
    /* The fastest of a few runs: interruptions only ever add time. */
    for (int i = 0; i < 7; i++) {
        uint64_t t0 = cb_wall_ns();
        add_chain(rounds);
        uint64_t t = cb_wall_ns() - t0;
        if (t > 0 && t < best)
            best = t;
    }
    if (best == UINT64_MAX)
        return 0;
    return (double)(rounds * CB_ADDS_PER_ROUND) * 1e9 / (double)best;
}
