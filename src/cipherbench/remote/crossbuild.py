# SPDX-License-Identifier: GPL-3.0-or-later
"""Which core to ship to a host of another architecture: the cross build of this checkout
(``scripts/build-cross.sh ARCH`` writes ``build-ARCH/``), named by Debian's architecture, with
its library modules. The host's own shared libraries are what those modules load there; a
library missing there is a ``library_missing`` warning as on any host.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cipherbench.remote.errors import RemoteError

#: ``uname -m`` -> Debian's architecture name, as scripts/build-cross.sh takes it.
DEBIAN_ARCH = {
    "x86_64": "amd64", "amd64": "amd64",
    "aarch64": "arm64", "arm64": "arm64", "armv8b": "arm64",
    "armv7l": "armhf", "armv6l": "armhf", "armv8l": "armhf", "armhf": "armhf",
}
#: The architectures build-cross.sh can build.
CROSS_ARCHES = ("arm64", "armhf")
CORE = "cipherbench-core"


@dataclass(frozen=True)
class CrossCore:
    """The cross-built core for ``arch`` and its modules (name in the tar stream -> file)."""
    arch: str
    core: Path
    modules: dict[str, Path]


def debian_arch(machine: str) -> str | None:
    """Debian's name for a ``uname -m``; None for one the project does not know."""
    return DEBIAN_ARCH.get(machine.strip().lower())


def build_dir(checkout: Path, arch: str) -> Path:
    return checkout / f"build-{arch}"


def choose(destination: str, host_arch: str, here_arch: str, checkout: Path,
           modules_dir: str = "modules") -> CrossCore | None:
    """None when the host runs this machine's own core (the same architecture); the build
    ``build-ARCH/`` of ``checkout`` for the host's architecture when there is one; else
    RemoteError saying how to make one."""
    host, here = debian_arch(host_arch), debian_arch(here_arch)
    if host_arch == here_arch or (host is not None and host == here):
        return None
    core = build_dir(checkout, host) / "core" / CORE if host is not None else None
    if host is None or core is None or not core.is_file():
        if host in CROSS_ARCHES:
            raise RemoteError(f"host {destination} is {host_arch}; build a core for it with "
                              f"scripts/build-cross.sh {host} (or install cipherbench-core "
                              "there)")
        raise RemoteError(f"host {destination} is {host_arch}, this machine {here_arch}, and "
                          "scripts/build-cross.sh builds for " + " and ".join(CROSS_ARCHES)
                          + " only: install cipherbench-core there (it is used from the PATH), "
                          "or give its path with --host-core")
    modules = {f"{modules_dir}/{p.name}": p
               for p in sorted((core.parent / "modules").glob("*.so"))}
    return CrossCore(host, core, modules)
