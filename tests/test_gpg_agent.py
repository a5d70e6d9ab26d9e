# SPDX-License-Identifier: GPL-3.0-or-later
"""The run's gpg-agent cannot outlive it: started by the run itself, supervised, with a
parent-death signal, so a SIGKILL of the run (a CI cancel, the OOM killer) takes the agent
with it instead of leaving `gpg-agent --daemon` beside the passphrase file; gpg never starts
a daemon of its own. Real gpg (skipped when missing)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cipherbench.scenarios.gpg.home import private_gnupg_home
from test_signals import _naming, _wait

pytestmark = pytest.mark.skipif(shutil.which("gpg") is None or shutil.which("gpg-agent") is None,
                                reason="gpg is not installed")


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:   # gone meanwhile
        return ""


def _agents(text: str) -> list[int]:
    """Living gpg-agent processes whose command line mentions ``text``."""
    return [p for p in _naming(text) if _comm(p).startswith("gpg-agent")]


def test_the_home_is_served_by_the_runs_own_agent(tmp_path):
    with private_gnupg_home({**os.environ, "TMPDIR": "/tmp"}) as home:
        assert home.own_agent and "--no-autostart" in home.gpg_args()
        out = subprocess.run(["gpg", *home.gpg_args(), "--symmetric", "--output", "-"],
                             input=b"x" * 1000, capture_output=True, env=home.env, timeout=60)
        assert out.returncode == 0, out.stderr
        agents = _agents(str(home.path))
        assert len(agents) == 1
        ppid = int(Path(f"/proc/{agents[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert ppid == os.getpid()   # this process's child, not a detached daemon
    assert _wait(lambda: not _naming(str(home.path)), 10)
    assert not home.path.exists()


@pytest.mark.parametrize("command", ["gpg", "advise"])
def test_sigkill_of_the_run_takes_its_agent_with_it(tmp_path, request, command):
    tmp = Path(tempfile.mkdtemp(prefix="cb-agent-", dir="/tmp"))
    request.addfinalizer(lambda: shutil.rmtree(tmp, ignore_errors=True))
    args = (["gpg", "--size", "4M", "--algo", "AES,AES256,CAMELLIA128", "--budget", "5"]
            if command == "gpg" else ["advise", "--for", "gpg"])
    env = dict(os.environ, TMPDIR=str(tmp), CIPHERBENCH_DB=str(tmp_path / "r.sqlite"),
               NO_COLOR="1")
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        if not _wait(lambda: _agents(str(tmp)) or proc.poll() is not None, 120) or \
                proc.poll() is not None:
            err = proc.communicate()[1] if proc.poll() is not None else ""
            pytest.fail(f"{command} never started gpg-agent: {err[-500:]}")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        # the agent goes at once; a gpg call already running finishes its few MiB
        assert _wait(lambda: not _agents(str(tmp)), 5), _agents(str(tmp))
        assert _wait(lambda: not _naming(str(tmp)), 30), _naming(str(tmp))
    finally:
        for p in _naming(str(tmp)):
            os.kill(p, signal.SIGKILL)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
