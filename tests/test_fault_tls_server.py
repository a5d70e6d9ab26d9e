# SPDX-License-Identifier: GPL-3.0-or-later
"""The TLS loopback server serves only the run's payload, only to the run's client, and dies
with the process that started it."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cipherbench.scenarios.tls import loopback as lb
from cipherbench.scenarios.tls.suites import Suite

OPENSSL = shutil.which("openssl")
pytestmark = pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed")
TLS13 = Suite("TLS_AES_128_GCM_SHA256", "TLS1.3", "any", "aes-128-gcm", "aead",
              "TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256")
TLS12 = Suite("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS1.2", "ECDHE-RSA", "aes-128-gcm",
              "aead", "ECDHE-RSA-AES128-GCM-SHA256", "x")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("suite", [TLS13, TLS12], ids=["tls1.3", "tls1.2"])
def test_a_stranger_gets_neither_the_key_nor_the_payload(tmp_path, suite):
    # 1 MiB: OpenSSL 3.5's s_client hands a 64 KiB payload over in one read, too small to time
    with lb.Loopback(OPENSSL, 1 << 20, {**os.environ, "TMPDIR": str(tmp_path)}) as loop:
        server, port = loop._start(suite)
        # Another local user's client: no certificate of the run. It asks for the key the way
        # a file-serving server would answer.
        r = subprocess.run([OPENSSL, "s_client", "-connect", f"127.0.0.1:{port}", "-quiet",
                            *lb.suite_args(suite)], input=b"GET /key.pem HTTP/1.0\r\n\r\n",
                           capture_output=True, timeout=30)
        key = (loop.dir / "key.pem").read_bytes()
        assert r.stdout == b""
        assert b"PRIVATE KEY" not in r.stdout and key not in r.stdout
        # One connection per server: the stranger's attempt used it up, the server is gone.
        server.wait(timeout=10)
        # The run's own client still gets the whole payload, checked.
        m = loop.measure(suite, budget_s=0)
        assert m.error is None and m.bytes_per_s and m.bytes_per_s > 0
    assert not any(_alive(p.pid) for p in loop._running)


def test_the_payload_never_holds_s_server_command_bytes(tmp_path):
    with lb.Loopback(OPENSSL, 1 << 20, {**os.environ, "TMPDIR": str(tmp_path)}) as loop:
        assert len(loop.payload) == 1 << 20
        assert not any(b in loop.payload for b in (b"Q", b"q", b"P", b"S", b"\n", b"\r"))


def test_server_and_client_die_with_a_killed_parent(tmp_path):
    """SIGKILL cannot be caught: only the kernel (PR_SET_PDEATHSIG) can stop the server."""
    script = textwrap.dedent(f"""
        import os, sys, time
        from cipherbench.scenarios.tls import loopback as lb
        from cipherbench.scenarios.tls.suites import Suite
        s = Suite(*{tuple(TLS13.__dict__.values())!r})
        loop = lb.Loopback({OPENSSL!r}, 4096).__enter__()
        server, port = loop._start(s)
        print(server.pid, flush=True)
        time.sleep(60)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             env={**os.environ, "TMPDIR": str(tmp_path),
                                  "PYTHONPATH": os.pathsep.join(sys.path)})
    try:
        pid = int(child.stdout.readline())
        assert _alive(pid)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = _alive(pid)
    if alive:
        os.kill(pid, signal.SIGKILL)
    assert not alive, "openssl s_server outlived the killed benchmark"
