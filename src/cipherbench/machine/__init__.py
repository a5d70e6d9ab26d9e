# SPDX-License-Identifier: GPL-3.0-or-later
"""The machine a run measures on: its metadata, its CPUs, the load competing with a run, and
which stored runs come from a like machine and build (coherence)."""
