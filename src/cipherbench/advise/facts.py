# SPDX-License-Identifier: GPL-3.0-or-later
"""Facts about the user's tools, read from the tools themselves, never assumed: which choice
each one makes when nothing is configured. "It is already the default" is said only from one
of these readings; where a tool cannot be asked, the fact is unknown and the answer says so.

- ssh: the first cipher of ``ssh -G`` (the client's own order, with ``--ssh-config`` and the
  host when given);
- gpg: the cipher of a probe ``gpg --symmetric`` in a private home, read from its packets
  (``gpg --list-packets``), or the reading the stored gpg run made the same way;
- TLS: the first suite of the library's default list (``openssl ciphers -s``, ``gnutls-cli
  --priority NORMAL --list``); Go's order is compiled into the program (crypto/tls), so it
  is quoted from Go's source, and said to be;
- LUKS: cryptsetup's compiled-in default (``cryptsetup --help``).

Each reading returns a ``ToolDefault``: the name the tool gave (None when it could not be
read) and, in one phrase, how it was read or why not.
"""
from __future__ import annotations

import functools
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_TIMEOUT_S = 20


@dataclass(frozen=True)
class ToolDefault:
    """What a tool chooses by itself: ``name`` in the tool's own spelling (None: not read),
    ``source``: how it was read, or why it could not be."""

    name: str | None
    source: str

    @property
    def known(self) -> bool:
        return self.name is not None


def _run(args: Sequence[str], env: Mapping[str, str] | None = None,
         data: bytes | None = None) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(list(args), input=data, capture_output=True, timeout=_TIMEOUT_S,
                              env=dict(env) if env is not None else None, check=False)
    except (OSError, subprocess.SubprocessError):
        return None


# -- ssh ---------------------------------------------------------------------------------------
def ssh_cipher_order(host: str | None = None, ssh_config: str | None = None,
                     env: Mapping[str, str] | None = None) -> list[str]:
    """The client's cipher order as ``ssh -G`` prints it (empty when ssh cannot say): for a
    host through the user's own configuration (or ``ssh_config``), as the measurement goes;
    for the private server without any, as that server's client runs."""
    from cipherbench.scenarios.ssh.server import offered
    return offered(host, ssh_config, env).ciphers


def ssh_default(host: str | None = None, ssh_config: str | None = None,
                env: Mapping[str, str] | None = None) -> ToolDefault:
    """The cipher ssh offers first."""
    order = ssh_cipher_order(host, ssh_config, env)
    if not order:
        return ToolDefault(None, "`ssh -G` could not be read")
    return ToolDefault(order[0], "`ssh -G`" + (f" for {host}" if host else ""))


# -- gpg ---------------------------------------------------------------------------------------
_SYMKEY = re.compile(rb"symkey enc packet: version \d+, cipher (\d+)")


def gpg_cipher_of_packets(listing: bytes) -> str | None:
    """The ``--cipher-algo`` name of the symmetric key packet in ``gpg --list-packets``
    output (None when there is none)."""
    from cipherbench.scenarios.gpg.interleaved import OPENPGP_CIPHERS
    m = _SYMKEY.search(listing)
    return OPENPGP_CIPHERS.get(int(m.group(1))) if m else None


def probe_gpg_default(env: Mapping[str, str]) -> ToolDefault:
    """Encrypt one byte with ``gpg --symmetric`` in a private home and read the cipher from
    the packets it wrote (once per gpg program and process: a private home costs seconds)."""
    gpg = shutil.which("gpg", path=env.get("PATH"))
    if gpg is None:
        return ToolDefault(None, "gpg is not installed")
    return _probe_gpg(gpg, tuple(sorted(env.items())))


@functools.lru_cache(maxsize=4)
def _probe_gpg(gpg: str, env_items: tuple) -> ToolDefault:
    from cipherbench.scenarios.gpg import home as gpg_home
    env = dict(env_items)
    try:
        with gpg_home.private_gnupg_home(env) as h:
            enc = _run([gpg, *h.gpg_args(), "--symmetric", "--output", "-"], h.env, b"x")
            if enc is None or enc.returncode != 0:
                return ToolDefault(None, "a probe `gpg --symmetric` failed")
            listed = _run([gpg, *h.gpg_args(), "--list-packets"], h.env, enc.stdout)
    except (gpg_home.GpgHomeError, OSError) as e:
        return ToolDefault(None, f"no private gpg home: {e}")
    name = gpg_cipher_of_packets(listed.stdout) if listed is not None else None
    if name is None:
        return ToolDefault(None, "`gpg --list-packets` named no cipher")
    return ToolDefault(name, "a probe encryption's packets (`gpg --list-packets`)")


# -- TLS ---------------------------------------------------------------------------------------
#: Go's crypto/tls order with AES instructions at both ends (cipher_suites.go: AES-128-GCM,
#: ChaCha20-Poly1305, AES-256-GCM for TLS 1.3; the same ciphers under ECDHE for TLS 1.2).
GO_ORDER = ("TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384")
GO_SOURCE = "Go's crypto/tls order (compiled into the program; quoted from its source)"


def tls_suite_order(lib: str, env: Mapping[str, str] | None = None) -> tuple[list[str], str]:
    """The library's default suites in its order (any spelling), and how they were read."""
    if lib == "go":
        return list(GO_ORDER), GO_SOURCE
    if lib == "openssl":
        p = _run(["openssl", "ciphers", "-s"], env)
        if p is None or p.returncode != 0:
            return [], "`openssl ciphers -s` could not be run"
        return p.stdout.decode(errors="replace").strip().split(":"), "`openssl ciphers -s`"
    if lib == "gnutls":
        p = _run(["gnutls-cli", "--priority", "NORMAL", "--list"], env)
        if p is None or p.returncode != 0:
            return [], "`gnutls-cli --list` could not be run"
        names = [ln.split()[0] for ln in p.stdout.decode(errors="replace").splitlines()
                 if ln.startswith("TLS_")]
        return names, "`gnutls-cli --priority NORMAL --list`"
    return [], f"no way to ask {lib} for its default suites"


# -- LUKS --------------------------------------------------------------------------------------
def luks_default(env: Mapping[str, str] | None = None) -> ToolDefault:
    """cryptsetup's compiled-in LUKS2 cipher and key size, as ``cipher:bits``."""
    p = _run(["cryptsetup", "--help"], env)
    if p is None:
        return ToolDefault(None, "cryptsetup is not installed")
    m = re.search(r"LUKS2?:\s*([\w:-]+),\s*Key:\s*(\d+) bits", p.stdout.decode(errors="replace"))
    if not m:
        return ToolDefault(None, "`cryptsetup --help` named no default")
    return ToolDefault(f"{m.group(1)}:{m.group(2)}", "`cryptsetup --help`")
