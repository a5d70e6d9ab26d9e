# SPDX-License-Identifier: GPL-3.0-or-later
"""cryptsetup: ``luksFormat --cipher ... --key-size ... --sector-size 4096``."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment


def lines(ctx: Context) -> list[ConfigLine]:
    """The luksFormat command with the fastest allowed cipher spec."""
    rows = ctx.pick()
    if not rows:
        return [comment("no allowed disk cipher: nothing to configure")]
    names = rows[0].cand.names
    spec, bits, sector = names["cryptsetup"], names["key_bits"], names["sector_size"]
    return [comment("new LUKS2 volume (destroys what is on DEVICE); 4096-byte sectors: one "
                    "IV and one request per 4 KiB; `cryptsetup benchmark` measures the "
                    "kernel's own implementation"),
            ConfigLine(f"cryptsetup luksFormat --type luks2 --cipher {spec} --key-size {bits} "
                       f"--sector-size {sector} DEVICE", ("cryptsetup", (spec, bits)))]
