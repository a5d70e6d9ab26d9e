# SPDX-License-Identifier: GPL-3.0-or-later
"""Machines side by side: per machine the advice for one target from that machine's own stored
evidence (the same engine and verdict records as ``advise``), and the fleet's summary: the
machines grouped by their answer, each group with the config lines its machines share.

Pure apart from the store it reads: records in, records out; ``fleet_wording`` and the
commands print them.

A machine is a ``run --host`` destination (its runs carry ``host``; read as ``advise --host``
reads them: the primitives measured on it, and for ssh the ssh runs against it) or the machine the store's local runs come
from. A machine without evidence gets the verdict "not measured", never another machine's
figures.
"""
from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from cipherbench.advise import verdicts as A
from cipherbench.advise.configs.base import ConfigLine
from cipherbench.advise.engine import Advice, Options, advise
from cipherbench.advise.evidence import HOST_KEY, Evidence, same_host
from cipherbench.advise.targets import Target
from cipherbench.advise.validate import Validator
from cipherbench.machine.coherence import MachineIdentity, facts, machine_identity
from cipherbench.store import Run, Store

#: How many candidates the machine table shows beside the answer (the fastest allowed ones
#: across the machines, and each machine's default).
TABLE_CANDIDATES = 3


@dataclass(frozen=True)
class Machine:
    """One machine of the fleet: ``name`` as people named it (the ``--host`` name, or the local
    runs' host name); ``host``: the ``run --host`` destination (None: the machine of the local
    runs, ``local`` its facts as ``coherence.facts(run).machine``); ``runs``: only these runs
    (``compare RUN...``; None: every stored run)."""

    name: str
    host: str | None = None
    local: tuple[str, str, str] | None = None
    runs: frozenset[int] | None = None


@dataclass(frozen=True)
class MachineAnswer:
    """The advice for one target on one machine."""

    machine: Machine
    advice: Advice

    @property
    def verdict(self) -> A.AnswerVerdict:
        return self.advice.verdict


@dataclass(frozen=True)
class Group:
    """Machines whose answers agree: the same verdict state, choice and config lines (the
    machine's own name in them set apart)."""

    state: str
    against_default: str | None
    choice: str | None
    machines: tuple[str, ...]
    #: the shared lines, with ``HOST_SLOT`` where each machine names itself
    lines: tuple[str, ...]
    verdict: A.AnswerVerdict


@dataclass(frozen=True)
class FleetSummary:
    """The fleet's answer: every machine counted once, in groups, the largest first."""

    target: str
    n: int
    groups: tuple[Group, ...]


#: Where a machine's own name stood in its config lines.
HOST_SLOT = "{host}"


def evidence_of(store: Store, m: Machine, assume_no_aes: bool = False,
                via: list[str] | None = None) -> Evidence:
    """The machine's own evidence: for a host, what ``advise --host`` reads (the primitives
    measured on it, the ssh runs against it); else the local runs' machine."""
    if m.host is None:
        return Evidence.load(store, assume_no_aes=assume_no_aes, machine=m.local, via=via,
                             only=m.runs)
    return Evidence.load(store, assume_no_aes=assume_no_aes, host=m.host, via=via,
                         only=m.runs)


def answer_machines(store: Store, machines: Sequence[Machine], target: Target, opts: Options,
                    env: Mapping[str, str], validator: Validator) -> list[MachineAnswer]:
    """Each machine's advice for ``target``, in the order given."""
    out = []
    for m in machines:
        ev = evidence_of(store, m, opts.assume_no_aes, opts.via)
        out.append(MachineAnswer(m, advise(target, ev, replace(opts, host=m.host), env,
                                           validator)))
    return out


def _short(host: str) -> str:
    return host.rpartition("@")[2]


def shared_lines(a: MachineAnswer) -> tuple[str, ...]:
    """The machine's config lines with its own name set apart (``HOST_SLOT``), so machines
    with the same answer share them."""
    names = [n for n in dict.fromkeys((a.machine.host or "", _short(a.machine.host or ""))) if n]
    out = []
    for ln in a.advice.lines:
        text = ln.text
        for n in names:
            text = re.sub(rf"(?<![\w.@-]){re.escape(n)}(?![\w.-])", HOST_SLOT, text)
        out.append(text)
    return tuple(out)


def _key(v: A.AnswerVerdict) -> tuple[str, str | None, str | None]:
    return v.state, v.against_default if v.state == A.USE else None, v.choice


def summarize(answers: Sequence[MachineAnswer]) -> FleetSummary:
    """The machines grouped by answer: keeping the default, each choice faster than the
    default, the others (default unknown, not allowed, not measured beside it), nothing
    allowed, not measured; within each, machines whose config lines differ apart."""
    groups: dict[tuple, list[MachineAnswer]] = {}
    for a in answers:
        groups.setdefault(_key(a.verdict) + (shared_lines(a),), []).append(a)
    order = {A.KEEP_DEFAULT: 0, A.USE: 1, A.NONE_ALLOWED: 2, A.NOT_MEASURED: 3}
    made = [Group(k[0], k[1], k[2], tuple(x.machine.name for x in members), k[3],
                  members[0].verdict) for k, members in groups.items()]
    made.sort(key=lambda g: (order.get(g.state, 9), -len(g.machines), g.choice or ""))
    target = answers[0].advice.target.name if answers else ""
    return FleetSummary(target, len(answers), tuple(made))


def fill(lines: Collection[str], machines: Sequence[str], hosts: Mapping[str, str | None]
         ) -> list[str]:
    """A group's lines for all its machines: an ssh ``Host`` line and comments name every
    machine of the group (ssh takes several patterns), a one-off command line ``HOST``."""
    names = " ".join(_short(hosts.get(m) or m) for m in machines)
    out = []
    for text in lines:
        head = text.lstrip()
        every = head.startswith(("Host ", "#"))
        out.append(text.replace(HOST_SLOT, names if every else "HOST"))
    return out


def config_of(answers: Sequence[MachineAnswer], group: Group) -> list[ConfigLine]:
    """The config lines of the group's first machine, as checked for it (their status)."""
    first = next(a for a in answers if a.machine.name == group.machines[0])
    return first.advice.lines


@dataclass(frozen=True)
class TableRow:
    """One machine's row: its rate of each column's candidate (None: not measured there),
    what to use and how it stands against that machine's default (``wording``), and the runs
    that decided."""

    machine: str
    rates: tuple[float | None, ...]
    use: str
    against_default: str
    runs: tuple[int, ...]


@dataclass(frozen=True)
class MachineTable:
    """Machines by candidates: ``columns`` are candidate labels (every machine's choice, then
    the fastest other allowed ones, at least ``TABLE_CANDIDATES``)."""

    target: str
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]


def machine_table(answers: Sequence[MachineAnswer]) -> MachineTable:
    """The machine x candidate table of the answers (one target)."""
    from cipherbench.advise import wording as W
    best: dict[str, float] = {}
    for a in answers:
        for r in a.advice.rows:
            if r.allowed and r.rate is not None:
                best[r.cand.label] = max(best.get(r.cand.label, 0.0), r.rate.bps)
    chosen = [a.verdict.choice for a in answers if a.verdict.recommends and a.verdict.choice]
    columns = list(dict.fromkeys(chosen))
    for label in sorted(best, key=lambda k: -best[k]):
        if len(columns) >= TABLE_CANDIDATES:
            break
        if label not in columns:
            columns.append(label)
    rows = []
    for a in answers:
        by_label = {r.cand.label: r.rate.bps for r in a.advice.rows if r.rate is not None}
        v = a.verdict
        use = v.choice if v.recommends and v.choice else v.state
        rows.append(TableRow(a.machine.name, tuple(by_label.get(c) for c in columns), use,
                             W.against_default_cell(v), tuple(a.advice.evidence_runs)))
    target = answers[0].advice.target.name if answers else ""
    return MachineTable(target, tuple(columns), tuple(rows))


def machines_of_runs(runs: Sequence[Run]) -> list[Machine]:
    """The machines the runs come from, in the order of their first run, each with its runs
    (a ``run --host`` run is the host's, never this machine's: ``coherence``)."""
    groups: dict[MachineIdentity, list[Run]] = {}
    for run in runs:
        ident = machine_identity(run)
        key = next((k for k in groups if k == ident), ident)
        groups.setdefault(key, []).append(run)
    out = []
    for members in groups.values():
        first = members[0]
        ids = frozenset(r.id for r in members)
        host = first.metadata.get(HOST_KEY)
        if host:
            out.append(Machine(_short(str(host)), str(host), runs=ids))
        else:
            out.append(Machine(str(first.metadata.get("hostname") or f"run {first.id}"),
                               local=facts(first).machine, runs=ids))
    return _unique_names(out)


def machines_of_hosts(runs: Sequence[Run], names: Sequence[str]) -> list[Machine]:
    """The machines named: a ``run --host`` destination (its stored runs, or none: then
    "not measured"), or the host name of the local runs."""
    out = []
    for name in dict.fromkeys(names):
        if any(same_host(str(r.metadata.get(HOST_KEY) or ""), name) for r in runs
               if r.metadata.get(HOST_KEY)):
            out.append(Machine(_short(name), name))
            continue
        local = next((r for r in reversed(runs) if not r.metadata.get(HOST_KEY)
                      and str(r.metadata.get("hostname") or "") == name), None)
        out.append(Machine(name, local=facts(local).machine) if local is not None
                   else Machine(_short(name), name))
    return _unique_names(out)


def _unique_names(machines: list[Machine]) -> list[Machine]:
    """Machines that share a name are told apart by their number (``vm``, ``vm #2``)."""
    seen: dict[str, int] = {}
    out = []
    for m in machines:
        seen[m.name] = seen.get(m.name, 0) + 1
        out.append(m if seen[m.name] == 1 else replace(m, name=f"{m.name} #{seen[m.name]}"))
    return out


def sentence(summary: FleetSummary) -> str:
    """The fleet's answer in one sentence (``wording.fleet_sentence``): groups of the same
    verdict counted together, whatever their config lines."""
    from cipherbench.advise import wording as W
    merged: dict[tuple, tuple[A.AnswerVerdict, tuple[str, ...]]] = {}
    for g in summary.groups:
        key = _key(g.verdict)
        v, names = merged.get(key, (g.verdict, ()))
        merged[key] = (v, names + g.machines)
    return W.fleet_sentence(summary.target, summary.n, list(merged.values()))


def newest_run(runs: Sequence[Run], m: Machine) -> Run | None:
    """The machine's newest stored run that holds results (an advise run is no machine's
    measurement), or None."""
    for run in reversed(runs):
        if run.command == "advise" or not run.n_results:
            continue
        host = run.metadata.get(HOST_KEY)
        if m.host is not None and host and same_host(str(host), m.host):
            return run
        if m.host is None and not host and facts(run).machine == m.local:
            return run
    return None


def merge(of_runs: Sequence[Machine], named: Sequence[Machine]) -> list[Machine]:
    """The machines of the runs named, then those named by ``--host`` that are not among
    them."""
    def same(a: Machine, b: Machine) -> bool:
        if a.host is not None and b.host is not None:
            return same_host(a.host, b.host)
        return a.host is None and b.host is None and a.local == b.local
    return _unique_names(list(of_runs) + [m for m in named
                                          if not any(same(m, x) for x in of_runs)])


def stored_hosts(runs: Sequence[Run], names: Sequence[str]) -> list[str]:
    """``names`` with each pattern (``web*``) replaced by the stored hosts it matches (the
    ``run --host`` destinations and the local runs' host names, in the order first stored);
    ``LookupError`` naming a pattern that matches none."""
    import fnmatch
    known = list(dict.fromkeys(
        str(r.metadata.get(HOST_KEY) or r.metadata.get("hostname") or "") for r in runs
        if r.command != "advise"))
    out: list[str] = []
    for name in names:
        if not any(c in name for c in "*?["):
            found = [name]
        else:
            found = [h for h in known if h and (fnmatch.fnmatchcase(h, name) or
                                                fnmatch.fnmatchcase(_short(h), name))]
            if not found:
                raise LookupError(f"--host {name!r} matches no host of a stored run (see "
                                  "`cipherbench history`)")
        out += [h for h in found if h not in out]
    return out
