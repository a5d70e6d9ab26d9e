# SPDX-License-Identifier: GPL-3.0-or-later
"""A throttled host: `run --host` against a "remote" machine in a network namespace
(``test_ssh_netns``'s), whose sshd, and so the core it runs, is held to a quarter of one core
by a cgroup (cgroup v2 ``cpu.max``, or v1 ``cpu.cfs_quota_us``). The run stores the share of a
CPU the core got there (its CPU time over wall time) and shows the delivered rate beside the
rate per CPU second (the core's end records carry its CPU time beside the elapsed time);
`advise --host` reads the delivered one. Needs root, iproute2 and a
writable cpu cgroup (skipped with the reason otherwise).
"""
from __future__ import annotations

import os
import pwd
import shutil
import time
from pathlib import Path

import pytest

from cipherbench.advise.evidence import Evidence, Primitive
from cipherbench.analysis.delivered import delivered, share_of, throttled
from cipherbench.scenarios.ssh.server import PrivateServer
from cipherbench.store import Result, Run
from conftest import real_core
from test_ssh_netns import REMOTE_ADDR, remote  # noqa: F401 - the namespace fixture

QUOTA = 0.25   # of one core


def _cpu_cgroup(name: str, quota: float) -> tuple[Path, Path]:
    """A cgroup holding its processes to ``quota`` of a core: (its directory, the file a pid
    is written to). Skips the test where no cpu controller can be written."""
    period = 100_000
    v2 = Path("/sys/fs/cgroup")
    if (v2 / "cgroup.controllers").exists():
        try:
            if "cpu" not in (v2 / "cgroup.subtree_control").read_text().split():
                (v2 / "cgroup.subtree_control").write_text("+cpu")
            d = v2 / name
            d.mkdir()
            (d / "cpu.max").write_text(f"{int(period * quota)} {period}")
            return d, d / "cgroup.procs"
        except OSError as e:
            pytest.skip(f"cannot make a cgroup v2 with cpu.max here: {e}")
    for v1 in (Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup/cpu,cpuacct")):
        if (v1 / "cpu.cfs_quota_us").exists():
            try:
                d = v1 / name
                d.mkdir()
                (d / "cpu.cfs_period_us").write_text(str(period))
                (d / "cpu.cfs_quota_us").write_text(str(int(period * quota)))
                return d, d / "cgroup.procs"
            except OSError as e:
                pytest.skip(f"cannot make a cpu cgroup (v1) here: {e}")
    pytest.skip("no cpu cgroup controller is mounted (neither cgroup v2 nor v1 cpu)")


def _remove_cgroup(d: Path) -> None:
    for _ in range(50):   # the last processes of the sshd leave it as they exit
        try:
            d.rmdir()
            return
        except OSError:
            time.sleep(0.1)


@pytest.fixture
def throttled_host(remote, tmp_path):  # noqa: F811 - the fixture imported above
    """A sshd in the namespace held to QUOTA of a core; (destination, ssh_config)."""
    d, procs = _cpu_cgroup(f"cbtest-throttled-{os.getpid()}", QUOTA)
    wrap = ("sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh", "ip", "netns", "exec",
            remote.ns)
    srv = PrivateServer(listen=REMOTE_ADDR, wrap=wrap, tmp_parent=str(tmp_path))
    try:
        try:
            srv.start()
        except Exception as e:  # noqa: BLE001 - where the cgroup cannot be joined: skip
            pytest.skip(f"cannot start sshd in a cpu cgroup here: {e}")
        user = pwd.getpwuid(os.getuid()).pw_name
        yield f"{user}@{REMOTE_ADDR}", str(srv.client_config)
    finally:
        srv.stop()
        _remove_cgroup(d)


def test_throttled_host_reports_its_share_and_the_delivered_rate(cli, throttled_host, env):
    if shutil.which("ip") is None:
        pytest.skip("needs iproute2")
    dest, cfg = throttled_host
    e = {**env, "CIPHERBENCH_CORE": str(real_core())}
    res = cli("run", "--host", dest, "--ssh-config", cfg, "--lib", "openssl", "--algo",
              "aes-128-gcm", "--op", "encrypt", "--sizes", "16k", "--budget", "0",
              "--no-ref", env_override=e)
    assert res.rc == 0, res.err
    doc = cli("export", "last", "--format", "json", env_override=e).json()
    m = doc["run"]["metadata"]
    share = m["core_cpu_share"]
    # held to a quarter of a core (a busy machine only lowers it further)
    assert share is not None and 0 < share < 0.6, share
    assert m["cpu_share"] is None            # this machine's share is not the host's
    out = " ".join(res.out.split())
    assert f"gave the core {share:.0%} of a CPU" in out
    assert "per CPU second" in out and "delivered" in out


def _primitive(share: float | None) -> Primitive:
    r = Result("primitive", "openssl", "aes-128-gcm", "encrypt", 16384, "ns_per_op", "ns",
               median=16384.0)   # 1 byte per ns: 1 GB/s per CPU second
    meta = {"host": "nas"} | ({"core_cpu_share": share} if share is not None else {})
    return Primitive(r, Run(1, "run", "", None, "complete", {}, meta, "0"))


def test_advise_reads_the_delivered_rate_of_a_throttled_host():
    assert _primitive(None).bps == pytest.approx(1e9)
    p = _primitive(0.25)
    assert p.per_cpu_bps == pytest.approx(1e9) and p.bps == pytest.approx(0.25e9)
    ev = Evidence()
    ev.host_primitive[("openssl", "aes-128-gcm", "encrypt")] = p
    assert ev.host_cpu_share() == 0.25
    local = Primitive(p.result, Run(2, "run", "", None, "complete", {},
                                    {"core_cpu_share": 0.25}, "0"))
    assert local.bps == pytest.approx(1e9)   # this machine's own share is other work's
    assert share_of(25, 100) == 0.25 and share_of(1, 0) is None
    assert share_of(120, 100) == 1.0 and delivered(10.0, None) == 10.0
    assert throttled(0.25) and not throttled(0.95) and not throttled(None)
