# SPDX-License-Identifier: GPL-3.0-or-later
"""What can go wrong with a host measured through ssh (``run --host``), as one-line errors.

``ssh`` itself fails with exit status 255 (unreachable, authentication, host key, a connection
lost mid-run): ``from_ssh`` reuses the ssh scenario's reading of its stderr. The core started
there fails on its own: the dynamic loader's line when a library is missing or too old
(``loader_line``), ``Exec format error`` for another architecture.
"""
from __future__ import annotations

from cipherbench.errors import EnvironmentProblem
from cipherbench.scenarios.ssh.errors import HostError, classify, last_line

#: ``ssh``'s own exit status for its failures (the remote command's status otherwise).
SSH_FAILED = 255

#: Pieces of the lines glibc's and musl's loaders (and the shell, for a binary it cannot run)
#: write when a program cannot start.
_LOADER = ("error while loading shared libraries", "error loading shared library",
           "error relocating", "not found (required by", "symbol lookup error",
           "exec format error", "cannot execute binary file", "no such file or directory")


class RemoteError(EnvironmentProblem):
    """The host cannot be used for the run; ``str(err)`` is one line. ``before_login`` is
    True when ssh never logged in (nothing can have been made on the host)."""

    def __init__(self, message: str, before_login: bool = False):
        super().__init__(message)
        self.before_login = before_login


class HostLost(RemoteError):
    """The connection failed while the core ran there."""


def from_ssh(stderr: str, host: str, *, lost: bool = False) -> RemoteError:
    """ssh's stderr (exit status 255) as one line: the reasons the ssh scenario knows (host
    unreachable, authentication refused, host key), else ssh's last line."""
    err = classify(stderr, host=host, cipher="(default)", mac=None)
    if isinstance(err, HostError):
        return (HostLost if lost else RemoteError)(str(err), before_login=not lost)
    detail = last_line(stderr).rstrip(".") or "no message from ssh"
    if lost:
        return HostLost(f"lost the connection to {host} during the run: {detail}")
    return RemoteError(f"ssh to {host} failed: {detail}")


def loader_line(stderr: str) -> str | None:
    """The loader's (or the shell's) own line saying why a program could not start."""
    for line in reversed(stderr.splitlines()):
        low = line.lower()
        if any(piece in low for piece in _LOADER):
            return line.strip()
    return None


def cannot_start(stderr: str, host: str, what: str, shipped: bool) -> RemoteError:
    """``what`` (this machine's core, ``shipped``, or one installed there) did not start on
    ``host``: the loader's (or the shell's) own line, and what to do."""
    line = loader_line(stderr) or last_line(stderr) or "no message"
    low = line.lower()
    if "exec format" in low or "cannot execute binary" in low:
        why = "it is built for another architecture"
    elif any(p in low for p in ("shared librar", "required by", "symbol lookup", "relocating")):
        why = "a library it needs is missing or older there"
    elif "not found" in low or "no such file" in low:
        # a file just copied there that "is not found": its program loader is missing
        why = ("its program loader is missing there (another C library?)" if shipped
               else "there is no such program there")
    else:
        why = "it cannot run there"
    return RemoteError(f"{what} does not start on {host} ({why}): {line}; install cipherbench "
                       f"on {host} (its cipherbench-core on PATH is used), or give its path "
                       "with --host-core")
