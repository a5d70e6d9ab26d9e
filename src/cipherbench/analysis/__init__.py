# SPDX-License-Identifier: GPL-3.0-or-later
"""Pure statistics over measured samples: robust figures and intervals (``stats``), the slope
fit (``fit``), paired verdicts (``verdict``), trusting the core's clock (``clock``) and a
process's own CPU time as a figure (``cpu_figure``). Numbers in, numbers out."""
