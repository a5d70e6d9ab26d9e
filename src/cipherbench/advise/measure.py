# SPDX-License-Identifier: GPL-3.0-or-later
"""What ``advise`` measures when the store lacks evidence: the scenarios themselves, called
directly (plan, then measure inside a ``Recording`` on the same store), never the command line.
Each measurement comes back typed: the run it stored, its final status, or the error that
stopped it."""
from __future__ import annotations

import io
import time
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Mapping

from rich.console import Console

from cipherbench.advise.evidence import PREFERRED_SIZE
from cipherbench.analysis.estimate import Estimate
from cipherbench.cores.core_client import Core
from cipherbench.cores.cpu_profiles import PROFILES, hw_args
from cipherbench.cores.combined import Cores
from cipherbench.errors import UsageError, UserError
from cipherbench.presets import QUICK
from cipherbench.scenarios.recording import Recording, RunInterrupted
from cipherbench.store import Store
from cipherbench.scenarios.ssh.via import VIAS
from cipherbench.units import format_duration, parse_size

#: Modest sizes that keep ``advise --for all`` short.
SSH_SIZE = "32M"
SSH_MACS = ("umac-128-etm@openssh.com", "hmac-sha2-256-etm@openssh.com")
GPG_SIZE = "32M"


#: The tools ``advise --via`` can name: those of ``cipherbench ssh --via``.
VIA = VIAS


def plan_takes_via() -> bool:
    """True when the ssh scenario's plan has a ``via`` field (it measures through scp, sftp
    and rsync as well as ssh's own pipe)."""
    from cipherbench.scenarios.ssh.scenario import SshPlan
    return "via" in {f.name for f in fields(SshPlan)}


def check_via(via: list[str]) -> list[str]:
    """``--via`` names, checked: known tools, and only ``pipe`` when the ssh scenario cannot
    measure through the others. Raises ``UsageError`` (one line)."""
    bad = [v for v in via if v not in VIA]
    if bad:
        raise UsageError(f"--via {','.join(bad)}: not a tool to measure through; use "
                         f"{', '.join(VIA)}")
    other = [v for v in via if v != "pipe"]
    if other and not plan_takes_via():
        raise UsageError(f"--via {','.join(other)}: this version's ssh measurement moves the "
                         "bytes through ssh's own pipe only; use --via pipe or leave --via out")
    return list(dict.fromkeys(via))


@dataclass
class Measurement:
    """One measurement the advisor made: what, the equivalent command line, how long, and its
    outcome (``run_id`` and ``status`` of the stored run, or ``error`` when none could be
    made; ``rc`` is the exit status the command would have had)."""

    what: str
    args: list[str]
    rc: int
    seconds: float
    error: str = ""
    run_id: int | None = None
    status: str = ""
    warnings: list = field(default_factory=list)


@dataclass
class Planned:
    """A measurement before it is made: what, the equivalent command line, a few words on its
    size, the scenario and how to make its plan (made once, when first asked for)."""

    what: str
    args: list[str]
    detail: str
    scenario: Any
    make_plan: Callable[[], Any]
    _plan: Any = None
    _estimate: Any = None

    def plan(self) -> Any:
        """The scenario's plan; raises the ``UserError`` that prevents it."""
        if self._plan is None:
            self._plan = self.make_plan()
        return self._plan

    def estimate(self) -> Any:
        """The scenario's estimate of the plan (an ``Estimate``, or seconds), made once."""
        if self._estimate is None:
            self._estimate = self.scenario.estimate_s(self.plan())
        return self._estimate

    def quiet_s(self) -> float | None:
        """The estimate on a quiet machine; None when the measurement cannot be planned
        (measuring it then says why)."""
        try:
            estimate = self.estimate()
        except Exception:  # noqa: BLE001 - said when it is measured, as the measurer does
            return None
        return estimate.quiet_s if isinstance(estimate, Estimate) else float(estimate)


def _steps(scenario, plan) -> int | None:
    """The steps a scenario's plan counts on its progress, as its command passes them."""
    if hasattr(scenario, "total_steps"):
        return scenario.total_steps(plan)
    for name in ("points", "steps"):
        if hasattr(plan, name):
            return getattr(plan, name)()
    return None


class Measurer:
    """Measures through the scenarios into the store at ``db_path``; progress through
    ``say``. ``cpu``: the CPU every measurement is kept on (``--cpu K``, as each measuring
    command takes it); ``before_first``: called once, before the first measurement only
    (``--wait-quiet``: nothing is waited for when the store has the evidence)."""

    def __init__(self, env: Mapping[str, str], db_path: str, say: Callable[[str], None],
                 cpu: int | None = None, before_first: Callable[[], None] | None = None,
                 progress: str = "off", progress_console: Console | None = None):
        self.env = dict(env)
        self.db = db_path
        self.say = say
        self.cpu = cpu
        self._before_first = before_first
        # each measurement's estimate and progress (a bar, or a line per step) on stderr
        self._progress, self._progress_console = progress, progress_console
        self.done: list[Measurement] = []
        # "2 of 5": the measurements announced (``announce``) and those begun
        self._total, self._count = 0, 0
        # the scenarios' own lines (errors of single rows) stay out of the advice
        self._console = Console(file=io.StringIO(), width=200)

    def announce(self, planned: list["Planned"]) -> None:
        """Say, before the first, how long the measurements of ``planned`` take together on a
        quiet machine (each scenario's own estimate; one that cannot be planned counts 0 and
        says why when it is measured)."""
        if not planned:
            return
        self._total = len(planned)
        quiet = sum(p.quiet_s() or 0.0 for p in planned)
        self.say(f"{len(planned)} measurement{'s' if len(planned) != 1 else ''} to make, about "
                 f"{format_duration(quiet)} in all on a quiet machine (a measurement that "
                 "fails may add one that stands in for it)")

    def measure(self, planned: "Planned") -> Measurement:
        """Make one planned measurement; the line announcing it carries the scenario's own
        estimate of that plan (the one its command prints)."""
        if self._before_first is not None:
            self._before_first()
            self._before_first = None
        args = planned.args
        if self.cpu is not None:
            args = args + ["--cpu", str(self.cpu)]
        t0 = time.monotonic()
        m = Measurement(planned.what, args, 0, 0.0)
        self._count += 1
        of = f"{self._count} of {self._total}; " if self._count <= self._total else ""
        try:
            plan, scenario = planned.plan(), planned.scenario
            self.say(f"measuring {planned.what} ({of}{planned.detail}; about "
                     f"{format_duration(planned.quiet_s() or 0.0)} on a quiet machine) ...")
            with Store.open(self.db) as store, \
                    Recording(store, scenario.NAME, plan.args(), plan.metadata(),
                              console=self._console, progress=self._progress,
                              progress_console=self._progress_console,
                              unit=scenario.UNIT, total=_steps(scenario, plan),
                              estimate_s=planned.estimate()) as rec:
                out = scenario.measure(plan, rec)
            m.run_id, m.status, m.warnings = rec.run_id, rec.status, rec.warnings
            # read as the scenario's own command reads it (``scenarios.outcome``)
            if out.exit_status(rec.status):
                m.rc, m.error = 1, (f"run {rec.run_id} is {rec.status}"
                                    if rec.status != "complete" else
                                    f"run {rec.run_id}: {out.failed} figures failed")
        except RunInterrupted:
            raise  # Ctrl-C or a stop signal ends the advice too
        except UserError as e:
            m.rc, m.error = e.exit_code, str(e)
        except Exception as e:  # noqa: BLE001 - a measurement must not take the advice down
            m.rc, m.error = 1, f"{type(e).__name__}: {e}"
        m.seconds = time.monotonic() - t0
        self.done.append(m)
        self.say(f"measured {planned.what} in {m.seconds:.0f} s"
                 + (f" (exit {m.rc}: {m.error})" if m.rc else ""))
        return m

    def plan_primitive(self, libs: list[str], algos: list[str], no_hw: bool = False) -> Planned:
        """A quick primitive run of ``algos`` in ``libs`` at the TLS-record size."""
        from cipherbench.scenarios.primitive import scenario as primitive
        args = ["run", "--quick", "--lib", ",".join(libs), "--algo", ",".join(algos),
                "--sizes", f"1024,{PREFERRED_SIZE}", "--no-ref", "--no-progress"]
        if no_hw:
            args.append("--no-hw")
        off = list(PROFILES["no-aes"].features) if no_hw else []

        def make_plan():
            core = Cores.find(self.env)   # go, ring, ... when their cores are built
            core.common_args = hw_args(off)
            return primitive.make_plan(core, QUICK, libs=list(libs), algos=list(algos), ops=[],
                                       sizes=[1024, PREFERRED_SIZE], precision=QUICK.precision,
                                       budget_s=None, samples=None, headline=PREFERRED_SIZE,
                                       with_ref=False, hw_off=off, threads=1, cpu=self.cpu)

        return Planned(f"primitives of {', '.join(libs)}" + (" without AES" if no_hw else ""),
                       args, f"{len(algos)} algorithms", primitive, make_plan)

    def plan_ssh(self, host: str | None, offered_ciphers: list[str],
                 ssh_config: str | None = None, via: list[str] | None = None) -> Planned:
        """Real ssh transfers of every offered cipher with two MACs, at a modest size, to
        ``host`` through ``ssh_config`` (ssh -F) and the tools of ``via``."""
        from cipherbench.scenarios.ssh import sweep
        from cipherbench.scenarios.ssh import scenario as ssh
        from cipherbench.scenarios.ssh.server import query
        args = ["ssh", "--size", SSH_SIZE, "--budget", "1", "--macs", ",".join(SSH_MACS)]
        if offered_ciphers:
            args += ["--ciphers", ",".join(offered_ciphers)]
        if host:
            args += ["--host", host]
        if ssh_config:
            args += ["--ssh-config", ssh_config]
        if via:
            args += ["--via", ",".join(via)]

        def make_plan():
            combos = sweep.choose(list(offered_ciphers), list(SSH_MACS),
                                   query("cipher"), query("mac"))
            more = {"via": list(via)} if via and plan_takes_via() else {}
            return ssh.SshPlan(combos, parse_size(SSH_SIZE), host=host, ssh_config=ssh_config,
                               budget_s=1.0, cpu=self.cpu, **more)

        return Planned("ssh transfers" + (f" to {host}" if host else " over loopback"),
                       args, f"{SSH_SIZE}B per cipher", ssh, make_plan)

    def plan_luks(self) -> Planned:
        """The kernel's dm-crypt per LUKS spec on a RAM-backed device (``advise --kernel``)."""
        from cipherbench.scenarios.luks import scenario as luks

        def make_plan():
            return luks.LuksPlan()

        return Planned("the kernel's dm-crypt", ["luks"], "every spec", luks, make_plan)

    def plan_tls(self, lib: str, profile: str | None = None) -> Planned:
        """The real TLS record layer of ``lib`` at the TLS-record write size (as on the weaker
        CPU of ``profile``, through each library's own switch)."""
        from cipherbench.analysis import stats
        from cipherbench.scenarios.tls import scenario as tls
        args = ["tls", "--lib", lib, "--sizes", str(PREFERRED_SIZE), "--no-loopback",
                "--budget", "0.3"] + (["--cpu-profile", profile] if profile else [])
        off = PROFILES[profile].features if profile else ()

        def make_plan():
            core = Cores.find(self.env)
            core.common_args = hw_args(off)
            return tls.make_plan(core, self.env, libs=[lib], suites=None,
                                 sizes=(PREFERRED_SIZE,), handshakes=False, transfer=True,
                                 loopback=False, loopback_size=32 << 20,
                                 precision=stats.DEFAULT_PRECISION, budget_s=0.3, cpu=self.cpu,
                                 hw_off=off)

        return Planned(f"the {lib} TLS record layer"
                       + (f" as a {profile} CPU" if profile else ""), args,
                       "every suite", tls, make_plan)

    def plan_gpg(self) -> Planned:
        """Real gpg --symmetric (and age) encryption at a modest size."""
        from cipherbench.errors import EnvironmentProblem
        from cipherbench.scenarios.gpg import programs
        from cipherbench.scenarios.gpg import scenario as gpg
        from cipherbench.scenarios.gpg.candidates import candidates, check_space
        args = ["gpg", "--size", GPG_SIZE, "--ops", "encrypt", "--budget", "2"]

        def make_plan():
            try:
                prog, version, algos = programs.gpg_info(self.env)
            except programs.ProgramMissing as e:
                raise EnvironmentProblem(str(e))
            age = programs.age_info(self.env)
            chosen, _ = candidates(algos, None, with_age=age is not None)
            size = parse_size(GPG_SIZE)
            space = check_space(size)
            if space:
                raise EnvironmentProblem(space)
            try:
                core = Core.find(self.env)
            except UserError:
                core = None
            return gpg.GpgPlan(prog, version, chosen, None, size, ["encrypt"],
                               gpg.DEFAULT_PRECISION, 2.0, age=age, core=core, env=self.env,
                               cpu=self.cpu)

        return Planned("gpg and age encryption", args, f"{GPG_SIZE}B per algorithm", gpg,
                       make_plan)

    def primitive(self, libs: list[str], algos: list[str], no_hw: bool = False) -> Measurement:
        """``plan_primitive``, measured."""
        return self.measure(self.plan_primitive(libs, algos, no_hw))

    def ssh(self, host: str | None, offered_ciphers: list[str], ssh_config: str | None = None,
            via: list[str] | None = None) -> Measurement:
        """``plan_ssh``, measured."""
        return self.measure(self.plan_ssh(host, offered_ciphers, ssh_config, via))

    def tls(self, lib: str, profile: str | None = None) -> Measurement:
        """``plan_tls``, measured."""
        return self.measure(self.plan_tls(lib, profile))

    def gpg(self) -> Measurement:
        """``plan_gpg``, measured."""
        return self.measure(self.plan_gpg())

    def luks(self) -> Measurement:
        """``plan_luks``, measured."""
        return self.measure(self.plan_luks())
