# SPDX-License-Identifier: GPL-3.0-or-later
"""cipherbench: which cipher, in which library, is fastest on this machine, and is it secure.

The package is the front end of the C measurement core ``cipherbench-core``: it plans the
work, asks the core for samples, decides when a number is good enough (``stats``), stores
every result as it arrives (``store``) and only then formats it (``display``, ``export``).
"""

__version__ = "0.1.0"
