# SPDX-License-Identifier: GPL-3.0-or-later
"""The remote layer against hostile hosts and users: every ssh of a run keeps the connection
alive and gives up on a host that stops answering (a frozen host ends in one line, the run
marked with what it kept); a --host-core that is not a cipherbench core says so; Ctrl-C that
reaches ssh during the copy of the core is an interruption; the baseline listener binds the
address the ssh connection arrived on, never every interface."""
from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from cipherbench.interrupts import Stop
from cipherbench.remote import ship
from cipherbench.remote.host import RemoteHost
from cipherbench.scenarios.ssh.baseline import _listener_script
from test_run_host_netns import (_cmdline, _sshd_ancestors, host, real_env,  # noqa: F401
                                 remote, run_dirs, run_processes, stop)


def test_every_ssh_of_a_run_has_keep_alives():
    argv = RemoteHost("user@example.invalid", env={}).ssh_argv("true")
    opts = {argv[i + 1].split("=")[0]: argv[i + 1].split("=")[1]
            for i, a in enumerate(argv) if a == "-o"}
    assert int(opts["ServerAliveInterval"]) * int(opts["ServerAliveCountMax"]) <= 30
    assert argv.index("-o") < argv.index("user@example.invalid")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=lambda s: signal.Signals(s).name)
def test_ssh_stopped_during_the_copy_is_an_interruption(tmp_path, sig):
    """The terminal's Ctrl-C reaches ssh too: ssh dying of it is the user's stop, not "cannot
    copy the core: status -2"."""
    f = tmp_path / "core"
    f.write_bytes(b"\0" * 1024)
    # the stand-in for ssh dies of the signal even where it was started with the signal
    # ignored (a job started in the background, nohup), which a shell could not undo
    die = f"import os, signal; signal.signal({int(sig)}, signal.SIG_DFL); os.kill(os.getpid(), {int(sig)})"
    with pytest.raises(Stop) as e:
        ship.send([sys.executable, "-c", die], {"core": f}, None, dict(os.environ), 30)
    assert e.value.signum == sig


def test_a_copy_that_fails_otherwise_is_still_its_status(tmp_path):
    f = tmp_path / "core"
    f.write_bytes(b"\0" * 1024)
    rc, err = ship.send(["sh", "-c", "cat >/dev/null; echo no space >&2; exit 2"], {"core": f},
                        None, dict(os.environ), 30)
    assert rc == 2 and "no space" in err


@pytest.mark.skipif(shutil.which("socat") is None or shutil.which("ss") is None,
                    reason="needs socat and ss")
@pytest.mark.parametrize("arrived", ["127.0.0.2", "::1"])
def test_the_baseline_listener_binds_the_address_ssh_arrived_on(arrived):
    port = 40000 + os.getpid() % 20000
    p = subprocess.Popen(["sh", "-c", _listener_script(port)], stdout=subprocess.PIPE,
                         env=dict(os.environ, SSH_CONNECTION=f"{arrived} 50000 {arrived} 22"),
                         start_new_session=True)
    try:
        assert p.stdout is not None
        assert p.stdout.readline().split() == [b"CB-TOOL", b"socat", arrived.encode()]
        listening = ""
        deadline = time.monotonic() + 10
        while not listening and time.monotonic() < deadline:
            listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True,
                                       text=True).stdout
            time.sleep(0.05)
        local = listening.split()[3]
        assert local in (f"{arrived}:{port}", f"[{arrived}]:{port}"), listening
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def test_no_arrival_address_no_listener():
    out = subprocess.run(["sh", "-c", _listener_script(45999)], capture_output=True, text=True,
                         env={k: v for k, v in os.environ.items() if k != "SSH_CONNECTION"},
                         timeout=30)
    assert out.stdout.split() in (["CB-NOADDR"], ["CB-NOTOOL"])


def test_a_host_core_that_is_not_a_core_says_so(cli, host, real_env):
    dest, cfg = host
    before = run_dirs()
    for prog in ("/bin/false", "/bin/true"):
        res = cli("run", "--host", dest, "--ssh-config", cfg, "--host-core", prog, "--lib",
                  "openssl", "--algo", "sha256", "--sizes", "1024", "--budget", "0",
                  env_override=real_env)
        assert res.rc == 1, res.err
        lines = [ln for ln in res.err.splitlines() if ln.startswith("cipherbench: error:")]
        assert len(lines) == 1 and f"{prog} on {dest} is not a cipherbench core" in lines[0]
        assert "without any crypto library" not in res.err
    assert run_dirs() == before


def test_a_frozen_host_ends_in_one_line_with_what_was_kept(host, real_env, tmp_path):
    """The host's ssh sessions stop (SIGSTOP: the host frozen, the TCP link still up) while
    its core measures: the keep-alives go unanswered, ssh gives up, and the run ends in one
    line, marked with the results it had, instead of waiting for ever."""
    dest, cfg = host
    before = run_dirs()
    env = {**real_env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "run", "--host", dest,
                             "--ssh-config", cfg, "--lib", "openssl,libgcrypt", "--algo",
                             "aes-*", "--sizes", "1024,16k,64k", "--budget", "1",
                             "--no-progress", "--rounds", "off"],   # ref first, stored
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    sessions: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        cores: list[int] = []
        running: list[str] = []
        while time.monotonic() < deadline and proc.poll() is None and not cores:
            running = [d for d in run_dirs() - before if glob.glob(os.path.join(d, "pid.*"))]
            cores = [p for p in run_processes(set(running)) if b"\0bench\0--lib\0openssl\0"
                     in _cmdline(p)] if running else []
            time.sleep(0.05)
        assert cores, "no core measured on the host"
        for c in cores:
            sessions.update(_sshd_ancestors(c)[:-1])   # the listener stays: the cleanup
        assert sessions
        for p in sessions:
            os.kill(p, signal.SIGSTOP)
        t0 = time.monotonic()
        _, err = proc.communicate(timeout=120)
        waited = time.monotonic() - t0
    finally:
        for p in sessions:
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        stop(proc)
    assert proc.returncode == 1, err
    assert waited < 90
    lines = [ln for ln in err.splitlines() if ln.startswith("cipherbench: error:")]
    assert len(lines) == 1 and dest.split("@")[1] in lines[0], err
    assert "Traceback" not in err
    show = subprocess.run([sys.executable, "-m", "cipherbench", "export", "last", "--format",
                           "json"], env=env, capture_output=True, text=True, timeout=60)
    doc = json.loads(show.stdout)
    assert doc["run"]["status"] == "interrupted" and doc["results"]   # what finished is kept
    assert f"run {doc['run']['id']} is marked interrupted" in lines[0]
