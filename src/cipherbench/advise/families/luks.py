# SPDX-License-Identifier: GPL-3.0-or-later
"""The LUKS family: the kernel's implementations, each rated by the user-space code of its
kind."""
from __future__ import annotations

from cipherbench.advise import candidates as C
from cipherbench.advise import facts as F
from cipherbench.advise import rates as R
from cipherbench.advise.families.base import Default, Family, Layer, LayerEvidence, primitives_of

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
        src, where = primitives_of(ev, ctx)
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
