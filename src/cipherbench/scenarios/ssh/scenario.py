# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench ssh`` as a scenario: real OpenSSH transfers per cipher and MAC, through each
tool asked for (``--via``: the ssh pipe, sftp, scp, rsync), against a private sshd on
127.0.0.1 (or a real host), beside a cleartext TCP baseline, in randomized interleaved rounds
with paired verdicts; estimate, measure inside a ``Recording``, draw a stored run.

``advise`` builds its plan with ``make_plan(...)`` (the same defaults as the command, ``via``
among them) and judges the bottleneck with ``scenarios.ssh.bottleneck``
(``tables.bottleneck(tables.rows(results))`` from a stored run).
"""
from __future__ import annotations

import hashlib
import random
import shutil
import subprocess
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Sequence

from rich.text import Text

from cipherbench import run_warnings
from cipherbench.analysis.estimate import Estimate
from cipherbench.cores.core_client import Core
from cipherbench.cores.cpu_profiles import hw_args, openssl_env, profile_of, programs_inherit
from cipherbench.machine import metadata
from cipherbench.display.console import GRADE_STYLE, display_fitted, display_warnings
from cipherbench.errors import EnvironmentProblem, UsageError, UserError
from cipherbench.scenarios.payload import random_payload
from cipherbench.scenarios import Screen
from cipherbench.scenarios.outcome import MeasureOutcome
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.ssh import cipher_cost, sweep, steady, tables, via as via_mod
from cipherbench.scenarios.ssh.errors import HostError
from cipherbench.scenarios.ssh.server import PrivateServer
from cipherbench.scenarios.ssh.transfer import Target, check_host, client_defaults, is_aead
from cipherbench.store import Result, Run, StoredWarning
from cipherbench.tempdirs import private_dir
from cipherbench.units import format_bytes

NAME = "ssh"
UNIT = "transfers"


@dataclass
class SshPlan:
    """One stored ssh run. ``via`` are the tools that move the bytes (``via.VIAS``), cheapest
    first; ``budget_s`` (seconds per candidate, None: none) stops new rounds early."""

    combos: list[sweep.Combo]
    size: int
    host: str | None = None
    ssh_config: str | None = None
    budget_s: float | None = None
    baseline: bool = True
    full_samples: bool = False
    cpu: int | None = None           # the ssh client's CPU (--cpu K); the server is not pinned
    via: list[str] = field(default_factory=lambda: ["pipe"])
    rounds: int = sweep.DEFAULT_ROUNDS
    seed: int | None = None
    file_combos: list[sweep.Combo] | None = None   # through sftp/scp/rsync (None: combos)
    #: measures each cipher and MAC alone (``cipher_cost``); None: found through ``env``
    core: Core | None = field(default=None, compare=False, repr=False)
    env: dict | None = field(default=None, compare=False, repr=False)
    #: --cpu-profile: its features, and OpenSSL's switch (the C core's record for openssl,
    #: whose hw_env OpenSSH's libcrypto reads in ssh and sshd)
    hw_off: tuple[str, ...] = ()
    openssl: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(1 << 31)

    @property
    def max_sample_s(self) -> float:
        return 0 if self.full_samples else sweep.SAMPLE_MAX_S

    def args(self) -> dict:
        return {"ciphers": sorted({c.cipher for c in self.combos}),
                "file_tool_combos": (None if self.file_combos is None else
                                     [c.algo for c in self.file_combos]),
                "macs": sorted({c.mac for c in self.combos if c.mac}), "size": self.size,
                "host": self.host or "127.0.0.1 (private sshd)", "via": list(self.via),
                "rounds": self.rounds, "rounds_seed": self.seed, "budget_s": self.budget_s,
                "max_sample_s": self.max_sample_s, "ssh_version": ssh_version(),
                "cpu": self.cpu, "hw_disabled": list(self.hw_off),
                "cpu_profile": profile_of(self.hw_off)}

    def metadata(self) -> dict:
        if not self.hw_off:
            return metadata.collect()
        meta = metadata.collect(None, {"openssl": self.openssl})
        meta["hw_disabled"] = list(self.hw_off)
        meta["cpu_profile"] = profile_of(self.hw_off) or "custom"
        return meta

    def candidates(self) -> list[sweep.Cand]:
        return sweep.candidates(self.combos, self.via, self.baseline, self.file_combos)

    def steps(self) -> int:
        """Transfers if every round runs (the checks aside)."""
        return self.rounds * len(self.candidates())


def make_plan(ciphers: list[str] | None = None, macs: list[str] | None = None, *,
              size: int, host: str | None = None, ssh_config: str | None = None,
              via: list[str] | None = None, rounds: int = sweep.DEFAULT_ROUNDS,
              seed: int | None = None, budget_s: float | None = None, baseline: bool = True,
              full_samples: bool = False, cpu: int | None = None,
              env: dict | None = None, hw_off: Sequence[str] = ()) -> SshPlan:
    """The plan of ``cipherbench ssh`` from its options (what ``advise`` calls): ciphers and
    MACs checked against ``ssh -Q`` (None: the ciphers the client offers by default, with the
    MAC it offers first: ``sweep.choose``), ``via`` against the installed programs (None: all
    installed, cheapest first). Without ``macs`` the file tools measure each cipher with its
    first MAC only (``sweep.one_mac_each``). ``UsageError`` for a name that is not there."""
    from cipherbench.scenarios.ssh.server import offered, query
    client = offered(host, ssh_config, env) if not (ciphers and macs) else None
    combos = sweep.choose(ciphers, macs, query("cipher"), query("mac"),
                          client.ciphers if client else (), client.macs if client else ())
    plan = SshPlan(combos, size, host=host, ssh_config=ssh_config, budget_s=budget_s,
                   baseline=baseline, full_samples=full_samples, cpu=cpu,
                   via=via_mod.choose(via), rounds=rounds, seed=seed,
                   file_combos=None if macs else sweep.one_mac_each(combos), env=env)
    if hw_off:
        plan.hw_off = tuple(hw_off)
        plan.core, plan.openssl = _openssl_switch(env, hw_off)
    return plan


def _openssl_switch(env: dict | None, hw_off: Sequence[str]) -> tuple[Core, dict]:
    """The core (its cipher costs under the same profile) and its record for OpenSSL under
    the profile; UsageError when OpenSSH does not use OpenSSL or the switch does not apply."""
    if "OpenSSL" not in ssh_version():
        raise UsageError("--cpu-profile: this ssh is not built with OpenSSL (ssh -V), whose "
                         "OPENSSL_ia32cap is the only switch OpenSSH has")
    core = Core.find(env)
    core.common_args = hw_args(hw_off)
    rec = core.list("openssl").libraries.get("openssl") or {}
    if openssl_env({"openssl": rec}) is None:
        raise UsageError(f"--cpu-profile: OpenSSL's switch did not apply here "
                         f"({rec.get('hw_switch') or 'the core has no openssl'}): OpenSSH "
                         "cannot follow the profile")
    return core, rec


def ssh_version() -> str:
    try:
        out = subprocess.run(["ssh", "-V"], capture_output=True, text=True, timeout=10)
        return (out.stderr or out.stdout).strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def default_combo(target: Target) -> sweep.Combo | None:
    """The client's first cipher (and MAC, for a non-AEAD one): the row marked default."""
    ciphers, macs = client_defaults(target)
    if not ciphers:
        return None
    c = ciphers[0]
    return sweep.Combo(c) if is_aead(c) else sweep.Combo(c, macs[0] if macs else None)


#: Starting the private server, each connection's handshake, a pessimistic rate through ssh
#: and what a file tool adds (its far-side check and removal; more over a real link). On a
#: quiet 2-core machine a 64 MiB pipe transfer of the client's default ciphers took 0.63 s
#: (0.85 s over every cipher of `ssh -Q`, CBC and 3DES included).
_SERVER_START_S = 1.5
_CONNECT_S = 0.4
_RATE_BPS = 300e6
_FILE_TOOL_S = 0.05
_REMOTE_CHECK_S = 0.3
#: Each cipher and MAC alone through the core (``cipher_cost``): a batch per library.
_COST_S = 3.0


def estimate_s(p: SshPlan) -> Estimate:
    """Every round, every candidate (as many rounds as the budget, wall time, lets start:
    ``analysis.estimate``), plus one check per cipher and tool."""
    send_s = p.size / _RATE_BPS
    capped = min(send_s, p.max_sample_s) if p.max_sample_s else send_s
    per_round = 0.0
    for c in p.candidates():
        per_round += _CONNECT_S + (capped if c.via in ("pipe", "tcp") else
                                   send_s + _FILE_TOOL_S + (_REMOTE_CHECK_S if p.host else 0))
    checks = len({(c.via, c.combo.cipher) for c in p.candidates()})
    check_s = checks * (_CONNECT_S + sweep.VERIFY_BYTES / _RATE_BPS)
    budget = None if p.budget_s is None else p.budget_s * len(p.candidates())
    return Estimate((0 if p.host else _SERVER_START_S) + check_s + _COST_S, per_round, p.rounds,
                    budget_s=budget, min_rounds=min(p.rounds, sweep.verdict.MIN_ROUNDS))


def measure(p: SshPlan, rec: Recording) -> MeasureOutcome:
    """The rounds, every sample stored the moment it is known, then the per-candidate rows."""
    rec.warn(run_warnings.load(rec.metadata.get("loadavg"), rec.metadata.get("cores"),
                           others=rec.load_start.others if rec.load_start else None))
    data = random_payload(p.size)  # incompressible, and the same bytes for every row
    try:
        with ExitStack() as stack:
            if p.hw_off:   # ssh, sshd and the file tools read OPENSSL_ia32cap when they start
                stack.enter_context(programs_inherit(openssl_env({"openssl": p.openssl}) or {}))
                if p.host:
                    rec.note("--cpu-profile with --host: only this machine's ssh follows the "
                             "profile; the host's sshd runs as its CPU allows")
            if p.host:
                opts = ("-F", p.ssh_config) if p.ssh_config else ()
                target = Target(p.host, opts, label=p.host, private=False, cpu=p.cpu)
                check_host(target)
                far_local = None
            else:
                srv = stack.enter_context(PrivateServer())
                target = Target(srv.destination, tuple(srv.ssh_options()),
                                label="private sshd on 127.0.0.1", private=True, cpu=p.cpu)
                assert srv.dir is not None
                far_local = srv.dir / "far"
            tools = {}
            if any(v != "pipe" for v in p.via):
                work = private_dir("cipherbench-ssh-files-")
                stack.callback(shutil.rmtree, work, True)
                far = stack.enter_context(via_mod.FarSide(target, far_local))
                probe, big = work / "probe.bin", work / "data.bin"
                try:
                    big.write_bytes(data)
                    probe.write_bytes(data[:sweep.VERIFY_BYTES])
                except OSError as e:   # a full TMPDIR: one line, the run marked failed
                    raise EnvironmentProblem(
                        f"cannot write the files --via sends into {work}: "
                        f"{e.strerror or e}; set TMPDIR to a directory with "
                        f"{format_bytes(2 * p.size)} free") from None
                digest = hashlib.sha256(probe.read_bytes()).hexdigest()
                tools = {v: via_mod.FileTool(v, target, far, work, probe, big, digest)
                         for v in p.via if v != "pipe"}
            _sweep(p, rec, target, data, tools)
    except HostError as err:
        rec.status = "interrupted" if rec.n_results else "failed"
        raise EnvironmentProblem(str(err)) from None
    results = rec.store.results(rec.run_id, tables.SCENARIO)
    for r in tables.summary_results(results):
        rec.add(r)
    if any(not r.is_baseline for r in tables.rows(results)):
        _cipher_costs(p, rec)
    measured = [r for r in tables.rows(results) if not r.is_baseline]
    rec.status = "complete" if measured else "failed"
    # a candidate that failed is a warning and leaves the others' answer (and exit status) be
    return MeasureOutcome()


def _cipher_costs(p: SshPlan, rec: Recording) -> None:
    """Each cipher and MAC of the run alone (``cipher_cost``), stored with the run; a core
    that cannot be found or run leaves a warning, and the bottleneck says what it lacks."""
    rec.progress.working("measuring each cipher alone")
    pairs = [(info.get("cipher_algo"), info.get("mac_algo"))
             for c in p.candidates() if not c.is_baseline
             for info in [sweep.describe(c.combo)]]
    try:
        core = p.core or Core.find(p.env)
        got, missing = cipher_cost.measure(core, cipher_cost.wanted(pairs))
    except (UserError, OSError) as e:
        rec.note(f"each cipher's cost alone was not measured: {e}")
        return
    for r in got:
        rec.add(r)
    if missing:
        rec.note("no library of the core measures " + ", ".join(sorted(set(missing)))
                 + " alone")


def _sampler(target: Target, tools: dict, c: sweep.Cand) -> sweep.Sampler:
    if c.is_baseline:
        return sweep.baseline_sampler(target)
    if c.via == "pipe":
        return sweep.ssh_sampler(target, c.combo)
    tool = tools[c.via]
    return lambda data, verify, max_s: tool.sample(c.combo.cipher, c.combo.mac, verify)


def _sweep(p: SshPlan, rec: Recording, target: Target, data: bytes | bytearray,
           tools: dict) -> sweep.Swept:
    default = default_combo(target)
    rec.update_metadata({"ssh_target": target.name})
    position: dict[int, int] = {}

    def on_start(c: sweep.Cand, i: int) -> None:
        rec.progress.working(f"ssh round {i + 1}: {c.label}")

    def on_sample(c: sweep.Cand, i: int, s, check: sweep.Check) -> None:
        position[i] = position.get(i, 0) + 1
        rec.add(tables.round_result(c, i, position[i], s, check, target=target.name,
                                    client_default=default, requested=p.size))
        rec.progress.done(f"ssh round {i + 1}: {c.label}")

    def on_fail(f: sweep.Failure) -> None:
        kind = run_warnings.Kind.UNSUPPORTED if f.status in ("refused", "unavailable") \
            else run_warnings.Kind.TRANSFER_FAILED
        rec.warn([run_warnings.BenchWarning(kind, f.cand.label, f.message)])
        rec.progress.failed(f"cipherbench: error: {f.message}")

    return sweep.sweep(p.candidates(), lambda c: _sampler(target, tools, c), data,
                        n_rounds=p.rounds, rng=random.Random(p.seed), budget_s=p.budget_s,
                        max_sample_s=p.max_sample_s, on_start=on_start, on_sample=on_sample,
                        on_fail=on_fail, default=default)


def view(screen: Screen, run: Run, results: list[Result],
         stored_warnings: list[StoredWarning]) -> None:
    """One ranked table per tool (the baseline in each), the legend and the warnings of a
    stored ssh run (its bottleneck sentence: ``answer``)."""
    table = tables.rows([r for r in results if r.scenario == tables.SCENARIO])
    size = run.args.get("size")
    base = [r for r in table if r.is_baseline]
    for n, v in enumerate(tables.vias(table) or [""]):
        part = [r for r in table if r.via == v or r.is_baseline]
        header, cells = tables.table_lines(part)
        rounds = max((r.n for r in part), default=0)
        how = via_mod.DESCRIBE.get(v, v)
        steady_rate = any(r.extra.get("figure") == steady.STEADY for r in part if r.via == v)
        title = (f"ssh{f' via {v} ({how})' if v else ''}: {size / (1 << 20):g} MiB per transfer"
                 f"{' (MB/s: the median segment of its middle half)' if steady_rate else ''} to "
                 f"{run.args.get('host')}, {rounds} rounds, fastest first (* = client "
                 "default; n = rounds; CPU % = ssh/sshd time on a core; @openssh.com left "
                 "out)" if size else "ssh transfers")
        grade = header.index("grade")
        styled = [[Text(c, style=GRADE_STYLE.get(row.grade, "")) if i == grade else c
                   for i, c in enumerate(line)] for row, line in zip(part, cells)]
        if n:
            screen.console.print()
        # the name columns repeat in every part when a narrow terminal splits the table
        display_fitted(screen.console, header, styled, title=title, keep=3,
                       right=[h for h in header if h not in ("cipher", "MAC", "grade")],
                       row_styles=["dim" if row.is_baseline else None for row in part])
    if len(table) > len(base):
        screen.console.print(tables.legend(table), highlight=False)
    note = tables.cut_note(table, size, run.args.get("max_sample_s"))
    if note:
        screen.console.print(note, highlight=False)
    display_warnings(screen.err_console, [run_warnings.BenchWarning(run_warnings.Kind(w.kind),
                                                                    w.subject, w.text)
                                          for w in stored_warnings
                                          if w.kind not in ("unsupported", "transfer_failed")])


def answer_lines(run: Run, results: list[Result]) -> list[str]:  # noqa: ARG001
    """The verdict of a stored ssh run: crypto-bound, path-bound or cannot tell, and for
    which cipher."""
    return [tables.bottleneck(tables.rows([r for r in results
                                           if r.scenario == tables.SCENARIO])).text()]


def answer(screen: Screen, run: Run, results: list[Result]) -> None:
    """The verdict, the command's last line."""
    for line in answer_lines(run, results):
        screen.console.print(line, highlight=False)


def summary(run: Run, results: list[Result]) -> dict:
    """What ``--json`` and ``export`` carry beside the stored rows (schema version 5):
    ``ssh_rows``, each candidate's figures and paired verdicts as the table shows them (each
    verdict with the ``figure`` it was judged on), and ``bottleneck``, the one decision."""
    table = tables.rows([r for r in results if r.scenario == tables.SCENARIO])
    neck = tables.bottleneck(table)
    rows = [{"via": r.via, "algo": r.algo, "cipher": None if r.is_baseline else r.cipher,
             "mac": None if r.is_baseline or r.mac == "(AEAD)" else r.mac,
             "baseline": r.is_baseline, "client_default": r.is_default, "rank": r.rank,
             "bytes_per_s": r.throughput, "ci_pct": r.ci_pct, "rounds": r.n,
             "spread_pct": r.spread_pct, "grade": r.grade or None,
             "cpu_bytes_per_s": r.cpu_rate,
             "vs_default": tables.verdict_dict(r.vs_default, r.vs_default_figure),
             "vs_baseline": tables.verdict_dict(r.vs_baseline)} for r in table]
    return {"ssh_rows": rows,
            "bottleneck": {"kind": neck.kind, "cipher": neck.cipher or None,
                           "via": neck.via or None, "text": neck.text(),
                           "parts": neck.split.to_dict() if neck.split else None,
                           "verdict": tables.verdict_dict(neck.verdict)}}
