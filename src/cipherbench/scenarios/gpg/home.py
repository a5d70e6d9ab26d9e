# SPDX-License-Identifier: GPL-3.0-or-later
"""A private GnuPG home for one run: a fresh GNUPGHOME with a generated passphrase, removed
afterwards with its gpg-agent stopped. The user's own ~/.gnupg is never read or written.

The run starts the home's gpg-agent itself, supervised: this process makes and binds the
agent's socket, hands it over (systemd's LISTEN_FDS convention, ``--supervised``) and closes
its own copy; the agent runs in the foreground as this process's child with a parent-death
signal, so even a SIGKILL of the run (a CI cancel, the OOM killer) takes the agent with it,
where gpg's own ``--daemon`` start would leave it beside the passphrase file. gpg is told
``--no-autostart``: it never starts a daemon of its own. A gpg-agent that cannot be
supervised falls back on gpg's own start.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

from cipherbench.processes.procs import stop_process
from cipherbench.processes.children import die_with_parent
from cipherbench.tempdirs import private_dir, temp_parent


_MAX_PARENT = 60


class GpgHomeError(Exception):
    """The private home cannot be made here; the message says what to do."""


@dataclass(frozen=True)
class GpgHome:
    """Where a run's gpg keeps its state, and the environment that points gpg there."""

    path: Path
    passphrase_file: Path
    env: dict[str, str]
    #: True when the run's own supervised agent serves the home (gpg must not start one)
    own_agent: bool = False

    def gpg_args(self) -> list[str]:
        """Options every gpg call of the run uses: batch mode, the private home, loopback
        pinentry reading the generated passphrase from a 0600 file (never on a command line)."""
        return ["--homedir", str(self.path), "--batch", "--yes", "--quiet",
                "--pinentry-mode", "loopback", "--passphrase-file", str(self.passphrase_file),
                "--no-symkey-cache", *(["--no-autostart"] if self.own_agent else [])]


def stop_agent(home: Path, env: Mapping[str, str]) -> None:
    """Stop every GnuPG daemon started for ``home`` (gpg-agent, dirmngr)."""
    gpgconf = shutil.which("gpgconf", path=env.get("PATH"))
    if gpgconf is None:
        return
    subprocess.run([gpgconf, "--homedir", str(home), "--kill", "all"], env=dict(env),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False)


#: Puts the passed socket on descriptor 3 and LISTEN_PID to its own pid, then becomes the
#: agent (a shell cannot name a descriptor above 9 in a redirection).
_SUPERVISED = ("import os, sys; os.dup2(int(sys.argv[1]), 3); "
               "os.environ['LISTEN_PID'] = str(os.getpid()); os.execv(sys.argv[2], sys.argv[2:])")


def _program(name: str, env: Mapping[str, str]) -> str | None:
    return shutil.which(name, path=env.get("PATH"))


def agent_socket(home: Path, env: Mapping[str, str]) -> Path | None:
    """Where gpg looks for the home's agent (the home, or a directory under /run/user)."""
    gpgconf = _program("gpgconf", env)
    if gpgconf is None:
        return None
    try:
        out = subprocess.run([gpgconf, "--homedir", str(home), "--list-dirs", "agent-socket"],
                             env=dict(env), capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    line = out.stdout.strip().splitlines()
    return Path(line[0]) if out.returncode == 0 and line else None


def start_agent(home: Path, env: Mapping[str, str]) -> subprocess.Popen | None:
    """The home's gpg-agent, supervised and bound to this process's life (see the module
    docstring); None where that cannot be done (gpg then starts its own)."""
    agent = _program("gpg-agent", env)
    where = agent_socket(home, env)
    if agent is None or where is None:
        return None
    if where.parent != home:
        subprocess.run([_program("gpgconf", env) or "gpgconf", "--homedir", str(home),
                        "--create-socketdir"], env=dict(env), capture_output=True, timeout=30)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(where))
        sock.listen(64)
        proc = subprocess.Popen(
            [sys.executable, "-c", _SUPERVISED, str(sock.fileno()), agent, "--homedir",
             str(home), "--supervised"],
            env={**env, "LISTEN_FDS": "1", "LISTEN_FDNAMES": "std"},
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            pass_fds=(sock.fileno(),), preexec_fn=die_with_parent(signal.SIGKILL))
    except OSError:
        sock.close()
        _unlink(where)
        return None
    sock.close()   # only the agent holds it now: if the agent dies, gpg is refused, not hung
    if not _answers(home, env):   # this gpg-agent cannot be supervised
        stop_process(proc)
        _unlink(where)
        return None
    return proc


def _answers(home: Path, env: Mapping[str, str]) -> bool:
    """Whether the home's agent answers (without starting one)."""
    connect = _program("gpg-connect-agent", env)
    if connect is None:
        return False
    try:
        out = subprocess.run([connect, "--homedir", str(home), "--no-autostart", "/bye"],
                             env=dict(env), capture_output=True, timeout=15)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass




@contextmanager
def private_gnupg_home(env: Mapping[str, str] | None = None,
                       parent: str | None = None) -> Iterator[GpgHome]:
    """A temporary GNUPGHOME (mode 0700) with a random passphrase; on exit, also on Ctrl-C or
    an error, its agent is stopped and the directory removed."""
    base = dict(os.environ if env is None else env)
    parent = parent or temp_parent(base)
    if len(parent) > _MAX_PARENT:
        # gpg-agent's socket lives in the home; a Unix socket path has ~107 bytes at most.
        raise GpgHomeError(f"the temporary directory {parent} is too deep for gpg-agent's "
                           "socket: set TMPDIR to a shorter directory, e.g. /tmp")
    path = private_dir("cipherbench-gnupg-", parent=parent)
    agent = None
    try:
        path.chmod(0o700)
        pw = path / "passphrase"
        fd = os.open(pw, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(24) + "\n")
        run_env = {**base, "GNUPGHOME": str(path)}
        run_env.pop("GPG_AGENT_INFO", None)
        agent = start_agent(path, run_env)
        yield GpgHome(path=path, passphrase_file=pw, env=run_env, own_agent=agent is not None)
    finally:
        try:
            if agent is not None:
                stop_process(agent)
            stop_agent(path, {**base, "GNUPGHOME": str(path)})
        finally:
            shutil.rmtree(path, ignore_errors=True)
