# SPDX-License-Identifier: GPL-3.0-or-later
"""A fleet of "hosts" on this machine for the fleet benchmarks: each host is its own network
namespace joined to this machine by a veth pair (a private /30 of 10.213.80.0/24 that exists
only between the two ends), with a private OpenSSH server inside (the project's
``PrivateServer``) that also has its own host name (a UTS namespace, ``unshare --uts``), so a
run stores each host's own machine facts. One ssh config names them fleet-h01, fleet-h02, ...

The same construction as the ssh and fleet tests (tests/test_ssh_netns.py,
tests/test_run_fleet_netns.py), without their rate limit and fixed addresses: one namespace
each instead of one for all, as ten machines on a LAN would be. Needs root, iproute2 and
unshare; ``NamespaceFleet.setup`` raises ``NotPermitted`` with the reason otherwise.
Everything made (namespaces, veth pairs, servers, their directories) is removed by
``teardown``, which reports what it could not remove; use the fleet as a ``with`` block.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from cipherbench.processes import procs
from cipherbench.remote.probe import DIR_PREFIX
from cipherbench.scenarios.ssh.server import SSHD, PrivateServer

NET = "10.213.80"       # 64 hosts of /30 each at most; the ssh tests use 10.213.77.0/30
PREFIX = 30
MAX_HOSTS = 64


class NotPermitted(Exception):
    """This machine or user cannot make the fleet (the reason is the message)."""


def _cmd(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)


def _why(out: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in (out.stderr or out.stdout).splitlines() if ln.strip()]
    return lines[-1].strip() if lines else f"exit status {out.returncode}"


def check_prerequisites() -> None:
    """Raise ``NotPermitted`` naming what is missing."""
    if os.geteuid() != 0:
        raise NotPermitted("needs root to create network namespaces and veth pairs")
    for tool, package in (("ip", "iproute2"), ("unshare", "util-linux"),
                          ("ssh", "openssh-client")):
        if shutil.which(tool) is None:
            raise NotPermitted(f"needs `{tool}` (apt-get install {package})")
    if not os.access(SSHD, os.X_OK):
        raise NotPermitted(f"needs {SSHD} (apt-get install openssh-server)")
    out = _cmd("ip", "-o", "-4", "addr", "show")
    if f" {NET}." in out.stdout:
        raise NotPermitted(f"{NET}.0/24 is already in use on this machine")


def _run_dirs_of(pids: list[int]) -> set[str]:
    """The run directories (``CB_RUN=``) of a run's processes on a host: only this fleet's,
    never another program's run in the same /tmp."""
    found = set()
    for pid in pids:
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        for item in env:
            path = item[len(b"CB_RUN="):].decode(errors="replace")
            if item.startswith(b"CB_RUN=") and os.path.basename(path).startswith(DIR_PREFIX):
                found.add(path)
    return found


class Host:
    """One namespace, its veth pair and its sshd."""

    def __init__(self, index: int, tag: str):
        self.name = f"fleet-h{index + 1:02d}"
        self.ns = f"cbfleet-{tag}-{index + 1}"
        self.veth = f"cbf{tag}x{index + 1}"[:15]     # the end on this machine
        self.peer = f"cbf{tag}y{index + 1}"[:15]     # the end inside the namespace
        self.local_addr = f"{NET}.{4 * index + 1}"
        self.addr = f"{NET}.{4 * index + 2}"
        self.server: PrivateServer | None = None
        self.made_ns = False
        self.made_veth = False


class NamespaceFleet:
    """``count`` hosts; ``ssh_config`` names them once ``setup`` returned."""

    def __init__(self, count: int, tmp_parent: str):
        if not 1 <= count <= MAX_HOSTS:
            raise ValueError(f"between 1 and {MAX_HOSTS} hosts")
        tag = str(os.getpid())[-6:]
        self.hosts = [Host(i, tag) for i in range(count)]
        self.tmp_parent = tmp_parent
        self.ssh_config = Path(tmp_parent) / "fleet_ssh_config"

    @property
    def names(self) -> list[str]:
        return [h.name for h in self.hosts]

    def __enter__(self) -> "NamespaceFleet":
        try:
            self.setup()
        except BaseException:
            left = self.teardown()   # the setup's own error is the one to see
            if left:
                print(f"left behind: {', '.join(left)}", file=sys.stderr)
            raise
        return self

    def __exit__(self, *exc) -> None:
        self._teardown_or_report()

    def _teardown_or_report(self) -> None:
        left = self.teardown()
        if left:
            raise RuntimeError(f"left behind: {', '.join(left)}")

    def _must(self, *argv: str, refused: bool = False) -> None:
        out = _cmd(*argv)
        if out.returncode != 0:
            what = f"`{' '.join(argv)}` failed: {_why(out)}"
            raise NotPermitted(what) if refused else RuntimeError(what)

    def setup(self) -> None:
        check_prerequisites()
        config: list[str] = []
        for h in self.hosts:
            self._must("ip", "netns", "add", h.ns, refused=True)
            h.made_ns = True
            self._must("ip", "link", "add", h.veth, "type", "veth", "peer", "name", h.peer,
                       "netns", h.ns, refused=True)
            h.made_veth = True
            self._must("ip", "addr", "add", f"{h.local_addr}/{PREFIX}", "dev", h.veth)
            self._must("ip", "link", "set", h.veth, "up")
            self._must("ip", "-n", h.ns, "addr", "add", f"{h.addr}/{PREFIX}", "dev", h.peer,
                       refused=True)
            self._must("ip", "-n", h.ns, "link", "set", h.peer, "up")
            self._must("ip", "-n", h.ns, "link", "set", "lo", "up")
            wrap = ("unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec "$@"', h.name,
                    "ip", "netns", "exec", h.ns)
            h.server = PrivateServer(listen=h.addr, wrap=wrap, tmp_parent=self.tmp_parent)
            h.server.start()
            own = h.server.client_config.read_text().splitlines()
            config += [f"Host {h.name}"] + [ln for ln in own[1:] if not ln.startswith("Host ")]
        self.ssh_config.write_text("\n".join(config) + "\n")

    def teardown(self) -> list[str]:
        """Remove everything made, in reverse order; what is still there afterwards."""
        left: list[str] = []
        for h in reversed(self.hosts):
            server_dir = h.server.dir if h.server else None
            server_pids = h.server.pids() if h.server else []
            run_dirs = _run_dirs_of(server_pids)
            if h.server is not None:
                h.server.stop()
            for d in run_dirs:   # a run stopped before it could remove its directory
                shutil.rmtree(d, ignore_errors=True)
            if h.made_ns:
                out = _cmd("ip", "netns", "pids", h.ns)
                procs.terminate([int(p) for p in out.stdout.split()
                                 if p.isdigit() and procs.alive(int(p))])
                _cmd("ip", "netns", "del", h.ns)   # takes the peer end with it
            if h.made_veth and _cmd("ip", "link", "show", h.veth).returncode == 0:
                _cmd("ip", "link", "del", h.veth)
            if h.made_ns and h.ns in _cmd("ip", "netns", "list").stdout.split():
                left.append(f"namespace {h.ns}")
            if h.made_veth and _cmd("ip", "link", "show", h.veth).returncode == 0:
                left.append(f"veth {h.veth}")
            if server_dir is not None and server_dir.exists():
                left.append(f"directory {server_dir}")
            left += [f"process {p}" for p in server_pids if procs.alive(p)]
            left += [f"directory {d}" for d in run_dirs if os.path.exists(d)]
            h.server, h.made_ns, h.made_veth = None, False, False
        self.ssh_config.unlink(missing_ok=True)
        return left
