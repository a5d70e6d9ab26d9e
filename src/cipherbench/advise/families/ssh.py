# SPDX-License-Identifier: GPL-3.0-or-later
"""The ssh family: ssh through the user's tool, through another tool, then the primitives of
ssh's library."""
from __future__ import annotations

from cipherbench.advise import candidates as C
from cipherbench.advise import facts as F
from cipherbench.advise import rates as R
from cipherbench.advise.evidence import BASELINE_ALGO, Rate, rel_ci
from cipherbench.advise.families.base import (Ask, Default, Family, Layer, LayerEvidence,
                                              primitives_of)
from cipherbench.advise.targets import Target
from cipherbench.units import format_bytes

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
        src, where = primitives_of(ev, ctx)
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
