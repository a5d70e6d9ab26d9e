"""cryptsetup: ``luksFormat --cipher ... --key-size ...``."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment


def lines(ctx: Context) -> list[ConfigLine]:
    """The luksFormat command with the fastest allowed cipher spec."""
    rows = ctx.pick()
    if not rows:
        return [comment("no allowed disk cipher: nothing to configure")]
    spec, bits = rows[0].cand.names["cryptsetup"], rows[0].cand.names["key_bits"]
    return [comment("new LUKS2 volume (destroys what is on DEVICE); `cryptsetup benchmark` "
                    "measures the kernel's own implementation"),
            ConfigLine(f"cryptsetup luksFormat --type luks2 --cipher {spec} --key-size {bits} "
                       "DEVICE", ("cryptsetup", (spec, bits)))]
