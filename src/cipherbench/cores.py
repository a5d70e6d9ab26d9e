"""Every measurement core at once: the C core and the optional cores of other languages.

``cipherbench-core`` (C) is required; ``cipherbench-core-go`` (library ``go``) and
``cipherbench-core-rust`` (``ring``, ``rustcrypto``, ``aws-lc``) speak the same protocol and
are built from a source checkout by scripts/build-extra-cores.sh, not by ``pip install``. Each
is looked for like the C core: its environment variable (an empty value leaves it out), then
``PATH``, then beside the installed ``cipherbench`` script, then ``build-extra/`` of the
source tree (or of the checkout holding the virtual environment cipherbench is installed in). A missing one is simply absent; one that fails its ``list`` is left out with
one warning line.

Public API:

- ``EXTRA_CORES``: the optional cores (name, executable, environment variable).
- ``find_extra(spec, env) -> Path | None``.
- ``Cores.find(env, warn)``: quacks like ``core_client.Core`` for what the scenarios use
  (``list``, ``bench``, ``common_args``, ``env``, ``path``): ``list`` merges every core's
  libraries into one ``Inventory`` (the reference rows only from the C core) and ``bench``
  starts the core that has the library.
- ``Cores.sources() -> list[CoreSource]``: which cores were found, where, and their libraries.
- ``tls_listing(core)`` and ``tls_program(core, lib)``: the ``tls`` command of every core as
  one (the Go core's ``go``, the Rust core's ``rustls-ring`` and ``rustls-aws-lc`` beside
  the C core's ``openssl`` and ``gnutls``), and the executable whose ``tls`` measures ``lib``.
"""
from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from cipherbench.core_client import (INSTALL_SCRIPTS, SOURCE_TREE, BenchStream, Core,
                                     CoreCrashed, CoreNotFound, CoreUsage, Inventory,
                                     ProtocolMismatch)

#: The library of the reference rows (memcpy, null): the C core's alone.
REF_LIB = "ref"
#: What builds the optional cores (said where one is not found).
BUILD_EXTRA_HINT = ("optional, built from a source checkout by scripts/build-extra-cores.sh "
                    "when Go or Rust is installed; pip does not install it")


@dataclass(frozen=True)
class ExtraCore:
    """An optional core of another language."""

    name: str          # go, rust
    executable: str    # cipherbench-core-go
    env_var: str       # CIPHERBENCH_CORE_GO


EXTRA_CORES = (ExtraCore("go", "cipherbench-core-go", "CIPHERBENCH_CORE_GO"),
               ExtraCore("rust", "cipherbench-core-rust", "CIPHERBENCH_CORE_RUST"))


@dataclass
class CoreSource:
    """One core as found: its executable, the libraries it measures, or why it is left out."""

    executable: str
    path: Path | None
    libs: list[str] = field(default_factory=list)
    problem: str = ""      # not found / broken: the reason


def _executable(p: Path) -> bool:
    return p.is_file() and os.access(p, os.X_OK)


def find_extra(spec: ExtraCore, env: Mapping[str, str]) -> Path | None:
    """Where ``spec`` is, or None. Its variable, when set, decides alone (empty: left out);
    a variable naming no executable raises ``CoreNotFound`` (``Cores.find`` warns and goes on)."""
    if spec.env_var in env:
        value = env[spec.env_var]
        if not value:
            return None
        if _executable(Path(value)):
            return Path(value)
        raise CoreNotFound(f"{spec.env_var}={value} is not an executable file; build it with "
                           f"scripts/build-extra-cores.sh, or set {spec.env_var}= (empty)")
    found = shutil.which(spec.executable, path=env.get("PATH", os.defpath))
    if found:
        return Path(found)
    for where in (INSTALL_SCRIPTS, *_checkouts()):
        cand = where / spec.executable
        if _executable(cand):
            return cand
    return None


def _checkouts() -> list[Path]:
    """``build-extra/`` of the source tree this module runs from, and of the checkout that
    holds the virtual environment it is installed in (``scripts/setup.sh`` makes ``.venv``
    in the checkout and installs cipherbench into it, away from the tree)."""
    dirs = [SOURCE_TREE / "build-extra"]
    if sys.prefix != sys.base_prefix:
        dirs.append(Path(sys.prefix).parent / "build-extra")
    return dirs


class Cores:
    """The C core and the extra cores found beside it, as one core."""

    def __init__(self, main: Core, extras: Sequence[tuple[str, Core]] = (),
                 warn: Callable[[str], None] | None = None):
        self.main = main
        self.extras = [(name, core) for name, core in extras]   # (executable, core)
        self.warn = warn or (lambda message: None)
        self._owner: dict[str, Core] = {}     # library -> the core that measures it
        self._sources: list[CoreSource] = []
        self._broken: dict[str, str] = {}     # executable -> why it is left out
        self._tls_owner: dict[str, Core] = {}  # TLS library -> the core whose tls has it

    @classmethod
    def find(cls, env: Mapping[str, str] | None = None,
             warn: Callable[[str], None] | None = None) -> "Cores":
        """The C core (``CoreNotFound`` when missing) and every extra core found."""
        env = os.environ if env is None else env
        main = Core.find(env)
        extras = []
        for spec in EXTRA_CORES:
            try:
                path = find_extra(spec, env)
            except CoreNotFound as e:   # an optional core never fails the command
                if warn:
                    warn(f"{e}; its libraries are left out")
                continue
            if path is not None:
                extras.append((spec.executable, Core(path, env)))
        return cls(main, extras, warn)

    # What the scenarios read of a Core.
    @property
    def path(self) -> Path:
        return self.main.path

    @property
    def env(self) -> dict:
        return self.main.env

    @property
    def common_args(self) -> list[str]:
        return self.main.common_args

    @common_args.setter
    def common_args(self, args: list[str]) -> None:
        for core in self.all():
            core.common_args = list(args)

    def all(self) -> list[Core]:
        return [self.main] + [core for _, core in self.extras]

    def run_lines(self, args: Sequence[str]) -> list[dict]:
        """The C core's raw lines of a short command."""
        return self.main.run_lines(args)

    def list(self, lib: str | None = None) -> Inventory:
        """Every core's ``list`` in one inventory (only ``lib``'s rows when given): the C
        core's preamble and reference rows, then each extra core's libraries that no earlier
        core has. An extra core that fails is left out with one warning (once)."""
        inv = self.main.list()
        self._owner = {name: self.main for name in inv.libraries}
        self._sources = [CoreSource("cipherbench-core", self.main.path,
                                    [l for l in inv.libs() if l != REF_LIB])]
        for exe, core in self.extras:
            part = self._list_extra(exe, core)
            if part is None:
                self._sources.append(CoreSource(exe, core.path, problem=self._broken[exe]))
                continue
            mine = [l for l in part.libs() if l != REF_LIB and l not in self._owner]
            self._sources.append(CoreSource(exe, core.path, mine))
            for name in mine:
                self._owner[name] = core
                inv.libraries[name] = part.libraries[name]
            inv.algorithms += [a for a in part.algorithms if a.lib in mine]
        if lib is not None:
            inv.libraries = {k: v for k, v in inv.libraries.items() if k == lib}
            inv.algorithms = [a for a in inv.algorithms if a.lib == lib]
        return inv

    def _list_extra(self, exe: str, core: Core) -> Inventory | None:
        """One extra core's inventory, or None (warned once) when it fails."""
        if exe in self._broken:
            return None
        try:
            return core.list()
        except (CoreCrashed, CoreUsage, ProtocolMismatch, CoreNotFound) as e:
            self._broken[exe] = str(e) or "failed"
            self.warn(f"{exe} ({core.path}) failed its `list`: {self._broken[exe]}; its "
                      "libraries are left out")
            return None

    def tls_list(self) -> list[dict]:
        """``tls --list`` of every core as one listing: the C core's records (preamble, its
        TLS libraries, the suite table), with each extra core's TLS libraries that no earlier
        core has after the C core's (the extra cores print the C core's suite table). An
        extra core whose ``tls --list`` fails is left out with one warning."""
        listing = self.main.run_lines(["tls", "--list"])
        self._tls_owner = {r["lib"]: self.main for r in listing if r.get("type") == "library"}
        extra: list[dict] = []
        for exe, core in self.extras:
            if exe in self._broken:
                continue
            try:
                lines = core.run_lines(["tls", "--list"])
            except (CoreCrashed, CoreUsage, ProtocolMismatch, CoreNotFound) as e:
                self._broken[exe] = str(e) or "failed"
                self.warn(f"{exe} ({core.path}) failed its `tls --list`: {self._broken[exe]}; "
                          "its TLS libraries are left out")
                continue
            for r in lines:
                if r.get("type") == "library" and r["lib"] not in self._tls_owner:
                    self._tls_owner[r["lib"]] = core
                    extra.append(r)
        last = max((i for i, r in enumerate(listing) if r.get("type") in ("preamble", "library")),
                   default=-1)
        return listing[:last + 1] + extra + listing[last + 1:]

    def tls_core(self, lib: str) -> Core:
        """The core whose ``tls`` measures ``lib`` (the C core for any it does not know)."""
        if not self._tls_owner:
            self.tls_list()
        return self._tls_owner.get(lib, self.main)

    def sources(self) -> list[CoreSource]:
        """The cores of the last ``list`` (listing first when none ran yet), with the extra
        cores that were not found."""
        if not self._sources:
            self.list()
        found = {s.executable for s in self._sources}
        return self._sources + [CoreSource(spec.executable, None, problem="not found ("
                                           + BUILD_EXTRA_HINT + ")")
                                for spec in EXTRA_CORES if spec.executable not in found]

    def _core_of(self, lib: str) -> Core:
        if not self._owner:
            self.list()
        return self._owner.get(lib, self.main)

    def program_of(self, lib: str) -> str:
        """The name of the core program that measures ``lib`` (for the user's next command)."""
        return self._core_of(lib).program_of(lib)

    def bench(self, lib: str, algos: Sequence[str], op: str, sizes: Sequence[int], *,
              samples: int | None = None, min_sample_ms: float | None = None,
              extra: Sequence[str] = ()) -> BenchStream:
        """``bench`` of the core that measures ``lib``."""
        return self._core_of(lib).bench(lib, algos, op, sizes, samples=samples,
                                        min_sample_ms=min_sample_ms, extra=extra)


def format_sources(sources: Sequence[CoreSource]) -> list[list[str]]:
    """Rows (core, where, libraries or why absent) for ``cipherbench list``."""
    return [[s.executable, str(s.path) if s.path else "-",
             ", ".join(s.libs) if not s.problem else s.problem] for s in sources]


def tls_listing(core: Core | Cores) -> list[dict]:
    """The raw records of ``tls --list``: every core's TLS libraries for ``Cores``, the one
    core's for a ``Core``."""
    return core.tls_list() if isinstance(core, Cores) else core.run_lines(["tls", "--list"])


def tls_program(core: Core | Cores, lib: str) -> Path:
    """The executable whose ``tls`` measures ``lib``."""
    return core.tls_core(lib).path if isinstance(core, Cores) else core.path
