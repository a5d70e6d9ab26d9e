# SPDX-License-Identifier: GPL-3.0-or-later
"""Which hosts a command measures: ``--host`` (repeatable, comma-separated), patterns over the
ssh config's ``Host`` entries, and ``--inventory FILE[:GROUP]``.

A ``--host`` value with ``*`` or ``?`` is a pattern, as in ssh_config: it names every concrete
``Host`` entry (one without wildcards or negation) of the ssh config it matches
(``--ssh-config FILE``, else ``~/.ssh/config`` and the files it includes), a ``USER@`` before
it kept. A pattern that matches nothing is an error, not an empty fleet.
"""
from __future__ import annotations

import fnmatch
import glob
import os
from pathlib import Path
from typing import Iterable, Mapping

from cipherbench.errors import UsageError
from cipherbench.remote import inventory
from cipherbench.remote.host import check_destination

_WILD = ("*", "?")


def is_pattern(value: str) -> bool:
    return any(c in value for c in _WILD)


def config_hosts(path: Path, env: Mapping[str, str], seen: set[Path] | None = None) -> list[str]:
    """The concrete ``Host`` names of an ssh config, in file order (``Include`` followed)."""
    seen = set() if seen is None else seen
    if path in seen or not path.is_file():
        return []
    seen.add(path)
    home_ssh = Path(env.get("HOME") or os.path.expanduser("~")) / ".ssh"
    out: list[str] = []
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return []
    for raw in lines:
        words = raw.strip().replace("=", " ", 1).split()
        if not words or words[0].startswith("#"):
            continue
        key = words[0].lower()
        if key == "host":
            out += [w for w in words[1:] if not is_pattern(w) and not w.startswith("!")
                    and w not in out]
        elif key == "include":
            for pattern in words[1:]:
                p = os.path.expanduser(pattern) if pattern.startswith("~") else pattern
                if not os.path.isabs(p):
                    p = str(home_ssh / p)
                for f in sorted(glob.glob(p)):
                    out += [h for h in config_hosts(Path(f), env, seen) if h not in out]
    return out


def default_config(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~")) / ".ssh" / "config"


def expand(values: Iterable[str], inventory_spec: str | None, ssh_config: str | None,
           env: Mapping[str, str]) -> list[str]:
    """The destinations to measure, each once, in the order given."""
    config = Path(ssh_config) if ssh_config else default_config(env)
    out: list[str] = []
    for value in values:
        for item in (p.strip() for p in value.split(",")):
            if not item:
                raise UsageError(f"--host {value!r}: an empty name between commas")
            if is_pattern(item):
                user, at, pattern = item.rpartition("@")
                found = [h for h in config_hosts(config, env) if fnmatch.fnmatchcase(h, pattern)]
                if not found:
                    raise UsageError(f"--host {item!r} matches no Host entry of {config}")
                names = [f"{user}{at}{h}" for h in found]
            else:
                check_destination(item)
                names = [item]
            out += [n for n in names if n not in out]
    if inventory_spec:
        out += [h for h in inventory.hosts_of(inventory_spec) if h not in out]
    return out
