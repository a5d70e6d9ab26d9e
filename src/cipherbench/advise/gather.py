# SPDX-License-Identifier: GPL-3.0-or-later
"""Decide what evidence is missing for the chosen targets and measure it, quickly."""
from __future__ import annotations

from dataclasses import dataclass, field

from cipherbench.advise import evidence as E
from cipherbench.advise.evidence import Evidence
from cipherbench.advise.measure import Measurer
from cipherbench.advise.targets import Target
from cipherbench.errors import EnvironmentProblem
from cipherbench.store import Store

_KEY_AEADS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305")


@dataclass
class Wanted:
    """What to measure before answering: ssh transfers, gpg, the TLS record layer of the
    library asked (``tls``; ``no_hw``: also its key AEADs with AES off), that of each library
    a target is built on (``tls_of``), and primitives per library."""

    ssh: bool = False
    gpg: bool = False
    tls: bool = False
    no_hw: bool = False
    tls_of: list[str] = field(default_factory=list)
    primitive: dict[str, list[str]] = field(default_factory=dict)

    def need(self, lib: str, algos) -> None:
        """Add primitives of ``lib`` to measure."""
        have = self.primitive.setdefault(lib, [])
        have += [a for a in algos if a not in have]


def missing(ev: Evidence, targets: list[Target], lib: str, host: str | None,
            assume_no_aes: bool, via: list[str] | None = None) -> Wanted:
    """What the targets' highest layers lack here."""
    want = Wanted()
    fams = {t.family for t in targets}
    if "ssh" in fams and (ev.ssh_run is None or
                          (via and not any(x.via in via for x in ev.ssh_layers))):
        want.ssh = True
    # A program built on one library (Caddy and Traefik: Go) is rated by that library's own
    # TLS record layer (the Go core's tls); its primitives stand in when that cannot be had.
    for t in targets:
        if t.lib and t.family == "tls" and t.lib not in ev.tls_layers:
            if t.lib not in want.tls_of:
                want.tls_of.append(t.lib)
        elif t.lib and any((t.lib, a, "encrypt") not in ev.primitive for a in _KEY_AEADS):
            want.need(t.lib, E.TLS_ALGOS)
    if any(t.family == "tls" and not t.lib for t in targets) and lib not in ev.tls_layers:
        want.tls = True
        want.no_hw = assume_no_aes and not ev.no_aes_runs
    if "luks" in fams and any(("openssl", a, "encrypt") not in ev.primitive
                              for a in ("aes-128-xts", "aes-256-xts")):
        want.need("openssl", [a for a in E.LUKS_ALGOS if "twofish" not in a
                              and "serpent" not in a])
        want.need("libgcrypt", ("twofish-256-cbc", "serpent-256-cbc"))
    if "luks" in fams:     # the kernel's generic drivers and Adiantum (luks_kernel.py)
        from cipherbench.advise.luks_kernel import NEEDS
        for l, algos in NEEDS.items():
            if any((l, a, "encrypt") not in ev.primitive for a in algos):
                want.need(l, algos)
    if "gpg" in fams and ev.gpg_run is None:
        want.gpg = True
    return want


def gather(store: Store, targets: list[Target], *, lib: str, host: str | None,
           assume_no_aes: bool, measurer: Measurer | None, ssh_config: str | None = None,
           via: list[str] | None = None, machine: tuple[str, str, str] | None = None,
           kernel: bool = False) -> tuple[Evidence, list]:
    """Load the evidence (of ``machine`` when the store has its runs; ssh runs through the
    first of ``via`` they measured); with a measurer, measure what is missing and load again.
    Returns the evidence and the measurements made."""
    def load() -> Evidence:
        return Evidence.load(store, assume_no_aes=assume_no_aes, host=host, machine=machine,
                             via=via)

    ev = load()
    if measurer is None:
        return ev, []
    # evidence for --host comes from that host only: what measures this machine is not run
    want = missing(ev, [t for t in targets if t.family == "ssh"] if host else targets, lib,
                   host, assume_no_aes, via)
    from cipherbench.advise.engine import _ssh_query
    tls_plans = {l: measurer.plan_tls(l) for l in ([lib] if want.tls else []) + want.tls_of}
    # the primitives as first wanted; a record layer that fails adds to them
    planned_algos = {l: list(algos) for l, algos in want.primitive.items()}
    prim_plans = {l: measurer.plan_primitive([l], algos) for l, algos in planned_algos.items()}
    no_hw_plan = measurer.plan_tls(lib, profile="no-aes") if want.no_hw else None
    ssh_plan = (measurer.plan_ssh(host, _ssh_query("cipher") or [], ssh_config=ssh_config,
                                  via=via) if want.ssh else None)
    gpg_plan = measurer.plan_gpg() if want.gpg else None
    luks_plan = (measurer.plan_luks() if kernel and any(t.family == "luks" for t in targets)
                 else None)
    measurer.announce([*tls_plans.values(), *prim_plans.values(),
                       *(p for p in (no_hw_plan, ssh_plan, gpg_plan, luks_plan) if p)])
    for tls_lib, planned in tls_plans.items():
        if measurer.measure(planned).rc != 0 and any((tls_lib, a, "encrypt") not in ev.primitive
                                                     for a in _KEY_AEADS):
            want.need(tls_lib, E.TLS_ALGOS)     # the record layer failed: primitives stand in
    for l, algos in want.primitive.items():
        same = planned_algos.get(l) == algos
        measurer.measure(prim_plans[l] if same else measurer.plan_primitive([l], list(algos)))
    if no_hw_plan:   # the record layer as a CPU without AES runs it; primitives stand in
        if measurer.measure(no_hw_plan).rc != 0:
            measurer.primitive([lib], list(_KEY_AEADS), no_hw=True)
    if ssh_plan:
        m = measurer.measure(ssh_plan)
        if m.rc != 0 and host:
            # never advice from this machine for a host that could not be measured
            raise EnvironmentProblem(f"--host {host}: not measured: "
                                     f"{(m.error or 'the ssh measurement failed').splitlines()[0]}")
        if m.rc not in (0,):
            # no real path: the primitives stand in
            measurer.primitive(["openssl"], list(E.SSH_ALGOS))
    if gpg_plan:
        measurer.measure(gpg_plan)
    if luks_plan:
        measurer.measure(luks_plan)       # --kernel: the kernel's dm-crypt itself, each time asked
    if measurer.done:
        ev = load()
    return ev, measurer.done
