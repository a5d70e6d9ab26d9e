# SPDX-License-Identifier: GPL-3.0-or-later
"""Put it together: the family's candidates, its evidence layers in order of authority, the
tool's default read from the tool, ranking, the verdict, the bottleneck, config lines ->
``Advice``. Every sentence comes from the verdict record (``verdicts``, ``wording``)."""
from __future__ import annotations

import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field

from cipherbench.analysis.delivered import throttled
from cipherbench.advise import configs
from cipherbench.advise import facts as F
from cipherbench.advise import rates as R
from cipherbench.advise import verdicts as A
from cipherbench.advise import wording as W
from cipherbench.advise.bottleneck import PathVerdict, sentence, verdict
from cipherbench.advise.configs.base import ConfigLine, Context
from cipherbench.advise.evidence import Evidence, Rate
from cipherbench.advise.families import FAMILIES, Ask, Family, LayerEvidence, merged
from cipherbench.advise.rank import Ranked, faster, indistinct, rank
from cipherbench.advise.targets import Target
from cipherbench.advise.validate import Validator, validate
from cipherbench.errors import EnvironmentProblem
from cipherbench.scenarios.ssh.tables import verdict_dict
from cipherbench.units import format_rate

#: cryptsetup's documented LUKS2 default, where cryptsetup is not installed to be asked.
LUKS_DEFAULT = "aes-xts-plain64:512"
#: The exit status of an answer that recommends nothing because nothing was measured
#: (docs/advise.md): apart from 1 (the machine) and 2 (the command line).
NOT_MEASURED_EXIT = 3


#: The stored commands whose runs are evidence for each family.
_COMMANDS = {"ssh": ("ssh", "run"), "tls": ("tls", "run"), "gpg": ("gpg", "run"),
             "luks": ("run",)}


@dataclass
class Options:
    """What the user asked for."""

    policy: str = "modern"
    link: tuple[float, str] | None = None
    host: str | None = None
    lib: str | None = None
    assume_no_aes: bool = False
    ssh_config: str | None = None
    via: list[str] | None = None


@dataclass
class Advice:
    """The answer for one target: the verdict record and what is rendered from it."""

    target: Target
    verdict: A.AnswerVerdict
    answer: str
    rows: list[Ranked]
    recommended: Ranked | None
    bottleneck: str
    lines: list[ConfigLine]
    notes: list[str] = field(default_factory=list)
    evidence_runs: list[int] = field(default_factory=list)
    path: PathVerdict | None = None     # the bottleneck verdict, when a path was known
    figures: str = ""
    decided_by: str = ""
    also: list[str] = field(default_factory=list)   # further sentences, from the same rows
    default_fact: F.ToolDefault | None = None
    left_out: list[str] = field(default_factory=list)   # the runs left out, each with why

    @property
    def exit_status(self) -> int:
        return NOT_MEASURED_EXIT if self.verdict.state == A.NOT_MEASURED else 0

    def to_json(self) -> dict:
        """The JSON form (``--json`` and the stored run)."""
        def rate(r: Rate | None):
            return None if r is None else {"bytes_per_s": r.bps, "source": r.source,
                                           "runs": list(r.run_ids), "detail": r.detail,
                                           "stand_in": r.stand_in, "estimated": r.estimated,
                                           "layer": r.layer}
        rec = self.recommended
        v = self.verdict
        return {
            "target": self.target.name,
            "answer": self.answer,
            "verdict": {
                "state": v.state, "against_default": v.against_default, "choice": v.choice,
                "default": v.default, "default_read_from": v.default_source,
                "closest": v.closest, "layer": v.layer_key or None,
                "runs": list(v.runs),
                "versus": None if v.versus is None else dict(
                    verdict_dict(v.versus.verdict, v.versus.figure) or {},
                    basis=v.versus.basis),
                "remedy": v.remedy if v.state == A.NOT_MEASURED else None},
            "figures": self.figures,
            "decided_by": self.decided_by,
            "also": self.also,
            "recommendation": None if rec is None else {
                "choice": rec.cand.key, "label": rec.cand.label, "grade": rec.cand.grade.level,
                "rate": rate(rec.rate)},
            "candidates": [{
                "rank": r.rank, "choice": r.cand.key, "label": r.cand.label,
                "cipher": r.cand.cipher, "mac": r.cand.mac, "aead": r.cand.aead,
                "grade": r.cand.grade.level, "grade_reason": r.cand.grade.reason,
                "grade_reference": r.cand.grade.reference, "allowed": r.allowed,
                "why_not": r.verdict.reason, "default": r.is_default,
                "available": r.cand.available, "note": r.cand.note, "rate": rate(r.rate),
                "cannot_tell_from_above": r.tie_text() if r.tied else None,
                "vs_default": verdict_dict(r.vs_default, r.vs_default_figure),
                "vs_baseline": verdict_dict(r.vs_baseline)}
                for r in self.rows],
            "bottleneck": self.bottleneck,
            "bottleneck_verdict": None if self.path is None else {
                "state": self.path.state, "share": _round4(self.path.share),
                "share_low": _round4(self.path.low), "share_high": _round4(self.path.high),
                "path": self.path.path, "path_bytes_per_s": self.path.path_bps,
                "rule": self.path.rule, "parts": self.path.parts},
            "config": [{"text": ln.text, "status": ln.status, "checked_by": ln.detail}
                       for ln in self.lines],
            "notes": self.notes,
            "evidence_runs": self.evidence_runs,
        }


def _round4(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _ssh_query(what: str) -> list[str] | None:
    """``ssh -Q what``, or None where ssh cannot tell (advice still comes, unchecked)."""
    from cipherbench.scenarios.ssh.server import query
    try:
        return query(what)
    except (EnvironmentProblem, OSError, subprocess.TimeoutExpired):
        return None


def ssh_client_default(host: str | None = None, ssh_config: str | None = None) -> str | None:
    """The first cipher of the client's own order (``ssh -G``), e.g. chacha20-poly1305."""
    return F.ssh_default(host, ssh_config).name


def gpg_default(env: Mapping[str, str]) -> F.ToolDefault:
    """gpg's cipher for ``--symmetric``, read from a probe encryption's packets."""
    return F.probe_gpg_default(env)


def gpg_algos(env: Mapping[str, str]) -> list[str]:
    """What the installed gpg offers (empty when gpg is missing)."""
    from cipherbench.scenarios.gpg import programs
    try:
        return programs.gpg_info(env)[2]
    except (programs.ProgramMissing, OSError, subprocess.SubprocessError):
        return []


def advise(target: Target, ev: Evidence, opts: Options, env: Mapping[str, str],
           validator: Validator) -> Advice:
    """The advice for one target from the evidence."""
    family = FAMILIES[target.family]
    ask = Ask(lib=opts.lib, host=opts.host, ssh_config=opts.ssh_config, via=opts.via, env=env)
    cands = family.candidates(target, ev, env)
    dflt = family.default(target, ev, cands, ask)
    layers = family.layers(target, ev, cands, ask)
    rates: dict[str, Rate | None] = dict(merged(layers))
    notes: list[str] = []
    host_share = ev.host_cpu_share() if opts.host else None
    if throttled(host_share):
        notes.append(f"{opts.host} gave the core {host_share:.0%} of a CPU: its rates here are "
                     "what it delivers per wall-clock second, for how long and the bottleneck "
                     "(`cipherbench show` has them per CPU second)")
    if opts.assume_no_aes:
        if family.measured_without_aes(ev):
            notes.append("rates from runs with AES instructions switched off (hw_disabled)")
        elif ev.cpu_flags is not None and "aes" not in ev.cpu_flags:
            notes.append("the evidence was measured on a CPU without AES instructions already")
        else:
            rates = R.without_aes(cands, rates)
            notes.append("--assume-no-aes: AES rates are estimates. " + R.NO_AES_SOURCE)
    more = family.own_rates(ev, cands, layers, ask, opts.assume_no_aes)
    if more is not None:
        rates = dict(merged(layers))
        notes = [n for n in notes if not n.startswith("--assume-no-aes")] + more
    rounds = family.paired_rounds(ev, rates)
    rows = rank(cands, rates, opts.policy, target.transport, dflt.key, rounds=rounds)
    own = own_tool_rows(target, rows, opts)
    v, rec = A.decide(target.name, family.answer_rows(target, own), layers, dflt, opts.policy,
                      family.remedy_for(target, ask), family.preference)
    bn, state = bottleneck_of(family, ev, own, rec, opts)
    if not v.recommends:
        bn = W.no_path(v)
    notes += layer_notes(target, layers, rows, v, ev)
    # the config lines put the choice the answer names first (a kept default before a
    # choice that cannot be told from it), then the others in rank order
    first = [rec] if rec is not None else []
    ctx = Context(first + [r for r in rows if r is not rec], opts.policy, opts.lib, opts.host,
                  validator, target=target.name,
                  extra={"via": opts.via or ([ev.ssh_via] if ev.ssh_via not in (None, "pipe")
                                             else None),
                         "ssh_config": opts.ssh_config})
    lines: list[ConfigLine] = []
    if v.recommends:
        for fam in target.configs:
            lines += configs.lines_for(fam, ctx)
        lines = validate(lines, validator)
    runs = sorted({i for r in rows if r.rate for i in r.rate.run_ids})
    text = W.answer(v) + choice_text(rec if v.recommends else None) + target_text(target, opts)
    if v.recommends:
        text += family.how_long(ev, rec, opts.link)
    if target.name == "nzbget":
        notes.insert(0, rc4_text(ev, opts))
    passed = [x for le in layers if le.layer.key == v.layer_key for x in le.passed_over]
    return Advice(target, v, text, rows, rec, bn, lines, notes, runs, state,
                  figures=W.figures(v), decided_by=W.decided_by(v, passed),
                  also=also_sentences(target, own, rows, rec, opts), default_fact=dflt.fact,
                  left_out=left_out(target, ev))


def bottleneck_of(family: Family, ev: Evidence, own: list[Ranked], rec: Ranked | None,
                  opts: Options) -> tuple[str, PathVerdict | None]:
    """The bottleneck sentence and verdict for the named choice (``bottleneck``; the family's
    paired rounds where it has them); without a path measured beside it, the sentence says
    so."""
    if rec is None or rec.rate is None:
        return "", None
    paired = family.paired_bottleneck(own, rec, ev, opts.link)
    if paired is not None:
        return paired
    baseline = family.baseline(ev, rec)
    state = verdict(own, opts.link, baseline, rec)
    if state is None:
        return ("No path was measured beside the cipher, so whether crypto is the bottleneck "
                "is not told here (give your link or disk rate with --link SPEED)."), None
    return sentence(own, opts.link, baseline, rec), state


def layer_notes(target: Target, layers: list[LayerEvidence], rows: list[Ranked],
                v: A.AnswerVerdict, ev: Evidence) -> list[str]:
    """Notes on the evidence: which layers stand in below the deciding one, what was left out."""
    notes = []
    lower = sorted({r.rate.layer for r in rows if r.rate and r.rate.layer != v.layer_key
                    and r.rate.layer})
    titles = {le.layer.key: le.layer.title for le in layers}
    if lower and v.layer_key:
        notes.append("rows not measured by " + v.layer + " show their rate from "
                     + ", ".join(titles[k] for k in lower) + "; they are not ranked against it")
    if target.lib == "go" and not any(le.rates for le in layers):
        notes.append("no measurements of Go's crypto here: build the Go core "
                     "(scripts/build-extra-cores.sh in a source checkout, with Go installed), "
                     "then advise again")
    left = left_out(target, ev)
    if left:
        notes.append(left_out_text(left))
    return notes


#: How the note on the runs left out begins.
LEFT_OUT = "left out of the evidence"


def left_out(target: Target, ev: Evidence) -> list[str]:
    """The runs of the target's commands left out of the evidence, each with why."""
    return [x.text() for x in ev.left_out if x.command in _COMMANDS[target.family]]


def left_out_text(left: list[str]) -> str:
    """One note naming the runs left out of the evidence, and why."""
    return (f"{LEFT_OUT} (never mixed with it): " + "; ".join(left[:6])
            + (f"; and {len(left) - 6} more" if len(left) > 6 else ""))


def choice_text(rec: Ranked | None) -> str:
    """What a TLS 1.2 suite named alone needs: the certificate type it negotiates with."""
    suite = rec.cand.names.get("suite") if rec is not None else None
    if suite is None or suite.tls13 or suite.kx not in ("ECDHE-RSA", "ECDHE-ECDSA"):
        return ""
    cert, twin = ("an RSA", "ECDSA") if suite.kx == "ECDHE-RSA" else ("an ECDSA", "RSA")
    return (f" It is the TLS 1.2 suite for a server with {cert} certificate; the config line "
            f"lists its {twin} twin too.")


def target_text(target: Target, opts: Options) -> str:
    """What the target's own config line does beyond the choice (fixed per target)."""
    if target.name == "nzbget":
        return tls13_text(opts.lib)
    if target.lib == "go":
        return (" When the other end speaks TLS 1.3, Go's crypto/tls picks its suite itself "
                "(AES-GCM when both ends have AES instructions, else ChaCha20-Poly1305); the "
                "line does not change it.")
    return ""


def own_tool_rows(target: Target, rows: list[Ranked], opts: Options) -> list[Ranked]:
    """The rows the answer may name, only what the printed lines select: gpg and age share a
    family (one table compares them), but the answer for gpg is a gpg setting and the answer
    for age is age; NZBGet's OpenSSL line is a TLS 1.2 cipher list and Go's crypto/tls sets
    TLS 1.2 suites only, so neither selects a TLS 1.3 suite (NZBGet's GnuTLS string does:
    ``--lib gnutls`` prints it alone)."""
    if not target.selects_tls13 and not (target.name == "nzbget" and opts.lib == "gnutls"):
        return [r for r in rows if not getattr(r.cand.names.get("suite"), "tls13", False)]
    if target.name == "gpg":
        return [r for r in rows if r.cand.key != "age"]
    if target.name == "age":
        return [r for r in rows if r.cand.key == "age"]
    return rows


def tls13_text(lib: str | None) -> str:
    """What NZBGet's line does when the news server offers TLS 1.3."""
    start = " When the news server offers TLS 1.3, its suites are negotiated apart from "
    if lib == "gnutls":
        return (" When the news server offers TLS 1.3, the GnuTLS priority string selects "
                "its suites by the same ciphers, in the same order.")
    if lib == "openssl":
        return (start + "this list, which does not change them (OpenSSL's own TLS 1.3 suites "
                "apply, all AEAD).")
    return (start + "the TLS 1.2 list: the OpenSSL line does not change them (OpenSSL's own "
            "TLS 1.3 suites apply, all AEAD); the GnuTLS string selects them by the same "
            "ciphers.")


def rc4_text(ev: Evidence, opts: Options) -> str:
    """One sentence on RC4-MD5, the old fast setting: what replaced it and why."""
    has_aes = None if ev.cpu_flags is None else "aes" in ev.cpu_flags
    here = "" if has_aes is None or opts.assume_no_aes else \
        (" (this CPU has them)" if has_aes else " (this CPU has not)")
    return ("RC4-MD5, the old setting for speed, is broken: RC4's keystream biases recover "
            "plaintext and RFC 7465 prohibits RC4 in TLS; AES-GCM replaced it on CPUs with AES "
            f"instructions{here}, ChaCha20-Poly1305 on CPUs without them.")


def _rate_text(r: Ranked) -> str:
    return format_rate(r.rate.bps) if r.rate is not None else "not measured"


def also_sentences(target: Target, own: list[Ranked], rows: list[Ranked],
                   rec: Ranked | None, opts: Options) -> list[str]:
    """Further sentences from the same rows and verdicts: a faster choice the policy refuses
    (and why), and for gpg, age when it is allowed and measurably faster."""
    if rec is None or rec.rate is None:
        return []
    out = []
    refused = [r for r in rows if faster(r, rec) and not r.allowed and r.cand.available
               and r.rate is not None and r.rate.authority == rec.rate.authority]
    if refused:
        f = refused[0]
        out.append(f"{f.cand.label} is faster ({_rate_text(f)}) but not allowed: "
                   f"{f.verdict.reason}.")
    elif opts.policy != "legacy":
        bad = [r for r in rows if r.rate and r.cand.grade.level in ("legacy", "broken")
               and r.rate.authority == rec.rate.authority]
        if bad:
            b = bad[0]
            if faster(b, rec):
                why = "" if b.cand.available else " if this tool still offered it"
                out.append(f"{b.cand.label} ({b.cand.grade.level}: {b.cand.grade.reason}) "
                           f"would be faster{why} ({_rate_text(b)}), and is not "
                           "recommended.")
            elif indistinct(b, rec):
                out.append(f"No legacy or broken choice is measurably faster here (best of "
                           f"them: {b.cand.label}, {_rate_text(b)}, within the "
                           "measurement noise).")
            else:
                out.append(f"No legacy or broken choice is faster here (best of them: "
                           f"{b.cand.label}, {_rate_text(b)}).")
    if rec.cand.grade.level in ("legacy", "broken"):
        out.append(f"It is {rec.cand.grade.level.upper()}: {rec.cand.grade.reason} "
                   f"({rec.cand.grade.reference}); --policy legacy allows it only because you "
                   "asked.")
    if target.name == "gpg":
        age = next((r for r in rows if r.cand.key == "age" and r.allowed and r.rate), None)
        if age is not None and faster(age, rec):
            out.append(f"Alternative, if you can change the tool: age (ChaCha20-Poly1305) "
                       f"reaches {_rate_text(age)} here (`advise --for age` gives "
                       "its commands).")
    return out
