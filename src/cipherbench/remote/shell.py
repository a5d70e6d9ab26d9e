# SPDX-License-Identifier: GPL-3.0-or-later
"""One POSIX shell on a host for the length of a measurement: one ssh connection whose ``sh``
reads the commands this side writes, one at a time, each answered with its output and its
exit status. For what runs many short programs there (``gpg --host``: every gpg call of the
rounds), where an ssh connection per call would cost more than the call.

The shell starts with a prologue of the caller's (``on_exit``: what it removes on its way
out) and its own traps: it runs ``on_exit`` when it ends for any reason but SIGKILL: its
input closed (this side done, stopped by Ctrl-C, or the connection dropped: ssh then closes
the shell's stdin), SIGHUP, SIGINT or SIGTERM. A write to a connection that is gone does not
kill it before that (SIGPIPE is ignored). Each command runs with stdin from /dev/null, so no
command reads the commands that follow it.
"""
from __future__ import annotations

import queue
import secrets
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import IO

from cipherbench.errors import EnvironmentProblem
from cipherbench.remote.errors import SSH_FAILED, HostLost, RemoteError, from_ssh
from cipherbench.remote.host import RemoteHost, remote_sh

#: Seconds the shell gets to run its ``on_exit`` after its input is closed.
CLOSE_TIMEOUT_S = 30.0


@dataclass(frozen=True)
class Answer:
    """A command's exit status and what it wrote (stdout and stderr together)."""

    rc: int
    text: str

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


class HostShell:
    """``with HostShell(host, on_exit) as sh: sh.run("gpg --version")``."""

    def __init__(self, host: RemoteHost, on_exit: str, prologue: str = ""):
        self.host = host
        self.on_exit = on_exit
        self.prologue = prologue
        self.marker = f"@cb-{secrets.token_hex(6)}"
        self.proc: subprocess.Popen | None = None
        self._lines: "queue.Queue[str | None]" = queue.Queue()
        self._err: list[str] = []
        self._threads: list[threading.Thread] = []

    # -- life --------------------------------------------------------------------------------
    def __enter__(self) -> "HostShell":
        try:
            self.start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> Answer:
        """The connection, the traps and the caller's prologue, whose answer it returns
        (RemoteError when it fails)."""
        try:
            # CB_RUN in the shell's own environment: the run's cleanup (``host.CLEANUP``)
            # stops it through its pid file if it is still there then
            start = remote_sh('CB_RUN=$1; export CB_RUN; exec sh', [self.host.facts.directory])
            self.proc = subprocess.Popen(self.host.ssh_argv(start), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True, errors="replace", env=self.host.env,
                                         bufsize=1)
        except FileNotFoundError:
            raise EnvironmentProblem("ssh not found: install openssh-client") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._threads = [
            threading.Thread(target=self._read, args=(self.proc.stdout, self._lines),
                             daemon=True),
            threading.Thread(target=self._read_err, args=(self.proc.stderr,), daemon=True)]
        for t in self._threads:
            t.start()
        self._write("\n".join([
            f"cb_exit() {{ {self.on_exit}\nrm -f \"$CB_RUN/pid.$$\"\n}}",
            'echo "$$" > "$CB_RUN/pid.$$"',
            "trap 'cb_exit' EXIT",
            "trap 'exit 129' HUP", "trap 'exit 130' INT", "trap 'exit 143' TERM",
            "trap '' PIPE",
            "",
        ]))
        answer = self.run(self.prologue or "true", timeout=60.0)
        if answer.rc != 0:
            raise RemoteError(f"cannot prepare the run on {self.host.destination}: "
                              f"{_last(answer.text) or f'status {answer.rc}'}")
        return answer

    def close(self) -> None:
        """End the shell: its input closed, so it runs ``on_exit`` and leaves; killed if it
        has not within ``CLOSE_TIMEOUT_S``. A stop during the wait is raised after it."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        stopped: BaseException | None = None
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        deadline = time.monotonic() + CLOSE_TIMEOUT_S
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                break
            except KeyboardInterrupt as e:   # finish the cleanup first, then stop
                stopped = e
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for t in self._threads:
            t.join(timeout=5)
        if stopped is not None:
            raise stopped

    # -- commands ----------------------------------------------------------------------------
    def run(self, command: str, timeout: float = 3600.0) -> Answer:
        """Run ``command`` there (stdin /dev/null, stderr with stdout); its status and output.
        HostLost when the connection ends meanwhile; RemoteError when no answer comes within
        ``timeout`` seconds."""
        # the blank echo ends a last line written without a newline
        self._write(f"{{ {command}\n}} </dev/null 2>&1; cb_rc=$?; echo; "
                    f"echo \"{self.marker} $cb_rc\"\n")
        out: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise RemoteError(f"{self.host.destination} did not answer within "
                                  f"{timeout:.0f} s") from None
            if line is None:
                raise self._lost()
            if line.startswith(self.marker + " "):
                rc = line[len(self.marker) + 1:].strip()
                if out and out[-1] == "":   # the blank echo's own line
                    out.pop()
                return Answer(int(rc) if rc.isdigit() else 255, "\n".join(out))
            out.append(line)

    # -- plumbing ----------------------------------------------------------------------------
    def _write(self, text: str) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise self._lost()
        try:
            self.proc.stdin.write(text)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._lost() from None

    def _lost(self) -> RemoteError:
        """The connection ended: ssh's own reason when it gives one."""
        proc = self.proc
        if proc is not None:
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for t in self._threads[1:]:
            t.join(timeout=2)
        err = "".join(self._err)
        rc = proc.returncode if proc is not None else None
        self.host.lost = True
        if rc == SSH_FAILED or rc is None:
            return from_ssh(err, self.host.destination, lost=True)
        return HostLost(f"the shell on {self.host.destination} ended (status {rc}): "
                        f"{_last(err) or 'no message'}")

    @staticmethod
    def _read(stream: IO[str], lines: "queue.Queue[str | None]") -> None:
        for line in iter(stream.readline, ""):
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def _read_err(self, stream: IO[str]) -> None:
        for line in iter(stream.readline, ""):
            self._err.append(line)


def _last(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return lines[-1] if lines else ""
