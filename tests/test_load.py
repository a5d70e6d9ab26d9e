# SPDX-License-Identifier: GPL-3.0-or-later
"""Load awareness on a fake /proc tree (and one look at the real one)."""
from pathlib import Path

from cipherbench.machine import load


def fake_proc(tmp_path: Path, tasks, running=3, autogroup="1") -> Path:
    """tasks: (pid, ppid, comm, [thread states], autogroup name)."""
    root = tmp_path / "proc"
    root.mkdir()
    (root / "loadavg").write_text(f"4.20 3.10 2.00 {running}/400 12345\n")
    (root / "stat").write_text(f"cpu  1 2 3\nprocs_running {running}\nprocs_blocked 0\n")
    (root / "sys" / "kernel").mkdir(parents=True)
    (root / "sys" / "kernel" / "sched_autogroup_enabled").write_text(autogroup + "\n")
    for pid, ppid, comm, states, group in tasks:
        d = root / str(pid)
        (d / "task").mkdir(parents=True)
        (d / "stat").write_text(f"{pid} ({comm}) {states[0]} {ppid} 1 1 0\n")
        (d / "autogroup").write_text(f"/autogroup-{group} nice 0\n")
        for i, st in enumerate(states):
            tid = pid if i == 0 else pid * 100 + i
            (d / "task" / str(tid)).mkdir()
            (d / "task" / str(tid) / "stat").write_text(f"{tid} ({comm}) {st} {ppid} 1 1 0\n")
    return root


def test_snapshot_counts_other_runnable_tasks_and_their_groups(tmp_path):
    root = fake_proc(tmp_path, [
        (10, 1, "python3", ["R"], 5),                 # us
        (11, 10, "cipherbench-core", ["R"], 5),       # our child, measuring
        (20, 1, "cc1 (x)", ["R"], 7),                 # a compiler in another session
        (30, 1, "make", ["S"], 7),
        (40, 1, "java", ["S", "R", "R"], 5),          # two busy threads, same group
    ], running=5)
    snap = load.snapshot(root, me=10)
    names = sorted(c.comm for c in snap.competitors)
    assert names == ["cc1 (x)", "java", "java"]
    assert snap.own_running == 2 and snap.others == 3
    assert snap.autogroup is True
    assert {c.comm: c.other_group for c in snap.competitors} == {"cc1 (x)": True, "java": False}
    assert snap.loadavg == (4.2, 3.1, 2.0) and snap.procs_running == 5
    line = load.summary_line(snap, share=0.62)
    assert line.startswith("load: 3 other runnable tasks on")
    assert "(cc1 (x), java)" in line and "nice does not shield this run" in line
    assert line.endswith("load average 4.20; the run got 62% of its CPU")


def test_the_kernels_count_catches_what_the_scan_missed(tmp_path):
    root = fake_proc(tmp_path, [(10, 1, "python3", ["R"], 5)], running=3, autogroup="0")
    snap = load.snapshot(root, me=10)
    assert snap.competitors == () and snap.others == 2 and snap.autogroup is False
    assert "nice" not in load.summary_line(snap)


def test_quiet_machine(tmp_path):
    root = fake_proc(tmp_path, [(10, 1, "python3", ["R"], 5)], running=1)
    snap = load.snapshot(root, me=10)
    assert snap.others == 0
    assert load.summary_line(snap).startswith("load: nothing else runnable on ")


def test_cpu_share():
    assert load.cpu_share(1.5, 2.0) == 0.75
    assert load.cpu_share(3.0, 2.0, cores=2) == 0.75
    assert load.cpu_share(1.0, 0.0) == 0.0


def snap_with(others: int) -> load.LoadSnapshot:
    return load.LoadSnapshot(2, (1.0, 1.0, 1.0), others + 1, others + 1)


class FakeTime:
    def __init__(self):
        self.t = 0.0

    def clock(self):
        return self.t

    def sleep(self, s):
        self.t += s


def test_wait_quiet_returns_once_the_load_has_gone():
    seq = iter([2, 2, 1, 0, 0, 0, 0, 0, 0])
    ft = FakeTime()
    r = load.wait_quiet(60, look=lambda: snap_with(next(seq)), clock=ft.clock, sleep=ft.sleep)
    # quiet once the mean of the last four looks is at most 0.5 runnable task
    assert r.quiet and r.polls == [2, 2, 1, 0, 0, 0] and ft.t == 2.5


def test_wait_quiet_is_bounded():
    ft = FakeTime()
    r = load.wait_quiet(3, look=lambda: snap_with(1), clock=ft.clock, sleep=ft.sleep)
    assert not r.quiet and r.waited_s == 3 and len(r.polls) == 7


def test_the_real_proc_can_be_read():
    if not Path("/proc/loadavg").exists():
        return
    snap = load.snapshot()
    assert snap.cpus >= 1 and snap.running is not None and snap.others >= 0
    assert load.summary_line(snap).startswith("load: ")
