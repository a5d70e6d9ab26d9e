# SPDX-License-Identifier: GPL-3.0-or-later
"""`cipherbench ssh --host` against a "remote" machine whose link is the bottleneck.

The remote is a network namespace made for the test: a veth pair joins it to this host with
the private /30 below (both ends are made here, so no traffic leaves them), each end's
outgoing traffic is limited to 100 Mbit/s by a token bucket (``tc qdisc ... tbf``), and the
private OpenSSH server runs inside it (``ip netns exec``), listening on the namespace's
address only. Then every cipher should move data as fast as the cleartext baseline (socat or
nc inside the namespace): the link, not the cipher, limits the transfer, and the verdict says
so. Needs root and iproute2; skipped with the reason otherwise. Everything made here (the
namespace, the veth pair, the server and its processes, its directory) is removed by the
fixture's finaliser, also when the test fails.
"""
from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import time

import pytest

from cipherbench.scenarios.ssh import baseline
from cipherbench.processes import procs
from cipherbench.scenarios.ssh.server import SSHD, PrivateServer, query
from cipherbench.scenarios.ssh.transfer import Target, is_aead, transfer

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="network namespaces are Linux only")

#: The two ends of the veth pair: a /30 that exists only between them, inside this machine.
HOST_ADDR = "10.213.77.1"
REMOTE_ADDR = "10.213.77.2"
PREFIX = 30
#: The link: 100 Mbit/s = 12.5 MB/s each way, a 64 KiB bucket, up to 50 ms of queue (a
#: buffer like a real link's: a sender briefly off the CPU does not leave the link idle).
RATE_BPS = 100e6 / 8
TBF = ["tbf", "rate", "100mbit", "burst", "64kb", "latency", "50ms"]
#: Every cipher must move this share of what the cleartext baseline moved right before and
#: right after it ("within a few percent"), in at least one of ``ROUNDS`` interleaved rounds.
#: Not closer: at 12.5 MB/s 3des-cbc keeps ssh and sshd each about half a core busy, and on a
#: small shared machine it then lands a few percent below the wire (93-95% seen on 2 busy
#: cores; on loopback it reaches 5% of the baseline, so the link still decides here). Other
#: work on the machine comes and goes: the baseline beside the cipher and the best of a few
#: rounds judge the cipher, not the moment. A transfer below ``WITHIN`` during which tasks
#: waited for a CPU more than ``BUSY`` of the time (the kernel's CPU pressure,
#: /proc/pressure/cpu) says nothing about the cipher: only the other rounds can fail it (and
#: the test is skipped, with the figures, when there were none). ssh and sshd of 3des-cbc
#: alone need about one of two cores, which leaves a quiet machine far below ``BUSY``.
WITHIN = 0.93
ROUNDS = 3
ROUND_BYTES = 12 << 20
BUSY = 0.25
PRESSURE = "/proc/pressure/cpu"
MAC = "umac-64-etm@openssh.com"


def _cmd(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)


def _why(out: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in (out.stderr or out.stdout).splitlines() if ln.strip()]
    return lines[-1].strip() if lines else f"exit status {out.returncode}"


class NetnsRemote:
    """A namespace with a rate-limited veth link to this host and a private sshd inside.

    ``setup`` raises ``NotPermitted`` when the machine does not allow it (the test skips);
    ``teardown`` removes whatever was made, in reverse order, and returns what it could not.
    """

    class NotPermitted(Exception):
        """Namespaces, veth or tbf are not available to this process."""

    def __init__(self, tmp_parent: str):
        tag = str(os.getpid())
        self.ns = f"cbtest-ssh-{tag}"
        self.veth_host = f"cb{tag}h"[:15]
        self.veth_remote = f"cb{tag}r"[:15]
        self.tmp_parent = tmp_parent
        self.server: PrivateServer | None = None
        self.made_ns = False
        self.made_veth = False

    def _must(self, *argv: str, refused: bool = False) -> None:
        out = _cmd(*argv)
        if out.returncode != 0:
            what = f"`{' '.join(argv)}` failed: {_why(out)}"
            raise self.NotPermitted(what) if refused else RuntimeError(what)

    def setup(self) -> None:
        """Namespace, veth pair, addresses, token buckets on both ends, sshd inside."""
        self._must("ip", "netns", "add", self.ns, refused=True)
        self.made_ns = True
        self._must("ip", "link", "add", self.veth_host, "type", "veth", "peer", "name",
                   self.veth_remote, "netns", self.ns, refused=True)
        self.made_veth = True
        self._must("ip", "addr", "add", f"{HOST_ADDR}/{PREFIX}", "dev", self.veth_host)
        self._must("ip", "link", "set", self.veth_host, "up")
        # The first command inside the namespace: refused where namespaces cannot be entered
        # (e.g. a chroot whose / is no mount point: "mount --make-rslave /" fails).
        self._must("ip", "-n", self.ns, "addr", "add", f"{REMOTE_ADDR}/{PREFIX}", "dev",
                   self.veth_remote, refused=True)
        self._must("ip", "-n", self.ns, "link", "set", self.veth_remote, "up")
        self._must("ip", "-n", self.ns, "link", "set", "lo", "up")
        # Each end shapes what it sends: the data one way, the acknowledgements the other.
        self._must("tc", "qdisc", "add", "dev", self.veth_host, "root", *TBF, refused=True)
        self._must("tc", "-n", self.ns, "qdisc", "add", "dev", self.veth_remote, "root", *TBF,
                   refused=True)
        self.server = PrivateServer(listen=REMOTE_ADDR, wrap=("ip", "netns", "exec", self.ns),
                                    tmp_parent=self.tmp_parent).start()

    def ns_pids(self) -> list[int]:
        """Processes running inside the namespace (all started by this test)."""
        if not self.made_ns:
            return []
        out = _cmd("ip", "netns", "pids", self.ns)
        return [int(p) for p in out.stdout.split() if p.isdigit()]

    def teardown(self) -> list[str]:
        """Remove everything made; the list of what is still there afterwards (empty)."""
        server_dir = self.server.dir if self.server else None
        server_pids = self.server.pids() if self.server else []
        if self.server is not None:
            self.server.stop()
        procs.terminate([p for p in self.ns_pids() if procs.alive(p)])
        if self.made_ns:
            _cmd("ip", "netns", "del", self.ns)  # takes the veth end inside with it
        if self.made_veth and _cmd("ip", "link", "show", self.veth_host).returncode == 0:
            _cmd("ip", "link", "del", self.veth_host)
        left = []
        if self.made_ns and self.ns in _cmd("ip", "netns", "list").stdout.split():
            left.append(f"namespace {self.ns}")
        if self.made_veth and _cmd("ip", "link", "show", self.veth_host).returncode == 0:
            left.append(f"veth {self.veth_host}")
        if server_dir is not None and server_dir.exists():
            left.append(f"directory {server_dir}")
        left += [f"process {p}" for p in server_pids if procs.alive(p)]
        return left


def _address_in_use() -> bool:
    out = _cmd("ip", "-o", "-4", "addr", "show")
    return any(f" {a}/" in out.stdout for a in (HOST_ADDR, REMOTE_ADDR))


@pytest.fixture
def remote(request, tmp_path):
    """The namespace "remote", skipped with the reason where it cannot be made."""
    if os.geteuid() != 0:
        pytest.skip("needs root to create a network namespace and a veth pair")
    for tool in ("ip", "tc"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs `{tool}` from iproute2 (apt-get install iproute2)")
    if not os.access(SSHD, os.X_OK) or shutil.which("ssh") is None:
        pytest.skip(f"needs OpenSSH (client and {SSHD}): apt-get install openssh-server")
    if shutil.which("socat") is None and shutil.which("nc") is None:
        pytest.skip("needs socat or nc for the remote cleartext baseline")
    if _address_in_use():
        pytest.skip(f"{HOST_ADDR}/{PREFIX} is already in use on this machine")
    host = NetnsRemote(str(tmp_path))

    def finish():
        left = host.teardown()
        assert not left, f"left behind: {', '.join(left)}"

    request.addfinalizer(finish)
    try:
        host.setup()
    except NetnsRemote.NotPermitted as err:
        pytest.skip(f"not permitted here: {err}")
    return host


def test_link_not_cipher_is_the_bottleneck(cli, remote):
    srv = remote.server
    user = pwd.getpwuid(os.getuid()).pw_name
    res = cli("ssh", "--host", f"{user}@{REMOTE_ADDR}", "--ssh-config", str(srv.client_config),
              "--size", "12M", "--ciphers", "all", "--macs", MAC, "--via", "pipe",
              "--rounds", "6")
    print(res.out)  # the table and the verdict, seen with `pytest -s`
    assert res.rc == 0, res.err
    assert "Traceback" not in res.err
    doc = cli("export", "last", "--format", "json").json()
    heads = {r["algo"]: r for r in doc["results"] if r["metric"] == "bytes_per_s"}

    # The baseline went through the shaped link: about 100 Mbit/s, measured with socat or nc
    # inside the namespace.
    base = heads.pop("cleartext-tcp")
    assert base["extra"]["tool"] in ("socat", "nc")
    assert 0.80 * RATE_BPS <= base["median"] <= 1.05 * RATE_BPS, base["median"]

    # Every offered cipher was measured and checked.
    offered = query("cipher")
    assert len(heads) == len(offered), sorted(heads)
    for r in heads.values():
        assert r["extra"]["target"] == f"{user}@{REMOTE_ADDR}"
        assert r["extra"]["verified"] is True
        assert r["median"] <= 1.05 * base["median"]  # nothing beats the wire by much

    # The verdict names the path (every cipher, or the fastest ones when other work on the
    # machine held one back while it was measured; the rounds below judge each cipher).
    verdict = [ln for ln in res.out.splitlines() if "bottleneck" in ln]
    assert verdict and verdict[0].startswith("The path is the bottleneck"), res.out

    # Each cipher moves within a few percent of what the link delivered beside it.
    target = Target(f"{user}@{REMOTE_ADDR}", ("-F", str(srv.client_config)))
    rounds = interleaved_rounds(target, offered, bytes(ROUND_BYTES))
    text = {c: " ".join(f"{x:.1%}" + (f" (CPU pressure {p:.0%})" if p > BUSY else "")
                        for x, p in r) for c, r in rounds.items()}
    slow = [c for c, r in rounds.items() if not passed(r) and any(p <= BUSY for _, p in r)]
    assert not slow, f"share of the cleartext baseline beside it, per round: {text}"
    busy = [c for c, r in rounds.items() if not passed(r)]
    if busy:
        pytest.skip(f"the machine was too busy to judge {', '.join(busy)}: {text}")


def cpu_pressure_us() -> int | None:
    """Microseconds so far during which some task waited for a CPU (None without PSI)."""
    try:
        with open(PRESSURE) as f:
            some = f.readline().split()
        return int(some[-1].removeprefix("total="))
    except (OSError, ValueError, IndexError):
        return None


def passed(rounds: list[tuple[float, float]]) -> bool:
    """A round in which the cipher kept up with the link (busy or not)."""
    return any(ratio >= WITHIN for ratio, _ in rounds)


def interleaved_rounds(target: Target, ciphers: list[str],
                       data: bytes) -> dict[str, list[tuple[float, float]]]:
    """Per cipher and round: its throughput over the mean of the cleartext transfers right
    before and right after it (baseline, cipher, baseline, cipher, ..., baseline), and the
    share of its transfer's time some task waited for a CPU (0 without PSI). A cipher that
    passed is not run again, so later rounds are short."""
    rounds: dict[str, list[tuple[float, float]]] = {c: [] for c in ciphers}
    for _ in range(ROUNDS):
        todo = [c for c in ciphers if not passed(rounds[c])]
        if not todo:
            break
        before = baseline.remote(target, data).throughput
        for c in todo:
            p0, t0 = cpu_pressure_us(), time.monotonic()
            got = transfer(target, c, None if is_aead(c) else MAC, data).throughput
            p1, t1 = cpu_pressure_us(), time.monotonic()
            pressure = (p1 - p0) / 1e6 / (t1 - t0) if p0 is not None and p1 is not None else 0.0
            after = baseline.remote(target, data).throughput
            rounds[c].append((got / ((before + after) / 2), pressure))
            before = after
    return rounds
