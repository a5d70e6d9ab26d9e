"""Put it together: candidates, rates, ranking, bottleneck, config lines -> ``Advice``."""
from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from typing import Mapping

from cipherbench.advise import candidates as C, configs, paired as P, policy as pol, rates as R
from cipherbench.advise.bottleneck import PathVerdict, sentence, verdict
from cipherbench.units import format_rate
from cipherbench.advise.configs.base import ConfigLine, Context
from cipherbench.advise.evidence import BASELINE_ALGO, Evidence, Rate, rel_ci
from cipherbench.advise.rank import Ranked, best, default_row, faster, indistinct, rank
from cipherbench.advise.targets import Target
from cipherbench.advise.validate import Validator, validate
from cipherbench.errors import EnvironmentProblem
from cipherbench.scenarios.ssh.tables import verdict_dict

#: Defaults of the tools, for "faster than the default": TLS 1.3's first suite in OpenSSL
#: and GnuTLS, cryptsetup's LUKS2 default, gpg 2.2's --s2k-cipher-algo default.
TLS_DEFAULT = "TLS_AES_256_GCM_SHA384"
#: What Go's crypto/tls negotiates first when both ends have AES instructions (its TLS 1.3
#: preference order: AES-128-GCM, ChaCha20-Poly1305, AES-256-GCM).
GO_TLS_DEFAULT = "TLS_AES_128_GCM_SHA256"
LUKS_DEFAULT = "aes-xts-plain64:512"
GPG_DEFAULT = "AES"


#: The stored commands whose runs are evidence for each family.
_COMMANDS = {"ssh": ("ssh", "run"), "tls": ("tls", "run"), "gpg": ("gpg", "run"),
             "luks": ("run",)}


@dataclass
class Options:
    """What the user asked for."""

    policy: str = pol.DEFAULT
    link: tuple[float, str] | None = None
    host: str | None = None
    lib: str | None = None
    assume_no_aes: bool = False
    ssh_config: str | None = None
    via: list[str] | None = None


@dataclass
class Advice:
    """The answer for one target."""

    target: Target
    answer: str
    rows: list[Ranked]
    recommended: Ranked | None
    bottleneck: str
    lines: list[ConfigLine]
    notes: list[str] = field(default_factory=list)
    evidence_runs: list[int] = field(default_factory=list)
    path: PathVerdict | None = None     # the bottleneck verdict, when a path was known

    def to_json(self) -> dict:
        """The JSON form (``--json`` and the stored run)."""
        def rate(r: Rate | None):
            return None if r is None else {"bytes_per_s": r.bps, "source": r.source,
                                           "runs": list(r.run_ids), "detail": r.detail,
                                           "stand_in": r.stand_in, "estimated": r.estimated}
        rec = self.recommended
        return {
            "target": self.target.name,
            "answer": self.answer,
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


def ssh_client_default() -> str | None:
    """The first cipher of the client's defaults (``ssh -G``), e.g. chacha20-poly1305."""
    try:
        p = subprocess.run(["ssh", "-G", "-F", "/dev/null", "localhost"], capture_output=True,
                           text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for ln in p.stdout.splitlines():
        if ln.startswith("ciphers "):
            return ln.split()[1].split(",")[0]
    return None


def gpg_algos(env: Mapping[str, str]) -> list[str]:
    """What the installed gpg offers (empty when gpg is missing)."""
    from cipherbench.scenarios.gpg import programs
    try:
        return programs.gpg_info(env)[2]
    except (programs.ProgramMissing, OSError, subprocess.SubprocessError):
        return []


def candidates_for(target: Target, ev: Evidence, env: Mapping[str, str]
                   ) -> tuple[list[C.Candidate], str | None]:
    """The target's candidates and the key of the tool's default among them."""
    if target.family == "ssh":
        measured = [(r.extra.get("cipher") or r.algo.split("+")[0], r.extra.get("mac"))
                    for r in ev.ssh.values() if r.lib == "openssh"]
        cands = C.ssh_candidates(_ssh_query("cipher"), measured)
        dflt = ssh_client_default()
        return cands, dflt
    if target.family == "tls":
        return C.tls_candidates(target.lib), GO_TLS_DEFAULT if target.lib == "go" \
            else TLS_DEFAULT
    if target.family == "gpg":
        from cipherbench.scenarios.gpg import programs
        algos = gpg_algos(env) or sorted({r.algo for r in ev.gpg_rows if r.tool == "gnupg"})
        age = programs.age_info(env) is not None or any(r.tool == "age" for r in ev.gpg_rows)
        return C.gpg_candidates(algos, age), GPG_DEFAULT
    return C.luks_candidates(), LUKS_DEFAULT


def advise(target: Target, ev: Evidence, opts: Options, env: Mapping[str, str],
           validator: Validator) -> Advice:
    """The advice for one target from the evidence."""
    cands, dflt = candidates_for(target, ev, env)
    lib = target.lib or opts.lib or "openssl"
    rates = R.rates_for(target.family, ev, cands, lib)
    notes: list[str] = []
    if opts.assume_no_aes:
        if ev.no_aes_runs and target.family == "tls":
            notes.append("rates from runs with AES instructions switched off (hw_disabled)")
        elif ev.cpu_flags is not None and "aes" not in ev.cpu_flags:
            notes.append("the evidence was measured on a CPU without AES instructions already")
        else:
            rates = R.without_aes(cands, rates)
            notes.append("--assume-no-aes: AES rates are estimates. " + R.NO_AES_SOURCE)
    if target.family == "luks":     # the kernel's implementation, not a library's
        from cipherbench.advise import luks_kernel
        rates, more = luks_kernel.rates(ev, cands, luks_kernel.read_view(env, ev.cpu_flags),
                                        opts.assume_no_aes)
        notes = [n for n in notes if not n.startswith("--assume-no-aes")] + more
    rows = rank(cands, rates, opts.policy, target.transport, dflt,
                rounds=paired_rounds(ev, rates) if target.family == "ssh" else None)
    own = own_tool_rows(target, rows, opts)
    rec = best(own)
    baseline = ssh_baseline(ev, rec) if target.family == "ssh" else None
    if target.family == "ssh" and P.applies(rec):
        assert rec is not None
        bn, state = P.bottleneck(own, rec, baseline, opts.link,
                                 ev.ssh_run.id if ev.ssh_run else None)
    else:
        bn = sentence(own, opts.link, baseline)
        state = verdict(own, opts.link, baseline)
    stand_ins = {r.rate.source for r in rows if r.rate and r.rate.stand_in and r.allowed}
    if target.lib == "go" and not any(r.rate for r in rows):
        notes.append("no measurements of Go's crypto here: build the Go core "
                     "(scripts/build-extra-cores.sh in a source checkout, with Go installed), "
                     "then advise again")
    elif target.lib == "go" and stand_ins:
        notes.append("Go's primitive AEAD and cipher+MAC rates stand in for its TLS record "
                     "layer where `cipherbench tls --lib go` has no result")
    elif target.family == "tls" and stand_ins:
        notes.append(f"no stored TLS record-layer results for {lib}: the primitive AEAD and "
                     "cipher+MAC rates stand in for TLS (run `cipherbench tls` to measure the "
                     "real record layer)")
    if target.family == "ssh" and stand_ins:
        notes.append("some rates are primitive stand-ins (no ssh measurement of them)")
    left = [x.text() for x in ev.left_out if x.command in _COMMANDS[target.family]]
    if left:
        notes.append("left out of the evidence (never mixed with it): " + "; ".join(left[:6])
                     + (f"; and {len(left) - 6} more" if len(left) > 6 else ""))
    if target.family == "gpg" and stand_ins:
        notes.append("some rates are libgcrypt CFB stand-ins (no gpg measurement of them)")
    # the one-off line of the tool measured (every tool's when it was ssh's own pipe)
    via = opts.via or ([ev.ssh_via] if ev.ssh_via not in (None, "pipe") else None)
    ctx = Context(rows, opts.policy, opts.lib, opts.host, validator, target=target.name,
                  extra={"via": via, "ssh_config": opts.ssh_config})
    lines: list[ConfigLine] = []
    for fam in target.configs:
        lines += configs.lines_for(fam, ctx)
    lines = validate(lines, validator)
    runs = sorted({i for r in rows if r.rate for i in r.rate.run_ids})
    text = answer_text(target, own, rec, opts) + other_tool_text(target, rows, rec)
    if target.family == "gpg" and rec is not None and ev.gpg_run is not None:
        from cipherbench.scenarios.gpg import backup as gpg_backup, tables as gpg_tables
        args = ev.gpg_run.args
        disk = gpg_backup.Disk(opts.link[0], "your --link") if opts.link else \
            gpg_tables.disk_of(args, [])
        text += gpg_tables.how_long(ev.gpg_rows, "age" if rec.cand.key == "age" else "gnupg",
                                    rec.cand.key, int(args.get("backup_size") or 50 << 30),
                                    disk)
    if target.name == "nzbget":
        text += tls13_text(opts.lib)
        notes.insert(0, rc4_text(ev, opts))
    elif target.lib == "go":
        text += (" When the other end speaks TLS 1.3, Go's crypto/tls picks its suite itself "
                 "(AES-GCM when both ends have AES instructions, else ChaCha20-Poly1305); the "
                 "line does not change it.")
    return Advice(target, text, rows, rec, bn, lines, notes, runs, state)


def paired_rounds(ev: Evidence, rates: Mapping[str, Rate | None]) -> dict:
    """Candidate key -> the ssh scenario's row, for the rates measured in the ssh run's
    paired rounds (not for primitive stand-ins, nor for rates estimated from them)."""
    return {k: ev.ssh_rounds[k] for k, r in rates.items()
            if r is not None and r.source == "ssh" and not r.estimated and k in ev.ssh_rounds}


def ssh_baseline(ev: Evidence, rec: Ranked | None) -> Rate | None:
    """The cleartext baseline of the ssh run the recommendation was measured in (a primitive
    stand-in is not compared with a path it never took)."""
    b = ev.ssh.get(BASELINE_ALGO)
    if b is None or ev.ssh_run is None or rec is None or rec.rate is None or \
            rec.rate.source != "ssh" or ev.ssh_run.id not in rec.rate.run_ids:
        return None
    return Rate(b.median, "ssh", (ev.ssh_run.id,), "cleartext TCP baseline", rel_ci=rel_ci(b))


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


def other_tool_text(target: Target, rows: list[Ranked], rec: Ranked | None) -> str:
    """For gpg, one sentence on age when it is allowed and measured faster (an alternative,
    not the answer)."""
    if target.name != "gpg" or rec is None or rec.rate is None:
        return ""
    age = next((r for r in rows if r.cand.key == "age" and r.allowed and r.rate), None)
    if age is None or age.rate.bps <= rec.rate.bps or age.rate.overlaps(rec.rate):
        return ""
    return (f" Alternative, if you can change the tool: age (ChaCha20-Poly1305) reaches "
            f"{format_rate(age.rate.bps)} here (`advise --for age` gives its commands).")


def answer_text(target: Target, rows: list[Ranked], rec: Ranked | None, opts: Options) -> str:
    """The answer in one or two sentences."""
    if rec is None:
        return (f"For {target.name}, the {opts.policy} policy allows none of the candidates "
                "this machine has; see the table for why.")
    speed = f" at {format_rate(rec.rate.bps)}" if rec.rate else " (not measured)"
    est = " (estimated for a CPU without AES instructions)" if rec.rate and rec.rate.estimated \
        else ""
    kept = P.kept_default(rows, rec)
    if kept is not None:
        text = P.kept_text(target.name, opts.policy, rec, kept)
    elif P.outpaced(rows, rec):
        text = (f"For {target.name}, use {rec.cand.label}: of the choices the {opts.policy} "
                f"policy allows, the one the paired rounds judge best here{speed} (another "
                "moved more in these rounds, not measurably).")
    else:
        text = f"For {target.name}, use {rec.cand.label}: the fastest choice the " \
               f"{opts.policy} policy allows here{speed}{est}."
    if rec.cand.grade.level in ("legacy", "broken"):
        text += (f" It is {rec.cand.grade.level.upper()}: {rec.cand.grade.reason} "
                 f"({rec.cand.grade.reference}); --policy legacy allows it only because you "
                 "asked.")
    quicker = [r for r in rows if faster(r, rec) and not r.allowed and r.cand.available]
    if quicker:
        f = quicker[0]
        text += (f" {f.cand.label} is faster ({format_rate(f.rate.bps)}) but not allowed: "
                 f"{f.verdict.reason}.")
    elif opts.policy != "legacy":
        bad = [r for r in rows if r.rate and r.cand.grade.level in ("legacy", "broken")]
        if bad and rec.rate:
            b = bad[0]
            if faster(b, rec):
                # Faster, but not something this machine's tool can even use (or not allowed):
                # say so rather than claim nothing old is faster.
                why = "" if b.cand.available else " if this tool still offered it"
                text += (f" {b.cand.label} ({b.cand.grade.level}: {b.cand.grade.reason}) "
                         f"would be faster{why} ({format_rate(b.rate.bps)}), and is not "
                         "recommended.")
            elif indistinct(b, rec):
                text += (f" No legacy or broken choice is measurably faster here (best of "
                         f"them: {b.cand.label}, {format_rate(b.rate.bps)}, within the "
                         "measurement noise).")
            else:
                text += f" No legacy or broken choice is faster here (best of them: " \
                        f"{b.cand.label}, {format_rate(b.rate.bps)})."
    dflt = default_row(rows)
    paired = P.versus_default(rows, rec)
    if kept is not None:
        pass
    elif dflt is not None and dflt is rec:
        text += " It is already the default."
    elif paired is not None:
        text += paired
    elif (dflt is not None and dflt.allowed and dflt.rate and rec.rate
          and rec.rate.overlaps(dflt.rate)):
        text += (f" The default ({dflt.cand.label}) is within the measurement noise of it, "
                 "so keeping the default is as good.")
    return text
