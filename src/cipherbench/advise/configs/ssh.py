# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenSSH: ssh_config / sshd_config ``Ciphers`` and ``MACs``, and the one-off command lines:
for the tool measured (``--via``: ssh's own pipe, scp, sftp, rsync -e), else scp, sftp,
rsync -e and borg's BORG_RSH."""
from __future__ import annotations

import shlex

from cipherbench.advise.configs.base import ConfigLine, Context, comment


def lines(ctx: Context) -> list[ConfigLine]:
    """Config and command lines, the fastest allowed cipher first."""
    rows = ctx.pick()
    ciphers = list(dict.fromkeys(r.cand.names["cipher"] for r in rows))
    macs = list(dict.fromkeys(r.cand.names["mac"] for r in rows if r.cand.names.get("mac")))
    if not ciphers:
        return [comment("no allowed cipher: nothing to configure")]
    host = ctx.host.split("@", 1)[-1] if ctx.host else "*"
    cl = ",".join(ciphers)
    block = [f"Host {host}", f"    Ciphers {cl}"] + ([f"    MACs {','.join(macs)}"] if macs
                                                     else [])
    check: tuple[str, tuple[str, str | None]] = ("ssh-config", ("\n".join(block) + "\n", host if host != "*" else "localhost"))
    where = ctx.extra.get("ssh_config") or "~/.ssh/config"
    out = [comment(f"{where} (client){' for ' + host if host != '*' else ''}")]
    out += [ConfigLine(b, check) for b in block]
    out.append(comment("/etc/ssh/sshd_config (server), then reload sshd"))
    out.append(ConfigLine(f"Ciphers {cl}", ("sshd", (cl, ",".join(macs) or None))))
    if macs:
        out.append(ConfigLine(f"MACs {','.join(macs)}", ("sshd", (cl, ",".join(macs)))))
    first = ciphers[0]
    mac_opt = f" -m {macs[0]}" if macs and not _aead(rows, first) else ""
    check = ("ssh", (first, mac_opt[4:] or None))
    dest = ctx.host or "user@host"
    ssh_cmd = f"ssh -c {first}{mac_opt}"
    one_off = {"pipe": f"{ssh_cmd} {dest} 'cat > FILE' < FILE",
               "scp": f"scp -c {first}{mac_opt} FILE {dest}:",
               "sftp": f"sftp -c {first}{mac_opt} {dest}",
               "rsync": f"rsync -a -e {shlex.quote(ssh_cmd)} SRC/ {dest}:DST/"}
    via = ctx.extra.get("via")
    if via:
        out.append(comment(f"one-off, for the tool measured ({', '.join(via)})"))
        out += [ConfigLine(one_off[t], check) for t in via if t in one_off]
        return out
    out.append(comment("one-off: scp, sftp, rsync, borg"))
    out += [ConfigLine(one_off[t], check) for t in ("scp", "sftp", "rsync")]
    out.append(ConfigLine(f"export BORG_RSH={shlex.quote(ssh_cmd)}", check))
    return out


def _aead(rows, cipher: str) -> bool:
    return any(r.cand.names["cipher"] == cipher and r.cand.aead for r in rows)
