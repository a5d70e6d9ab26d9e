# SPDX-License-Identifier: GPL-3.0-or-later
"""The private OpenSSH server: it works, it is private, and nothing of it outlives the run
(normal end, exception, Ctrl-C, SIGTERM). Runs the real /usr/sbin/sshd on 127.0.0.1."""
from __future__ import annotations

import hashlib
import os
import pwd
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cipherbench.processes import procs
from cipherbench.scenarios.ssh.server import SSHD, PrivateServer
from cipherbench.scenarios.ssh.transfer import Target, transfer

pytestmark = pytest.mark.skipif(
    not os.access(SSHD, os.X_OK) or not sys.platform.startswith("linux"),
    reason=f"needs OpenSSH's server at {SSHD} on Linux (apt-get install openssh-server)")

HOME_SSH = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".ssh"


def _home_ssh_state():
    """What ~/.ssh looks like: present or not, and each entry's name, size and mtime."""
    if not HOME_SSH.exists():
        return None
    return (HOME_SSH.stat().st_mtime_ns,
            sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in HOME_SSH.iterdir()))


@pytest.fixture(autouse=True, scope="module")
def home_ssh_untouched():
    """Every test of this module leaves the user's ~/.ssh exactly as it was."""
    before = _home_ssh_state()
    yield
    assert _home_ssh_state() == before


def _wait_for(pred, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("condition not reached in time")


def test_server_is_private_works_and_is_removed(tmp_path):
    with PrivateServer(tmp_parent=str(tmp_path)) as srv:
        d = srv.dir
        assert stat.S_IMODE(d.stat().st_mode) == 0o700
        config = (d / "sshd_config").read_text()
        assert "ListenAddress 127.0.0.1" in config and str(d) in config
        assert "~/.ssh" not in srv.client_config.read_text()
        target = Target(srv.destination, tuple(srv.ssh_options()), private=True)
        data = os.urandom(3 << 20)
        sample = transfer(target, "aes128-ctr", "hmac-sha2-256-etm@openssh.com", data,
                          verify=True)
        assert sample.digest == hashlib.sha256(data).hexdigest()
        assert sample.wall_s > 0 and sample.client_cpu_s is not None
        assert sample.server_cpu_s is not None and sample.server_cpu_s > 0
        assert sample.server_cpu_method in ("schedstat", "stat-ticks")
        pids = srv.pids()
        assert pids and all(procs.alive(p) for p in pids)
    assert not d.exists()
    assert list(tmp_path.iterdir()) == []
    assert not any(procs.alive(p) for p in pids)


@pytest.mark.parametrize("exc", [RuntimeError, KeyboardInterrupt])
def test_nothing_survives_an_exception_during_a_session(tmp_path, exc):
    """An open session (its sshd processes are in their own sessions, so they outlive a
    stopped listener unless stopped too) is cleaned up when the block raises."""
    client = None
    with pytest.raises(exc):
        with PrivateServer(tmp_parent=str(tmp_path)) as srv:
            d = srv.dir
            client = subprocess.Popen(["ssh", *srv.ssh_options(), srv.destination, "sleep 60"],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
            # listener + the connection's monitor and session processes + the shell
            pids = _wait_for(lambda: (lambda p: p if len(p) >= 3 else None)(srv.pids()))
            raise exc("simulated")
    try:
        assert not d.exists()
        _wait_for(lambda: not any(procs.alive(p) for p in pids), timeout=5)
    finally:
        if client is not None:
            client.kill()
            client.wait()


def _descendants_with_sshd(pid: int) -> list[int] | None:
    kids = procs.descendants(pid)
    # the listener plus at least one connection process (sshd, or sshd-session from
    # OpenSSH 9.8 on) and the client: a transfer is under way
    servers = sum(1 for k in kids if procs.is_sshd(k))
    return kids if servers >= 2 and any(procs.name(k) == "ssh" for k in kids) else None


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_command_leaves_nothing_behind(tmp_path, sig):
    """`cipherbench ssh` in its own process, interrupted mid-transfer: exit 130, the private
    directory gone, no process of the run left, the run kept as interrupted."""
    db = tmp_path / "r.sqlite"
    env = dict(os.environ, TMPDIR=str(tmp_path), CIPHERBENCH_DB=str(db), NO_COLOR="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from cipherbench.cli import main; "
         "sys.exit(main(sys.argv[1:]))", "ssh", "--size", "64M", "--no-baseline",
         "--ciphers", "aes128-ctr,3des-cbc", "--macs", "umac-64-etm@openssh.com"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kids = _wait_for(lambda: _descendants_with_sshd(proc.pid), timeout=60)
        assert list(tmp_path.glob("cipherbench-ssh-*"))
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(tmp_path.glob("cipherbench-ssh-*"))
    _wait_for(lambda: not any(procs.alive(p) for p in kids), timeout=5)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT status FROM runs").fetchall() == [("interrupted",)]
