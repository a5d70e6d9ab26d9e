/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preamble.h - the first record of every command: the build, the CPU, the
 * commands this core has and its clock, measured (docs/protocol.md). */
#ifndef CB_PREAMBLE_H
#define CB_PREAMBLE_H

/* Writes the preamble for command (measuring the frequency); returns the
 * frequency measured, 0 if unknown. */
double cb_preamble_emit(const char *command);

/* The frequency the last preamble measured (0: unknown or none written):
 * it sizes the clock probes taken during a point. */
double cb_preamble_freq_hz(void);

#endif
