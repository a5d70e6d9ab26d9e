"""The kernel's socket path: the same suites through ``openssl s_server``/``s_client`` over TCP
on 127.0.0.1.

The in-process figures leave out what a real connection adds: two processes, TCP on the
loopback device, the programs' own buffering. Here ``s_server -WWW`` serves a file of random
bytes from a private temporary directory (certificate and key made for the run, removed
afterwards), and ``s_client`` fetches it, restricted on both ends to one suite and protocol.
The first fetch of each suite is compared with the file (SHA-256). A timed fetch is timed
from the first bytes that arrive to the end of the stream, so process start and handshake
are left out: the figure is bytes per second of the transfer itself (both processes, the
kernel's TCP path, and this reader of s_client's output).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

from cipherbench import stats
from cipherbench.scenarios.tls.suites import Suite

DEFAULT_SIZE = 32 << 20
START_TIMEOUT_S = 10.0
FETCH_TIMEOUT_S = 120.0
REQUEST = "GET /{name} HTTP/1.0\r\n\r\n"


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
    """A private directory with a certificate and the file to serve; ``measure(suite)`` starts
    one ``s_server`` for the suite, fetches, and always stops it. Use as a context manager:
    leaving it removes the directory."""

    def __init__(self, openssl: str, size: int = DEFAULT_SIZE,
                 env: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.openssl = openssl
        self.size = size
        self.env = dict(os.environ if env is None else env)
        self.clock = clock
        self.dir: Path | None = None
        self.digest = b""

    def __enter__(self) -> "Loopback":
        self.dir = Path(tempfile.mkdtemp(prefix="cipherbench-tls-",
                                         dir=self.env.get("TMPDIR") or None))
        try:
            self._prepare()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Remove the private directory (certificate, key, data)."""
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
        data = os.urandom(self.size)
        (self.dir / "data.bin").write_bytes(data)
        self.digest = hashlib.sha256(data).digest()

    # -- one server ----------------------------------------------------------------------
    def _start(self, suite: Suite) -> tuple[subprocess.Popen, int]:
        assert self.dir is not None
        log = open(self.dir / "server.out", "w+b")
        try:
            proc = subprocess.Popen(
                [self.openssl, "s_server", "-accept", "127.0.0.1:0", "-cert", "cert.pem",
                 "-key", "key.pem", "-WWW", *suite_args(suite)],
                cwd=self.dir, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=self.env)
        except OSError as e:
            log.close()
            raise LoopbackError(f"cannot start openssl s_server: {e.strerror}")
        deadline = self.clock() + START_TIMEOUT_S
        try:
            while self.clock() < deadline:
                log.seek(0)
                text = log.read().decode("utf-8", "replace")
                m = re.search(r"ACCEPT\s+\S*:(\d+)", text)
                if m:
                    return proc, int(m.group(1))
                if proc.poll() is not None:
                    last = (text.strip().splitlines() or ["exited"])[-1]
                    raise LoopbackError(f"openssl s_server refused the suite: {last}")
                time.sleep(0.02)
            raise LoopbackError("openssl s_server did not start listening within "
                                f"{START_TIMEOUT_S:g} s")
        except BaseException:
            _stop(proc)
            raise
        finally:
            log.close()

    def _fetch(self, port: int, suite: Suite, verify: bool) -> tuple[float, float]:
        """Fetch the file with s_client: (seconds from the first bytes to the end, scaled to
        the whole file; seconds before the first bytes). With ``verify`` the body is compared
        with the file."""
        argv = [self.openssl, "s_client", "-connect", f"127.0.0.1:{port}", "-quiet",
                *suite_args(suite)]
        t0 = self.clock()
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, env=self.env, bufsize=0)
        except OSError as e:
            raise LoopbackError(f"cannot start openssl s_client: {e.strerror}")
        try:
            assert proc.stdin and proc.stdout and proc.stderr
            proc.stdin.write(REQUEST.format(name="data.bin").encode())
            proc.stdin.close()
            fd = proc.stdout.fileno()
            first = self.clock()
            head = b""
            in_body = False
            got = after_first = 0   # body bytes; those after the first body chunk (timed)
            h = hashlib.sha256() if verify else None
            deadline = t0 + FETCH_TIMEOUT_S
            while True:
                chunk = os.read(fd, 1 << 20)
                now = self.clock()
                if not chunk:
                    break
                if now > deadline:
                    raise LoopbackError(f"s_client did not finish within {FETCH_TIMEOUT_S:g} s")
                if not in_body:
                    head += chunk
                    if b"\r\n\r\n" not in head:
                        continue
                    # The clock starts with the first body bytes; those are not counted.
                    in_body, first = True, now
                    chunk = head.partition(b"\r\n\r\n")[2]
                    got = len(chunk)
                else:
                    got += len(chunk)
                    after_first += len(chunk)
                if h:
                    h.update(chunk)
            end = self.clock()
            rc = proc.wait(timeout=FETCH_TIMEOUT_S)
            err = proc.stderr.read().decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            raise LoopbackError(f"s_client did not finish within {FETCH_TIMEOUT_S:g} s")
        finally:
            _stop(proc)
            for f in (proc.stdout, proc.stderr):
                if f:
                    f.close()
        if rc != 0:
            last = (err.strip().splitlines() or [""])[-1]
            raise LoopbackError(f"s_client exited with status {rc}: {last}")
        body = got
        if body != self.size or (h is not None and h.digest() != self.digest):
            raise LoopbackError(f"the file arrived changed ({body} of {self.size} bytes"
                                + (", different bytes)" if body == self.size else ")"))
        if after_first <= 0 or end <= first:
            raise LoopbackError("the file arrived in one piece: too small to time "
                                "(raise --loopback-size)")
        return (end - first) * self.size / after_first, first - t0

    def measure(self, suite: Suite, precision: float = stats.DEFAULT_PRECISION,
                budget_s: float = 3.0) -> Measured:
        """Fetch the file with ``suite`` until the median is stable (or the budget is spent);
        the server is stopped whatever happens."""
        m = Measured(suite, self.size)
        try:
            proc, port = self._start(suite)
        except LoopbackError as e:
            m.error = str(e)
            return m
        try:
            setup = [self._fetch(port, suite, verify=True)[1]]

            def sample(n: int) -> list[float]:
                out = []
                for _ in range(n):
                    t, s = self._fetch(port, suite, verify=False)
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
        finally:
            _stop(proc)
        return m


def _stop(proc: subprocess.Popen) -> None:
    """Terminate one server process we started, and reap it."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
