"""The steady rate of an ssh transfer: the pure rules, and real transfers through a private sshd
and the loopback baseline that carry the two marks around the middle half."""
from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from cipherbench.scenarios.ssh import steady
from cipherbench.scenarios.ssh.steady import Counts, Parts
from cipherbench.scenarios.ssh.transfer import TransferSample

P64 = Parts(16 << 20, 32 << 20)        # a 64 MiB sample


def test_small_samples_are_timed_whole():
    assert steady.parts(steady.MIN_BYTES - 1, on=True) == steady.WHOLE_SAMPLE
    assert steady.parts(64 << 20, on=False) == steady.WHOLE_SAMPLE
    assert not steady.WHOLE_SAMPLE.split
    assert steady.sink_script(steady.WHOLE_SAMPLE) == "n=$(wc -c); echo CB-COUNT $n"


def test_a_quarter_then_a_half_in_whole_64k():
    assert steady.parts(64 << 20, on=True) == P64
    p = steady.parts((5 << 20) + 12345, on=True)
    assert p.warm % (64 << 10) == 0 and p.mid % (64 << 10) == 0
    assert 0 < p.warm <= ((5 << 20) + 12345) // 4 and 0 < p.mid <= ((5 << 20) + 12345) // 2


def test_everything_must_arrive_but_what_each_head_reads_ahead():
    n = 64 << 20
    assert steady.arrived(n, P64, Counts(16 << 20, 32 << 20, 16 << 20))
    assert steady.arrived(n, P64, Counts(16 << 20, 32 << 20, (16 << 20) - 4096))  # read ahead
    # two heads, each may read ahead
    assert steady.arrived(n, P64, Counts(16 << 20, 32 << 20, (16 << 20) - (3 << 19)))
    assert not steady.arrived(n, P64, Counts(16 << 20, 32 << 20, (16 << 20) - (3 << 20)))
    # a head that did not fill its part had nothing to read ahead: a byte short is lost
    assert not steady.arrived(16 << 20, P64, Counts((16 << 20) - 4096, 0, 0))
    assert not steady.arrived(n, P64, Counts(16 << 20, 32 << 20, None))
    whole = steady.WHOLE_SAMPLE
    assert steady.arrived(1000, whole, Counts(rest=1000))
    assert not steady.arrived(1000, whole, Counts(rest=999))


def test_the_figure_is_the_middle_part_between_the_marks():
    part = steady.steady(P64, Counts(16 << 20, 32 << 20, 16 << 20), (10.0, 10.5))
    assert part == steady.Steady(32 << 20, 0.5)
    assert part.rate == pytest.approx((32 << 20) / 0.5)
    # a receiver that counts in chunks passes its marks late: the part is what it counted
    part = steady.steady(P64, Counts((16 << 20) + 500, (32 << 20) - 200, 16 << 20), (1.0, 2.0))
    assert part == steady.Steady((32 << 20) - 200, 1.0)


@pytest.mark.parametrize("counts, here", [
    (Counts(8 << 20, 0, 0), (10.0, 10.0)),               # the data ended inside the warm-up
    (Counts(16 << 20, 4 << 20, 0), (10.0, 10.2)),        # a time bound cut the middle short
    (Counts(16 << 20, None, 48 << 20), (10.0, None)),    # no second mark
    (Counts(16 << 20, 32 << 20, 16 << 20), (10.0, None)),
])
def test_without_a_whole_middle_part_the_sample_is_taken_whole(counts, here):
    assert steady.steady(P64, counts, here) is None


def test_timed_whole_when_no_parts_were_asked():
    assert steady.steady(steady.WHOLE_SAMPLE, Counts(0, 0, 100), (1.0, 2.0)) is None


def test_a_sample_figure_is_its_steady_part_when_it_has_one():
    kw = dict(setup_s=0.1, client_cpu_s=None, client_cpu_total_s=0.0, server_cpu_s=None,
              server_cpu_method="none", sink_cpu_s=None)
    whole = TransferSample(nbytes=100, wall_s=2.0, **kw)
    assert whole.figure == (100, 2.0) and whole.throughput == 50
    part = TransferSample(nbytes=100, wall_s=2.0, steady_bytes=50, steady_s=0.5, **kw)
    assert part.figure == (50, 0.5) and part.throughput == 100


def test_the_sink_script_counts_the_three_parts_in_sh():
    """The far side's sh: the warm-up, the middle and the rest, counted apart, nothing lost."""
    data = random.Random(3).randbytes(300_000)
    out = subprocess.run(["/bin/sh", "-c", steady.sink_script(Parts(70_000, 150_000), "x y")],
                         input=data, capture_output=True, check=True).stdout.decode().split("\n")
    assert out[0] == "CB-WARM 70000 x y"
    assert out[1].startswith("CB-T0 ")
    assert out[2] == "CB-MID 150000 x y"
    assert out[3].startswith("CB-T1 ")
    t0, t1 = (steady.far_ns(out[i].split()[1]) for i in (1, 3))
    assert t0 <= t1
    assert out[4] == "CB-COUNT 80000"


def test_the_far_side_clock_times_the_middle_when_it_has_nanoseconds():
    got = Counts(16 << 20, 32 << 20, 16 << 20)
    part = steady.steady(P64, got, (10.0, 10.5), (1_000_000_000_000_000_000,
                                                  1_000_000_000_400_000_000))
    assert part == steady.Steady(32 << 20, 0.4)
    # busybox or BSD date: "%N" not expanded; the marks' arrival here times it
    assert steady.far_ns("1700000000N") is None and steady.far_ns("%N") is None
    assert steady.steady(P64, got, (10.0, 10.5), (None, None)).seconds == 0.5


def test_a_backlog_at_the_first_mark_does_not_raise_the_figure():
    """The bias the middle part removes: a far side that reads slower than the link gets
    the warm-up's tail in its buffers; read after the first mark, it was counted without
    its time when the figure ran to the end. Simulated: a link at 10 MB/s feeding a reader
    that a buffer of ``backlog`` bytes lets lag behind it."""
    link, backlog = 10e6, 4 << 20
    n = 64 << 20
    p = steady.parts(n, on=True)

    def read_at(k: int) -> float:
        """When the reader has read k bytes: it lags ``backlog`` bytes behind the link."""
        return (k + backlog) / link

    # both marks find the buffer full
    part = steady.steady(p, Counts(p.warm, p.mid, n - p.warm - p.mid),
                         (read_at(p.warm), read_at(p.warm + p.mid)))
    assert part.rate == pytest.approx(link)
    # the old figure, from the first mark to the end (the buffer drained at the end)
    old = (n - p.warm) / (n / link - read_at(p.warm))
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
    # the middle part: exactly what the second head passed on
    assert s.steady_bytes == p.mid
    assert 0 < s.steady_s < s.wall_s
    assert s.client_cpu_s is not None and s.client_cpu_s < s.client_cpu_total_s
    assert s.server_cpu_s is not None and s.server_cpu_s > 0
    b = loopback(data)
    # the receiver counts in chunks of up to 1 MiB: its marks come at most that late
    assert b.steady_bytes is not None and abs(b.steady_bytes - p.mid) <= 1 << 20
    assert 0 < b.steady_s < b.wall_s
