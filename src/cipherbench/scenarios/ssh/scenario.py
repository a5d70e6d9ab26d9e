"""``cipherbench ssh`` as a scenario: real OpenSSH transfers per cipher and MAC against a private
sshd on 127.0.0.1 (or a real host), beside a cleartext TCP baseline; estimate, measure inside a
``Recording``, draw a stored run.
"""
from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

from rich.text import Text

from cipherbench import metadata, warnings
from cipherbench.display.console import GRADE_STYLE, display_fitted, display_warnings
from cipherbench.errors import EnvironmentProblem
from cipherbench.scenarios import Screen
from cipherbench.scenarios.recording import Recording
from cipherbench.scenarios.ssh import runner, tables
from cipherbench.scenarios.ssh.errors import HostError
from cipherbench.scenarios.ssh.server import PrivateServer
from cipherbench.scenarios.ssh.transfer import Target, check_host, client_defaults, is_aead
from cipherbench.store import Result, Run, StoredWarning

NAME = "ssh"
UNIT = "transfers"
#: Spread of an ssh row's samples (CV) above which it is called noisy.
NOISY_CV = 0.03


@dataclass
class SshPlan:
    """One stored ssh run."""

    combos: list[runner.Combo]
    size: int
    host: str | None = None
    ssh_config: str | None = None
    precision: float = runner.DEFAULT_PRECISION
    budget_s: float = runner.DEFAULT_BUDGET_S
    baseline: bool = True
    full_samples: bool = False
    cpu: int | None = None           # the ssh client's CPU (--cpu K); the server is not pinned

    @property
    def max_sample_s(self) -> float:
        return 0 if self.full_samples else runner.SAMPLE_MAX_S

    def args(self) -> dict:
        return {"ciphers": sorted({c.cipher for c in self.combos}),
                "macs": sorted({c.mac for c in self.combos if c.mac}), "size": self.size,
                "host": self.host or "127.0.0.1 (private sshd)", "precision": self.precision,
                "budget_s": self.budget_s, "max_sample_s": self.max_sample_s,
                "ssh_version": ssh_version(), "cpu": self.cpu}

    def metadata(self) -> dict:
        return metadata.collect()

    def steps(self) -> int:
        return len(self.combos) + (1 if self.baseline else 0)


def ssh_version() -> str:
    try:
        out = subprocess.run(["ssh", "-V"], capture_output=True, text=True, timeout=10)
        return (out.stderr or out.stdout).strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def default_combo(target: Target) -> runner.Combo | None:
    """The client's first cipher (and MAC, for a non-AEAD one): the row marked default."""
    ciphers, macs = client_defaults(target)
    if not ciphers:
        return None
    c = ciphers[0]
    return runner.Combo(c) if is_aead(c) else runner.Combo(c, macs[0] if macs else None)


#: Starting the private server, each connection's handshake, a pessimistic rate through ssh,
#: and the share of the budget a row spends on more samples after its first three.
_SERVER_START_S = 1.5
_CONNECT_S = 0.3
_RATE_BPS = 400e6
_BUDGET_SHARE = 0.5


def estimate_s(p: SshPlan) -> float:
    """A row ends when precise or when its budget is spent (with at least three samples)."""
    send_s = p.size / _RATE_BPS
    per_sample = _CONNECT_S + (min(send_s, p.max_sample_s) if p.max_sample_s else send_s)
    per_row = runner.MIN_SAMPLES * per_sample + _BUDGET_SHARE * p.budget_s
    return (0 if p.host else _SERVER_START_S) + p.steps() * per_row


def measure(p: SshPlan, rec: Recording) -> list[runner.Outcome]:
    """The baseline and every combination, each stored the moment it is known."""
    rec.warn(warnings.load(rec.metadata.get("loadavg"), rec.metadata.get("cores"),
                           others=rec.load_start.others if rec.load_start else None))
    data = os.urandom(p.size)  # incompressible, and the same bytes for every row
    outcomes: list[runner.Outcome] = []
    try:
        if p.host:
            opts = ("-F", p.ssh_config) if p.ssh_config else ()
            target = Target(p.host, opts, label=p.host, private=False, cpu=p.cpu)
            check_host(target)
            outcomes = _sweep(p, rec, target, data)
        else:
            with PrivateServer() as srv:
                target = Target(srv.destination, tuple(srv.ssh_options()),
                                label="private sshd on 127.0.0.1", private=True, cpu=p.cpu)
                outcomes = _sweep(p, rec, target, data)
    except HostError as err:
        rec.status = "interrupted" if any(o.status == "ok" for o in outcomes) else "failed"
        raise EnvironmentProblem(str(err)) from None
    measured = [o for o in outcomes if o.status == "ok" and not o.combo.is_baseline]
    rec.status = "complete" if measured else "failed"
    return outcomes


def _sweep(p: SshPlan, rec: Recording, target: Target, data: bytes) -> list[runner.Outcome]:
    default = default_combo(target)
    rec.update_metadata({"ssh_target": target.name})

    def on_start(combo: runner.Combo, i: int, n: int) -> None:  # noqa: ARG001
        rec.progress.working(f"ssh {combo.label}")

    def on_done(out: runner.Outcome) -> None:
        for r in tables.to_results(out, target=target.name, client_default=default):
            rec.add(r)
        if out.status != "ok":
            kind = warnings.Kind.UNSUPPORTED if out.status in ("refused", "unavailable") \
                else warnings.Kind.TRANSFER_FAILED
            rec.warn([warnings.BenchWarning(kind, out.combo.label, out.message)])
            rec.progress.failed(f"cipherbench: error: {out.message}")
            return
        st = out.stability
        assert st is not None
        rec.warn(warnings.noisy(out.combo.label, st.summary.cv, limit=NOISY_CV))
        if not st.stable:
            rec.warn(warnings.not_stable(out.combo.label, st.summary.rel_half_width,
                                         p.precision, p.budget_s))
        rec.progress.done(f"ssh {out.combo.label}")

    return runner.sweep(target, p.combos, data, precision=p.precision, budget_s=p.budget_s,
                        with_baseline=p.baseline, max_sample_s=p.max_sample_s,
                        on_start=on_start, on_done=on_done)


def view(screen: Screen, run: Run, results: list[Result],
         stored_warnings: list[StoredWarning]) -> None:
    """The ranked table of a stored ssh run, the bottleneck line and the warnings."""
    table = tables.rows([r for r in results if r.scenario == tables.SCENARIO])
    header, cells = tables.table_lines(table)
    size = run.args.get("size")
    title = (f"ssh: {size / (1 << 20):g} MiB per transfer to {run.args.get('host')}, fastest "
             "first (* = client default; spread = run-to-run CV of the samples; of clear = "
             "share of the cleartext TCP baseline; CPU % = ssh/sshd time on a core; "
             "@openssh.com left out)" if size else "ssh transfers")
    grade = header.index("grade")
    styled = [[Text(c, style=GRADE_STYLE.get(row.grade, "")) if i == grade else c
               for i, c in enumerate(line)] for row, line in zip(table, cells)]
    # the name columns repeat in every part when a narrow terminal splits the table
    display_fitted(screen.console, header, styled, title=title, keep=3,
                   right=[h for h in header if h not in ("cipher", "MAC", "grade")],
                   row_styles=["dim" if row.is_baseline else None for row in table])
    note = tables.cut_note(table, size, run.args.get("max_sample_s"))
    if note:
        screen.console.print(note, highlight=False)
    screen.console.print(tables.bottleneck(table), highlight=False)
    display_warnings(screen.err_console, [warnings.BenchWarning(w.kind, w.subject, w.text)
                                          for w in stored_warnings
                                          if w.kind not in ("unsupported", "transfer_failed")])
