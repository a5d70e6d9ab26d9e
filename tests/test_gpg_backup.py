# SPDX-License-Identifier: GPL-3.0-or-later
"""How long a whole backup takes through gpg: wall-clock and CPU time from the paired rounds,
each round's call on the data less the same cipher's empty call of that round, the disk
capping it (--disk RATE or a directory measured), and the answer naming which decides."""
from __future__ import annotations

import pytest

from cipherbench.errors import EnvironmentProblem
from cipherbench.scenarios.gpg import backup as B
from cipherbench.scenarios.gpg import disk, tables
from cipherbench.store import Result

SIZE = 32 << 20
GIB50 = 50 << 30


def _row(algo: str, size: int, cpus: list[float], share: float = 0.95,
         default: str = "AES256") -> Result:
    """A gpg row measured in rounds, as ``scenario.round_result`` stores it."""
    walls = [c / share for c in cpus]
    fig = min(cpus)
    extra = {"figure": "cpu_s", "samples_s": walls, "cpu_samples_s": cpus,
             "rounds_at": list(range(len(cpus))), "lost_cpu_at": [], "default_cipher": default}
    if size == 0:
        return Result("gpg", "gnupg", algo, "encrypt", 0, "seconds", "s", fig, fig, fig,
                      len(cpus), 0.01, extra=extra)
    return Result("gpg", "gnupg", algo, "encrypt", size, "bytes_per_s", "B/s", size / fig,
                  size / fig, size / fig, len(cpus), 0.01, extra=extra)


def _run(fixed: dict[str, list[float]], bulk: dict[str, list[float]]) -> list[Result]:
    out = []
    for algo in fixed:
        out.append(_row(algo, 0, fixed[algo]))
        out.append(_row(algo, SIZE, [f + b for f, b in zip(fixed[algo], bulk[algo])]))
    return out


# AES-256's key takes two S2K hash passes (190 ms) where AES-128's takes one (90 ms); the bulk
# of 32 MiB costs 60 ms through AES and 72 ms through AES-256. Each round's machine noise
# moves both calls of a cipher alike (a slower round), differently between ciphers.
ROUND = [1.00, 1.08, 0.97, 1.12, 1.03, 1.10, 0.99, 1.05]
FIXED = {"AES": [0.090 * r for r in ROUND], "AES256": [0.190 * r for r in ROUND[::-1]]}
BULK = {"AES": [0.060 * r for r in ROUND], "AES256": [0.072 * r for r in ROUND[::-1]]}


def test_the_bulk_pairs_each_call_with_its_own_empty_call_of_the_round():
    rows = {r.algo: r for r in tables.rows_from_results(_run(FIXED, BULK))}
    aes, aes256 = rows["AES"], rows["AES256"]
    assert aes.bulk.cpu_per_byte * SIZE == pytest.approx(0.060 * 1.04, rel=0.03)
    assert aes256.bulk.cpu_per_byte * SIZE == pytest.approx(0.072 * 1.04, rel=0.03)
    # the whole-call verdict weighs in the S2K cost; the backup's does not
    assert aes.versus["encrypt"].ratio > 1.6
    v = aes.bulk_versus
    assert v.state == "faster" and v.ratio == pytest.approx(1.2, rel=0.05)
    t, t256 = aes.backup_time(GIB50), aes256.backup_time(GIB50)
    assert t256.cpu_s / t.cpu_s == pytest.approx(1.2, rel=0.05)   # agrees with the verdict
    assert t.wall_s == pytest.approx(t.cpu_s / 0.95, rel=0.01)    # wall-clock beside CPU


def test_the_table_shows_wall_clock_and_cpu_and_the_answer_says_which_decides():
    rows = tables.rows_from_results(_run(FIXED, BULK))
    header, cells = tables.format_rows(rows, GIB50, "50 GiB")
    assert header[-2:] == ["50 GiB: wall", "CPU"]
    assert all(c[-2] and c[-1] for c in cells)
    text = tables.answer(rows, GIB50, "50 GiB")
    assert "gpg --cipher-algo AES" in text and "wall-clock" in text and "of CPU time" in text
    assert "1.20x faster" in text or "1.19x faster" in text or "1.21x faster" in text
    slow = tables.answer(rows, GIB50, "50 GiB", B.Disk(100e6, "--disk 100MB/s"))
    assert "takes 8 min 57 s wall-clock: the disk decides (100 MB/s, --disk 100MB/s), not gpg" \
        in slow
    fast = tables.answer(rows, GIB50, "50 GiB", B.Disk(10e9, "--disk 10GB/s"))
    assert "gpg decides, not the disk" in fast


def test_disk_rates_parse_and_bad_ones_are_one_line_errors(cli, tmp_path):
    assert disk.parse_rate("200MB/s") == 200e6 and disk.parse_rate("1.5G") == 1.5e9
    assert disk.parse_rate("100MiB/s") == 100 << 20 and disk.parse_rate("5000") == 5000
    assert disk.parse_rate("fast") is None and disk.parse_rate("1Gbit") is None
    out = cli("gpg", "--disk", "fast")
    assert out.rc != 0 and "--disk 'fast' is neither a directory nor a rate" in out.err
    assert "Traceback" not in out.err


def test_a_directory_is_measured_and_nothing_is_left_there(tmp_path):
    d = disk.measure(tmp_path, 4 << 20)
    assert d.bps > 0 and str(tmp_path) in d.source
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(EnvironmentProblem):
        disk.measure(tmp_path / "missing", 1 << 20)


def test_a_stored_disk_row_decides_when_shown_again():
    results = _run(FIXED, BULK) + [Result("gpg", "disk", "/backup", "write", 1 << 28,
                                          "bytes_per_s", "B/s", 50e6, n_samples=1,
                                          extra={"source": "measured writing 256 MiB into "
                                                           "/backup"})]
    d = tables.disk_of({}, results)
    assert d.bps == 50e6 and "into /backup" in d.source
    assert tables.disk_of({"disk": "200MB/s"}, []).bps == 200e6


@pytest.mark.real
def test_advise_for_gpg_says_how_long_and_what_decides(cli, env):
    from cipherbench.store import Store
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.begin_run("gpg", {"size": SIZE, "backup_size": GIB50},
                          {"cpu_model": "Recorded CPU", "cpu_flags": ["aes"],
                           "hostname": "recorded"})
        for r in _run(FIXED, BULK):
            s.add_result(run, r)
        s.finish_run(run, "complete")
    out = cli("advise", "--no-measure", "--json", "--for", "gpg", "--link", "100MB/s")
    assert out.rc == 0, out.err
    answer = out.json()["targets"][0]["answer"]
    assert "How long: 50 GiB through gpg --cipher-algo AES takes 8 min 57 s wall-clock: the " \
           "disk decides (100 MB/s, your --link), not gpg (" in answer, answer
    out = cli("advise", "--no-measure", "--json", "--for", "gpg")
    answer = out.json()["targets"][0]["answer"]
    assert "How long: 50 GiB through gpg --cipher-algo AES takes" in answer
    assert "of CPU time)" in answer and "a disk slower than" in answer
    assert "(--link RATE)" in answer
