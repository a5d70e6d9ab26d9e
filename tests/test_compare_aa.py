# SPDX-License-Identifier: GPL-3.0-or-later
"""compare on two identical runs (an A/A comparison): two real `cipherbench run --quick` runs
of one machine at load average 12 (tests/golden/compare/aa-runs.json, recorded by
bench/compare/aa.py), whose every difference is noise. The bare interval rule called about
one cell in five of them different; at the default settings compare calls at most one in
twenty, and says what held each back. And the parts of the rule one by one."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cipherbench import compare as C
from cipherbench.store import Result, Store, StoredWarning
from test_compare import cli, point, run

AA = Path(__file__).resolve().parent / "golden" / "compare" / "aa-runs.json"


def load_aa(db: Path) -> list[int]:
    doc = json.loads(AA.read_text())
    ids = []
    with Store.open(db) as store:
        for r in doc["runs"]:
            rid = store.begin_run(r["command"], r["args"], r["metadata"])
            for x in r["results"]:
                store.add_result(rid, Result(**x))
            for w in r["warnings"]:
                store.add_warning(rid, w["kind"], w["subject"], w["text"])
            store.finish_run(rid, "complete")
            ids.append(rid)
    return ids


def called(entries: list[C.Entry]) -> list[C.Entry]:
    return [e for e in entries if e.lib != C.REFERENCE_LIB and e.mark in (C.FASTER, C.SLOWER)]


def test_an_aa_comparison_calls_at_most_one_cell_in_twenty_different(tmp_path):
    db = tmp_path / "aa.sqlite"
    a, b = load_aa(db)
    with Store.open(db, readonly=True) as s:
        xa, xb = s.results(a), s.results(b)
        cmp = C.compare_runs(s.get_run(a), xa, s.get_run(b), xb, None, s.warnings(a),
                             s.warnings(b))
        bare, _, _ = C.compare_results(xa, xb)
    cells = [e for e in cmp.entries if e.lib != C.REFERENCE_LIB]
    assert len(cells) >= 150
    assert len(called(bare)) > len(cells) / 20          # the bare interval rule: noise called
    assert len(called(cmp.entries)) <= len(cells) / 20
    assert cmp.rule.warned_cells > 0
    now = {e.key: e for e in cmp.entries}
    assert all(now[e.key].held_back for e in called(bare) if now[e.key].mark == C.SAME)
    rc, out, err = cli(db, "compare", str(a), str(b), "--json")
    assert rc == 0, err
    doc = json.loads(out)
    assert doc["format_version"] == 5 and doc["rule"]["min_change"] == 0.05
    real = [e for e in doc["entries"] if e["lib"] != "ref" and e["change"] in ("faster",
                                                                              "slower")]
    assert len(real) <= len(cells) / 20
    assert any(str(e["held_back"]).startswith("warned in run") for e in doc["entries"])
    rc, out, err = cli(db, "compare", str(a), str(b))
    assert rc == 0 and "same (warned in run" in out
    assert "and 2x in a cell either run warned" in out


def test_a_change_within_the_minimum_is_not_called_and_says_so():
    a = [point(median=1000.0, lo=999.0, hi=1001.0)]
    b = [point(median=970.0, lo=969.0, hi=971.0)]       # 3% faster, intervals far apart
    (e,), _, _ = C.compare_results(a, b, min_change=0.05)
    assert e.mark == C.SAME and e.held_back == "min change"
    (e,), _, _ = C.compare_results(a, b, min_change=0.02)
    assert e.mark == C.FASTER and e.held_back == ""


def test_a_cell_either_run_warned_about_is_never_called_real():
    a = [point(median=1000.0, lo=999.0, hi=1001.0), point(algo="sha256", op="hash")]
    b = [point(median=500.0, lo=499.0, hi=501.0), point(algo="sha256", op="hash",
                                                         median=500.0, lo=499.0, hi=501.0)]
    warned = [StoredWarning("noisy", "openssl aes-128-gcm encrypt 16384 B", "cv 40%"),
              StoredWarning("load", "machine", "load average 12")]   # the run's: no cell
    cmp = C.compare_runs(run(1), a, run(2), b, warnings_b=warned)
    by = {e.algo: e for e in cmp.entries}
    assert by["aes-128-gcm"].mark == C.SAME
    assert by["aes-128-gcm"].held_back == "warned in run 2: noisy, within 2x"
    assert by["sha256"].mark == C.FASTER
    assert cmp.rule.warned_cells == 1 and "1 held back by a warning" in cmp.rule.text()
    # far beyond what a warned cell was seen to move: called (AES instructions switched off)
    b[0] = point(median=30000.0, lo=29000.0, hi=31000.0)
    cmp = C.compare_runs(run(1), a, run(2), b, warnings_b=warned)
    assert cmp.entries[0].mark == C.SLOWER and cmp.entries[0].held_back == ""


def test_runs_of_two_machines_are_compared_as_machines_without_a_noise_floor():
    a = [point("ref", "memcpy", median=1000.0, lo=995.0, hi=1005.0, op="ref"),
         point(median=1000.0, lo=995.0, hi=1005.0)]
    b = [point("ref", "memcpy", median=1500.0, lo=1495.0, hi=1505.0, op="ref"),
         point(median=1300.0, lo=1295.0, hi=1305.0)]
    same = C.compare_runs(run(1, hostname="vm"), a, run(2, hostname="vm"), b)
    assert {e.lib: e.mark for e in same.entries} == {"ref": C.SAME, "openssl": C.SAME}
    other = C.compare_runs(run(1, hostname="vm"), a, run(2, hostname="vm", host="me@far"), b)
    assert {e.lib: e.mark for e in other.entries} == {"ref": C.SLOWER, "openssl": C.SLOWER}
    assert other.noise_floor is None and other.mismatches[0].what == "machine"
    assert C.to_document(other)["rule"]["machines"] == "different"


@pytest.mark.parametrize("value", ["-1", "abc", "100"])
def test_min_change_bad_input_is_one_line(tmp_path, value):
    db = tmp_path / "aa.sqlite"
    a, b = load_aa(db)
    rc, out, err = cli(db, "compare", str(a), str(b), "--min-change", value)
    assert rc == 2 and "--min-change" in err and err.count("\n") == 1
