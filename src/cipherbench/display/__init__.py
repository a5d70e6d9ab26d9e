# SPDX-License-Identifier: GPL-3.0-or-later
"""Showing results: ``format`` computes rows (pure), ``console`` prints them with rich."""
