# SPDX-License-Identifier: GPL-3.0-or-later
"""One look at a host before measuring on it: what it is, what is installed there, and a
private directory made for the run.

The probe is one POSIX ``sh`` program run through ssh. It makes the run's private directory
first (``mkdir -m 700``, a name with a random token chosen here, so that the cleanup can find
it even if the probe's answer never arrives), then prints tagged lines: the system and
architecture (``uname``), kernel, host name, online CPUs, where ``cipherbench-core`` (and the
cores of other languages) are on the host's PATH, whether ``tar`` is there, the load, and the
texts of the files the machine metadata is read from (``metadata.MACHINE_FILES``).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from cipherbench.machine.metadata import MACHINE_FILES

#: The core executables looked for on the host's PATH (the C core first).
EXECUTABLES = ("cipherbench-core", "cipherbench-core-go", "cipherbench-core-rust")
#: Prefix of the run's private directory on the host (under its $TMPDIR, else /tmp).
DIR_PREFIX = "cipherbench-run-"
_TAG = "@cb "


def dir_expr(token: str) -> str:
    """The shell expression of the run's private directory on the host."""
    return f'"${{TMPDIR:-/tmp}}/{DIR_PREFIX}{token}"'


def script(token: str) -> str:
    """The probe (see the module docstring)."""
    files = " ".join(shlex.quote("/" + f) for f in MACHINE_FILES)
    return "\n".join([
        f"d={dir_expr(token)}",
        f'if err=$(mkdir -m 700 "$d" 2>&1); then echo "{_TAG}dir $d"; '
        f'else echo "{_TAG}dir-error $err"; fi',
        f'echo "{_TAG}uname $(uname -s) $(uname -m)"',
        f'echo "{_TAG}kernel $(uname -r)"',
        f'echo "{_TAG}hostname $(hostname 2>/dev/null || uname -n)"',
        f'echo "{_TAG}cpus $(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null)"',
        f"for x in {' '.join(EXECUTABLES)}; do",
        f'  p=$(command -v "$x" 2>/dev/null) && echo "{_TAG}exe $x $p"',
        "done",
        f'command -v tar >/dev/null 2>&1 && echo "{_TAG}tar"',
        f'echo "{_TAG}running $(grep "^procs_running" /proc/stat 2>/dev/null | cut -d" " -f2)"',
        f"for f in {files}; do",
        f'  [ -r "$f" ] && {{ echo "{_TAG}file $f"; cat "$f" 2>/dev/null; echo; '
        f'echo "{_TAG}end"; }}',
        "done",
        f'echo "{_TAG}done"',
    ])


@dataclass
class HostFacts:
    """What the probe found."""

    system: str = ""                 # uname -s: Linux
    arch: str = ""                   # uname -m: x86_64, aarch64
    kernel: str = ""
    hostname: str = ""
    cpus: int = 0
    directory: str = ""              # the run's private directory ('' when not made)
    dir_error: str = ""              # why it was not
    installed: dict[str, str] = field(default_factory=dict)   # executable -> path
    tar: bool = False
    procs_running: int | None = None
    files: dict[str, str] = field(default_factory=dict)       # proc/cpuinfo -> its text
    complete: bool = False           # the probe ran to its end


def parse(text: str) -> HostFacts:
    """The probe's output as ``HostFacts``."""
    f = HostFacts()
    current: str | None = None
    body: list[str] = []
    for line in text.splitlines():
        if current is not None:
            if line == f"{_TAG}end":
                f.files[current] = "\n".join(body).rstrip("\n") + "\n"
                current, body = None, []
            else:
                body.append(line)
            continue
        if not line.startswith(_TAG):
            continue
        key, _, value = line[len(_TAG):].partition(" ")
        value = value.strip()
        if key == "dir":
            f.directory = value
        elif key == "dir-error":
            f.dir_error = value or "mkdir failed"
        elif key == "uname":
            f.system, _, f.arch = value.partition(" ")
        elif key == "kernel":
            f.kernel = value
        elif key == "hostname":
            f.hostname = value
        elif key == "cpus":
            f.cpus = int(value) if value.isdigit() else 0
        elif key == "exe":
            name, _, path = value.partition(" ")
            if name in EXECUTABLES and path.startswith("/"):
                f.installed[name] = path
        elif key == "tar":
            f.tar = True
        elif key == "running":
            f.procs_running = int(value) if value.isdigit() else None
        elif key == "file":
            current = value.lstrip("/")
        elif key == "done":
            f.complete = True
    return f
