# SPDX-License-Identifier: GPL-3.0-or-later
"""A private OpenSSH server (on 127.0.0.1 by default), made for one run and removed after it.

Everything lives in one private temporary directory (mode 0700): a host key and a client key
generated with ``ssh-keygen``, the server's ``sshd_config``, the client's ``ssh_config`` (used
with ``ssh -F``), a ``known_hosts`` that pins the generated host key, the authorized key, the
pid file and the server's log. Nothing is read from or written to the user's ``~/.ssh``.

The server is Debian's ``/usr/sbin/sshd``, run by absolute path in the foreground
(``-D -e -f CONFIG``) as the current user on a free port. It accepts every cipher and MAC the
local client offers (``ssh -Q cipher``, ``ssh -Q mac``) unless told otherwise, so the
benchmark can reach the ciphers a stock server disables.

``listen`` and ``wrap`` place the same server elsewhere: another local address, started
through a command prefix (e.g. ``ip netns exec NS`` for a server in a network namespace that
stands for a remote host). Its client config then answers to that address too, so
``ssh -F CONFIG user@ADDRESS`` reaches it with the pinned host key.

``PrivateServer`` is a context manager: leaving it (normally, on an exception, on Ctrl-C, or
on SIGTERM/SIGHUP, which ``interrupts.stop_on_signals`` turns into ``KeyboardInterrupt``) stops the server
and every process it forked for connections, then removes the directory.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import BinaryIO, Mapping, NamedTuple, Sequence

from cipherbench.errors import EnvironmentProblem
from cipherbench.interrupts import stop_on_signals
from cipherbench.processes import procs
from cipherbench.scenarios.ssh.errors import last_line
from cipherbench.tempdirs import private_dir

#: The server binary, always run by absolute path (sshd refuses relative paths anyway).
SSHD = "/usr/sbin/sshd"
#: Host name the client config gives the private server (also its HostKeyAlias).
ALIAS = "cipherbench-private"
#: Prefix of the private temporary directory.
DIR_PREFIX = "cipherbench-ssh-"

_START_TIMEOUT_S = 10.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """In the child before exec: get SIGTERM if the benchmark process dies (even by SIGKILL),
    so a killed run cannot leave the listener behind. Linux only; ignored elsewhere."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def query(kind: str) -> list[str]:
    """What the local OpenSSH client supports: ``ssh -Q cipher``, ``ssh -Q mac``, ..."""
    try:
        out = subprocess.run(["ssh", "-Q", kind], capture_output=True, text=True, timeout=10)
    except FileNotFoundError:
        raise EnvironmentProblem("ssh not found: install openssh-client") from None
    if out.returncode != 0:
        raise EnvironmentProblem(f"ssh -Q {kind} failed: {last_line(out.stderr)}")
    return [ln.strip() for ln in out.stdout.splitlines() if ln.strip()]


def client_config(options: Sequence[str], destination: str,
                  env: Mapping[str, str] | None = None) -> dict[str, str]:
    """What ``ssh OPTIONS -G DESTINATION`` prints, key to value; empty when ssh cannot say."""
    try:
        out = subprocess.run(["ssh", *options, "-G", destination], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30,
                             env=dict(env) if env is not None else None, check=False)
    except (OSError, subprocess.SubprocessError):
        return {}
    if out.returncode != 0:
        return {}
    return dict(line.partition(" ")[::2] for line in out.stdout.splitlines())


class ClientOffers(NamedTuple):
    """What the client offers, first to last (``ssh -G``); empty when ssh cannot say."""

    ciphers: list[str]
    macs: list[str]


def offered(host: str | None = None, ssh_config: str | None = None,
            env: Mapping[str, str] | None = None) -> ClientOffers:
    """The client's cipher and MAC lists, one ``ssh -G``: for a host through the user's own
    configuration (or ``ssh_config``), as the measurement goes; for the private server without
    any (``-F /dev/null``), as that server's client runs."""
    config = ["-F", ssh_config] if ssh_config else ([] if host else ["-F", "/dev/null"])
    got = client_config(config, host or "localhost", env)
    return ClientOffers(*[got[k].split(",") if got.get(k) else [] for k in ("ciphers", "macs")])


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateServer:
    """A private sshd for the current user; use as ``with PrivateServer() as srv``.

    ``ciphers``/``macs`` restrict what the server accepts (default: all the client offers).
    ``tmp_parent`` is where the private directory is made (default: the system temp dir).
    ``listen`` is the one address it listens on (default 127.0.0.1); ``wrap`` is a command
    prefix sshd is started through (it must exec sshd, so the pid stays sshd's).
    """

    def __init__(self, *, ciphers: list[str] | None = None, macs: list[str] | None = None,
                 sshd: str = SSHD, tmp_parent: str | None = None, listen: str = "127.0.0.1",
                 wrap: tuple[str, ...] | list[str] = ()):
        self.sshd = sshd
        self.listen = listen
        self.wrap = tuple(wrap)
        self.ciphers = ciphers
        self.macs = macs
        self.tmp_parent = tmp_parent
        self.dir: Path | None = None
        self.port = 0
        self.user = pwd.getpwuid(os.getuid()).pw_name
        self.proc: subprocess.Popen | None = None
        self._log: BinaryIO | None = None
        self._signals = contextlib.ExitStack()
        self._seen_pids: set[int] = set()

    # -- public -----------------------------------------------------------------------------

    @property
    def client_config(self) -> Path:
        """The ``ssh -F`` file that reaches this server."""
        assert self.dir is not None
        return self.dir / "ssh_config"

    def ssh_options(self) -> list[str]:
        """Options that make ``ssh`` use only this run's files (put before the destination)."""
        return ["-F", str(self.client_config)]

    @property
    def destination(self) -> str:
        """The host name to give ``ssh`` together with ``ssh_options()``."""
        return ALIAS

    def pids(self) -> list[int]:
        """The listener and every process it forked that is still alive (for tests and
        cleanup)."""
        if self.proc is None:
            return []
        found = [self.proc.pid] + procs.descendants(self.proc.pid)
        self._seen_pids.update(found)
        return [p for p in found if procs.alive(p)]

    def log_tail(self) -> str:
        """The last line the server logged (for error messages)."""
        try:
            return last_line((self.dir / "sshd.log").read_text(errors="replace"))  # type: ignore[operator]
        except (OSError, TypeError):
            return ""

    def start(self) -> "PrivateServer":
        """Make keys and configs, start sshd, wait until it answers. Cleans up on failure."""
        if not os.path.isabs(self.sshd) or not os.access(self.sshd, os.X_OK):
            raise EnvironmentProblem(
                f"sshd not found at {self.sshd}: install openssh-server "
                "(apt-get install openssh-server)")
        shell = pwd.getpwuid(os.getuid()).pw_shell
        if shell.endswith(("nologin", "/false")):
            raise EnvironmentProblem(
                f"user {self.user} has login shell {shell}: sshd cannot run commands for it")
        self._signals.enter_context(stop_on_signals())
        try:
            self.dir = private_dir(DIR_PREFIX, parent=self.tmp_parent)
            os.chmod(self.dir, 0o700)
            self._make_keys()
            for attempt in range(3):
                self.port = free_port()
                self._write_configs()
                if attempt == 0:
                    self._check_config()
                if self._launch():
                    break
            else:
                raise EnvironmentProblem(f"sshd could not start: {self.log_tail()}")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop the server and its connection processes, remove the directory. Idempotent."""
        try:
            if self.proc is not None:
                # Connection processes outlive a stopped listener (sshd calls setsid for each),
                # so collect them first, while their parent links still lead to the listener.
                kids = procs.descendants(self.proc.pid) if self.proc.poll() is None else []
                procs.terminate(list(reversed(kids)))
                if self.proc.poll() is None:
                    self.proc.terminate()
                    try:
                        self.proc.wait(timeout=3)
                    except subprocess.TimeoutExpired:
                        self.proc.kill()
                        self.proc.wait()
                # Anything seen earlier and somehow still there (reparented) goes too.
                procs.terminate([p for p in self._seen_pids if p != self.proc.pid and procs.alive(p)])
                self.proc = None
        finally:
            if self._log is not None:
                self._log.close()
                self._log = None
            if self.dir is not None:
                shutil.rmtree(self.dir, ignore_errors=True)
                self.dir = None
            self._signals.close()

    def __enter__(self) -> "PrivateServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- internals ----------------------------------------------------------------------------

    def _make_keys(self) -> None:
        assert self.dir is not None
        for name in ("host_ed25519_key", "client_ed25519_key"):
            out = subprocess.run(
                ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "cipherbench-" + name,
                 "-f", str(self.dir / name)], capture_output=True, text=True, timeout=30,
                stdin=subprocess.DEVNULL)
            if out.returncode != 0:
                raise EnvironmentProblem(f"ssh-keygen failed: {last_line(out.stderr)}")
        shutil.copyfile(self.dir / "client_ed25519_key.pub", self.dir / "authorized_keys")
        host_pub = (self.dir / "host_ed25519_key.pub").read_text().split()
        # Pinned under the alias, so StrictHostKeyChecking=yes accepts this key and only it.
        (self.dir / "known_hosts").write_text(f"{ALIAS} {host_pub[0]} {host_pub[1]}\n")

    def _write_configs(self) -> None:
        assert self.dir is not None
        d = self.dir
        ciphers = self.ciphers if self.ciphers is not None else query("cipher")
        macs = self.macs if self.macs is not None else query("mac")
        (d / "sshd_config").write_text("\n".join([
            "# Private server of one cipherbench ssh run",
            f"ListenAddress {self.listen}",
            f"Port {self.port}",
            f"HostKey {d / 'host_ed25519_key'}",
            f"AuthorizedKeysFile {d / 'authorized_keys'}",
            f"PidFile {d / 'sshd.pid'}",
            f"AllowUsers {self.user}",
            "StrictModes no",
            "UsePAM no",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitRootLogin prohibit-password",
            "PermitUserEnvironment no",
            "AllowAgentForwarding no",
            "AllowTcpForwarding no",
            "X11Forwarding no",
            "PrintMotd no",
            "PrintLastLog no",
            "UseDNS no",
            "Compression no",
            "MaxStartups 100",
            # sftp and scp (whose protocol is SFTP since OpenSSH 9.0) need the subsystem;
            # the one built into sshd needs no path
            "Subsystem sftp internal-sftp",
            # bash sources the account's ~/.bashrc for commands sshd runs, unless it is
            # nested (SHLVL >= 1): that start-up is the account's, not SSH's, and would slow
            # every connection of the sweep
            "SetEnv SHLVL=1",
            f"Ciphers {','.join(ciphers)}",
            f"MACs {','.join(macs)}",
            "",
        ]))
        (d / "ssh_config").write_text("\n".join([
            "# Client side of one cipherbench ssh run: only this directory's files are used",
            f"Host {ALIAS}" + (f" {self.listen}" if self.listen != "127.0.0.1" else ""),
            f"  HostName {self.listen}",
            f"  Port {self.port}",
            f"  User {self.user}",
            f"  IdentityFile {d / 'client_ed25519_key'}",
            "  IdentitiesOnly yes",
            "  IdentityAgent none",
            f"  UserKnownHostsFile {d / 'known_hosts'}",
            "  GlobalKnownHostsFile /dev/null",
            f"  HostKeyAlias {ALIAS}",
            "  StrictHostKeyChecking yes",
            "  CheckHostIP no",
            "  UpdateHostKeys no",
            "  BatchMode yes",
            "  Compression no",
            "  ControlMaster no",
            "  ControlPath none",
            "  ForwardAgent no",
            "  ForwardX11 no",
            "  RequestTTY no",
            "",
        ]))
        os.chmod(d / "ssh_config", 0o600)

    def _check_config(self) -> None:
        """``sshd -t``; creates sshd's privilege-separation directory when running as root and
        it is missing (what the system service would do at boot; it is left in place)."""
        assert self.dir is not None
        for _ in range(2):
            out = subprocess.run([*self.wrap, self.sshd, "-t", "-f",
                                  str(self.dir / "sshd_config")],
                                 capture_output=True, text=True, timeout=30,
                                 stdin=subprocess.DEVNULL)
            if out.returncode == 0:
                return
            m = re.search(r"Missing privilege separation directory: (\S+)", out.stderr)
            if m and os.geteuid() == 0:
                os.makedirs(m.group(1), mode=0o755, exist_ok=True)
                continue
            raise EnvironmentProblem(f"sshd rejects its config: {last_line(out.stderr)}")
        raise EnvironmentProblem(f"sshd rejects its config: {last_line(out.stderr)}")

    def _launch(self) -> bool:
        """Start sshd and wait for its banner. False if the port was taken meanwhile."""
        assert self.dir is not None
        if self._log is not None:
            self._log.close()
        self._log = open(self.dir / "sshd.log", "ab")
        self.proc = subprocess.Popen(
            [*self.wrap, self.sshd, "-D", "-e", "-f", str(self.dir / "sshd_config")],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
            start_new_session=True, preexec_fn=_die_with_parent)
        self._seen_pids.add(self.proc.pid)
        deadline = time.monotonic() + _START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.proc = None
                if "already in use" in self.log_tail().lower():
                    return False
                raise EnvironmentProblem(f"sshd exited at start: {self.log_tail()}")
            if self._banner():
                return True
            time.sleep(0.02)
        raise EnvironmentProblem(f"sshd did not answer on port {self.port} within "
                                 f"{_START_TIMEOUT_S:.0f} s: {self.log_tail()}")

    def _banner(self) -> bool:
        try:
            with socket.create_connection((self.listen, self.port), timeout=1) as s:
                return s.recv(64).startswith(b"SSH-")
        except OSError:
            return False
