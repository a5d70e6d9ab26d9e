/* cpuinfo.h - what the preamble says about the machine. */
#ifndef CB_CPUINFO_H
#define CB_CPUINFO_H
#include <stddef.h>

#define CB_CPU_MAX_FLAGS 32

typedef struct cb_cpuinfo {
    char model[160];
    const char *flags[CB_CPU_MAX_FLAGS];  /* crypto-relevant flags present */
    size_t n_flags;
} cb_cpuinfo;

/* Reads /proc/cpuinfo (Linux); model "unknown" and no flags elsewhere. */
void cb_cpuinfo_read(cb_cpuinfo *ci);

/* Core frequency in Hz, measured by timing a chain of dependent additions
 * (one cycle each) on the running core; 0 if it cannot be measured. */
double cb_measure_freq_hz(void);

#endif
