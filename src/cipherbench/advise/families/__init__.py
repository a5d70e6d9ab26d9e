# SPDX-License-Identifier: GPL-3.0-or-later
"""Each advise target family as one object, one module each: its candidates, the tool's own
default (read from the tool, ``facts``), its evidence layers in order of authority, and the
command that measures what is missing.

The layers, highest authority first:

- ssh: the user's ssh program through the tool the answer is for (``--via``, else ssh's own
  pipe), then through another tool (scp, sftp, rsync), then the primitives of ssh's library
  (OpenSSL's libcrypto; with ``--host``, the primitives measured on that host), then, for
  ``--assume-no-aes``, the cited estimate;
- TLS: the library's own record layer (``cipherbench tls``, for the library the program is
  built on), then the same record layer measured under the suite's twin (the same cipher and
  MAC under another certificate type: not a choice measured, so never the headline), then the
  library's primitives;
- gpg / age: the real ``gpg --symmetric`` (or age) of the gpg run, then libgcrypt's CFB
  primitives;
- LUKS: the user-space primitives of the same modes.

A lower layer never replaces a higher one: a candidate takes its rate from the highest layer
that measured it, the answer is decided in the highest layer that measured an allowed
candidate, and every rate carries its layer (``Rate.layer``, ``Rate.authority``).
"""
from __future__ import annotations

from cipherbench.advise.families.base import (Ask, Default, Family, Layer, LayerEvidence,
                                              merged)
from cipherbench.advise.families.gpg import GpgFamily
from cipherbench.advise.families.luks import LuksFamily
from cipherbench.advise.families.ssh import SshFamily
from cipherbench.advise.families.tls import TlsFamily

FAMILIES: dict[str, Family] = {f.name: f for f in (SshFamily(), TlsFamily(), GpgFamily(),
                                                     LuksFamily())}

__all__ = ["FAMILIES", "Ask", "Default", "Family", "Layer", "LayerEvidence", "merged",
           "GpgFamily", "LuksFamily", "SshFamily", "TlsFamily"]
