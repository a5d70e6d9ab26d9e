# SPDX-License-Identifier: GPL-3.0-or-later
"""Which stored runs may be put side by side: the same machine, the same core build, the same
hardware switches and, for every library both measured, the same version.

Pure but for ``this_machine``: stored runs in, typed facts and mismatches out. ``advise``
uses it to take its evidence from coherent runs only, ``compare`` to say in one line what the
two runs differ in. Every fact comes from the metadata each run already stores
(``metadata.KEYS``): ``hostname``, ``cpu_model``, ``cpu_arch``; ``core_version``,
``core_compiler``, ``core_cflags``; ``hw_disabled``; ``libraries.<lib>.version`` and
``.caps``; for the real paths, the program's version (``programs`` of gpg runs,
``ssh_version`` in the arguments of ssh runs).
"""
from __future__ import annotations

import platform
import socket
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from cipherbench.store import Run

MACHINE, CORE, HW = "machine", "core build", "hardware switches"


@dataclass(frozen=True)
class Facts:
    """What decides whether two runs measured the same thing: ``machine`` is (host name, CPU
    model, architecture); ``core`` (version, compiler, flags) is empty for runs that did not
    use the core; ``hw_off`` the CPU features switched off; ``versions`` (library, version),
    ``programs`` (program, version) and ``caps`` (library, the hardware it used: a switch
    made through the library's own environment shows only there) pairs."""

    machine: tuple[str, str, str]
    core: tuple[str, ...]
    hw_off: tuple[str, ...]
    versions: tuple[tuple[str, str], ...] = ()
    programs: tuple[tuple[str, str], ...] = ()
    caps: tuple[tuple[str, str], ...] = ()    # (library, its hardware capabilities in use)

    def version(self, lib: str) -> str | None:
        """The stored version of ``lib`` (None when the run did not measure it)."""
        return dict(self.versions).get(lib)

    def machine_text(self) -> str:
        host, cpu, _arch = self.machine
        return f"{host or '?'} ({cpu or '?'})"


def hw_off(value: Any) -> tuple[str, ...]:
    """``hw_disabled`` as a sorted tuple: ``[]``/None/False -> (), ``True``/"all" ->
    ("all",), "aes,pclmul" or a list -> its names, a dict per library -> "lib:feature"."""
    if value is None or value is False or value == [] or value == "":
        return ()
    if value is True:
        return ("all",)
    if isinstance(value, str):
        return tuple(sorted(v.strip() for v in value.split(",") if v.strip()))
    if isinstance(value, Mapping):
        return tuple(sorted(f"{k}:{f}" for k, v in value.items() for f in hw_off(v)))
    if isinstance(value, (list, tuple)):
        return tuple(sorted(map(str, value)))
    return (str(value),)


def facts(run: Run) -> Facts:
    """The facts of one stored run."""
    m = run.metadata
    core = tuple(str(m.get(k) or "") for k in ("core_version", "core_compiler", "core_cflags"))
    libs = m.get("libraries") or {}
    versions = tuple(sorted((str(lib), str((info or {}).get("version") or ""))
                            for lib, info in libs.items() if isinstance(info, Mapping)))
    caps = tuple(sorted((str(lib), ", ".join(sorted(map(str, info.get("caps") or []))))
                        for lib, info in libs.items()
                        if isinstance(info, Mapping) and info.get("caps") is not None))
    progs = dict((m.get("programs") or {}) if isinstance(m.get("programs"), Mapping) else {})
    if run.args.get("ssh_version"):
        progs["ssh"] = run.args["ssh_version"]
    return Facts((str(m.get("hostname") or ""), str(m.get("cpu_model") or ""),
                  str(m.get("cpu_arch") or "")),
                 core if core[0] else (), hw_off(m.get("hw_disabled")), versions,
                 tuple(sorted((str(k), str(v)) for k, v in progs.items())), caps)


def this_machine() -> tuple[str, str, str]:
    """(host name, CPU model, architecture) of the machine running this, as runs store it."""
    from cipherbench.machine.metadata import read_cpuinfo
    return socket.gethostname(), read_cpuinfo()["cpu_model"], platform.machine()


def same_machine(a: tuple[str, str, str], b: tuple[str, str, str]) -> bool:
    """Host name and CPU model agree (the architecture too where both stored it)."""
    return a[:2] == b[:2] and (not a[2] or not b[2] or a[2] == b[2])


@dataclass(frozen=True, eq=False)
class MachineIdentity:
    """What makes two runs one machine, beyond its host name. Two runs that both stored a
    machine identity (``machine_id``, a digest of /etc/machine-id) are one machine when it and
    the CPU agree, whatever the host was called; a run from before that key is matched by its
    facts (host name, CPU, core count, hypervisor, OS). A run measured through ssh (``run
    --host``, its destination in ``host``) is never the same machine as a local run."""

    machine_id: str
    cpu_model: str
    via: str                       # the ``run --host`` destination; '' for a local run
    facts: tuple[str, ...]         # host name, cores, hypervisor, OS

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MachineIdentity):
            return NotImplemented
        if (self.cpu_model, self.via) != (other.cpu_model, other.via):
            return False
        if self.machine_id and other.machine_id:
            return self.machine_id == other.machine_id
        return self.facts == other.facts

    def __hash__(self) -> int:
        # only what every way of being equal requires
        return hash((self.cpu_model, self.via))


def machine_identity(run: Run) -> MachineIdentity:
    """The machine a run was measured on (``MachineIdentity``)."""
    m = run.metadata
    return MachineIdentity(str(m.get("machine_id") or ""), str(m.get("cpu_model") or ""),
                           str(m.get("host") or ""),
                           (str(m.get("hostname") or ""), str(m.get("cores") or ""),
                            str(m.get("hypervisor") or ""), str(m.get("os") or "")))


def machine_label(run: Run) -> str:
    """``vm (AMD EPYC)``, ``vm (AMD EPYC) through ssh to user@h``: a machine as people tell
    them apart."""
    m = run.metadata
    text = f"{m.get('hostname') or '?'} ({m.get('cpu_model') or '?'})"
    if m.get("host"):
        text += f" through ssh to {m['host']}"
    return text


@dataclass(frozen=True)
class Mismatch:
    """One way two runs differ: ``what`` (``machine``, ``core build``, ``hardware
    switches``, ``openssl version``, ``gpg version``), and each run's value."""

    what: str
    a: str
    b: str

    def text(self) -> str:
        return f"{self.what} {self.a or '(none)'} -> {self.b or '(none)'}"


def mismatches(a: Facts, b: Facts, libs: Iterable[str] | None = None) -> list[Mismatch]:
    """How ``b`` differs from ``a``: machine, core build (when both used the core), hardware
    switches, the version and the hardware in use of every library (of ``libs`` when given),
    and the version of every program both name."""
    out = []
    if not same_machine(a.machine, b.machine):
        out.append(Mismatch(MACHINE, a.machine_text(), b.machine_text()))
    if a.core and b.core and a.core != b.core:
        out.append(Mismatch(CORE, " ".join(x for x in a.core if x),
                            " ".join(x for x in b.core if x)))
    if a.hw_off != b.hw_off:
        out.append(Mismatch(HW, "off: " + ", ".join(a.hw_off) if a.hw_off else "all on",
                            "off: " + ", ".join(b.hw_off) if b.hw_off else "all on"))
    va, vb = dict(a.versions), dict(b.versions)
    wanted = set(libs) if libs is not None else set(va) | set(vb) | set(a.caps) | set(b.caps)
    for lib in sorted(set(va) & set(vb) & wanted):
        if va[lib] != vb[lib]:
            out.append(Mismatch(f"{lib} version", va[lib], vb[lib]))
    ca, cb = dict(a.caps), dict(b.caps)
    for lib in sorted(set(ca) & set(cb) & wanted):
        if ca[lib] != cb[lib]:
            out.append(Mismatch(f"{lib} hardware", ca[lib] or "none", cb[lib] or "none"))
    pa, pb = dict(a.programs), dict(b.programs)
    for prog in sorted(set(pa) & set(pb)):
        if pa[prog] != pb[prog]:
            out.append(Mismatch(f"{prog} version", pa[prog], pb[prog]))
    return out


def describe(ms: list[Mismatch]) -> str:
    """``openssl version 3.0.13 -> 3.0.15; machine a (X) -> b (Y)``."""
    return "; ".join(m.text() for m in ms)
