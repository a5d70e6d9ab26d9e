# SPDX-License-Identifier: GPL-3.0-or-later
"""The steady rate of an ssh transfer: the pure rules, and real transfers through a private sshd
and the loopback baseline that carry the marks of the middle half's segments."""
from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from cipherbench.scenarios.ssh import steady
from cipherbench.scenarios.ssh.steady import Mark, Parts
from cipherbench.scenarios.ssh.transfer import TransferSample

P64 = steady.parts(64 << 20, on=True)       # a 64 MiB sample: 16 MiB, then 8 x 4 MiB
MiB = 1 << 20


def marks(p: Parts, secs: list[float], server: list[float] | None = None,
          far: bool = True) -> list[Mark]:
    """Marks after each part of ``p``: the warm-up at t=1 s, then each segment taking the
    given seconds (by the far clock, or by arrival here) and server CPU seconds."""
    t, cpu, out = 1.0, 0.0, []
    for k, size in enumerate(p.sizes):
        if k:
            t += secs[k - 1]
            cpu += server[k - 1] if server else 0.0
        out.append(Mark(size, int(t * 1e9) + 10**18 if far else None, t,
                        cpu if server else None, None))
    return out


def test_small_samples_are_timed_whole():
    assert steady.parts(steady.MIN_BYTES - 1, on=True) == steady.WHOLE_SAMPLE
    assert steady.parts(64 << 20, on=False) == steady.WHOLE_SAMPLE
    assert not steady.WHOLE_SAMPLE.split and steady.WHOLE_SAMPLE.offsets == ()
    assert steady.sink_script(steady.WHOLE_SAMPLE) == "n=$(wc -c); echo CB-COUNT $n"


def test_a_quarter_then_the_half_in_segments():
    assert P64 == Parts(warm=16 * MiB, seg=4 * MiB, count=8)
    assert P64.offsets == tuple(16 * MiB + k * 4 * MiB for k in range(9))
    small = steady.parts((5 << 20) + 12345, on=True)      # too small for 4 MiB segments
    assert small.count == 2 and small.split
    assert small.warm % (64 << 10) == 0 and small.seg % (64 << 10) == 0
    assert small.warm + 2 * small.seg <= ((5 << 20) + 12345) * 3 // 4
    assert steady.parts(16 << 20, on=True).count == 2
    assert steady.parts(128 << 20, on=True).count == 8


def test_everything_must_arrive_but_what_each_head_reads_ahead():
    n = 64 << 20
    counts = list(P64.sizes)
    assert steady.arrived(n, P64, counts, 16 * MiB)
    assert steady.arrived(n, P64, counts, 16 * MiB - 4096)           # read ahead
    assert not steady.arrived(n, P64, counts[:-1] + [None], 16 * MiB)
    assert not steady.arrived(n, P64, counts, None)
    # a head that did not fill its part had nothing to read ahead: a byte short is lost
    assert not steady.arrived(16 * MiB, P64, [16 * MiB - 4096] + [0] * 8, 0)
    whole = steady.WHOLE_SAMPLE
    assert steady.arrived(1000, whole, [], 1000) and not steady.arrived(1000, whole, [], 999)


def test_the_figure_is_the_median_segment():
    # eight segments of 4 MiB: most take 20 ms, two were held up (the noise only adds)
    secs = [0.02, 0.02, 0.09, 0.02, 0.021, 0.019, 0.2, 0.02]
    part = steady.steady(P64, marks(P64, secs))
    assert part.nbytes == 32 * MiB and part.segments == 8
    assert part.rate == pytest.approx(4 * MiB / 0.02)
    assert part.seconds == pytest.approx(8 * 0.02)


def test_each_ends_cpu_is_its_median_segments_cost():
    secs = [0.02] * 8
    server = [0.008, 0.008, 0.03, 0.0081, 0.0079, 0.008, 0.05, 0.008]
    part = steady.steady(P64, marks(P64, secs, server))
    assert part.server_cpu_s == pytest.approx(8 * 0.008)
    assert part.client_cpu_s is None          # not read: no figure for that end


def test_without_the_far_clock_the_marks_arrival_times_the_segments():
    part = steady.steady(P64, marks(P64, [0.02] * 8, far=False))
    assert part.rate == pytest.approx(4 * MiB / 0.02)
    assert steady.far_ns("1700000000N") is None and steady.far_ns("%N") is None


def test_a_sample_cut_short_keeps_its_whole_segments_or_is_timed_whole():
    ms = marks(P64, [0.02] * 8)
    cut = ms[:4] + [Mark(MiB, ms[4].far_ns, ms[4].here)]          # ended in segment 4
    part = steady.steady(P64, cut)
    assert part.segments == 3 and part.nbytes == 12 * MiB
    assert steady.steady(P64, ms[:2] + [Mark(0, ms[2].far_ns, ms[2].here)]) is None
    assert steady.steady(P64, [Mark(8 * MiB, 1, 1.0)] + ms[1:]) is None   # in the warm-up
    assert steady.steady(P64, ms[:2]) is None                             # a mark missing
    assert steady.steady(steady.WHOLE_SAMPLE, ms) is None


def test_a_sample_figure_is_its_steady_part_when_it_has_one():
    kw = dict(setup_s=0.1, client_cpu_s=None, client_cpu_total_s=0.0, server_cpu_s=None,
              server_cpu_method="none", sink_cpu_s=None)
    whole = TransferSample(nbytes=100, wall_s=2.0, **kw)
    assert whole.figure == (100, 2.0) and whole.throughput == 50
    part = TransferSample(nbytes=100, wall_s=2.0, steady_bytes=50, steady_s=0.5, **kw)
    assert part.figure == (50, 0.5) and part.throughput == 100


def test_the_sink_script_counts_every_part_in_sh():
    """The far side's sh: the warm-up, each segment and the rest, counted apart, nothing
    lost, each mark with the far clock and the extra words."""
    p = Parts(warm=70_000, seg=50_000, count=3)
    data = random.Random(3).randbytes(300_000)
    out = subprocess.run(["/bin/sh", "-c", steady.sink_script(p, "x y")], input=data,
                         capture_output=True, check=True).stdout.decode().split("\n")
    got = [line.split() for line in out[:4]]
    assert [w[0] for w in got] == ["CB-MARK"] * 4
    assert [int(w[1]) for w in got] == [70_000, 50_000, 50_000, 50_000]
    assert all(w[3:] == ["x", "y"] for w in got)
    clock = [steady.far_ns(w[2]) for w in got]
    assert None not in clock and clock == sorted(clock)
    assert out[4] == "CB-COUNT 80000"


def test_a_backlog_at_the_marks_does_not_raise_the_figure():
    """The bias the middle removes: a far side that reads slower than the link gets the
    warm-up's tail in its buffers; read after the first mark, it was counted without its
    time when the figure ran to the end. Simulated: a link at 10 MB/s feeding a reader that
    a buffer of ``backlog`` bytes lets lag behind it."""
    link, backlog = 10e6, 4 << 20
    n = 64 << 20

    def read_at(k: int) -> float:
        """When the reader has read k bytes: it lags ``backlog`` bytes behind the link."""
        return (k + backlog) / link

    ms = [Mark(size, None, read_at(end)) for size, end in zip(P64.sizes, P64.offsets)]
    assert steady.steady(P64, ms).rate == pytest.approx(link)
    # the old figure, from the first mark to the end (the buffer drained at the end)
    old = (n - P64.warm) / (n / link - read_at(P64.warm))
    assert old > 1.05 * link


needs_sshd = pytest.mark.skipif(not shutil.which("ssh") or not shutil.which("/usr/sbin/sshd"),
                                reason="needs openssh-client and openssh-server")


@needs_sshd
def test_a_real_transfer_and_the_baseline_give_a_steady_part(monkeypatch):
    monkeypatch.setattr(steady, "ON", True)
    from cipherbench.scenarios.ssh.baseline import loopback
    from cipherbench.scenarios.ssh.server import PrivateServer
    from cipherbench.scenarios.ssh.transfer import Target, transfer
    data = random.Random(4).randbytes(8 << 20)
    p = steady.parts(len(data), on=True)
    with PrivateServer() as srv:
        target = Target(srv.destination, tuple(srv.ssh_options()), private=True)
        s = transfer(target, "aes128-ctr", "hmac-sha2-256", data)
    assert s.nbytes == len(data)
    # the middle half: exactly what the segments' heads passed on
    assert s.steady_bytes == p.seg * p.count
    assert 0 < s.steady_s < s.wall_s
    assert s.client_cpu_s is not None and 0 < s.client_cpu_s < s.client_cpu_total_s
    assert s.server_cpu_s is not None and s.server_cpu_s > 0
    b = loopback(data)
    # the receiver stops its reads at each mark: the same bytes
    assert b.steady_bytes == p.seg * p.count
    assert b.server_cpu_s is not None and b.client_cpu_s is not None
    assert 0 < b.steady_s < b.wall_s
