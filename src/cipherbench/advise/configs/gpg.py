# SPDX-License-Identifier: GPL-3.0-or-later
"""GnuPG: ``personal-cipher-preferences`` in gpg.conf and ``--cipher-algo`` for one backup."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment


def lines(ctx: Context) -> list[ConfigLine]:
    """gpg.conf and the command line, the fastest allowed algorithm first."""
    algos = [r.cand.names["gpg"] for r in ctx.pick() if r.cand.names.get("gpg")]
    if not algos:
        return [comment("no allowed gpg cipher algorithm: nothing to configure")]
    prefs = " ".join(algos)
    return [comment("~/.gnupg/gpg.conf (also used by --symmetric when no --cipher-algo is "
                    "given)"),
            ConfigLine(f"personal-cipher-preferences {prefs}", ("gpg-conf",
                                                                 f"personal-cipher-preferences {prefs}")),
            comment("one backup"),
            ConfigLine(f"gpg --symmetric --cipher-algo {algos[0]} --compress-algo none "
                       "-o backup.tar.gpg backup.tar", ("gpg-algo", algos[0]))]
