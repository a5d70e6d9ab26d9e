# SPDX-License-Identifier: GPL-3.0-or-later
"""The core's JSON lines as typed records (docs/protocol.md).

``from_wire(obj)`` turns one checked line into a ``Preamble``, ``Module``, ``Library``, ``AlgorithmRow``,
``Point`` (bench and tls transfer points, tls handshakes), ``CoreError``, ``End`` or ``Other``
(kat, differential, suite, and the ``fit`` of the Go and Rust cores: records the measuring code
does not act on; the slope fit is ``cipherbench.analysis.fit``'s). Every record keeps
the whole line in ``raw``, so fields added to the protocol later (optional by its rules) pass
through to whoever wants them without a change here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class Preamble:
    """First line of every command: the build, the CPU and its measured frequency."""

    command: str | None
    freq_hz: float | None
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    type = "preamble"


@dataclass(frozen=True)
class Module:
    """A backend's module (``list`` of the C core): loaded from ``path``, or not, and ``error``
    the loader's reason why not."""

    lib: str
    loaded: bool
    path: str | None
    error: str
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    type = "module"


@dataclass(frozen=True)
class Library:
    """A backend: name, version, capabilities (the rest, e.g. ``hw_switch``, in ``raw``)."""

    lib: str
    version: str | None
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    type = "library"


@dataclass(frozen=True)
class AlgorithmRow:
    """One row a backend supports (``list``)."""

    lib: str
    algo: str
    kind: str
    ops: tuple[str, ...]
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    type = "algorithm"


@dataclass(frozen=True)
class Point:
    """Raw samples of one point: each the wall and CPU time of ``iters`` operations.

    ``kind`` is ``point`` (bench, tls transfer) or ``handshake`` (tls); ``op`` is the
    operation (``encrypt``, ``transfer``, ``handshake``, ``resume`` ...); ``size`` is None for
    handshakes, ``group``/``cert`` empty outside tls."""

    kind: str
    lib: str
    algo: str
    op: str
    size: int | None
    iters: int
    wall_ns: tuple[float, ...]
    cpu_ns: tuple[float, ...] | None
    group: str = ""
    cert: str = ""
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @property
    def type(self) -> str:
        return self.kind

    def per_op_ns(self) -> list[float]:
        """Samples as nanoseconds per operation (wall clock)."""
        it = self.iters or 1
        return [w / it for w in self.wall_ns]

    def cpu_ratio(self) -> float | None:
        """Total CPU time over total wall time (well below 1: steal or a busy machine)."""
        wall = sum(self.wall_ns)
        if not wall or not self.cpu_ns:
            return None
        return sum(self.cpu_ns) / wall


@dataclass(frozen=True)
class CoreError:
    """Something not timed, and why (``reason``: kat_failed, unsupported, refused, ...)."""

    lib: str
    algo: str
    op: str | None
    reason: str
    message: str
    group: str = ""
    cert: str = ""
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    type = "error"


@dataclass(frozen=True)
class End:
    """Last line of every command: the frequency measured again after the work."""

    freq_hz: float | None
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    type = "end"


@dataclass(frozen=True)
class Other:
    """A record the measuring code does not act on (kat, differential, fit, suite, ...)."""

    type: str
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)


Record = Union[Preamble, Module, Library, AlgorithmRow, Point, CoreError, End, Other]


def _floats(xs) -> tuple[float, ...] | None:
    return None if xs is None else tuple(float(x) for x in xs)


def from_wire(obj: dict[str, Any]) -> Record:
    """One parsed, version-checked line as its record."""
    t = obj["type"]
    if t == "preamble":
        return Preamble(obj.get("command"), obj.get("freq_hz"), obj)
    if t == "library":
        return Library(obj["lib"], obj.get("version"), obj)
    if t == "module":
        return Module(obj["lib"], bool(obj.get("loaded")), obj.get("path"),
                      obj.get("error") or "", obj)
    if t == "algorithm":
        return AlgorithmRow(obj["lib"], obj["algo"], obj.get("kind", ""),
                            tuple(obj.get("ops") or ()), obj)
    if t in ("point", "handshake"):
        size = obj.get("size")
        return Point(t, obj["lib"], obj["algo"], obj.get("op", ""),
                     None if size is None else int(size), int(obj.get("iters") or 1),
                     _floats(obj["wall_ns"]) or (), _floats(obj.get("cpu_ns")),
                     obj.get("group") or "", obj.get("cert") or "", obj)
    if t == "error":
        return CoreError(obj.get("lib", ""), obj.get("algo") or "", obj.get("op"),
                         obj.get("reason") or "error", obj.get("message") or "",
                         obj.get("group") or "", obj.get("cert") or "", obj)
    if t == "end":
        return End(obj.get("freq_hz"), obj)
    return Other(t, obj)
