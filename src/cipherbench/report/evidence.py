# SPDX-License-Identifier: GPL-3.0-or-later
"""Coherent evidence for a chart (pure): which stored results may share a series.

A series is one library as it was measured: its version, the CPU features switched off
(``hw_disabled``), the core build and the thread count, all on one machine. Results taken with
another version, other switches, another core build or on another machine never share a series;
two runs of the same setting may (a later partial run fills nothing it did not measure, so it
never hides the cells of an earlier complete one: each cell is the newest measurement of it).

One machine is one machine identity (``coherence.machine_identity``: the stored digest of its
machine id and its CPU, or for runs stored before that its CPU, cores, hypervisor, OS and host
name), never its host name alone; a ``run --host`` run is always another machine than the
local runs.

    ev = gather(runs, want, named=False)   # runs: (Run, results) pairs, oldest first
    ev.machine, ev.series, ev.session, ev.left_out

With ``named`` false (the runs were not chosen by the user) the chart takes the newest *set of
runs that belong together*: the machine of the newest run that holds what the chart wants, and
on it one session (``sessions``: runs each started within ``SESSION_GAP_S`` of the one before,
at a similar load: the 1-minute load averages, plus one, within a factor ``LOAD_RATIO``); in it
only the newest setting of each library is drawn. Older settings, other sessions and other
machines are named in ``left_out`` with the way to draw them (name the runs). With ``named``
true every setting found in the named runs is a series (two versions of a library side by
side), and the runs must come from one machine.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Callable, Iterable

from cipherbench.machine.coherence import MachineIdentity, machine_identity
from cipherbench.report.data import lib_sort_key
from cipherbench.store import Result, Run

#: Run statuses whose results can be drawn (a ``running`` run may still be written).
DRAWABLE = ("complete", "interrupted")
#: Runs of one session: each started at most this long after the one before ended.
SESSION_GAP_S = 2 * 3600
#: Runs of one session ran at a similar load: (load average + 1) within this factor.
LOAD_RATIO = 2.0


class MixedMachines(ValueError):
    """The named runs were measured on more than one machine."""


@dataclass(frozen=True)
class Machine:
    """One machine: equal by its identity (``coherence.machine_identity``) alone; the other
    fields say which it is."""

    identity: MachineIdentity
    hostname: str = field(compare=False)
    cpu_model: str = field(compare=False)
    cores: int = field(compare=False)
    hypervisor: str = field(compare=False)
    os: str = field(default="", compare=False)
    via: str = field(default="", compare=False)     # the ``run --host`` destination

    @classmethod
    def of(cls, run: Run) -> "Machine":
        m = run.metadata
        return cls(machine_identity(run), str(m.get("hostname") or ""),
                   str(m.get("cpu_model") or ""), int(m.get("cores") or 0),
                   str(m.get("hypervisor") or ""), str(m.get("os") or ""),
                   str(m.get("host") or ""))

    def text(self) -> str:
        """``AMD EPYC, 2 cores, VM (kvm), host vm``; ``..., host vm, through ssh (run --host
        u@vm)`` for a run measured on another host."""
        bits = [self.cpu_model or "unknown CPU"]
        if self.cores:
            bits.append(f"{self.cores} cores")
        if self.hypervisor and self.hypervisor != "none":
            bits.append("VM" if self.hypervisor == "unknown" else f"VM ({self.hypervisor})")
        if self.hostname:
            bits.append(f"host {self.hostname}")
        if self.via:
            bits.append(f"through ssh (run --host {self.via})")
        return ", ".join(bits)


@dataclass(frozen=True)
class Setting:
    """One library as measured: what must be equal for results to share a series."""

    lib: str
    version: str            # the library's own version string, as it reported it
    hw_off: tuple[str, ...]  # CPU features asked off; () = as the machine has them
    core: str               # the core build: version, compiler, flags
    threads: int

    @property
    def short_version(self) -> str:
        """``3.0.19`` from ``OpenSSL 3.0.19 27 Jan 2026``; the whole string when it has no
        dotted number."""
        m = re.search(r"\d+(?:\.\d+)+[a-z]?", self.version)
        return m.group(0) if m else self.version

    def label(self, with_hw: bool = True) -> str:
        """``libgcrypt 1.10.1``, ``openssl 3.0.19, hw off: aes, pclmul``."""
        text = f"{self.lib} {self.short_version}".strip()
        if self.threads > 1:
            text += f", {self.threads} threads"
        if with_hw and self.hw_off:
            text += ", hw off: " + ", ".join(self.hw_off)
        return text


def setting_of(run: Run, lib: str) -> Setting:
    """The setting of ``lib`` in ``run`` (from its stored metadata)."""
    m = run.metadata
    info = (m.get("libraries") or {}).get(lib) or {}
    off = m.get("hw_disabled") or run.args.get("hw_disabled") or []
    if isinstance(off, str):
        off = [off]
    core = " ".join(str(m.get(k) or "") for k in ("core_version", "core_compiler", "core_cflags"))
    return Setting(lib, str(info.get("version") or ""), tuple(str(x) for x in off),
                   core.strip(), int(m.get("threads") or 1))


@dataclass
class Series:
    """The cells of one setting: (algo, op) -> the newest result, and the runs they come
    from."""

    setting: Setting
    cells: dict[tuple[str, str], Result] = field(default_factory=dict)
    runs: list[int] = field(default_factory=list)   # ascending

    def label(self, with_hw: bool = True) -> str:
        """The setting's label with the runs behind it: ``libgcrypt 1.10.1 (run 3)``."""
        ids = ", ".join(map(str, self.runs))
        return f"{self.setting.label(with_hw)} (run{'s' if len(self.runs) > 1 else ''} {ids})"


@dataclass
class Evidence:
    """What a chart may draw: one machine, series of coherent results, what was left out."""

    machine: Machine
    series: list[Series]
    runs: list[Run]                       # the runs any series uses, oldest first
    left_out: list[str] = field(default_factory=list)   # one sentence each
    session: str = ""                     # unnamed runs: the set of runs chosen, named


#: A result filter: does the chart want this point?
Want = Callable[[Result], bool]


def _is_point(r: Result) -> bool:
    return r.scenario == "primitive" and r.metric == "ns_per_op" and bool(r.size) \
        and r.median > 0


def _ids(runs: Iterable[Run]) -> str:
    ids = sorted({r.id for r in runs})
    return f"run{'s' if len(ids) > 1 else ''} " + ", ".join(map(str, ids))


def gather(runs: list[tuple[Run, list[Result]]], want: Want, named: bool = False,
           hw: str = "on") -> Evidence | None:
    """Coherent series of the results ``want`` picks from ``runs`` (oldest first); None when
    no run holds any. ``hw``: ``on`` draws settings with every CPU feature on (``any`` with
    ``named``: whatever the runs were), ``pair``: the newest hardware-off setting of each
    library beside its hardware-on one. Raises ``MixedMachines`` when ``named`` runs come from
    several machines."""
    left: list[str] = []
    usable: list[tuple[Run, list[Result]]] = []
    for run, results in runs:
        if run.status not in DRAWABLE and not named:
            continue
        picked = [r for r in results if _is_point(r) and r.lib != "ref" and want(r)]
        if picked:
            usable.append((run, picked))
    if not usable:
        return None
    machines = {Machine.of(run) for run, _ in usable}
    if named and len(machines) > 1:
        raise MixedMachines("the runs come from " + "; ".join(
            f"{_ids(r for r, _ in usable if Machine.of(r) == m)} from {m.text()}"
            for m in sorted(machines, key=lambda m: m.text())) + ": a chart shows one machine")
    if named:
        return _series_of(usable, named, hw, left, Machine.of(usable[-1][0]))
    # Every set of runs that belong together (one machine, one session), newest first: the
    # first that draws anything is the chart's.
    by_machine: dict[Machine, list[tuple[Run, list[Result]]]] = {}
    for item in usable:
        by_machine.setdefault(Machine.of(item[0]), []).append(item)
    candidates = sorted((s for runs_of in by_machine.values() for s in sessions(runs_of)),
                        key=lambda s: -s[-1][0].id)
    for chosen in candidates:
        ev = _series_of(chosen, named, hw, list(left), Machine.of(chosen[0][0]))
        if ev.series:
            break
    else:
        return None
    ev.session = session_text([run for run, _ in chosen])
    ids = {run.id for run, _ in chosen}
    other = [run for run, _ in usable if Machine.of(run) != ev.machine]
    later = [run for run, _ in usable if run.id not in ids and Machine.of(run) == ev.machine]
    if later:
        ev.left_out.insert(0, f"{_ids(later)}: another session on this machine (other times "
                              "or loads); name the runs to draw them")
    if other:
        ev.left_out.insert(0, f"{_ids(other)}: measured on another machine (name the runs of "
                              "one machine to draw them)")
    return ev


def _series_of(usable: list[tuple[Run, list[Result]]], named: bool, hw: str, left: list[str],
               machine: Machine) -> Evidence:
    # Every setting found, with the runs that measured it (newest last).
    found: dict[Setting, list[tuple[Run, list[Result]]]] = {}
    for run, rs in usable:
        for lib in dict.fromkeys(r.lib for r in rs):
            found.setdefault(setting_of(run, lib), []).append(
                (run, [r for r in rs if r.lib == lib]))

    chosen = _choose(found, named, hw, left)
    series = []
    for setting in chosen:
        s = Series(setting)
        for run, rs in found[setting]:          # oldest first: newer cells overwrite
            for r in rs:
                s.cells[(r.algo, r.op)] = r
        s.runs = sorted({r.run_id for r in s.cells.values() if r.run_id is not None}
                        or {run.id for run, _ in found[setting]})
        series.append(s)
    used = sorted({i for s in series for i in s.runs})
    return Evidence(machine, series, [run for run, _ in usable if run.id in used], left)


def _time(text: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def _load(run: Run) -> float | None:
    x = run.metadata.get("loadavg")
    return float(x) if isinstance(x, (int, float)) else None


def sessions(runs: list[tuple[Run, list[Result]]]) -> list[list[tuple[Run, list[Result]]]]:
    """The runs (one machine, oldest first) cut into sessions: a run joins the session of
    the run before it when it started at most ``SESSION_GAP_S`` after that run ended (or
    started) and every load average of the session, plus one, stays within ``LOAD_RATIO``
    of each other. A run without a time or a load does not cut."""
    out: list[list[tuple[Run, list[Result]]]] = []
    for item in runs:
        run = item[0]
        if out:
            prev = out[-1][-1][0]
            end = _time(prev.finished_at) or _time(prev.started_at)
            start = _time(run.started_at)
            near = (end is None or start is None
                    or (start - end).total_seconds() <= SESSION_GAP_S)
            loads = [x for x in (_load(r) for r, _ in out[-1]) if x is not None]
            mine = _load(run)
            similar = (mine is None or not loads or
                       (max(loads + [mine]) + 1) / (min(loads + [mine]) + 1) <= LOAD_RATIO)
            if near and similar:
                out[-1].append(item)
                continue
        out.append([item])
    return out


def session_text(runs: list[Run]) -> str:
    """``runs 4-7, one session: 2026-11-27 17:05 to 17:40 UTC, load average 0.4-1.2``."""
    ids = sorted(r.id for r in runs)
    span = (f"{ids[0]}-{ids[-1]}" if len(ids) > 2 and ids == list(range(ids[0], ids[-1] + 1))
            else ", ".join(map(str, ids)))
    times = sorted(r.started_at[:16].replace("T", " ") for r in runs if r.started_at)
    when = ""
    if times:
        when = times[0] + (f" to {times[-1][11:] if times[-1][:10] == times[0][:10] else times[-1]}"
                           if times[-1] != times[0] else "")
    loads = [x for x in (_load(r) for r in runs) if x is not None]
    load = ""
    if loads:
        lo, hi = f"{min(loads):.1f}", f"{max(loads):.1f}"
        load = f", load average {lo if lo == hi else lo + '-' + hi}"
    return (f"run{'s' if len(ids) > 1 else ''} {span}, one session"
            + (f": {when}" if when else "") + load)


def _choose(found: dict[Setting, list[tuple[Run, list[Result]]]], named: bool, hw: str,
            left: list[str]) -> list[Setting]:
    """The settings to draw, by library, version and hardware state: the hardware states the
    chart shows, then (unless runs are named) each library's newest setting, then (``pair``)
    the libraries measured in both states."""
    newest = {s: max(run.id for run, _ in runs) for s, runs in found.items()}
    found = _hw_states(found, named, hw, newest, left)
    keep = list(found) if named else _newest_per_library(found, newest, left)
    if hw == "pair":
        keep = _in_both_states(keep, left)
    return sorted(keep, key=lambda s: (lib_sort_key(s.lib), version_key(s.version),
                                       s.hw_off))


def _hw_states(found: dict[Setting, list[tuple[Run, list[Result]]]], named: bool, hw: str,
               newest: dict[Setting, int], left: list[str]
               ) -> dict[Setting, list[tuple[Run, list[Result]]]]:
    """The settings of the hardware states drawn: for ``pair`` the features on and one set
    switched off (the newest run's); for ``on`` (or unnamed runs) the features on only."""
    if hw == "pair":
        offs = [s for s in found if s.hw_off]
        if not offs:
            return {}
        off_set = max(offs, key=lambda s: newest[s]).hw_off
        other_off = sorted({s.hw_off for s in offs if s.hw_off != off_set})
        if other_off:
            left.append("runs with other features off (" + "; ".join(", ".join(o) for o in
                        other_off) + "): this chart shows " + ", ".join(off_set) + " off")
        return {s: v for s, v in found.items() if s.hw_off in ((), off_set)}
    if hw == "on" or not named:
        switched = [s for s in found if s.hw_off]
        if switched:
            runs = [run for s in switched for run, _ in found[s]]
            left.append(f"{_ids(runs)}: measured with CPU features off (draw them with "
                        "--chart aes-hw)")
        return {s: v for s, v in found.items() if not s.hw_off}
    return found


def _newest_per_library(found: dict[Setting, list[tuple[Run, list[Result]]]],
                        newest: dict[Setting, int], left: list[str]) -> list[Setting]:
    """The newest setting of each library (per hardware state); older ones are named."""
    by_lib: dict[tuple[str, tuple[str, ...]], Setting] = {}
    for s in found:
        k = (s.lib, s.hw_off)
        if k not in by_lib or newest[s] > newest[by_lib[k]]:
            by_lib[k] = s
    keep = [s for s in found if by_lib[(s.lib, s.hw_off)] == s]
    for s in found:
        if s not in keep:
            runs = [run for run, _ in found[s]]
            left.append(f"{s.label()} ({_ids(runs)}): an older setting of {s.lib}; "
                        "name the runs to draw it beside the newer one")
    return keep


def _in_both_states(keep: list[Setting], left: list[str]) -> list[Setting]:
    """A library is drawn only with both states, measured with the same version and build."""
    def build(s: Setting) -> tuple:
        return (s.lib, s.version, s.core, s.threads)
    on = {build(s) for s in keep if not s.hw_off}
    off = {build(s) for s in keep if s.hw_off}
    lone = [s for s in keep if build(s) not in on & off]
    for state in ("off", "on"):
        names = [s.label(False) for s in lone if bool(s.hw_off) == (state == "on")]
        if names:
            left.append(f"{', '.join(names)}: not measured with the features {state}"
                        + (" (a library without a switch of its own is not measured by "
                           "--no-hw)" if state == "off" else ""))
    return [s for s in keep if s not in lone]


def version_key(version: str) -> tuple:
    """Natural order of version strings: 1.9 before 1.10."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.findall(r"\d+|[A-Za-z]+", version))
