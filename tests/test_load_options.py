# SPDX-License-Identifier: GPL-3.0-or-later
"""Every measuring command has --wait-quiet and --cpu; --cpu keeps the measured programs on
that CPU (the gpg and age processes, the ssh client)."""
from __future__ import annotations

import os

import pytest

from cipherbench.cli import build_cli
from cipherbench.scenarios.gpg.process import run_timed

MEASURING = ("run", "tls", "ssh", "gpg")


@pytest.mark.parametrize("command", MEASURING)
def test_every_measuring_command_has_wait_quiet_and_cpu(command):
    opts = {o for p in build_cli().commands[command].params for o in getattr(p, "opts", [])}
    assert {"--wait-quiet", "--cpu"} <= opts


@pytest.mark.real
def test_a_timed_program_runs_on_the_asked_cpu():
    cpu = max(os.sched_getaffinity(0))
    t = run_timed(["sh", "-c", "sleep 0.2; grep Cpus_allowed_list /proc/self/status"], b"",
                  dict(os.environ), capture=True, cpu=cpu)
    assert t.stdout.decode().split()[-1] == str(cpu)


def test_a_cpu_this_process_may_not_use_is_refused(cli):
    r = cli("gpg", "--cpu", "100000")
    assert r.rc == 2 and "CPU 100000" in r.err and "Traceback" not in r.err
