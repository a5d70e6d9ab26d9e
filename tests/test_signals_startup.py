# SPDX-License-Identifier: GPL-3.0-or-later
"""A stop signal during start-up (the commands still loading, the store being opened, the
first programs starting): the same one line and exit 130 as later, never a traceback or a
silent 143, and nothing left behind (process group, temporary directory) with the run, if
it was stored already, marked interrupted."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import real_core
from test_signals import _db_state, _group_members, _naming, _wait

COMMANDS = {
    "run": ["run", "--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024",
            "--budget", "1"],
    "ssh-scp": ["ssh", "--via", "scp", "--size", "1M", "--ciphers", "aes128-ctr",
                "--budget", "1"],
    "history": ["history"],
}
#: (command, signal, seconds after the command's module is loaded): inside the loading of the
#: commands (a second or more here), and the first steps (the store, the private sshd).
CASES = [("run", signal.SIGINT, 0.05), ("run", signal.SIGTERM, 0.05),
         ("run", signal.SIGHUP, 0.05), ("run", signal.SIGTERM, 0.6),
         ("ssh-scp", signal.SIGINT, 0.6), ("ssh-scp", signal.SIGTERM, 1.5),
         ("history", signal.SIGHUP, 0.05)]
#: The command as its entry point runs it, with a line on stderr once its module is loaded
#: (the interpreter's own start, before any of cipherbench runs, is Python's).
ENTRY = ("import sys; import cipherbench.cli as cli; print('loaded', file=sys.stderr, "
         "flush=True); cli.run()")


@pytest.mark.parametrize("command,sig,delay", CASES,
                         ids=[f"{c}-{signal.Signals(s).name}-{d}" for c, s, d in CASES])
def test_a_signal_during_start_up_is_one_line_and_exit_130(tmp_path, request, command, sig,
                                                           delay):
    if command.startswith("ssh") and not Path("/usr/sbin/sshd").exists():
        pytest.skip("sshd is not installed")
    tmp = Path(tempfile.mkdtemp(prefix="cb-sst-", dir="/tmp"))
    request.addfinalizer(lambda: shutil.rmtree(tmp, ignore_errors=True))
    db = tmp_path / "r.sqlite"
    env = dict(os.environ, TMPDIR=str(tmp), CIPHERBENCH_DB=str(db), NO_COLOR="1",
               CIPHERBENCH_CORE=str(real_core()))
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, *COMMANDS[command]], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        assert proc.stderr is not None and proc.stderr.readline() == "loaded\n"
        time.sleep(delay)
        if proc.poll() is not None:
            pytest.skip("the command ended before the signal")   # a very fast machine
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert "Traceback" not in err, err
    if command == "history" and proc.returncode != 130:
        assert proc.returncode == 1 and "no results database" in err   # it was done first
        return
    assert proc.returncode == 130, (proc.returncode, err)
    lines = err.strip().splitlines()
    assert lines[-1].startswith("cipherbench: error: interrupted"), err
    assert _wait(lambda: not _group_members(proc.pid), 5), _group_members(proc.pid)
    assert _wait(lambda: not _naming(str(tmp)), 5), _naming(str(tmp))
    assert list(tmp.iterdir()) == []
    status, _ = _db_state(db)
    assert status in (None, "interrupted")
