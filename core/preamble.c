/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preamble.c - writes the preamble record (see preamble.h). */
#include "preamble.h"
#include "args.h"
#include "cpuinfo.h"
#include "emit.h"
#include "measure.h"

static double last_freq_hz;

double cb_preamble_emit(const char *command)
{
    cb_cpuinfo ci;
    cb_cpuinfo_read(&ci);
    double f = cb_measure_freq_hz();
    cb_preamble p = {command, ci.model, ci.flags, ci.n_flags, f,
                     f > 0 ? &cb_clock_last : NULL, cb_timer_ns(), cb_cpu_timer_ns(), cb_commands};
    cb_emit_preamble(&p);
    last_freq_hz = p.freq_hz;
    return p.freq_hz;
}

double cb_preamble_freq_hz(void)
{
    return last_freq_hz;
}
