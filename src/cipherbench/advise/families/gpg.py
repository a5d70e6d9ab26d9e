# SPDX-License-Identifier: GPL-3.0-or-later
"""The gpg and age family: the real ``gpg --symmetric`` and age of the gpg run, then
libgcrypt's CFB primitives."""
from __future__ import annotations

from cipherbench.advise import candidates as C
from cipherbench.advise import facts as F
from cipherbench.advise import rates as R
from cipherbench.advise.evidence import Rate
from cipherbench.advise.families.base import Default, Family, Layer, LayerEvidence, primitives_of

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
        src, where = primitives_of(ev, ctx)
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
