# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench ssh``: real OpenSSH transfers per cipher and MAC.

- ``server``: a private OpenSSH server on 127.0.0.1 with keys made for the run.
- ``transfer``: one measured transfer through ``ssh -c CIPHER -m MAC``.
- ``baseline``: the same bytes over a plain TCP connection on the same path.
- ``sweep``: the sweep over ciphers and MACs with adaptive repetitions.
"""
