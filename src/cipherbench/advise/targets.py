# SPDX-License-Identifier: GPL-3.0-or-later
"""The ``--for`` targets: which candidates each one ranks and which config lines it prints."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """One ``--for`` value.

    ``family`` names the candidate family (``ssh``, ``tls``, ``gpg``, ``luks``);
    ``transport`` is True for data in flight (AEAD only under the modern policy);
    ``configs`` lists the config modules (``advise.configs.<name>``) whose lines it prints;
    ``lib`` is the crypto library the program is built on when it is not a choice (``go``:
    Go's crypto/tls), whose measurements rate its candidates."""

    name: str
    family: str
    transport: bool
    configs: tuple[str, ...]
    what: str
    lib: str | None = None
    #: its config line can select TLS 1.3 suites (NZBGet's OpenSSL cipher list and Go's
    #: crypto/tls cannot: they set TLS 1.2 suites only)
    selects_tls13: bool = True


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("ssh", "ssh", True, ("ssh",),
           "OpenSSH client and server, scp, sftp, rsync -e ssh, borg"),
    Target("tls-server", "tls", True, ("tls",), "OpenSSL and GnuTLS server applications"),
    Target("tls-client", "tls", True, ("tls",), "OpenSSL and GnuTLS client applications"),
    Target("nginx", "tls", True, ("nginx",), "nginx (built with OpenSSL)"),
    Target("nzbget", "tls", True, ("nzbget",), "NZBGet news server connections",
           selects_tls13=False),
    Target("stunnel", "tls", True, ("stunnel",), "stunnel (built with OpenSSL)"),
    Target("caddy", "tls", True, ("caddy",), "Caddy (Go's crypto/tls)", lib="go",
           selects_tls13=False),
    Target("traefik", "tls", True, ("traefik",), "Traefik (Go's crypto/tls)", lib="go",
           selects_tls13=False),
    Target("gpg", "gpg", False, ("gpg",), "backups encrypted with gpg --symmetric"),
    Target("age", "gpg", False, ("age",), "backups encrypted with age"),
    Target("luks", "luks", False, ("luks",), "disk encryption with cryptsetup (dm-crypt)"),
)}

#: ``--for all`` runs these, in this order.
ALL = tuple(TARGETS)
CHOICES = ALL + ("all",)


def resolve(name: str) -> list[Target]:
    """The targets of a ``--for`` value (``all`` = every target)."""
    return [TARGETS[n] for n in ALL] if name == "all" else [TARGETS[name]]
