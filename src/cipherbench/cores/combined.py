# SPDX-License-Identifier: GPL-3.0-or-later
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
- ``Cores.add_variants(names) -> list[str]``: ``--lib`` names with each library variant
  (``libgcrypt@/opt/x``, ``libgcrypt@NAME``: ``variants``) resolved, its core started once to
  read the version the library reports and the file the loader takes, and replaced by its
  column (``libgcrypt@1.11.0``); from then on ``list`` has the column as a library of its own
  and ``bench`` of it runs the library's build from the prefix, its records named by the
  column.
- ``tls_listing(core)`` and ``tls_program(core, lib)``: the ``tls`` command of every core as
  one (the Go core's ``go``, the Rust core's ``rustls-ring`` and ``rustls-aws-lc`` beside
  the C core's ``openssl`` and ``gnutls``), and the executable whose ``tls`` measures ``lib``.
"""
from __future__ import annotations

import builtins  # the class's own list() method hides the type inside Cores
import os
import shutil
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Mapping, Sequence

from cipherbench.cores import variants
from cipherbench.cores.core_client import (INSTALL_SCRIPTS, SOURCE_TREE, BenchStream, Core,
                                           CoreCrashed, CoreNotFound, CoreUsage, Inventory,
                                           ProtocolMismatch)
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.cores.records import from_wire

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


@dataclass
class VariantCore:
    """A library variant as measured: the core that loads it (and its environment), the
    column it is shown as, the version the library reports and the file the loader maps."""

    variant: variants.Variant
    core: Core
    label: str
    version: str
    loaded: str

    def record(self) -> dict:
        """``variant`` of the column's library record (kept in the run's metadata)."""
        return {**self.variant.to_record(), "loaded": self.loaded}


class RelabeledStream:
    """A bench stream of a variant's core whose records name the variant's column instead
    of the library (the library record also carries ``variant``)."""

    def __init__(self, stream: BenchStream, vc: VariantCore):
        self.stream = stream
        self.vc = vc

    def __enter__(self) -> "RelabeledStream":
        self.stream.__enter__()
        return self

    def __exit__(self, *exc):
        return self.stream.__exit__(*exc)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)

    def lines(self):
        base = self.vc.variant.lib
        for obj in self.stream.lines():
            if obj.get("lib") == base:
                obj = {**obj, "lib": self.vc.label}
                if obj.get("type") == "library":
                    obj["variant"] = self.vc.record()
            yield obj

    def __iter__(self):
        for obj in self.lines():
            yield from_wire(obj)


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
        self._variants: dict[str, VariantCore] = {}   # column label -> variant
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
        return ([self.main] + [core for _, core in self.extras]
                + [vc.core for vc in self._variants.values()])

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
        for vc in self._variants.values():
            self._owner[vc.label] = vc.core
            part = self._list_variant(vc)
            inv.libraries[vc.label] = {**part.libraries[vc.variant.lib], "lib": vc.label,
                                       "variant": vc.record()}
            inv.algorithms += [replace(a, lib=vc.label, raw={**a.raw, "lib": vc.label})
                               for a in part.rows(vc.variant.lib)]
        if lib is not None:
            inv.libraries = {k: v for k, v in inv.libraries.items() if k == lib}
            inv.algorithms = [a for a in inv.algorithms if a.lib == lib]
            inv.modules = [m for m in inv.modules if m.lib == lib]
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

    def add_variants(self, names: Sequence[str]) -> builtins.list[str]:
        """``names`` (of ``--lib``) with each variant ``LIB@PREFIX`` / ``LIB@NAME`` resolved,
        checked (the loader takes the prefix's library) and replaced by its column label."""
        if not any(variants.parse_spec(n) for n in names):
            return list(names)
        inv = self.list()
        mine = [l for l in inv.libs() if self._owner.get(l) is self.main and l != REF_LIB]
        taken = set(inv.libs()) | {
            f"{l}@{variants.short_version(str(inv.libraries[l].get('version') or ''))}"
            for l in mine}
        out: list[str] = []
        for name in dict.fromkeys(names):   # the same variant twice is one column
            if variants.parse_spec(name) is None:
                out.append(name)
                continue
            base = variants.parse_spec(name)[0]   # type: ignore[index]
            if base in inv.libraries and base not in mine:
                raise UsageError(f"--lib {name}: {base} is measured by "
                                 f"{self.program_of(base)}; variants are builds of the C "
                                 f"core's libraries ({', '.join(mine)})")
            vc = self._start_variant(variants.resolve(name, self.main.env, mine), taken)
            taken.add(vc.label)
            self._variants[vc.label] = vc
            self._owner[vc.label] = vc.core
            out.append(vc.label)
        return out

    def _start_variant(self, v: variants.Variant, taken: set[str]) -> VariantCore:
        """The variant's core (the system's with the prefix first on the loader path, or the
        one built against it), checked: the loader maps the prefix's library, and the
        library reports its version."""
        path = v.core or self.main.path
        env = v.env(self.main.env)
        loaded = variants.check_loaded(v, variants.loader_view(path, env, v.lib))
        core = Core(path, env)
        core.common_args = list(self.main.common_args)
        vc = VariantCore(v, core, "", "", loaded)
        part = self._list_variant(vc)
        version = str(part.libraries[v.lib].get("version") or "")
        vc.label = variants.column_label(v, version, taken)
        vc.version = version
        return vc

    def _list_variant(self, vc: VariantCore) -> Inventory:
        """The variant core's ``list`` of its library (one-line errors)."""
        v = vc.variant
        try:
            part = vc.core.list(v.lib)
        except (CoreCrashed, CoreUsage, ProtocolMismatch, CoreNotFound) as e:
            raise EnvironmentProblem(f"{v.spec}: {_last_line(e)}")
        if v.lib not in part.libraries:
            raise EnvironmentProblem(f"{v.spec}: the core {vc.core.path} has no {v.lib} "
                                     "backend")
        return part
    def tls_list(self) -> builtins.list[dict]:
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

    def tls(self, lib: str, args: Sequence[str]) -> BenchStream:
        """``tls ARGS`` of the core that measures ``lib``, started as that core starts its
        processes (through its launcher: ssh, for a host)."""
        core = self.tls_core(lib)
        return core.start([str(core.path), "tls", *args, *self.common_args])

    def sources(self) -> builtins.list[CoreSource]:
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
        """``bench`` of the core that measures ``lib`` (a variant's records named by its
        column)."""
        vc = self._variants.get(lib)
        if vc is not None:
            stream = vc.core.bench(vc.variant.lib, algos, op, sizes, samples=samples,
                                   min_sample_ms=min_sample_ms, extra=extra)
            return RelabeledStream(stream, vc)  # type: ignore[return-value]
        return self._core_of(lib).bench(lib, algos, op, sizes, samples=samples,
                                        min_sample_ms=min_sample_ms, extra=extra)

    def serves_lib(self, lib: str) -> bool:
        """Whether ``lib``'s batches go to one served process (not a variant's, nor those of a
        core without ``serve``: a Go or Rust core built before theirs starts a process a
        batch)."""
        return lib not in self._variants and self._core_of(lib).serves_lib(lib)

    def serve(self, lib: str, extra: Sequence[str] = ()):
        """``serve`` of the core that measures ``lib`` (None when that core has none, and for
        a variant, whose records ``bench`` relabels batch by batch)."""
        if lib in self._variants:
            return None
        return self._core_of(lib).serve(lib, extra)


def _last_line(e: Exception) -> str:
    """The last line of an error (a core's stderr: the loader's own message)."""
    lines = [l for l in str(e).strip().splitlines() if l.strip()]
    return lines[-1] if lines else type(e).__name__


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
