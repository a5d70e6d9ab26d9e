/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpuinfo.c - CPU model, crypto flags and measured core frequency. */
#include "cpuinfo.h"
#include "measure.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if (defined(__aarch64__) || defined(__arm__)) && defined(__linux__)
#include <sys/auxv.h>
#define CB_CPU_HWCAP 1
#endif

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

#if defined(CB_CPU_HWCAP)
/* On Arm the kernel's HWCAP words are the source: they are what the
 * libraries read, and they hold under qemu-user, where /proc/cpuinfo is the
 * host's. Names as an Arm kernel's "Features" line spells them. */
static void hwcap_flags(cb_cpuinfo *ci)
{
    static const struct { int word2; unsigned bit; const char *name; } caps[] = {
#if defined(__aarch64__)
        {0, 3, "aes"}, {0, 4, "pmull"}, {0, 5, "sha1"}, {0, 6, "sha2"}, {0, 17, "sha3"},
        {0, 21, "sha512"}, {0, 18, "sm3"}, {0, 19, "sm4"}, {0, 1, "asimd"}, {0, 22, "sve"},
#else
        {1, 0, "aes"}, {1, 1, "pmull"}, {1, 2, "sha1"}, {1, 3, "sha2"}, {0, 12, "neon"},
#endif
    };
    unsigned long w[2] = {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
    ci->n_flags = 0;
    for (size_t i = 0; i < sizeof caps / sizeof caps[0] && ci->n_flags < CB_CPU_MAX_FLAGS; i++)
        if (w[caps[i].word2] & (1ul << caps[i].bit))
            ci->flags[ci->n_flags++] = caps[i].name;
}

/* Arm cores have no "model name": the implementer and part numbers name
 * them (a few common Arm Ltd parts spelled out: the Raspberry Pi 3, 4 and 5,
 * the Neoverse servers). */
static void arm_model(cb_cpuinfo *ci, unsigned impl, unsigned part)
{
    static const struct { unsigned part; const char *name; } arm_parts[] = {
        {0xd03, "Cortex-A53"}, {0xd04, "Cortex-A35"}, {0xd05, "Cortex-A55"}, {0xd07, "Cortex-A57"},
        {0xd08, "Cortex-A72"}, {0xd09, "Cortex-A73"}, {0xd0b, "Cortex-A76"}, {0xd0c, "Neoverse-N1"},
        {0xd40, "Neoverse-V1"}, {0xd49, "Neoverse-N2"}, {0xd4f, "Neoverse-V2"}, {0xc07, "Cortex-A7"},
        {0xc0f, "Cortex-A15"},
    };
    for (size_t i = 0; impl == 0x41 && i < sizeof arm_parts / sizeof arm_parts[0]; i++)
        if (arm_parts[i].part == part) {
            snprintf(ci->model, sizeof ci->model, "Arm %s", arm_parts[i].name);
            return;
        }
    snprintf(ci->model, sizeof ci->model, "Arm implementer 0x%02x part 0x%03x", impl, part);
}
#endif

void cb_cpuinfo_read(cb_cpuinfo *ci)
{
    memset(ci, 0, sizeof *ci);
    snprintf(ci->model, sizeof ci->model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
#if defined(CB_CPU_HWCAP)
    hwcap_flags(ci);
#endif
    if (!f)
        return;
    char line[8192];
    int have_model = 0, have_flags = 0;
#if defined(CB_CPU_HWCAP)
    have_flags = 1;
    unsigned impl = 0, part = 0;
    int have_impl = 0;
#endif
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
#if defined(CB_CPU_HWCAP)
        else if (!have_impl && strncmp(line, "CPU implementer", 15) == 0)
            have_impl = sscanf(colon + 1, "%x", &impl) == 1;
        else if (strncmp(line, "CPU part", 8) == 0 && have_impl && !have_model) {
            if (sscanf(colon + 1, "%x", &part) == 1) {
                arm_model(ci, impl, part);
                have_model = 1;
            }
        }
#endif
    }
    fclose(f);
}

/* Adds per call of add_chain(); each is one dependent add (latency 1 cycle
 * on every x86-64 and Armv8 core we know of). The loop counter runs on
 * another port in parallel with the chain, so the chain sets the pace.
 * The addend is a register, not an immediate: Intel's Golden Cove cores
 * (Sapphire Rapids) fold chains of add-immediate at register renaming and
 * ran `add $1` about 4 per cycle (a 15 GHz "clock"; bench-slope's xor/sub
 * chain read 5.2 GHz there); an add of two registers is executed. */
#define CB_ADDS_PER_ROUND 32
#define ADD4(i) i i i i
#define ADD32(i) ADD4(ADD4(i)) ADD4(ADD4(i))

static uint64_t add_chain(uint64_t rounds)
{
    uint64_t x = 0, one = 1;
#if defined(__x86_64__) && defined(__GNUC__)
    for (uint64_t r = 0; r < rounds; r++)
        __asm__ __volatile__(ADD32("add %1, %0\n\t") : "+r"(x) : "r"(one));
#elif (defined(__aarch64__) || defined(__arm__)) && defined(__GNUC__)
    /* The same spelling in A64, A32 and T32; one register (32 bits on
     * armhf: a probe's few million adds fit), one chain across rounds. */
    unsigned long a = 0, step = (unsigned long)one;
    for (uint64_t r = 0; r < rounds; r++)
        __asm__ __volatile__(ADD32("add %0, %0, %1\n\t") : "+r"(a) : "r"(step));
    x = a;
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

cb_clock cb_clock_last;

uint64_t cb_clock_rounds(uint64_t target_ns, double freq_hz)
{
    double f = freq_hz > 0 ? freq_hz : 3e9;
    uint64_t r = (uint64_t)((double)target_ns * f / 1e9 / CB_CLOCK_CYCLES_PER_ROUND);
    return r ? r : 1;
}

int cb_clock_probe(uint64_t rounds, uint64_t *wall_ns, uint64_t *cpu_ns)
{
    if (add_chain(1) == 0)
        return -1;
    uint64_t c0 = cb_thread_cpu_ns();
    uint64_t w0 = cb_wall_ns();
    add_chain(rounds);
    uint64_t w1 = cb_wall_ns();
    uint64_t c1 = cb_thread_cpu_ns();
    *wall_ns = w1 - w0;
    *cpu_ns = c1 - c0;
    return 0;
}

double cb_clock_freq_hz(uint64_t cycles, const uint64_t *wall_ns, const uint64_t *cpu_ns, size_t n)
{
    uint64_t best = UINT64_MAX, best_any = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        if (wall_ns[i] == 0)
            continue;
        if (wall_ns[i] < best_any)
            best_any = wall_ns[i];
        if ((double)cpu_ns[i] >= CB_CLOCK_MIN_CPU_SHARE * (double)wall_ns[i] && wall_ns[i] < best)
            best = wall_ns[i];
    }
    if (best == UINT64_MAX)
        best = best_any;
    if (best == UINT64_MAX || cycles == 0)
        return 0;
    return (double)cycles * 1e9 / (double)best;
}

double cb_clock_measure(cb_clock *c, size_t n, double known_hz)
{
    c->cycles = 0;
    c->n = 0;
    c->freq_hz = 0;
    uint64_t w, u;
    double guess = known_hz;
    if (n > CB_CLOCK_MAX_PROBES)
        n = CB_CLOCK_MAX_PROBES;
    if (!(guess > 0)) {
        /* Wake the core up from a low clock (about 1 ms at 3 GHz), and take a
         * first estimate to size the probes. */
        if (cb_clock_probe(100000, &w, &u) != 0)
            return 0;
        /* CPU time: the guess is not lowered by a preemption. */
        uint64_t t = u && u < w ? u : w;
        guess = cb_clock_freq_hz(100000ull * CB_CLOCK_CYCLES_PER_ROUND, &t, &t, 1);
    }
    uint64_t rounds = cb_clock_rounds(CB_CLOCK_PROBE_NS, guess);
    for (size_t i = 0; i < n; i++)
        if (cb_clock_probe(rounds, &c->wall_ns[i], &c->cpu_ns[i]) != 0)
            return 0;
    c->cycles = rounds * CB_CLOCK_CYCLES_PER_ROUND;
    c->n = n;
    c->freq_hz = cb_clock_freq_hz(c->cycles, c->wall_ns, c->cpu_ns, c->n);
    return c->freq_hz;
}

double cb_measure_freq_hz(void)
{
    return cb_clock_measure(&cb_clock_last, CB_CLOCK_MAX_PROBES, 0);
}

double cb_measure_freq_hz_after(double known_hz)
{
    return cb_clock_measure(&cb_clock_last, CB_CLOCK_END_PROBES, known_hz);
}
