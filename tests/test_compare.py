# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench compare``: the ratio method, the real-change marks, the summary, and a golden
test on two recorded runs (tests/golden/compare/runs.json: the same machine with and without
OpenSSL's AES instructions).

Set CIPHERBENCH_UPDATE_GOLDEN=1 to rewrite the golden file after a deliberate change."""
from __future__ import annotations

import itertools
import json
import math
import os
from pathlib import Path

import pytest

from cipherbench import compare as C
from cipherbench.store import Result, Run, Store
from conftest import in_process

GOLDEN = Path(__file__).resolve().parent / "golden" / "compare"


def load_runs(db: Path, source: Path = GOLDEN / "runs.json") -> list[int]:
    """Store the recorded runs of ``source`` in a new database; returns their ids."""
    doc = json.loads(source.read_text())
    ids = []
    with Store.open(db) as store:
        for run in doc["runs"]:
            rid = store.begin_run(run["command"], run["args"], run["metadata"])
            for r in run["results"]:
                store.add_result(rid, Result(**r))
            store.finish_run(rid, "complete")
            ids.append(rid)
    return ids


def cli(db: Path, *args: str) -> tuple[int, str, str]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(db.parent), "NO_COLOR": "1",
           "COLUMNS": "160", "CIPHERBENCH_DB": str(db)}
    r = in_process(args, env)
    return r.rc, r.out, r.err


def point(lib="openssl", algo="aes-128-gcm", size=16384, median=1000.0, lo=990.0, hi=1010.0,
          metric="ns_per_op", unit="ns", scenario="primitive", op="encrypt") -> Result:
    return Result(scenario, lib, algo, op, size, metric, unit, median, lo, hi, 10, 0.01)


def run(rid: int, **meta) -> Run:
    return Run(rid, "run", "2025-01-01T00:00:00+00:00", None, "complete", {}, meta, "0")


# -- the method -------------------------------------------------------------------------------
def test_time_is_inverted_into_a_speed_and_its_interval_flips():
    m, lo, hi = C.speed_interval(point(median=100.0, lo=80.0, hi=125.0))
    assert (m, lo, hi) == (pytest.approx(0.01), pytest.approx(0.008), pytest.approx(0.0125))
    r = point(metric="bytes_per_s", unit="B/s", median=5.0, lo=4.0, hi=6.0)
    assert C.speed_interval(r) == (5.0, 4.0, 6.0)


def test_ratio_of_throughputs_and_conservative_interval():
    a = point(median=1000.0, lo=900.0, hi=1100.0)   # ns/op
    b = point(median=500.0, lo=450.0, hi=550.0)     # B twice as fast
    (e,), only_a, only_b = C.compare_results([a], [b])
    assert e.ratio == pytest.approx(2.0)
    assert e.low == pytest.approx(900.0 / 550.0)     # slowest B over fastest A
    assert e.high == pytest.approx(1100.0 / 450.0)
    assert e.mark == C.FASTER and (only_a, only_b) == (0, 0)


def test_real_change_exactly_when_intervals_do_not_overlap():
    bounds = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    for a_lo, a_hi, b_lo, b_hi in itertools.product(bounds, repeat=4):
        if a_lo > a_hi or b_lo > b_hi:
            continue
        a = point(metric="bytes_per_s", unit="B/s", median=(a_lo + a_hi) / 2, lo=a_lo, hi=a_hi)
        b = point(metric="bytes_per_s", unit="B/s", median=(b_lo + b_hi) / 2, lo=b_lo, hi=b_hi)
        (e,), _, _ = C.compare_results([a], [b])
        overlap = not (b_lo > a_hi or b_hi < a_lo)
        assert (e.mark == C.SAME) == overlap, (a_lo, a_hi, b_lo, b_hi, e.mark)
        if not overlap:
            assert e.mark == (C.FASTER if b_lo > a_hi else C.SLOWER)
        assert e.low <= e.ratio <= e.high


def test_without_interval_the_change_is_unknown_and_slopes_are_not_compared():
    a = [point(lo=None, hi=None), Result("primitive", "openssl", "aes-128-gcm", "encrypt", None,
                                         "slope_ns_per_byte", "ns/B", 0.2)]
    b = [point(median=10.0, lo=None, hi=None), Result("primitive", "openssl", "aes-128-gcm",
                                                      "encrypt", None, "slope_ns_per_byte",
                                                      "ns/B", 0.1)]
    entries, _, _ = C.compare_results(a, b)
    assert [(e.size, e.mark) for e in entries] == [(16384, C.UNKNOWN)]
    assert entries[0].ratio == pytest.approx(100.0)


def test_geometric_mean_is_symmetric_in_faster_and_slower():
    assert C.geometric_mean([2.0, 0.5]) == pytest.approx(1.0)
    assert C.geometric_mean([4.0, 1.0]) == pytest.approx(2.0)
    assert C.geometric_mean([]) is None


def test_summary_counts_marks_per_library_and_shows_versions():
    a = [point(size=s, lo=990, hi=1010) for s in (1024, 16384)] + [point(lib="nettle")]
    b = [point(size=1024, median=500, lo=490, hi=510), point(size=16384, median=1001),
         point(lib="nettle", median=2000, lo=1900, hi=2100)]
    ra = run(1, libraries={"openssl": {"version": "3.0.1"}, "nettle": {"version": "3.8"}})
    rb = run(2, libraries={"openssl": {"version": "3.2.0"}, "nettle": {"version": "3.8"}})
    cmp = C.compare_runs(ra, a, rb, b)
    by = {s.lib: s for s in cmp.summaries}
    assert (by["openssl"].faster, by["openssl"].same, by["openssl"].n) == (1, 1, 2)
    assert by["openssl"].geomean == pytest.approx(math.sqrt(2.0 * 1000 / 1001))
    assert by["nettle"].slower == 1
    line = C.summary_line(by["openssl"])
    assert line.startswith("openssl 3.0.1 -> 3.2.0: B/A 1.41x") and "1 faster, 1 same" in line
    assert [d.key for d in cmp.differences] == ["libraries.openssl.version"]


def test_differences_name_what_was_switched_off_and_ignore_volatile_keys():
    ra = run(1, loadavg=0.1, freq_hz=3.0e9, cpu_model="X",
             libraries={"openssl": {"caps": ["aes_hw", "vector"]}, "only_a": {"version": "1"}})
    rb = run(2, loadavg=2.5, freq_hz=3.1e9, cpu_model="X",
             libraries={"openssl": {"caps": ["vector"]}})
    rb.args = {"no_hw": True}
    diffs = {d.key: d for d in C.differences(ra, rb)}
    assert set(diffs) == {"libraries.openssl.caps", "args.no_hw"}
    assert C.describe_difference(diffs["libraries.openssl.caps"]) == \
        "libraries.openssl.caps: aes_hw, vector -> vector"


# -- golden, through the command line -----------------------------------------------------------
def normalized(doc: dict) -> dict:
    for k in ("run_a", "run_b"):
        doc[k]["started_at"] = "<time>"
    return doc


def test_compare_json_matches_golden(tmp_path):
    db = tmp_path / "r.sqlite"
    a, b = load_runs(db)
    rc, out, err = cli(db, "compare", str(a), str(b), "--json")
    assert rc == 0, err
    doc = normalized(json.loads(out))
    golden = GOLDEN / "expected.json"
    if os.environ.get("CIPHERBENCH_UPDATE_GOLDEN"):
        golden.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    assert doc == json.loads(golden.read_text())


def test_golden_numbers_follow_from_the_recorded_medians(tmp_path):
    """Recompute a few entries by hand from runs.json, independently of compare.py."""
    runs = json.loads((GOLDEN / "runs.json").read_text())["runs"]
    expected = json.loads((GOLDEN / "expected.json").read_text())

    def rec(i, lib, algo, size):
        return next(r for r in runs[i]["results"] if (r["lib"], r["algo"], r["size"],
                                                      r["metric"]) == (lib, algo, size,
                                                                       "ns_per_op"))

    def entry(lib, algo, size):
        return next(e for e in expected["entries"] if (e["lib"], e["algo"], e["size"]) ==
                    (lib, algo, size))

    for lib, algo, size in (("openssl", "aes-128-gcm", 16384), ("ref", "memcpy", 16384),
                            ("libgcrypt", "sha256", 1024)):
        a, b = rec(0, lib, algo, size), rec(1, lib, algo, size)
        e = entry(lib, algo, size)
        assert e["ratio"] == pytest.approx(a["median"] / b["median"], rel=1e-5)
        assert e["ratio_low"] == pytest.approx(a["ci_low"] / b["ci_high"], rel=1e-5)
        assert e["ratio_high"] == pytest.approx(a["ci_high"] / b["ci_low"], rel=1e-5)
        overlap = not (b["ci_high"] < a["ci_low"] or b["ci_low"] > a["ci_high"])
        assert (e["change"] == "same") == overlap
    # AES-NI off: OpenSSL's AES-GCM is really slower, many times over; memcpy is unchanged.
    assert entry("openssl", "aes-128-gcm", 16384)["change"] == "slower"
    assert entry("openssl", "aes-128-gcm", 16384)["ratio"] < 0.2
    assert entry("ref", "memcpy", 16384)["change"] == "same"
    assert {d["key"] for d in expected["differences"]} >= {"libraries.openssl.caps"}
    assert not [e for e in expected["entries"] if e["metric"] == "slope_ns_per_byte"]


def test_compare_table_marks_changes_and_prints_a_summary_per_library(tmp_path):
    db = tmp_path / "r.sqlite"
    a, b = load_runs(db)
    rc, out, err = cli(db, "compare", str(a), str(b))
    assert rc == 0, err
    assert "differs: libraries.openssl.caps: aes_hw, clmul_hw, sha_hw, vector -> vector" in out
    assert "slower" in out and "same" in out
    summary = [l for l in out.splitlines() if "geometric mean" in l]
    assert [l.split()[0] for l in summary] == ["ref", "libgcrypt", "openssl"]
    rc, only, _ = cli(db, "compare", str(a), str(b), "--changes-only", "--sizes", "16k")
    assert rc == 0
    # the table's rows end with their mark (the table is drawn without side borders)
    rows = [l for l in only.splitlines() if l.rstrip().endswith(
        ("slower", "faster", "same", "unknown"))]
    assert rows and all("slower" in l or "faster" in l for l in rows)
    assert all("16 KiB" in l for l in rows)


def test_compare_bad_input_is_one_line_without_traceback(tmp_path):
    db = tmp_path / "r.sqlite"
    a, b = load_runs(db)
    rc, out, err = cli(db, "compare", str(a), "99")
    assert rc == 2 and err.startswith("cipherbench: error: no run 99") and err.count("\n") == 1
    with Store.open(db) as store:
        other = store.begin_run("ssh", {}, {})
        store.add_result(other, point(scenario="ssh", lib="openssh", algo="aes128-ctr",
                                      metric="bytes_per_s", unit="B/s", op="transfer"))
    rc, out, err = cli(db, "compare", str(a), str(other))
    assert rc == 1 and "nothing in common" in err and "Traceback" not in err
    rc, out, err = cli(db, "compare", str(a))
    assert rc == 2 and "RUN_B" in err


# -- the noise floor of the reference rows ------------------------------------------------------
def test_reference_rows_set_a_noise_floor_that_changes_must_clear():
    # The machine moved: memcpy 20% slower in B. OpenSSL looks 10% slower with tight intervals,
    # which is within what memcpy moved: not a real change. libgcrypt 2x slower is real.
    a = [point("ref", "memcpy", median=1000.0, lo=995.0, hi=1005.0, op="ref"),
         point(median=1000.0, lo=995.0, hi=1005.0),
         point("libgcrypt", median=1000.0, lo=995.0, hi=1005.0)]
    b = [point("ref", "memcpy", median=1200.0, lo=1195.0, hi=1205.0, op="ref"),
         point(median=1100.0, lo=1095.0, hi=1105.0),
         point("libgcrypt", median=2000.0, lo=1990.0, hi=2010.0)]
    entries, _, _ = C.compare_results(a, b)
    by = {e.lib: e for e in entries}
    assert by["ref"].mark == C.SAME and by["ref"].within_floor   # it is the floor
    assert by["openssl"].mark == C.SAME and by["openssl"].within_floor
    assert by["libgcrypt"].mark == C.SLOWER and not by["libgcrypt"].within_floor
    floor = C.noise_floor(entries)
    assert floor.factor == pytest.approx(1.2) and floor.worst == "memcpy at 16384 B"
    assert "moved up to 20.0%" in floor.text()
    # Without reference rows the intervals alone decide, as before.
    entries, _, _ = C.compare_results(a[1:], b[1:])
    assert [e.mark for e in entries] == [C.SLOWER, C.SLOWER]


def test_the_floor_is_taken_at_the_same_size():
    a = [point("ref", "null", size=16, median=10.0, lo=9.9, hi=10.1, op="ref"),
         point("ref", "null", size=16384, median=10.0, lo=9.9, hi=10.1, op="ref"),
         point(size=16, median=100.0, lo=99.0, hi=101.0),
         point(size=16384, median=1000.0, lo=995.0, hi=1005.0)]
    b = [point("ref", "null", size=16, median=15.0, lo=14.9, hi=15.1, op="ref"),
         point("ref", "null", size=16384, median=10.1, lo=10.0, hi=10.2, op="ref"),
         point(size=16, median=130.0, lo=129.0, hi=131.0),
         point(size=16384, median=1300.0, lo=1295.0, hi=1305.0)]
    entries, _, _ = C.compare_results(a, b)
    marks = {(e.lib, e.size): e.mark for e in entries}
    assert marks[("openssl", 16)] == C.SAME          # null moved 50% at 16 B
    assert marks[("openssl", 16384)] == C.SLOWER     # null moved 1% at 16 KiB


def test_the_compare_command_prints_the_noise_floor(cli):
    args = ("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--op", "encrypt", "--sizes",
            "1024,16384", "--samples", "6", "--budget", "0")
    assert cli(*args).rc == 0 and cli(*args).rc == 0
    r = cli("compare", "1", "2")
    assert r.rc == 0, r.err
    assert "the reference rows moved up to 0.0% between the runs" in r.out
