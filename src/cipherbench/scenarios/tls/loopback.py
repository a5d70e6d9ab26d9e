# SPDX-License-Identifier: GPL-3.0-or-later
"""The kernel's socket path: the same suites through ``openssl s_server``/``s_client`` over TCP
on 127.0.0.1.

The in-process figures leave out what a real connection adds: two processes, TCP on the
loopback device, the programs' own buffering. For each transfer one ``s_server`` is started
that accepts one connection and sends what it reads on its standard input: the run's random
payload, written into a pipe by this process. It maps no file from disk, and it talks only to
the client the run started: it demands a client certificate, and only that client holds the
key (certificate and key are made for the run in a private 0700 directory, removed
afterwards). Both programs get SIGKILL if this process dies. ``s_client`` receives the
payload, restricted on both ends to one suite and protocol. The first transfer of each suite
is compared with the payload (SHA-256). A transfer is timed from the first bytes that arrive
to the last, so process start and handshake are left out: the figure is bytes per second of
the transfer itself (both processes, the kernel's TCP path, the pipe that feeds the server,
and this reader of s_client's output).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from cipherbench.processes.procs import stop_process
from cipherbench.analysis import stats
from cipherbench.processes.children import die_with_parent
from cipherbench.scenarios.payload import random_payload
from cipherbench.scenarios.tls.suites import Suite
from cipherbench.tempdirs import TempDirError, private_dir

DEFAULT_SIZE = 32 << 20
START_TIMEOUT_S = 10.0
FETCH_TIMEOUT_S = 120.0
# s_server reads commands from its input when a read starts with one of these bytes ("Q" ends
# the server, "q" the connection, "P" and "S" print, "r", "R", "K", "k", "c" before a line end
# renegotiate or update keys): the payload never contains them, wherever a read starts.
_COMMAND_BYTES = b"QqPS\r\n"
_SAFE = bytes(b if b not in _COMMAND_BYTES else b"0123456789"[b % 10] for b in range(256))


class LoopbackError(Exception):
    """openssl could not be run, or a transfer failed or arrived changed."""


def find_openssl(env: Mapping[str, str]) -> str | None:
    """The ``openssl`` program on ``env``'s PATH, or None."""
    return shutil.which("openssl", path=env.get("PATH", os.defpath))


def openssl_version(openssl: str) -> str:
    """``openssl version``'s line, or ""."""
    try:
        return subprocess.run([openssl, "version"], capture_output=True, text=True,
                              timeout=10).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


def suite_args(suite: Suite) -> list[str]:
    """The s_server/s_client options that allow exactly this suite and its protocol."""
    if suite.proto == "TLS1.3":
        return ["-tls1_3", "-ciphersuites", suite.openssl]
    return ["-tls1_2", "-cipher", suite.openssl + (":@SECLEVEL=0" if suite.legacy else "")]


@dataclass
class Measured:
    """One suite over loopback TCP."""

    suite: Suite
    size: int
    setup_s: float = 0.0                   # median time before the first bytes arrived
    stability: stats.Stability | None = None
    error: str | None = None
    samples_s: list[float] = field(default_factory=list)

    @property
    def bytes_per_s(self) -> float | None:
        """Median throughput of the transfer (samples are seconds per file)."""
        if self.stability is None or self.stability.summary.median <= 0:
            return None
        return self.size / self.stability.summary.median


class Loopback:
    """A private directory with a certificate, and the payload to send; ``measure(suite)``
    transfers it with one ``s_server``/``s_client`` pair per transfer and always stops them.
    Use as a context manager: leaving it stops any program still running and removes the
    directory."""

    def __init__(self, openssl: str, size: int = DEFAULT_SIZE,
                 env: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.openssl = openssl
        self.size = size
        self.env = dict(os.environ if env is None else env)
        self.clock = clock
        self.dir: Path | None = None
        self.payload: bytes | bytearray = b""
        self.digest = b""
        self._running: list[subprocess.Popen] = []

    def __enter__(self) -> "Loopback":
        try:
            self.dir = private_dir("cipherbench-tls-", self.env)
        except TempDirError as e:
            raise LoopbackError(str(e)) from None
        try:
            self._prepare()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Stop the programs still running, remove the private directory (certificate, key)."""
        while self._running:
            stop_process(self._running.pop())
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def _prepare(self) -> None:
        assert self.dir is not None
        try:
            r = subprocess.run([self.openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                "-keyout", "key.pem", "-out", "cert.pem", "-days", "1",
                                "-subj", "/CN=cipherbench.test"], cwd=self.dir,
                               capture_output=True, text=True, timeout=60, env=self.env)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise LoopbackError(f"cannot make a certificate with {self.openssl}: {e}")
        if r.returncode != 0:
            last = (r.stderr.strip().splitlines() or [""])[-1]
            raise LoopbackError(f"openssl req failed: {last}")
        self.payload = random_payload(self.size, _SAFE)
        self.digest = hashlib.sha256(self.payload).digest()

    def _spawn(self, argv: list[str], **kw) -> subprocess.Popen:
        try:
            proc = subprocess.Popen(argv, cwd=self.dir, env=self.env,
                                    preexec_fn=die_with_parent(signal.SIGKILL), **kw)
        except OSError as e:
            raise LoopbackError(f"cannot start openssl {argv[1]}: {e.strerror}")
        self._running.append(proc)
        return proc

    def _stop(self, proc: subprocess.Popen) -> None:
        stop_process(proc)
        if proc in self._running:
            self._running.remove(proc)

    # -- one server, one connection --------------------------------------------------------
    def _start(self, suite: Suite) -> tuple[subprocess.Popen, int]:
        """An s_server for one connection from a holder of the run's certificate, listening
        on a port of its choice: (process, port)."""
        assert self.dir is not None
        with open(self.dir / "server.out", "w+b") as log:
            proc = self._spawn(
                [self.openssl, "s_server", "-accept", "127.0.0.1:0", "-naccept", "1",
                 "-cert", "cert.pem", "-key", "key.pem", "-Verify", "1", "-CAfile", "cert.pem",
                 *suite_args(suite)],
                stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
            try:
                m = self._wait_log(proc, rb"ACCEPT\s+\S*:(\d+)", "start listening",
                                   ended="openssl s_server refused the suite")
            except BaseException:
                self._stop(proc)
                raise
        return proc, int(m.group(1))

    def _wait_log(self, server: subprocess.Popen, pattern: bytes, what: str,
                  client: subprocess.Popen | None = None,
                  ended: str = "openssl s_server exited") -> re.Match:
        """Poll the server's log until ``pattern`` appears (LoopbackError if it, or the
        client, ends first, or after START_TIMEOUT_S)."""
        assert self.dir is not None
        deadline = self.clock() + START_TIMEOUT_S
        while self.clock() < deadline:
            text = (self.dir / "server.out").read_bytes()
            m = re.search(pattern, text)
            if m:
                return m
            if server.poll() is not None:
                raise LoopbackError(f"{ended}: {_last_line(text)}")
            if client is not None and client.poll() is not None:
                raise LoopbackError(f"openssl s_client exited: {self._client_error()}")
            time.sleep(0.001)
        raise LoopbackError(f"openssl s_server did not {what} within {START_TIMEOUT_S:g} s")

    def _client_error(self) -> str:
        assert self.dir is not None
        try:
            return _last_line((self.dir / "client.err").read_bytes())
        except OSError:
            return ""

    def _fetch(self, suite: Suite, verify: bool) -> tuple[float, float]:
        """One transfer: (seconds from the first bytes to the last, scaled to the whole
        payload; seconds from starting s_client to the first bytes). With ``verify`` the
        bytes are compared with the payload."""
        assert self.dir is not None
        server, port = self._start(suite)
        client = feeder = None
        timer = threading.Timer(FETCH_TIMEOUT_S, lambda: client and client.kill())
        try:
            t0 = self.clock()
            with open(self.dir / "client.err", "wb") as err:
                # stdin stays an open, empty pipe: s_client must not see an end of input.
                client = self._spawn(
                    [self.openssl, "s_client", "-connect", f"127.0.0.1:{port}", "-quiet",
                     "-cert", "cert.pem", "-key", "key.pem", *suite_args(suite)],
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, bufsize=0)
            # The payload waits for the end of the handshake: s_server, given input and a
            # client at the same moment, can block in a read nobody answers.
            self._wait_log(server, rb"CIPHER is", "finish the handshake", client)
            feeder = threading.Thread(target=_feed, args=(server, self.payload), daemon=True)
            feeder.start()
            timer.start()
            assert client.stdout is not None
            fd = client.stdout.fileno()
            h = hashlib.sha256() if verify else None
            first = end = t0
            got = after_first = 0
            while got < self.size:
                chunk = os.read(fd, 1 << 20)
                now = self.clock()
                if not chunk:
                    break
                if got == 0:
                    first = now   # the clock starts with the first bytes; they are not counted
                else:
                    after_first += len(chunk)
                got += len(chunk)
                end = now
                if h:
                    h.update(chunk)
        finally:
            timer.cancel()
            for proc in (client, server):
                if proc is not None:
                    self._stop(proc)
            if feeder is not None:
                feeder.join()
            for f in (server.stdin, client and client.stdin, client and client.stdout):
                if f:
                    f.close()
        if got < self.size:
            why = (f"no answer within {FETCH_TIMEOUT_S:g} s" if self.clock() - t0
                   >= FETCH_TIMEOUT_S else self._client_error() or "end of stream")
            raise LoopbackError(f"s_client received {got} of {self.size} bytes: {why}")
        if h is not None and h.digest() != self.digest:
            raise LoopbackError(f"the payload arrived changed ({got} bytes, different bytes)")
        if after_first <= 0 or end <= first:
            raise LoopbackError("the payload arrived in one piece: too small to time "
                                "(raise --loopback-size)")
        return (end - first) * self.size / after_first, first - t0

    def fetch(self, suite: Suite, verify: bool = False) -> tuple[float, float]:
        """One transfer with ``suite``: (seconds of the transfer scaled to the whole payload,
        seconds before the first bytes); with ``verify`` the bytes are compared with the
        payload. LoopbackError when it fails; its programs are stopped whatever happens."""
        return self._fetch(suite, verify)

    def measure(self, suite: Suite, precision: float = stats.DEFAULT_PRECISION,
                budget_s: float = 3.0) -> Measured:
        """Transfer the payload with ``suite`` until the median is stable (or the budget is
        spent); every server and client is stopped whatever happens."""
        m = Measured(suite, self.size)
        try:
            setup = [self._fetch(suite, verify=True)[1]]

            def sample(n: int) -> list[float]:
                out = []
                for _ in range(n):
                    t, s = self._fetch(suite, verify=False)
                    out.append(t)
                    setup.append(s)
                return out

            m.stability = stats.until_stable(sample, precision=precision, budget_s=budget_s,
                                             min_samples=3 if budget_s < 1 else 6,
                                             clock=self.clock)
            m.samples_s = m.stability.samples
            m.setup_s = stats.median(setup)
        except LoopbackError as e:
            m.error = str(e)
        return m


def _feed(server: subprocess.Popen, payload: bytes | bytearray) -> None:
    """Write the payload to the server's input (in a thread); a stopped server ends it."""
    assert server.stdin is not None
    fd = server.stdin.fileno()
    view = memoryview(payload)
    try:
        while view:
            view = view[os.write(fd, view[:1 << 20]):]
    except OSError:
        pass   # the server was stopped: the transfer is over or has failed


def _last_line(text: bytes) -> str:
    return (text.decode("utf-8", "replace").strip().splitlines() or ["(no output)"])[-1]
