# SPDX-License-Identifier: GPL-3.0-or-later
"""Evidence: the latest stored results relevant to a target, and quick measurements of what is
missing.

Rates are bytes per second. Where the real path (ssh, tls, gpg) was measured it is used;
otherwise the same cipher's primitive rate stands in, and the output says so. Runs whose
metadata records switched-off hardware (``hw_disabled``, written by ``--no-hw`` runs: a list
of features such as ``["aes", "pclmul"]``, ``"all"`` or ``true``; a dict per library is read
the same way) describe another machine: they are used only for ``--assume-no-aes`` and never
otherwise. Runs measured on another host (``run --host``: metadata ``host``) describe that
host: with ``--host`` the newest of them gives the ssh ranking its primitives (the far end's
CPU); they never stand for this machine.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cipherbench.analysis.delivered import CORE_SHARE_KEY, delivered
from cipherbench.advise.candidates import Candidate, suite_by_name
from cipherbench.machine import coherence as coh
from cipherbench.scenarios.ssh import tables
from cipherbench.scenarios.ssh.sweep import BASELINE as BASELINE_ALGO
from cipherbench.store import Result, Run, Store
from cipherbench.units import rate

#: Message size whose primitive rate stands for bulk transfers (a TLS record).
PREFERRED_SIZE = 16384
#: The metadata key of runs measured with hardware acceleration switched off.
HW_DISABLED_KEY = "hw_disabled"
#: The metadata key of runs measured on another host (``run --host``).
HOST_KEY = "host"


def same_host(a: str, b: str) -> bool:
    """``me@nas`` and ``nas`` name the same host."""
    return a.rpartition("@")[2] == b.rpartition("@")[2]


@dataclass(frozen=True)
class Rate:
    """A measured (or estimated) rate and where it came from."""

    bps: float
    source: str                 # ssh, tls, gpg, primitive, estimate
    run_ids: tuple[int, ...]
    detail: str
    stand_in: bool = False      # a primitive standing in for the real path
    estimated: bool = False
    rel_ci: float | None = None  # half-width of the 95% CI of the median / the median
    #: the evidence layer it came from (``advise.families.Layer.key``) and that layer's
    #: place in the target's order of authority (0: the highest)
    layer: str = ""
    authority: int = 0

    def overlaps(self, other: Rate) -> bool:
        """True when the two rates cannot be told apart: their 95% intervals overlap (without
        intervals, when they are within 3% of each other)."""
        if self.rel_ci is None or other.rel_ci is None:
            return abs(self.bps / other.bps - 1) < 0.03 if other.bps else False
        return (self.bps * (1 - self.rel_ci) <= other.bps * (1 + other.rel_ci) and
                other.bps * (1 - other.rel_ci) <= self.bps * (1 + self.rel_ci))


def rel_ci(r: Result) -> float | None:
    """Relative half-width of a stored result's confidence interval (any metric)."""
    if r.ci_low is None or r.ci_high is None or not r.median:
        return None
    return abs(r.ci_high - r.ci_low) / (2 * abs(r.median))


def disables_aes(value) -> bool:
    """True if a ``hw_disabled`` metadata value covers the AES instructions."""
    if value is True:
        return True
    if isinstance(value, str):
        return value.lower() in ("all", "aes", "true") or "aes" in value.lower().split(",")
    if isinstance(value, (list, tuple)):
        return any(disables_aes(v) for v in value)
    if isinstance(value, Mapping):
        return bool(value) and all(disables_aes(v) for v in value.values())
    return False


@dataclass
class Primitive:
    """The newest primitive point of a (lib, algo, op)."""

    result: Result
    run: Run

    @property
    def per_cpu_bps(self) -> float:
        """Bytes per second at this point, per CPU second (the core's figure)."""
        return rate(self.result.size or 0, self.result.median) or 0.0   # sizeless: no rate

    @property
    def bps(self) -> float:
        """Bytes per second the machine delivers at this point: on a host that gave the core
        only part of a CPU (``core_cpu_share`` of a run measured there), that part of the rate
        per CPU second. This machine's own runs keep theirs: their share is mostly other work's
        (a busy machine), not what the machine can give."""
        m = self.run.metadata
        return delivered(self.per_cpu_bps, m.get(CORE_SHARE_KEY) if m.get(HOST_KEY) else None)


@dataclass(frozen=True)
class LeftOut:
    """A stored run the evidence does not use, and why (one line)."""

    run_id: int
    command: str
    reason: str

    def text(self) -> str:
        return f"run {self.run_id} ({self.reason})"


@dataclass
class SshLayer:
    """The ssh rows of one run through one tool (``via``): the newest complete run that moved
    bytes through that tool (an interrupted one only when no complete run did), its
    ``bytes_per_s`` rows by algo (the baseline too), and the ssh scenario's own rows of its
    rounds (empty for a run stored before the rounds); ``passed_over``: the newer runs of
    this kind not used, each with why."""

    via: str
    run: Run
    rows: dict[str, Result]
    rounds: dict[str, tables.Row]
    passed_over: list[LeftOut] = field(default_factory=list)


@dataclass
class TlsLayer:
    """One library's TLS record layer from one tls run (the newest complete one that measured
    it): the ``tls`` scenario's own rows by IANA name (rates per write size, verdicts against
    the library's default suite), the write size the advice reads, the default suite the run
    measured beside the others, and the newer runs not used."""

    lib: str
    run: Run
    rows: Mapping[str, Any]          # IANA name -> scenarios.tls.tables.SuiteRow
    size: int | None
    default_suite: str | None = None
    passed_over: list[LeftOut] = field(default_factory=list)


@dataclass
class Evidence:
    """What the store holds for the advisor: one machine's coherent runs (``coherence``), by
    layer (``advise.families`` orders them by authority). Within a layer the newest complete
    run decides; the newer runs it passed over are kept with the reason."""

    primitive: dict[tuple[str, str, str], Primitive] = field(default_factory=dict)
    #: one layer per tool ssh's runs moved bytes through (newest run first)
    ssh_layers: list[SshLayer] = field(default_factory=list)
    ssh_run: Run | None = None
    ssh: dict[str, Result] = field(default_factory=dict)      # algo -> bytes_per_s result
    ssh_via: str | None = None   # the tool the ssh rows went through (None: ssh's own pipe)
    #: the ssh scenario's own rows of that run (``scenarios.ssh.tables.rows``: per-round rates
    #: and paired verdicts), by algo, the baseline included; empty for a run stored before
    #: the rounds (no ``round_s`` rows)
    ssh_rounds: dict[str, tables.Row] = field(default_factory=dict)
    gpg_run: Run | None = None
    gpg_rows: list = field(default_factory=list)               # scenarios.gpg.tables.GpgRow
    gpg_ci: dict[tuple[str, str], float] = field(default_factory=dict)  # (tool, algo) -> rel CI
    gpg_default: str | None = None      # the default cipher the gpg run read from gpg
    gpg_figure: str | None = None       # what its verdicts were judged on (cpu_s, wall_s)
    gpg_passed_over: list[LeftOut] = field(default_factory=list)
    luks_run: Run | None = None                                # the newest dm-crypt run
    luks: dict[str, Result] = field(default_factory=dict)     # SPEC:BITS -> encrypt rate
    tls: dict[tuple[str, str], tuple[Result, Run]] = field(default_factory=dict)
    tls_layers: dict[str, TlsLayer] = field(default_factory=dict)
    no_aes_runs: bool = False    # primitive/tls figures come from hardware-disabled runs
    cpu_flags: list[str] | None = None
    cpu_model: str = ""
    left_out: list[LeftOut] = field(default_factory=list)
    host: str | None = None      # --host, when a primitive run of that host is stored
    host_primitive: dict[tuple[str, str, str], Primitive] = field(default_factory=dict)

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, store: Store, *, assume_no_aes: bool = False, host: str | None = None,
             machine: tuple[str, str, str] | None = None, via: list[str] | None = None,
             only: Collection[int] | None = None) -> Evidence:
        """Gather the newest coherent results of one machine (``machine`` when the store has
        runs of it, else the newest run's): primitive figures from runs of one core build and
        one version per library, the newest complete run deciding which; the TLS record layer
        of each library, ssh through each tool and gpg from one run each, the newest complete
        one (an interrupted run only when no complete one has the layer). With
        ``assume_no_aes``, primitive and tls figures come only from runs that switched AES
        off, when the store has any. With ``host``, the ssh runs against that host and the
        primitives measured on it, nothing of this machine. ``only``: these runs alone
        (``compare RUN...``)."""
        ev = cls()
        runs = [r for r in reversed(store.runs()) if r.command != "advise" and r.n_results
                and r.status in ("complete", "interrupted")
                and (only is None or r.id in only)]
        on_host = [r for r in runs if r.metadata.get(HOST_KEY)]   # another machine's runs
        runs = [r for r in runs if not r.metadata.get(HOST_KEY)]
        if host:
            ev._load_host(store, host, on_host)
        if not runs:
            return ev
        fx = {r.id: coh.facts(r) for r in runs}
        mine = machine if machine is not None and any(
            coh.same_machine(fx[r.id].machine, machine) for r in runs) else fx[runs[0].id].machine
        here = []
        for r in runs:
            if coh.same_machine(fx[r.id].machine, mine):
                here.append(r)
            else:
                ev._leave(r, f"another machine: {fx[r.id].machine_text()}")
        hw_off = [r for r in here if disables_aes(r.metadata.get(HW_DISABLED_KEY))]
        normal = [r for r in here if not r.metadata.get(HW_DISABLED_KEY)]
        if assume_no_aes and any(_has(store, r, ("primitive", "tls")) for r in hw_off):
            ev.no_aes_runs = True
            fast_paths = hw_off
        else:
            fast_paths = normal
        ev._load_ssh(store, [r for r in normal if r.command == "ssh"], host, via)
        first = next(iter(fast_paths), None) or next(iter(here), None)
        if first is not None:
            ev.cpu_flags = first.metadata.get("cpu_flags")
            ev.cpu_model = first.metadata.get("cpu_model", "")
        if host:
            return ev          # nothing else of this machine stands for the host
        core_runs = [r for r in fast_paths if r.command != "tls"
                     and _has(store, r, ("primitive",))]
        for run, libs in ev._coherent_core_runs(core_runs, fx):
            for res in store.results(run.id, "primitive"):
                if libs is None or res.lib in libs:
                    ev._add_primitive(res, run)
        ev._load_tls(store, [r for r in fast_paths if _has(store, r, ("tls",))])
        ev._load_gpg(store, [r for r in normal if r.command == "gpg"])
        ev._load_luks(store, [r for r in normal if r.command == "luks"])
        return ev

    def _coherent_core_runs(self, runs: list[Run], fx: dict[int, coh.Facts]
                            ) -> list[tuple[Run, set[str] | None]]:
        """The runs of the newest complete run's core build and hardware switches (complete
        runs first, each newest first), each with the libraries whose version agrees with the
        one the evidence already holds (None: the run named no library versions)."""
        ordered = complete_first(runs)
        if not ordered:
            return []
        anchor = fx[ordered[0].id]
        versions: dict[str, tuple[str, str | None]] = {}
        out: list[tuple[Run, set[str] | None]] = []
        for run in ordered:
            f = fx[run.id]
            if anchor.core and f.core and f.core != anchor.core:
                self._leave(run, "another core build: " + " ".join(x for x in f.core if x))
                continue
            if f.hw_off != anchor.hw_off:
                self._leave(run, "other hardware switches: off " + (", ".join(f.hw_off)
                                                                    or "none"))
                continue
            libs, clash = set(), []
            caps = dict(f.caps)
            for lib, ver in f.versions:
                # a library is the same when its version agrees and, where both runs stored
                # it, the hardware it used (a run that stored none says nothing about it)
                have = versions.setdefault(lib, (ver, caps.get(lib)))
                if have[0] != ver:
                    clash.append(f"{lib} {ver}, not {have[0]}")
                elif have[1] is not None and caps.get(lib) is not None \
                        and have[1] != caps.get(lib):
                    clash.append(f"{lib} using {caps.get(lib) or 'no'} hardware, not "
                                 f"{have[1] or 'none'}")
                else:
                    libs.add(lib)
                    if have[1] is None and caps.get(lib) is not None:
                        versions[lib] = (ver, caps.get(lib))
            if clash:
                self._leave(run, "; ".join(clash))
            out.append((run, libs if f.versions else None))
        return out

    def _leave(self, run: Run, reason: str) -> None:
        self.left_out.append(LeftOut(run.id, run.command, reason))

    def _load_ssh(self, store: Store, runs: list[Run], host: str | None,
                  via: list[str] | None) -> None:
        """One layer per tool the ssh runs (against ``host``, else the private server) moved
        bytes through: the tools of ``via`` first in its order, then ssh's own pipe, then the
        others; each from the newest complete run that measured it."""
        by_tool: dict[str, list[tuple[Run, dict[str, Result]]]] = {}
        for run in runs:
            run_host = str(run.args.get("host") or "")
            if (host is None and not run_host.startswith("127.0.0.1")) or \
                    (host is not None and not same_host(run_host, host)):
                continue
            heads = [r for r in store.results(run.id, "ssh") if r.metric == "bytes_per_s"]
            for tool in dict.fromkeys(row_via(r) for r in heads if r.algo != BASELINE_ALGO):
                by_tool.setdefault(tool, []).append(
                    (run, {r.algo: r for r in heads
                           if r.algo == BASELINE_ALGO or row_via(r) == tool}))
        order = list(dict.fromkeys(list(via or []) + ["pipe"] + list(by_tool)))
        for tool in order:
            got = by_tool.get(tool)
            if not got:
                continue
            chosen, passed = newest_complete([r for r, _ in got])
            others = [r for r in runs if r.id > chosen.id and all(r.id != x.id for x, _ in got)
                      and (host is None or same_host(str(r.args.get("host") or ""), host))]
            passed += [LeftOut(r.id, r.command, f"did not move bytes through {tool}")
                       for r in others]
            rows = next(x for r, x in got if r.id == chosen.id)
            self.ssh_layers.append(SshLayer(
                tool, chosen, rows, round_rows(store.results(chosen.id, "ssh"), tool),
                sorted(passed, key=lambda x: -x.run_id)))
        if self.ssh_layers:
            top = self.ssh_layers[0]
            self.ssh_run, self.ssh, self.ssh_via = top.run, top.rows, top.via
            self.ssh_rounds = top.rounds

    def _load_gpg(self, store: Store, runs: list[Run]) -> None:
        from cipherbench.scenarios.gpg.tables import figure_kind, rows_from_results
        got = {}
        for run in runs:
            results = store.results(run.id, "gpg")
            rows = [row for row in rows_from_results(results) if row.per_byte_s]
            if rows:
                got[run.id] = (rows, {(r.lib, r.algo): c for r in results
                                      if r.op == "encrypt" and r.size and
                                      r.metric == "bytes_per_s" and (c := rel_ci(r)) is not None},
                               next((r.extra.get("default_cipher") for r in results
                                     if r.extra.get("default_cipher")), None),
                               figure_kind(results))
        if not got:
            return
        run, self.gpg_passed_over = newest_complete([r for r in runs if r.id in got])
        self.gpg_run = run
        self.gpg_rows, self.gpg_ci, self.gpg_default, self.gpg_figure = got[run.id]

    def _load_tls(self, store: Store, runs: list[Run]) -> None:
        """Per library, the record layer of the newest complete tls run that measured it."""
        from cipherbench.scenarios.tls import tables as tls_tables
        per_lib: dict[str, list[tuple[Run, list[Result]]]] = {}
        for run in runs:
            results = store.results(run.id, "tls")
            for lib in dict.fromkeys(r.lib for r in results if r.op == "transfer"
                                     and r.lib != tls_tables.LOOPBACK_LIB):
                per_lib.setdefault(lib, []).append((run, results))
        for lib, got in per_lib.items():
            chosen, passed = newest_complete([r for r, _ in got])
            results = next(x for r, x in got if r.id == chosen.id)
            rows = {row.iana: row for row in tls_tables.suite_rows(results).get(lib, [])}
            sizes = tls_tables.sizes_of([r for r in results if r.lib == lib])
            size = PREFERRED_SIZE if PREFERRED_SIZE in sizes else (sizes[-1] if sizes else None)
            default = next((r.extra.get("default_suite") for r in results
                            if r.lib == lib and r.extra.get("default_suite")), None)
            self.tls_layers[lib] = TlsLayer(lib, chosen, rows, size, default, passed)
            for r in results:
                if r.lib == lib:
                    self._add_tls(r, chosen)

    def _load_luks(self, store: Store, runs: list[Run]) -> None:
        """The newest complete dm-crypt run's encryption rates (``advise --kernel``)."""
        for run in complete_first(runs):
            if run.status != "complete":
                continue
            got = {r.algo: r for r in store.results(run.id, "luks")
                   if r.metric == "bytes_per_s" and r.op == "encrypt"}
            if got:
                self.luks_run, self.luks = run, got
                return


    def _load_host(self, store: Store, host: str, runs: list[Run]) -> None:
        """The primitives of the newest run measured on ``host`` (with its hardware on)."""
        for run in runs:
            if same_host(str(run.metadata.get(HOST_KEY)), host) and run.command == "run" \
                    and not run.metadata.get(HW_DISABLED_KEY):
                for r in store.results(run.id, "primitive"):
                    self._add_primitive(r, run, self.host_primitive)
                if self.host_primitive:
                    self.host = host
                    return

    def host_cpu_share(self) -> float | None:
        """The share of a CPU the host gave the core in the run its primitives come from."""
        runs = {p.run.id: p.run for p in self.host_primitive.values()}
        shares = [r.metadata.get(CORE_SHARE_KEY) for r in runs.values()]
        return next((s for s in shares if isinstance(s, (int, float))), None)

    def on_host(self) -> Evidence:
        """The evidence of the host's primitives alone (for the ssh ranking)."""
        return Evidence(primitive=self.host_primitive)

    def _add_primitive(self, r: Result, run: Run,
                       into: dict[tuple[str, str, str], Primitive] | None = None) -> None:
        if r.metric != "ns_per_op" or not r.size or r.median <= 0:
            return
        into = self.primitive if into is None else into
        key = (r.lib, r.algo, r.op)
        have = into.get(key)
        if have is None or _better_size(r.size, have.result.size) and have.run.id == run.id:
            into[key] = Primitive(r, run)

    def _add_tls(self, r: Result, run: Run) -> None:
        if r.op != "transfer":  # handshakes, and loopback transfers through the kernel
            return
        suite = suite_by_name(str(r.extra.get("iana") or r.extra.get("suite") or r.algo))
        bps = tls_bps(r)
        if suite is None or bps is None:
            return
        key = (r.lib, suite.iana)
        have = self.tls.get(key)
        if have is None or (have[1].id == run.id and _better_size(r.size, have[0].size)):
            self.tls[key] = (r, run)

    # -- rates -------------------------------------------------------------------------------
    def primitive_bps(self, algo: str, libs: Iterable[str], op: str = "encrypt"
                      ) -> tuple[float, Primitive] | None:
        """The rate of an algorithm in the first of ``libs`` that has it."""
        for lib in libs:
            p = self.primitive.get((lib, algo, op))
            if p is not None:
                return p.bps, p
        return None

    def libs_with(self, algo: str, op: str = "encrypt") -> list[str]:
        """Libraries with a stored point of this algorithm."""
        return [lib for (lib, a, o) in self.primitive if a == algo and o == op]


def newest_complete(runs: list[Run]) -> tuple[Run, list[LeftOut]]:
    """Within one layer: the newest complete run (``runs`` newest first; the newest
    interrupted one when none is complete), and the newer runs passed over, with why."""
    ordered = complete_first(runs)
    chosen = ordered[0]
    passed = [LeftOut(r.id, r.command, f"{r.status}; run {chosen.id} is complete")
              for r in runs if r.id > chosen.id]
    return chosen, passed


def complete_first(runs: list[Run]) -> list[Run]:
    """Complete runs newest first, then the interrupted ones newest first (``runs`` newest
    first)."""
    return [r for r in runs if r.status == "complete"] + \
        [r for r in runs if r.status != "complete"]


def row_via(r: Result) -> str:
    """The tool an ssh row's bytes went through: its ``op`` (``pipe``, ``scp``, ``sftp``,
    ``rsync``; the ssh scenario stores the tool there); rows stored before the tools (op
    ``transfer``) went through ssh's own pipe."""
    from cipherbench.scenarios.ssh.via import VIAS
    return r.op if r.op in VIAS else "pipe"


def round_rows(results: list[Result], via: str | None) -> dict[str, tables.Row]:
    """The rows ``cipherbench ssh`` draws from its stored rounds (``round_s``), through
    ``via`` and the baseline, by algo; empty for a run stored before the rounds."""
    return {row.algo: row for row in tables.rows(results)
            if row.rates and (row.is_baseline or row.via == (via or "pipe"))}


def _has(store: Store, run: Run, scenarios: tuple[str, ...]) -> bool:
    return any(store.results(run.id, s) for s in scenarios)


def _better_size(new: int | None, old: int | None) -> bool:
    """Prefer the TLS-record size, then the largest."""
    if old == PREFERRED_SIZE:
        return False
    if new == PREFERRED_SIZE:
        return True
    return (new or 0) > (old or 0)


def tls_bps(r: Result) -> float | None:
    """Bytes per second of a stored tls transfer result, whatever its metric."""
    if r.metric in ("bytes_per_s", "throughput") and r.median > 0:
        return r.median
    if r.metric == "ns_per_op" and r.size and r.median > 0:
        return rate(r.size, r.median)
    v = r.extra.get("bytes_per_s")
    return float(v) if isinstance(v, (int, float)) and v > 0 else None


# -- measuring what is missing -----------------------------------------------------------------
#: Primitives the TLS stand-in, LUKS and the SSH fallback need.
TLS_ALGOS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ccm", "aes-128-cbc",
             "aes-256-cbc", "camellia-128-cbc", "3des-cbc", "rc4", "hmac-sha1", "hmac-sha256",
             "hmac-sha512", "hmac-md5")
LUKS_ALGOS = ("aes-128-xts", "aes-256-xts", "aes-128-cbc", "aes-256-cbc", "camellia-256-cbc",
              "twofish-256-cbc", "serpent-256-cbc")
SSH_ALGOS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-ctr", "aes-192-ctr",
             "aes-256-ctr", "aes-128-cbc", "aes-256-cbc", "3des-cbc", "blowfish-cbc",
             "cast5-cbc", "rc4", "hmac-sha256", "hmac-sha512", "hmac-sha1", "umac-64",
             "umac-128", "hmac-md5")
def candidate_rate_key(c: Candidate) -> str:
    """Stable key of a candidate within its family (for JSON and the store)."""
    return f"{c.family}:{c.key}"
