# SPDX-License-Identifier: GPL-3.0-or-later
"""What every advise target family answers (``Family``), the evidence layers it returns
and the parts of the question it reads; ``merged`` takes each candidate's rate from the
highest layer that measured it."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cipherbench.advise import candidates as C
from cipherbench.advise import facts as F
from cipherbench.advise.evidence import Evidence, LeftOut, Rate
from cipherbench.advise.targets import Target
from cipherbench.analysis import verdict as V
from cipherbench.scenarios.ssh import tables as ssh_tables


@dataclass(frozen=True)
class Layer:
    """One kind of evidence: ``key`` (stable, in ``--json``), ``title`` (how the answer names
    it) and whether it is a real path of the target's program."""

    key: str
    title: str
    real: bool


@dataclass
class LayerEvidence:
    """What one layer holds for a target: per candidate key its rate and, where the layer's
    run measured it in rounds beside the default, its paired verdict against the default and
    what that verdict was judged on; the runs it came from and the newer ones it passed over."""

    layer: Layer
    rates: dict[str, Rate] = field(default_factory=dict)
    versus: dict[str, V.Verdict] = field(default_factory=dict)
    figure: dict[str, str] = field(default_factory=dict)
    runs: tuple[int, ...] = ()
    passed_over: list[LeftOut] = field(default_factory=list)
    #: the default the run measured the others against (its verdicts are against it)
    reference: str | None = None
    rounds: dict[str, ssh_tables.Row] = field(default_factory=dict)   # ssh only


@dataclass(frozen=True)
class Default:
    """The tool's default as a candidate key (None: not read, or not among the candidates),
    the tool's own name for it and how it was read."""

    key: str | None
    fact: F.ToolDefault


class Family:
    """What every family answers; one subclass per family."""

    name = ""
    #: the command that measures the top layer (``{host}`` and ``{lib}`` filled in)
    remedy = ""

    def candidates(self, target: Target, ev: Evidence, env: Mapping[str, str]
                   ) -> list[C.Candidate]:
        raise NotImplementedError

    def default(self, target: Target, ev: Evidence, cands: list[C.Candidate], ctx: Ask
                ) -> Default:
        raise NotImplementedError

    def layers(self, target: Target, ev: Evidence, cands: list[C.Candidate], ctx: Ask
               ) -> list[LayerEvidence]:
        raise NotImplementedError

    def remedy_for(self, target: Target, ctx: Ask) -> str:
        """The command that measures this target's highest layer (for ``--host``: the
        primitives measured on that host, the only evidence of it besides ssh)."""
        if ctx.host:
            return f"cipherbench run --host {ctx.host}"
        return self.remedy.format(target=target.name, lib=target.lib or ctx.lib or "openssl",
                                  host=ctx.host or "")

    def preference(self, cand: C.Candidate) -> tuple:
        """The order among choices that cannot be told apart (the headline names the first):
        fixed, so noise between equals never changes the answer."""
        return (not cand.aead,)

    def answer_rows(self, target: Target, rows: list) -> list:
        """The rows the headline chooses among (all of the target's own rows)."""
        return rows

    def measured_without_aes(self, ev: Evidence) -> bool:
        """Whether the evidence holds runs made with AES instructions switched off, so
        ``--assume-no-aes`` reads them instead of estimating."""
        return False

    def own_rates(self, ev: Evidence, cands: list[C.Candidate], layers: list[LayerEvidence],
                  ctx: Ask, assume_no_aes: bool) -> list[str] | None:
        """Rates the family computes itself in place of its layers' (LUKS: the kernel's
        implementations); the notes on them, or None when the layers' rates stand."""
        return None

    def paired_rounds(self, ev: Evidence, rates: Mapping[str, Rate | None]) -> dict | None:
        """Candidate key -> its row of the run's paired rounds, for families measured in
        rounds beside the default (None: none)."""
        return None

    def paired_bottleneck(self, own: list, rec, ev: Evidence, link) -> tuple | None:
        """The bottleneck sentence and verdict from the paired rounds, where the family has
        them for the choice (None: judged from the rates)."""
        return None

    def baseline(self, ev: Evidence, rec) -> Rate | None:
        """The path measured beside the choice in the same run (ssh's cleartext TCP)."""
        return None

    def how_long(self, ev: Evidence, rec, link: tuple[float, str] | None) -> str:
        """A sentence after the answer on what the choice means for the user's task."""
        return ""


@dataclass
class Ask:
    """The parts of the question the families read: the TLS library, the host, the ssh
    config file and tools, the environment the tools are asked in."""

    lib: str | None = None
    host: str | None = None
    ssh_config: str | None = None
    via: list[str] | None = None
    env: Mapping[str, str] = field(default_factory=dict)


def primitives_of(ev: Evidence, ctx: Ask) -> tuple[Evidence, str]:
    """The primitives to read and how to say where they were measured: with ``--host``,
    those measured on that host, never this machine's."""
    return (ev.on_host(), f" measured on {ctx.host}") if ctx.host else (ev, "")


def merged(layers: list[LayerEvidence]) -> dict[str, Rate]:
    """Candidate key -> its rate from the highest layer that measured it, marked with the
    layer and its place in the order of authority."""
    out: dict[str, Rate] = {}
    for i, le in enumerate(layers):
        for k, r in le.rates.items():
            if k not in out:
                out[k] = replace(r, layer=le.layer.key, authority=i)
    return out
