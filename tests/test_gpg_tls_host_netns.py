# SPDX-License-Identifier: GPL-3.0-or-later
"""`gpg --host` and `tls --host` on "hosts" in the network namespace of the ssh tests
(``test_ssh_netns.NetnsRemote``): each its own sshd with its own host name (a UTS namespace);
one of them has no gpg on the PATH its sshd gives (a directory of links to every program but
GnuPG's). The real core is shipped to each.

Checked: the gpg and tls measurements of both hosts in one command run there and are stored
with each host as its run's machine, tls saying in one line per host what it leaves out
there; a host without gpg gets one line and a failed run, the exit status says so, and the
other host's run is kept; nothing of a run is left on a host (no directory, no GnuPG home, no
process, no gpg-agent) after it finished, after Ctrl-C of the local command in the middle of
its rounds and after its connection dropped; a core too old to time a call is named in one
line. Needs root, iproute2 and unshare (skipped with the reason otherwise).
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import jsonschema
import pytest

from cipherbench.scenarios.ssh.server import PrivateServer
from test_export import SCHEMA
from test_run_fleet_netns import named_sshds, real_env  # noqa: F401 - a fixture
from test_run_host_netns import run_dirs, run_processes
from test_ssh_netns import REMOTE_ADDR, remote  # noqa: F401 - the namespace fixture

pytestmark = pytest.mark.real

WITH_GPG, WITHOUT_GPG = "gh-with-gpg", "gh-without-gpg"


class _NoGpgServer(PrivateServer):
    """A private sshd whose sessions get ``PATH=path`` (sshd's SetEnv)."""

    def __init__(self, *, path: str, **kwargs):
        super().__init__(**kwargs)
        self.path = path

    def _write_configs(self) -> None:
        super()._write_configs()
        assert self.dir is not None
        cfg = self.dir / "sshd_config"
        cfg.write_text(cfg.read_text().replace("SetEnv SHLVL=1",
                                               f"SetEnv SHLVL=1 PATH={self.path}"))


def _path_without_gpg(where: Path) -> str:
    """A directory with a link to every program of the usual directories but GnuPG's."""
    where.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        for exe in glob.glob(os.path.join(d, "*")):
            name = os.path.basename(exe)
            if name.startswith("gpg") or (where / name).exists():
                continue
            (where / name).symlink_to(exe)
    return str(where)


@pytest.fixture
def hosts(remote, tmp_path):  # noqa: F811 - the fixture imported above
    """Two sshds in the namespace, each with its own host name, the second without gpg;
    (servers, ssh_config)."""
    if shutil.which("gpg") is None:
        pytest.skip("needs gpg (apt-get install gnupg)")

    def server_for(name: str, wrap: tuple) -> PrivateServer:
        if name == WITH_GPG:
            return PrivateServer(listen=REMOTE_ADDR, wrap=wrap, tmp_parent=str(tmp_path))
        return _NoGpgServer(path=_path_without_gpg(tmp_path / "bin-no-gpg"),
                            listen=REMOTE_ADDR, wrap=wrap, tmp_parent=str(tmp_path))
    yield from named_sshds(remote.ns, tmp_path, (WITH_GPG, WITHOUT_GPG), server_for,
                           "hosts_ssh_config")


def _left_on_hosts(before: set[str]) -> list[str]:
    """What a run left on the hosts (they share this machine's file system and processes):
    its directory (the GnuPG home is inside it), its processes (a gpg-agent too)."""
    return sorted(run_dirs() - before) + [f"process {p}" for p in run_processes()]


def test_gpg_on_two_hosts_one_without_gpg(cli, hosts, real_env):
    _, cfg = hosts
    before = run_dirs()
    res = cli("gpg", "--host", f"{WITH_GPG},{WITHOUT_GPG}", "--ssh-config", cfg, "--algo",
              "AES,TWOFISH", "--size", "64k", "--rounds", "2", "--budget", "0", "--json",
              env_override=real_env)
    print(res.err)   # seen with `pytest -s`
    assert res.rc == 1, res.err
    assert "Traceback" not in res.err
    doc = {h["host"]: h for h in res.json()["hosts"]}
    good, bad = doc[WITH_GPG], doc[WITHOUT_GPG]
    # the host without gpg: one line naming it, a failed run, no results
    assert bad["status"] == "failed" and f"{WITHOUT_GPG} has no gpg" in bad["reason"]
    (last,) = [ln for ln in res.err.splitlines() if ln.startswith(f"{WITHOUT_GPG}: failed")]
    assert f"{WITHOUT_GPG} has no gpg" in last
    # the other: measured there with its own gpg, stored with the host as its machine
    assert good["status"] == "complete", good
    (run,) = good["runs"]
    jsonschema.validate(run, SCHEMA)   # each host's run: the export document
    meta = run["run"]["metadata"]
    assert run["run"]["command"] == "gpg" and run["run"]["args"]["host"] == WITH_GPG
    assert meta["host"] == WITH_GPG and meta["hostname"] == WITH_GPG != os.uname().nodename
    assert meta["programs"]["gpg"].startswith("gpg (GnuPG)")
    rows = [r for r in run["results"] if r["lib"] == "gnupg" and r["metric"] == "bytes_per_s"]
    assert {(r["algo"], r["op"]) for r in rows} >= {
        (a, op) for a in ("AES", "TWOFISH") for op in ("encrypt", "decrypt")}
    assert all(r["median"] > 0 and r["extra"]["cpu_samples_s"] for r in rows)
    # the cipher alone, by the core shipped there
    assert any(r["lib"] == "libgcrypt" and r["algo"] == "aes-128-cfb" for r in run["results"])
    statuses = sorted(r["status"] for r in cli("history", "--json",
                                                env_override=real_env).json()["runs"])
    assert statuses == ["complete", "failed"]
    assert _left_on_hosts(before) == []


def test_tls_on_two_hosts_says_what_it_cannot_measure_there(cli, hosts, real_env):
    _, cfg = hosts
    before = run_dirs()
    res = cli("tls", "--host", f"{WITH_GPG},{WITHOUT_GPG}", "--ssh-config", cfg, "--lib",
              "openssl", "--suites", "TLS_AES_128_GCM_SHA256", "--sizes", "1400", "--rounds",
              "2", "--budget", "0", "--loopback", "--json", env_override=real_env)
    print(res.err)   # seen with `pytest -s`
    assert res.rc == 0, res.err
    assert "Traceback" not in res.err
    for h in res.json()["hosts"]:
        assert h["status"] == "complete", h
        (doc,) = h["runs"]
        jsonschema.validate(doc, SCHEMA)
        meta = doc["run"]["metadata"]
        assert doc["run"]["command"] == "tls" and doc["run"]["args"]["host"] == h["host"]
        assert meta["host"] == h["host"] == meta["hostname"]   # measured there
        assert meta["host_core"] == "shipped"
        rows = [r for r in doc["results"] if r["metric"] == "bytes_per_s"]
        # the suite asked for (and OpenSSL's default beside it), measured there
        assert ("openssl", "TLS_AES_128_GCM_SHA256", 1400) in {
            (r["lib"], r["algo"], r["size"]) for r in rows}
        assert all(r["lib"] == "openssl" and r["median"] > 0 for r in rows)
        # the loopback transfers asked for: not measured on the host, said in one line
        said = [ln for ln in res.err.splitlines()
                if ln.startswith(f"{h['host']}: ") and "loopback" in ln]
        assert len(said) == 1, res.err
    # the suites a host's libraries have
    listed = cli("tls", "--host", WITH_GPG, "--ssh-config", cfg, "--list-suites",
                 env_override=real_env)
    assert listed.rc == 0 and "TLS_AES_128_GCM_SHA256" in listed.out, listed.err
    assert _left_on_hosts(before) == []


def test_ctrl_c_in_the_rounds_leaves_nothing_on_the_host(hosts, real_env):
    """Ctrl-C (SIGINT to the command's whole process group, ssh included) after the first
    round: the run keeps what the rounds measured, and the host is left as it was."""
    _, cfg = hosts
    before = run_dirs()
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "gpg", "--host", WITH_GPG,
                             "--ssh-config", cfg, "--algo", "AES,TWOFISH", "--size", "1M",
                             "--rounds", "30", "--budget", "60", "--no-core"],
                            env=real_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    lines: list[str] = []
    assert proc.stderr is not None
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")),
                              daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 180
        # 3 ciphers (AES256, gpg's default, joins) x 3 calls: one round is 9 calls
        while time.monotonic() < deadline and proc.poll() is None and not any(
                re.match(r"\[(1\d|[2-9]\d)/", ln) for ln in lines):
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)   # Ctrl-C: the whole process group, ssh too
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    err = "".join(lines)
    print(err)   # seen with `pytest -s`
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    kept = re.search(r"interrupted: run \d+ keeps its (\d+) finished results", err)
    assert kept and int(kept.group(1)) > 0, err
    deadline = time.monotonic() + 10   # a gpg-agent told to stop takes a moment
    while _left_on_hosts(before) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _left_on_hosts(before) == []


def _sshd_sessions(srv: PrivateServer) -> list[int]:
    """The server's per-connection sshd processes (not its listener)."""
    out = []
    for p in srv.pids():
        try:
            comm = Path(f"/proc/{p}/comm").read_text().strip()
        except OSError:
            continue
        if comm.startswith("sshd") and srv.proc is not None and p != srv.proc.pid:
            out.append(p)
    return out


def test_a_dropped_connection_leaves_nothing_on_the_host(cli, hosts, real_env):
    """Every connection to the host cut in the middle of the rounds (its sshd sessions
    killed; the host itself still answers): the shell there cleans up as its input ends, the
    run says so in one line and keeps what it measured."""
    servers, cfg = hosts
    before = run_dirs()
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "gpg", "--host", WITH_GPG,
                             "--ssh-config", cfg, "--algo", "AES", "--size", "1M",
                             "--rounds", "30", "--budget", "60", "--no-core"],
                            env=real_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    lines: list[str] = []
    assert proc.stderr is not None
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")),
                              daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and proc.poll() is None and not any(
                re.match(r"\[(1\d|[2-9]\d)/", ln) for ln in lines):
            time.sleep(0.02)
        for p in _sshd_sessions(servers[0]):
            try:
                os.kill(p, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=10)
    err = "".join(lines)
    print(err)   # seen with `pytest -s`
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    (line,) = [ln for ln in err.splitlines() if "error:" in ln]
    assert "lost the connection" in line and "finished results" in line, err
    deadline = time.monotonic() + 15   # the shell finishes its call, then cleans up
    while _left_on_hosts(before) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _left_on_hosts(before) == [], err


def test_a_core_without_time_is_named_in_one_line(cli, hosts, real_env, tmp_path):
    """--host-core naming a core older than the `time` command (its preamble's commands
    lack it): one line saying so and what to do, a failed run, nothing left."""
    _, cfg = hosts
    old = tmp_path / "old-core"
    old.write_text("#!/bin/sh\necho '{\"v\":1,\"type\":\"preamble\",\"command\":\"list\","
                   "\"commands\":[\"list\",\"kat\",\"bench\",\"serve\",\"tls\"]}'\n")
    old.chmod(0o755)
    before = run_dirs()
    res = cli("gpg", "--host", WITH_GPG, "--ssh-config", cfg, "--host-core", str(old),
              "--algo", "AES", "--size", "64k", env_override=real_env)
    assert res.rc == 1, res.err
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and "has no `time` command" in lines[0], res.err
    assert "run 1 is marked failed" in lines[0]
    assert _left_on_hosts(before) == []
