"""The steady rate of an ssh transfer: the pure rules, and real transfers through a private sshd
and the loopback baseline that carry the warm-up mark."""
from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from cipherbench.scenarios.ssh import steady
from cipherbench.scenarios.ssh.transfer import TransferSample


def test_small_samples_are_timed_whole():
    assert steady.warm_bytes(steady.MIN_BYTES - 1, on=True) == 0
    assert steady.warm_bytes(64 << 20, on=False) == 0
    assert steady.sink_script(0) == "n=$(wc -c); echo CB-COUNT $n"


def test_the_warm_up_is_a_quarter_in_whole_64k():
    assert steady.warm_bytes(64 << 20, on=True) == 16 << 20
    w = steady.warm_bytes((5 << 20) + 12345, on=True)
    assert w % (64 << 10) == 0 and 0 < w <= ((5 << 20) + 12345) // 4


def test_everything_must_arrive_but_what_head_reads_ahead():
    warm = 16 << 20
    assert steady.arrived(64 << 20, warm, 48 << 20, warm)
    assert steady.arrived(64 << 20, warm, (48 << 20) - 4096, warm)       # read ahead
    assert not steady.arrived(64 << 20, warm, (48 << 20) - (2 << 20), warm)
    assert not steady.arrived(64 << 20, warm - 1, (48 << 20) - 4096, warm)
    assert not steady.arrived(64 << 20, warm, None, warm)
    assert steady.arrived(1000, None, 1000, 0) and not steady.arrived(1000, None, 999, 0)


def test_the_steady_part_is_the_rest_over_the_time_from_the_mark():
    part = steady.steady(16 << 20, 16 << 20, 48 << 20, 10.0, 10.5)
    assert part == steady.Steady(48 << 20, 0.5)
    assert part.rate == pytest.approx((48 << 20) / 0.5)


@pytest.mark.parametrize("warm_count, rest, t_warm", [
    (8 << 20, 0, 10.0),           # the data ended inside the warm-up
    (16 << 20, 4 << 20, 10.0),    # a time bound cut the rest short
    (16 << 20, 48 << 20, None),   # no mark
])
def test_without_a_usable_rest_the_sample_is_taken_whole(warm_count, rest, t_warm):
    assert steady.steady(16 << 20, warm_count, rest, t_warm, 11.0) is None


def test_a_sample_figure_is_its_steady_part_when_it_has_one():
    kw = dict(setup_s=0.1, client_cpu_s=None, client_cpu_total_s=0.0, server_cpu_s=None,
              server_cpu_method="none", sink_cpu_s=None)
    whole = TransferSample(nbytes=100, wall_s=2.0, **kw)
    assert whole.figure == (100, 2.0) and whole.throughput == 50
    part = TransferSample(nbytes=100, wall_s=2.0, steady_bytes=75, steady_s=0.5, **kw)
    assert part.figure == (75, 0.5) and part.throughput == 150


def test_the_sink_script_counts_both_parts_in_sh():
    """The far side's sh: the warm-up bytes and the rest, counted apart, nothing lost."""
    data = random.Random(3).randbytes(300_000)
    out = subprocess.run(["/bin/sh", "-c", steady.sink_script(100_000, "x y")], input=data,
                         capture_output=True, check=True).stdout.decode().split("\n")
    assert out[0] == "CB-WARM 100000 x y"
    t0, t1 = (steady.far_ns(line.split()[1]) for line in out[1:3])
    assert out[1].startswith("CB-T0 ") and out[2].startswith("CB-T1 ") and t0 <= t1
    assert out[3] == "CB-COUNT 200000"


def test_the_far_side_clock_times_the_rest_when_it_has_nanoseconds():
    part = steady.steady(16 << 20, 16 << 20, 48 << 20, 10.0, 10.5, (1_000_000_000_000_000_000,
                                                                 1_000_000_000_400_000_000))
    assert part == steady.Steady(48 << 20, 0.4)
    # busybox or BSD date: "%N" not expanded; the marks' arrival here times it
    assert steady.far_ns("1700000000N") is None and steady.far_ns("%N") is None
    assert steady.steady(16 << 20, 16 << 20, 48 << 20, 10.0, 10.5, (None, None)).seconds == 0.5


needs_sshd = pytest.mark.skipif(not shutil.which("ssh") or not shutil.which("/usr/sbin/sshd"),
                                reason="needs openssh-client and openssh-server")


@needs_sshd
def test_a_real_transfer_and_the_baseline_give_a_steady_part(monkeypatch):
    monkeypatch.setattr(steady, "ON", True)
    from cipherbench.scenarios.ssh.baseline import loopback
    from cipherbench.scenarios.ssh.server import PrivateServer
    from cipherbench.scenarios.ssh.transfer import Target, transfer
    data = random.Random(4).randbytes(8 << 20)
    warm = steady.warm_bytes(len(data), on=True)
    with PrivateServer() as srv:
        target = Target(srv.destination, tuple(srv.ssh_options()), private=True)
        s = transfer(target, "aes128-ctr", "hmac-sha2-256", data)
    assert s.nbytes == len(data)
    # the rest is what came after the mark: all of it, or that short of head's read-ahead
    assert len(data) - warm - steady.READAHEAD <= s.steady_bytes <= len(data) - warm
    assert 0 < s.steady_s < s.wall_s
    assert s.client_cpu_s is not None and s.client_cpu_s < s.client_cpu_total_s
    b = loopback(data)
    assert b.steady_bytes is not None and 0 < b.steady_bytes <= len(data) - warm
    assert 0 < b.steady_s < b.wall_s
