# SPDX-License-Identifier: GPL-3.0-or-later
"""Each advise target family as one object: its candidates, the tool's own default (read from
the tool, ``facts``), its evidence layers in order of authority, and the command that
measures what is missing.

The layers, highest authority first:

- ssh: the user's ssh program through the tool the answer is for (``--via``, else ssh's own
  pipe), then through another tool (scp, sftp, rsync), then the primitives of ssh's library
  (OpenSSL's libcrypto; with ``--host``, the primitives measured on that host), then, for
  ``--assume-no-aes``, the cited estimate;
- TLS: the library's own record layer (``cipherbench tls``, for the library the program is
  built on), then the same record layer measured under the suite's twin (the same cipher and
  MAC under another certificate type: not a choice measured, so never the headline), then the
  library's primitives;
- gpg / age: the real ``gpg --symmetric`` (or age) of the gpg run, then libgcrypt's CFB
  primitives;
- LUKS: the user-space primitives of the same modes.

A lower layer never replaces a higher one: a candidate takes its rate from the highest layer
that measured it, the answer is decided in the highest layer that measured an allowed
candidate, and every rate carries its layer (``Rate.layer``, ``Rate.authority``).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cipherbench.advise import candidates as C
from cipherbench.advise import facts as F
from cipherbench.advise import rates as R
from cipherbench.advise.evidence import BASELINE_ALGO, Evidence, LeftOut, Rate, rel_ci
from cipherbench.advise.targets import Target
from cipherbench.analysis import verdict as V
from cipherbench.scenarios.ssh import tables as ssh_tables
from cipherbench.units import format_bytes


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


def _primitives_of(ev: Evidence, ctx: Ask) -> tuple[Evidence, str]:
    """The primitives to read and how to say where they were measured: with ``--host``,
    those measured on that host, never this machine's."""
    return (ev.on_host(), f" measured on {ctx.host}") if ctx.host else (ev, "")


# -- ssh ---------------------------------------------------------------------------------------
class SshFamily(Family):
    name = "ssh"
    remedy = "cipherbench advise --for ssh{host_opt}"

    def remedy_for(self, target: Target, ctx: Ask) -> str:
        return self.remedy.format(host_opt=f" --host {ctx.host}" if ctx.host else "")

    def candidates(self, target, ev, env):
        from cipherbench.advise.engine import _ssh_query
        measured = [(r.extra.get("cipher") or r.algo.split("+")[0], r.extra.get("mac"))
                    for layer in ev.ssh_layers for r in layer.rows.values()
                    if r.lib == "openssh"]
        return C.ssh_candidates(_ssh_query("cipher"), measured)

    def default(self, target, ev, cands, ctx):
        from cipherbench.advise import engine  # where tests replace the reading
        name = engine.ssh_client_default(ctx.host, ctx.ssh_config)
        fact = F.ToolDefault(name, "`ssh -G`" + (f" for {ctx.host}" if ctx.host else "")) \
            if name else F.ToolDefault(None, "`ssh -G` could not be read")
        return Default(name if any(c.key == name for c in cands) else None, fact)

    def preference(self, cand):
        # OpenSSH's own order of preference among equals (its default list)
        order = ("chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com",
                 "aes256-gcm@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr")
        name = cand.names.get("cipher", "")
        return (not cand.aead, order.index(name) if name in order else len(order))

    def paired_rounds(self, ev, rates):
        """The rates measured in the ssh run's paired rounds (not primitive stand-ins, nor
        rates estimated from them)."""
        return {k: ev.ssh_rounds[k] for k, r in rates.items()
                if r is not None and r.source == "ssh" and not r.estimated
                and k in ev.ssh_rounds and ev.ssh_run is not None
                and ev.ssh_run.id in r.run_ids and r.layer in ("", f"ssh:{ev.ssh_via}")}

    def paired_bottleneck(self, own, rec, ev, link):
        from cipherbench.advise import paired as P
        if not P.applies(rec):
            return None
        return P.bottleneck(own, rec, self.baseline(ev, rec), link,
                            ev.ssh_run.id if ev.ssh_run else None)

    def baseline(self, ev, rec):
        """The cleartext baseline of the ssh run the choice was measured in (a primitive
        stand-in is not compared with a path it never took)."""
        b = ev.ssh.get(BASELINE_ALGO)
        if b is None or ev.ssh_run is None or rec is None or rec.rate is None or \
                rec.rate.source != "ssh" or ev.ssh_run.id not in rec.rate.run_ids:
            return None
        return Rate(b.median, "ssh", (ev.ssh_run.id,), "cleartext TCP baseline",
                    rel_ci=rel_ci(b))

    def layers(self, target, ev, cands, ctx):
        out = []
        for i, sl in enumerate(ev.ssh_layers):
            tool = "its own pipe" if sl.via == "pipe" else sl.via
            where = f" to {ctx.host}" if ctx.host else ""
            le = LayerEvidence(Layer(f"ssh:{sl.via}", f"ssh through {tool}{where}", True),
                               runs=(sl.run.id,), passed_over=list(sl.passed_over),
                               rounds=sl.rounds)
            for c in cands:
                algo = c.names["cipher"] + (f"+{c.names['mac']}" if c.names.get("mac") else "")
                r = sl.rows.get(algo)
                if r is not None:
                    le.rates[c.key] = Rate(r.median, "ssh", (sl.run.id,),
                                           f"ssh transfers of {format_bytes(r.size or 0)} "
                                           f"through {sl.via}, run {sl.run.id}",
                                           rel_ci=rel_ci(r))
            if i == 0:
                # the paired verdicts are the run's own rows against its default (``rank``)
                le.reference = next((k for k, row in sl.rounds.items() if row.is_default),
                                    None)
            out.append(le)
        src, where = _primitives_of(ev, ctx)
        prim = LayerEvidence(Layer("primitive:openssl",
                                   f"OpenSSL's primitives{where} (ssh's libcrypto)", False))
        for c in cands:
            why = (f"primitive{where}: this ssh cannot use it" if not c.available else
                   f"primitive stand-in{where}: no ssh measurement")
            r = R.primitive_rate(src, c, ["openssl"], why)
            if r is not None:
                prim.rates[c.key] = r
        prim.runs = tuple(sorted({i for r in prim.rates.values() for i in r.run_ids}))
        out.append(prim)
        return out


# -- TLS ---------------------------------------------------------------------------------------
class TlsFamily(Family):
    name = "tls"
    remedy = "cipherbench tls --lib {lib}"

    def candidates(self, target, ev, env):
        return C.tls_candidates(target.lib)

    def default(self, target, ev, cands, ctx):
        lib = target.lib or ctx.lib or "openssl"
        names, how = F.tls_suite_order(lib, ctx.env)
        usable = {c.key for c in cands if c.available and _selectable(target, ctx, c)}
        for n in names:
            s = C.suite_by_name(n)
            # a TLS 1.2 list: the first suite a server with an RSA certificate can negotiate
            if s is not None and s.iana in usable and s.kx != "ECDHE-ECDSA":
                return Default(s.iana, F.ToolDefault(n, how))
        return Default(None, F.ToolDefault(None, how if not names else
                                           f"{how} named none of these suites"))

    def measured_without_aes(self, ev):
        return bool(ev.no_aes_runs)

    def answer_rows(self, target, rows):
        """A program that speaks TLS 1.3 negotiates it with every peer that does: its answer
        is a TLS 1.3 suite when one was measured (the TLS 1.2 list, for older peers, is in
        its config lines), never a move down to TLS 1.2."""
        measured = [r.rate.authority for r in rows if r.allowed and r.rate is not None]
        tls13 = [r for r in rows if getattr(r.cand.names.get("suite"), "tls13", False)]
        if measured and any(r.allowed and r.rate is not None and
                            r.rate.authority == min(measured) for r in tls13):
            return tls13
        return rows

    def preference(self, cand):
        s = cand.names.get("suite")
        # a suite for the RSA certificates most servers have, before its ECDSA twin
        return (not cand.aead, not getattr(s, "tls13", False),
                getattr(s, "kx", "") == "ECDHE-ECDSA")

    def layers(self, target, ev, cands, ctx):
        lib = target.lib or ctx.lib or "openssl"
        tl = ev.tls_layers.get(lib)
        own = LayerEvidence(Layer(f"tls:{lib}", f"the {lib} TLS record layer", True))
        twin = LayerEvidence(Layer(f"tls-twin:{lib}", f"the {lib} TLS record layer of the "
                                   "same cipher under another certificate type", True))
        if tl is not None:
            own.runs = twin.runs = (tl.run.id,)
            own.passed_over = list(tl.passed_over)
            own.reference = tl.default_suite
            for c in cands:
                row = tl.rows.get(c.key)
                if row is not None and tl.size in row.rates:
                    own.rates[c.key] = self._rate(lib, tl, row, f"{tl.size and format_bytes(tl.size)} "
                                                  f"writes, run {tl.run.id}")
                    v = row.versus.get(tl.size)
                    if v is not None:
                        own.versus[c.key] = v
                    continue
                s = c.names["suite"]
                for iana, other in sorted(tl.rows.items()):
                    t = C.suite_by_name(iana)
                    if t is not None and tl.size in other.rates and \
                            (t.cipher, t.mac, t.tls13) == (s.cipher, s.mac, s.tls13):
                        twin.rates[c.key] = self._rate(
                            lib, tl, other, f"measured as {t.openssl}, run {tl.run.id}")
                        break
        src, where = _primitives_of(ev, ctx)
        prim = LayerEvidence(Layer(f"primitive:{lib}", f"{lib}'s primitives{where}", False))
        for c in cands:
            r = R.primitive_rate(src, c, [lib], "primitive stand-in for the TLS record layer")
            if r is not None:
                prim.rates[c.key] = r
        prim.runs = tuple(sorted({i for r in prim.rates.values() for i in r.run_ids}))
        return [own, twin, prim]

    @staticmethod
    def _rate(lib, tl, row, what) -> Rate:
        lo, hi = row.ci.get(tl.size, (None, None))
        bps = row.rates[tl.size]
        rel = abs(hi - lo) / (2 * bps) if lo is not None and hi is not None and bps else None
        return Rate(bps, "tls", (tl.run.id,), f"{lib} TLS record layer, {what}", rel_ci=rel)


def _selectable(target: Target, ctx: Ask, c: C.Candidate) -> bool:
    """The target's config line can select this suite (see ``engine.own_tool_rows``)."""
    tls13 = getattr(c.names.get("suite"), "tls13", False)
    return not tls13 or target.selects_tls13 or (target.name == "nzbget" and ctx.lib == "gnutls")


# -- gpg and age -------------------------------------------------------------------------------
class GpgFamily(Family):
    name = "gpg"
    remedy = "cipherbench gpg"

    def candidates(self, target, ev, env):
        from cipherbench.advise.engine import gpg_algos
        from cipherbench.scenarios.gpg import programs
        algos = gpg_algos(env) or sorted({r.algo for r in ev.gpg_rows if r.tool == "gnupg"})
        age = programs.age_info(env) is not None or any(r.tool == "age" for r in ev.gpg_rows)
        return C.gpg_candidates(algos, age)

    def default(self, target, ev, cands, ctx):
        if target.name == "age":
            return Default(None, F.ToolDefault(None, "age has one cipher, nothing to choose"))
        if ev.gpg_default and ev.gpg_run is not None:
            fact = F.ToolDefault(ev.gpg_default, f"run {ev.gpg_run.id}'s probe encryption "
                                 "(`gpg --list-packets`)")
        else:
            from cipherbench.advise import engine  # where tests replace the reading
            fact = engine.gpg_default(ctx.env)
        key = fact.name.upper() if fact.name else None
        return Default(key if any(c.key == key for c in cands) else None, fact)

    def preference(self, cand):
        return (cand.key != "AES256", cand.key != "AES")

    def how_long(self, ev, rec, link):
        """How long the user's backup takes with the choice, from the gpg run's rows."""
        if rec is None or ev.gpg_run is None:
            return ""
        from cipherbench.scenarios.gpg import backup as gpg_backup
        from cipherbench.scenarios.gpg import tables as gpg_tables
        args = ev.gpg_run.args
        disk = gpg_backup.Disk(link[0], "your --link") if link else \
            gpg_tables.disk_of(args, [])
        return gpg_tables.how_long(ev.gpg_rows, "age" if rec.cand.key == "age" else "gnupg",
                                   rec.cand.key, int(args.get("backup_size") or 50 << 30),
                                   disk)

    def layers(self, target, ev, cands, ctx):
        real = LayerEvidence(Layer("gpg", "gpg --symmetric and age, encrypting", True))
        if ev.gpg_run is not None:
            real.runs = (ev.gpg_run.id,)
            real.passed_over = list(ev.gpg_passed_over)
            real.reference = ev.gpg_default.upper() if ev.gpg_default else None
            for row in ev.gpg_rows:
                key = "age" if row.tool == "age" else row.algo.upper()
                real.rates[key] = Rate(1.0 / row.per_byte_s, "gpg", (ev.gpg_run.id,),
                                       f"{'age' if row.tool == 'age' else 'gpg --symmetric'} "
                                       f"bulk rate, run {ev.gpg_run.id}",
                                       rel_ci=ev.gpg_ci.get((row.tool, row.algo)))
                v = row.versus.get("encrypt")
                if v is not None and row.tool == "gnupg":
                    real.versus[key] = v
                    if ev.gpg_figure:
                        real.figure[key] = ev.gpg_figure
        src, where = _primitives_of(ev, ctx)
        prim = LayerEvidence(Layer("primitive:libgcrypt", f"libgcrypt's CFB primitives{where}",
                                   False))
        for c in cands:
            if c.key != "age":
                r = R.primitive_rate(src, c, ["libgcrypt"],
                                     "primitive stand-in: no gpg measurement")
                if r is not None:
                    prim.rates[c.key] = r
        prim.runs = tuple(sorted({i for r in prim.rates.values() for i in r.run_ids}))
        return [real, prim]


# -- LUKS --------------------------------------------------------------------------------------
class LuksFamily(Family):
    name = "luks"
    remedy = "cipherbench advise --for luks"

    def candidates(self, target, ev, env):
        return C.luks_candidates()

    def default(self, target, ev, cands, ctx):
        fact = F.luks_default(ctx.env)
        key = fact.name if fact.name and any(c.key == fact.name for c in cands) else None
        if fact.name is None:
            # cryptsetup not installed: its documented LUKS2 default, said to be quoted
            from cipherbench.advise.engine import LUKS_DEFAULT
            return Default(LUKS_DEFAULT, F.ToolDefault(
                LUKS_DEFAULT, f"cryptsetup's documented LUKS2 default ({fact.source})"))
        return Default(key, fact)

    def own_rates(self, ev, cands, layers, ctx, assume_no_aes):
        """The kernel's implementations (``luks_kernel``), each rated by the user-space code
        of its kind, in place of the primitives' rates."""
        from cipherbench.advise import luks_kernel
        kernel, notes = luks_kernel.rates(ev, cands, luks_kernel.read_view(ctx.env, ev.cpu_flags),
                                          assume_no_aes)
        layers[0].rates = {k: r for k, r in kernel.items() if r is not None}
        layers[0].runs = tuple(sorted({i for r in layers[0].rates.values() for i in r.run_ids}))
        return notes

    def layers(self, target, ev, cands, ctx):
        src, where = _primitives_of(ev, ctx)
        # own_rates replaces these rates with the kernel's implementations (luks_kernel), each
        # rated by the user-space code of its kind
        prim = LayerEvidence(Layer("primitive:user-space", "the kernel's implementations, each "
                                   f"rated by the user-space code of its kind{where}", False))
        for c in cands:
            r = R.primitive_rate(src, c, ["openssl", "libgcrypt"],
                                 "user-space stand-in for the kernel's dm-crypt")
            if r is not None:
                prim.rates[c.key] = r
        prim.runs = tuple(sorted({i for r in prim.rates.values() for i in r.run_ids}))
        return [prim]


FAMILIES: dict[str, Family] = {f.name: f for f in (SshFamily(), TlsFamily(), GpgFamily(),
                                                     LuksFamily())}


def merged(layers: list[LayerEvidence]) -> dict[str, Rate]:
    """Candidate key -> its rate from the highest layer that measured it, marked with the
    layer and its place in the order of authority."""
    out: dict[str, Rate] = {}
    for i, le in enumerate(layers):
        for k, r in le.rates.items():
            if k not in out:
                out[k] = replace(r, layer=le.layer.key, authority=i)
    return out




