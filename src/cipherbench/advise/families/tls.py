# SPDX-License-Identifier: GPL-3.0-or-later
"""The TLS family: the library's own record layer, the same cipher under another certificate
type, then the library's primitives."""
from __future__ import annotations

from cipherbench.advise import candidates as C
from cipherbench.advise import facts as F
from cipherbench.advise import rates as R
from cipherbench.advise.evidence import Rate
from cipherbench.advise.families.base import (Ask, Default, Family, Layer, LayerEvidence,
                                              primitives_of)
from cipherbench.advise.targets import Target
from cipherbench.units import format_bytes

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
        src, where = primitives_of(ev, ctx)
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
