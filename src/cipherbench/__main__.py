# SPDX-License-Identifier: GPL-3.0-or-later
"""``python -m cipherbench``: the same as the ``cipherbench`` command."""
from cipherbench.cli import run

run()
