# SPDX-License-Identifier: GPL-3.0-or-later
"""CPU profiles: the weaker CPUs a run can stand in for by asking every library, through its
own switch, to leave CPU features unused (``--cpu-profile``; the cores' ``--cpu-profile``,
``--no-hw`` and ``--disable-cpu-feature``, docs/protocol.md).

The feature names and the profiles' contents mirror the cores' tables (core/hw.c); the
switch of each library (OPENSSL_ia32cap, hwf names, NETTLE_FAT_OVERRIDE ...) lives in the
cores alone, and a program outside them that links OpenSSL (openssl s_server, ssh, sshd) gets
the variables the C core reports for its openssl backend (``openssl_env``).
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator, Mapping, Sequence

#: CPU features the cores can ask libraries to leave unused, in the cores' order.
HW_FEATURES = ("aes", "pclmul", "avx2", "vaes", "sha", "avx512", "avx", "ssse3", "bmi")


@dataclass(frozen=True)
class CpuProfile:
    """A named set of features turned off, and the machines it stands for."""
    name: str
    features: tuple[str, ...]
    stands_for: str


PROFILES: dict[str, CpuProfile] = {p.name: p for p in (
    CpuProfile("no-aes", HW_FEATURES[:5],
               "a CPU without AES instructions: AES-NI, carry-less multiply, SHA, VAES, "
               "VPCLMULQDQ and AVX2 off (what --no-hw always meant)"),
    CpuProfile("baseline", HW_FEATURES,
               "the architecture's baseline (x86-64: SSE2; arm64: NEON without the crypto "
               "extensions): an old Atom, a Raspberry Pi before the 5, a cheap NAS"),
)}


def profile_of(features: Sequence[str]) -> str | None:
    """The profile whose features are exactly ``features`` (None: none, or a custom set)."""
    want = set(features)
    return next((p.name for p in PROFILES.values() if set(p.features) == want), None)


def hw_args(features: Sequence[str]) -> list[str]:
    """Core arguments that turn ``features`` off in every library (``[]`` for none).

    ``no-aes`` is passed as ``--no-hw``, which every core build understands."""
    if not features:
        return []
    name = profile_of(features)
    if name == "no-aes":
        return ["--no-hw"]
    if name:
        return ["--cpu-profile", name]
    return ["--disable-cpu-feature", ",".join(f for f in HW_FEATURES if f in features)]


@dataclass(frozen=True)
class LibraryFollows:
    """How one library stands under a profile, by the core's library record."""
    lib: str
    switch: str                 # applied, cannot_disable or failed
    used: tuple[str, ...] | None   # features the library reports it still uses (None: silent)

    @property
    def follows(self) -> bool:
        return self.switch == "applied"


def follows(libraries: Mapping[str, Mapping]) -> list[LibraryFollows]:
    """Each library's state from the core's library records (``Inventory.libraries``)."""
    out = []
    for lib, rec in libraries.items():
        if lib == "ref" or rec.get("hw_switch") is None:
            continue
        used = rec.get("hw_used")
        out.append(LibraryFollows(lib, str(rec["hw_switch"]),
                                  tuple(used) if isinstance(used, list) else None))
    return out


def openssl_env(libraries: Mapping[str, Mapping]) -> dict[str, str] | None:
    """The variables that turn the features off in a program linking OpenSSL's libcrypto, as
    the C core set them for its openssl backend; None when its switch was not applied."""
    rec = libraries.get("openssl") or {}
    if rec.get("hw_switch") != "applied":
        return None
    env = {}
    for item in rec.get("hw_env") or []:
        key, sep, value = str(item).partition("=")
        if sep:
            env[key] = value
    return env


@contextmanager
def programs_inherit(variables: Mapping[str, str]) -> Iterator[None]:
    """Every program started inside gets ``variables`` (ssh, sshd, sftp, scp and rsync are
    started in many places: they inherit this process's environment); restored after."""
    saved = {k: os.environ.get(k) for k in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
