# SPDX-License-Identifier: GPL-3.0-or-later
"""scp, sftp and rsync, each the real program against the real private sshd (and against a
"remote" reached through --host and an ssh_config): the file arrives whole and checked on the
far side, the far side's directory is removed, a changed file is caught, and the table says
which tool moved the bytes. Skipped, with the reason, for a program that is not installed."""
from __future__ import annotations

import glob
import hashlib
import os
import shutil
import sys

import pytest

from cipherbench.scenarios.ssh import via
from cipherbench.scenarios.ssh.errors import TransferFailed
from cipherbench.scenarios.ssh.server import SSHD, PrivateServer
from cipherbench.scenarios.ssh.transfer import Target

pytestmark = pytest.mark.skipif(
    not os.access(SSHD, os.X_OK) or not sys.platform.startswith("linux")
    or shutil.which("ssh") is None,
    reason=f"needs OpenSSH (client and {SSHD}) on Linux: apt-get install openssh-server")

TOOLS = ["scp", "sftp", "rsync"]
CIPHER = "aes128-ctr"
MAC = "umac-64-etm@openssh.com"


def _need(tool: str) -> None:
    if shutil.which(via.PROGRAMS[tool]) is None:
        pytest.skip(f"`{via.PROGRAMS[tool]}` is not installed (apt-get install "
                    f"{via.PROGRAMS[tool]})")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with PrivateServer(tmp_parent=str(tmp_path_factory.mktemp("via"))) as srv:
        yield srv


def _files(tmp_path, size=3 << 20):
    data = os.urandom(size)
    probe, big = tmp_path / "probe.bin", tmp_path / "data.bin"
    probe.write_bytes(data[:1 << 20])
    big.write_bytes(data)
    return probe, big, hashlib.sha256(data[:1 << 20]).hexdigest()


@pytest.mark.parametrize("tool", TOOLS)
def test_each_tool_moves_the_file_whole_through_the_real_program(tool, server, tmp_path):
    _need(tool)
    target = Target(server.destination, tuple(server.ssh_options()), private=True)
    probe, big, digest = _files(tmp_path)
    work = tmp_path / "work"
    work.mkdir(mode=0o700)
    far_dir = server.dir / f"far-{tool}"
    with via.FarSide(target, far_dir) as far:
        t = via.FileTool(tool, target, far, work, probe, big, digest)
        checked = t.sample(CIPHER, MAC, verify=True)          # hashed on the far side
        assert checked.nbytes == 1 << 20 and checked.digest == digest
        timed = t.sample(CIPHER, MAC, verify=False)
        assert timed.nbytes == 3 << 20 and timed.wall_s > 0 and timed.setup_s > 0
        assert timed.client_cpu_s > 0
        assert list(far_dir.iterdir()) == []                  # each file removed at once
        # a far side that does not get what was sent fails the check
        wrong = via.FileTool(tool, target, far, work, probe, big, "0" * 64)
        with pytest.raises(TransferFailed, match="changed in transit"):
            wrong.sample(CIPHER, MAC, verify=True)
    assert not far_dir.exists()


@pytest.mark.parametrize("tool", TOOLS)
def test_a_refused_cipher_is_one_typed_line(tool, tmp_path_factory, tmp_path):
    _need(tool)
    from cipherbench.scenarios.ssh.errors import CipherRefused
    with PrivateServer(ciphers=["aes256-ctr"],
                       tmp_parent=str(tmp_path_factory.mktemp("picky"))) as srv:
        target = Target(srv.destination, tuple(srv.ssh_options()), private=True)
        probe, big, digest = _files(tmp_path, 1 << 20)
        with via.FarSide(target, srv.dir / "far") as far:
            t = via.FileTool(tool, target, far, tmp_path, probe, big, digest)
            with pytest.raises(CipherRefused, match=f"refuses cipher {CIPHER}"):
                t.sample(CIPHER, MAC, verify=True)


def test_cli_names_the_tool_and_cleans_the_far_side_of_a_host(cli, server, tmp_path):
    tools = [t for t in TOOLS if shutil.which(via.PROGRAMS[t])]
    if not tools:
        pytest.skip("none of scp, sftp, rsync is installed")
    before = set(glob.glob("/tmp/cipherbench-ssh-*"))
    res = cli("ssh", "--host", server.destination, "--ssh-config", str(server.client_config),
              "--ciphers", CIPHER, "--macs", MAC, "--size", "2M", "--rounds", "2",
              "--via", ",".join(["pipe"] + tools), "--json")
    assert res.rc == 0, res.err
    doc = res.json()
    heads = [r for r in doc["results"] if r["metric"] == "bytes_per_s"
             and r["lib"] == "openssh"]
    assert sorted(r["op"] for r in heads) == sorted(["pipe"] + tools)
    for r in heads:
        assert r["extra"]["verified"] is True and r["extra"]["via"] == r["op"]
        assert r["n_samples"] == 2 and r["size"] == 2 << 20
    assert doc["run"]["args"]["via"] == ["pipe"] + [t for t in via.VIAS if t in tools]
    # the mktemp -d made on the "remote" is gone
    assert set(glob.glob("/tmp/cipherbench-ssh-*")) <= before
    table = cli("show", "last")
    flat = " ".join(table.out.split())
    for t in ["pipe"] + tools:
        assert f"ssh via {t}" in flat


def test_ssh_measures_the_ssh_pipe_unless_via_names_more():
    """The default is the one program every ssh task runs; `--via all` takes every tool
    installed, and named tools are passed on as named."""
    from cipherbench.scenarios.ssh.command import chosen_via
    assert chosen_via([]) == ["pipe"]
    assert chosen_via(["all"]) is None
    assert chosen_via(["scp", "rsync"]) == ["scp", "rsync"]
