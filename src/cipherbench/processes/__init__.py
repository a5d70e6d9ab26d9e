# SPDX-License-Identifier: GPL-3.0-or-later
"""Child processes: making them die with the run, pinning them to a CPU, and reading or
stopping them through /proc."""
