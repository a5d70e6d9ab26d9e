# SPDX-License-Identifier: GPL-3.0-or-later
"""A fleet in one command: three "hosts" in the network namespace of the ssh tests
(``test_ssh_netns.NetnsRemote``), each its own sshd on its own port with its own host name (a
UTS namespace), named fleet-h1..h3 in one ssh config. The real core is shipped to each.

Checked: ``run --host 'fleet-*'`` measures the three in parallel, each run stored with its own
host's machine facts, nothing left on them; one host killed in the middle of its run is
reported and ends that host only (the others complete, the exit status is 1); an inventory
group names the hosts. Needs root, iproute2 and unshare (skipped with the reason otherwise).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from cipherbench.processes import procs
from cipherbench.scenarios.ssh.server import PrivateServer
from conftest import real_core
from test_run_host_netns import run_dirs, run_processes
from test_ssh_netns import REMOTE_ADDR, remote  # noqa: F401 - the namespace fixture

NAMES = ("fleet-h1", "fleet-h2", "fleet-h3")


def named_sshds(ns: str, tmp_path, names, server_for=None, config_name="fleet_ssh_config"):
    """One sshd per name in the network namespace ``ns``, each with that host name (a UTS
    namespace); yields (servers, an ssh config naming them) and stops them on the way out.
    ``server_for(name, wrap)`` makes a name's server (default: a plain ``PrivateServer``)."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux) for each host's own host name")
    servers: list[PrivateServer] = []
    config = []
    try:
        for name in names:
            wrap = ("unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec "$@"', name,
                    "ip", "netns", "exec", ns)
            srv = server_for(name, wrap) if server_for else \
                PrivateServer(listen=REMOTE_ADDR, wrap=wrap, tmp_parent=str(tmp_path))
            try:
                srv.start()
            except Exception as e:  # noqa: BLE001 - where UTS namespaces are refused: skip
                pytest.skip(f"cannot start sshd in a UTS namespace here: {e}")
            servers.append(srv)
            own = srv.client_config.read_text().splitlines()
            config += [f"Host {name}"] + [ln for ln in own[1:] if not ln.startswith("Host ")]
        cfg = tmp_path / config_name
        cfg.write_text("\n".join(config) + "\n")
        yield servers, str(cfg)
    finally:
        for srv in servers:
            srv.stop()


@pytest.fixture
def fleet(remote, tmp_path):  # noqa: F811 - the fixture imported above
    """Three sshds in the namespace, each with its own host name; (servers, ssh_config)."""
    yield from named_sshds(remote.ns, tmp_path, NAMES)


@pytest.fixture
def real_env(env):
    return {**env, "CIPHERBENCH_CORE": str(real_core()),
            "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def _runs(env) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "cipherbench", "history", "--json"], env=env,
                         capture_output=True, text=True, timeout=60)
    return json.loads(out.stdout)["runs"]


def test_three_hosts_in_one_command(cli, fleet, real_env, tmp_path):
    servers, cfg = fleet
    before = run_dirs()
    inv = tmp_path / "hosts.ini"
    inv.write_text("[web]\nfleet-h1\nfleet-h3\n\n[db]\nfleet-h2\n")
    res = cli("run", "--host", "fleet-*", "--ssh-config", cfg, "--parallel", "3", "--lib",
              "openssl", "--algo", "sha256", "--sizes", "1024", "--budget", "0", "--json",
              env_override=real_env)
    assert res.rc == 0, res.err
    assert "Traceback" not in res.err
    doc = res.json()
    assert [h["host"] for h in doc["hosts"]] == list(NAMES)
    for h in doc["hosts"]:
        assert h["status"] == "complete" and h["exit_status"] == 0
        (run,) = h["runs"]
        m = run["run"]["metadata"]
        assert m["host"] == h["host"] and m["hostname"] == h["host"]   # taken on each host
        assert {(r["lib"], r["algo"]) for r in run["results"] if r["lib"] == "openssl"} == {
            ("openssl", "sha256")}
    # one progress line per host, named
    for name in NAMES:
        assert f"{name}: started" in res.err and f"{name}: done in" in res.err
    assert run_dirs() == before and run_processes() == []
    # an inventory group: the two web hosts only
    res = cli("run", "--inventory", f"{inv}:web", "--ssh-config", cfg, "--lib", "openssl",
              "--algo", "sha256", "--sizes", "1024", "--budget", "0", env_override=real_env)
    assert res.rc == 0, res.err
    assert "2 hosts: 2 complete" in res.out
    assert "fleet-h2" not in res.out
    assert [r["status"] for r in _runs(real_env)] == ["complete"] * 5


def _core_under(srv: PrivateServer) -> bool:
    """A core's bench process runs in one of ``srv``'s sessions."""
    return any(b"\0bench\0" in _cmdline(p) for p in srv.pids())


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def test_a_host_killed_mid_run_ends_that_host_only(fleet, real_env):
    servers, cfg = fleet
    before = run_dirs()
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "run", "--host",
                             ",".join(NAMES), "--ssh-config", cfg, "--lib", "openssl",
                             "--algo", "aes-128-gcm,sha256", "--sizes", "1024,16k",
                             "--budget", "0.5"],
                            env=real_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    victim = servers[1]
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None and not _core_under(victim):
            time.sleep(0.05)
        assert _core_under(victim), "no core measured on fleet-h2"
        for p in victim.pids():   # the host is gone: its sshd, its sessions, its core
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=120)
        for d in run_dirs() - before:   # what the killed host could not remove
            shutil.rmtree(d, ignore_errors=True)
    print(err)   # seen with `pytest -s`
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    assert "3 hosts: 2 complete; 1 did not finish: fleet-h2 (failed)" in out
    assert "fleet-h2: failed after" in err and "connection" in err
    runs = {r["run"]: r for r in _runs(real_env)}
    statuses = sorted(r["status"] for r in runs.values())
    # the killed host's run: failed (killed while its core checked its answers) or
    # interrupted (killed while measuring), with the reason either way
    assert statuses[:2] == ["complete", "complete"], runs
    assert statuses[2] in ("failed", "interrupted"), runs
    assert not [p for p in run_processes() if procs.alive(p)]


def test_a_host_that_stops_answering_is_timed_out(fleet, real_env):
    """fleet-h2 freezes (its sshd and everything under it stopped): --host-timeout or ssh's
    keep-alive ends that host's run, marked, reported in one line; the others complete."""
    servers, cfg = fleet
    before = run_dirs()
    victim = servers[1]
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "run", "--host",
                             ",".join(NAMES), "--ssh-config", cfg, "--lib", "openssl",
                             "--algo", "aes-128-gcm,sha256", "--sizes", "1024,16k",
                             "--budget", "0.5", "--host-timeout", "90", "--json"],
                            env=real_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    frozen: list[int] = []
    try:
        deadline = time.monotonic() + 80
        while time.monotonic() < deadline and proc.poll() is None and not _core_under(victim):
            time.sleep(0.05)
        assert _core_under(victim), "no core measured on fleet-h2"
        frozen = victim.pids()
        for p in frozen:
            os.kill(p, signal.SIGSTOP)
        out, err = proc.communicate(timeout=400)
    finally:
        for p in frozen:
            try:
                os.kill(p, signal.SIGCONT)
            except ProcessLookupError:
                pass
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=120)
        for d in run_dirs() - before:   # what the frozen host could not remove
            shutil.rmtree(d, ignore_errors=True)
    print(err)   # seen with `pytest -s`
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    # Whichever notices first ends that host's run, each with its own one line: the
    # --host-timeout, or ssh's keep-alive giving the frozen host up (often after ~30 s).
    hosts = {h["host"]: h for h in json.loads(out)["hosts"]}
    h2 = hosts["fleet-h2"]
    if h2["status"] == "timed out":
        assert "fleet-h2: no end within --host-timeout 90 s" in err
        assert h2["reason"].startswith("no end within --host-timeout 90 s; ")
    else:
        assert h2["status"] == "failed", h2
        assert "not responding" in h2["reason"] and "lost the connection to fleet-h2" in err
    assert hosts["fleet-h1"]["status"] == hosts["fleet-h3"]["status"] == "complete"
    assert time.monotonic() - t0 < 90 + 75 + 60   # the timeout, the cleanup's grace, slack
    statuses = sorted(r["status"] for r in _runs(real_env))
    assert statuses[:2] == ["complete", "complete"] and statuses[2] in ("failed",
                                                                        "interrupted")
