# SPDX-License-Identifier: GPL-3.0-or-later
"""``remote.shell.HostShell``: one shell on a host over one ssh, here through a stand-in
``ssh`` on PATH that runs the remote command line with this machine's sh (a test double of
the connection only: the shell, its traps and the commands are real). Checked: output and
status of each command, state kept between commands, no command reads the ones after it,
the caller's cleanup run when the shell is closed, and a connection that ends is HostLost."""
from __future__ import annotations

import os
import sys

import pytest

from cipherbench.remote.errors import HostLost, RemoteError
from cipherbench.remote.host import RemoteHost
from cipherbench.remote.shell import HostShell

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX sh")

FAKE_SSH = """#!/bin/sh
# the last argument is the remote command line, as ssh hands it to the login shell;
# exec: one process, as the connection is one
for a; do cmd=$a; done
exec sh -c "exec $cmd"
"""


@pytest.fixture
def host(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ssh").write_text(FAKE_SSH)
    (bin_dir / "ssh").chmod(0o755)
    run_dir = tmp_path / "run"
    run_dir.mkdir(mode=0o700)
    h = RemoteHost("somehost", env={**os.environ,
                                    "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    h.facts.directory = str(run_dir)
    return h, run_dir


def test_commands_their_output_and_status(host):
    h, run_dir = host
    with HostShell(h, on_exit='touch "$CB_RUN/cleaned"', prologue="v=5") as sh:
        assert sh.run("echo a; echo b; printf c").text == "a\nb\nc"
        assert sh.run("printf 'x\\n'").text == "x"
        assert sh.run("printf 'x\\n\\n'").text == "x\n"
        assert sh.run("true").text == "" and sh.run("false").rc == 1
        assert sh.run("sh -c 'echo err >&2; exit 3'") == sh.run("sh -c 'echo err >&2; exit 3'")
        assert sh.run("sh -c 'echo err >&2; exit 3'").rc == 3
        assert sh.run('echo "$v"').text == "5"           # the prologue's state is kept
        assert sh.run("cat").text == ""                  # stdin is /dev/null, not the commands
        assert sh.run("echo after").text == "after"
        assert [p.name for p in run_dir.glob("pid.*")]   # its pid, for the run's cleanup
    assert (run_dir / "cleaned").exists()                # on_exit ran as it closed
    assert not list(run_dir.glob("pid.*"))


def test_a_failing_prologue_is_one_line_and_ends_the_shell(host):
    h, run_dir = host
    shell = HostShell(h, on_exit='touch "$CB_RUN/cleaned"', prologue="echo nope; false")
    with pytest.raises(RemoteError, match="cannot prepare the run on somehost: nope"):
        with shell:
            pass
    assert shell.proc is None and (run_dir / "cleaned").exists()


def test_the_connection_ending_is_host_lost(host):
    h, run_dir = host
    with HostShell(h, on_exit='touch "$CB_RUN/cleaned"') as sh:
        assert sh.proc is not None
        sh.proc.kill()                     # the local ssh gone: the connection with it
        with pytest.raises(HostLost):
            sh.run("echo hello")
    assert h.lost
