# SPDX-License-Identifier: GPL-3.0-or-later
"""What every command is built from, below both ``cli`` and the scenarios' commands: the
per-invocation context, the shared option types and parsers, ``--wait-quiet`` and ``--cpu``.
It imports neither ``cli`` nor ``scenarios``."""
