# SPDX-License-Identifier: GPL-3.0-or-later
"""age: one cipher (ChaCha20-Poly1305), so the lines are the commands for a backup."""
from __future__ import annotations

from cipherbench.advise.configs.base import ConfigLine, Context, comment


def lines(ctx: Context) -> list[ConfigLine]:
    """Key generation and encryption to the key's recipient."""
    if not any(r.cand.key == "age" and r.allowed for r in ctx.rows):
        return [comment("age is not allowed or not installed: nothing to configure")]
    return [comment("once: make a key and keep backup-key.txt safe (offline)"),
            ConfigLine("age-keygen -o backup-key.txt", ("age", "keygen")),
            comment("each backup: encrypt to the key's public recipient"),
            ConfigLine('age -r "$(age-keygen -y backup-key.txt)" -o backup.tar.age backup.tar',
                       ("age", "encrypt")),
            ConfigLine("age -d -i backup-key.txt -o backup.tar backup.tar.age", ("age", "decrypt"))]
