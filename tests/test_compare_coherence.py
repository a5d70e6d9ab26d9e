# SPDX-License-Identifier: GPL-3.0-or-later
"""compare says in one line when the two runs are not like for like (library version, machine,
core build, hardware switches), still compares them labelled with the versions, and its table
fits 80 and 100 columns."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from cipherbench.store import Result, Store
from conftest import in_process
from test_compare import load_runs

META = {"hostname": "vm", "cpu_model": "AMD EPYC", "cpu_arch": "x86_64",
        "core_version": "0.9.0", "core_compiler": "gcc 12", "core_cflags": "-O2",
        "hw_disabled": []}


def cli(db: Path, *args: str, width: int = 160) -> tuple[int, str, str]:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(db.parent), "NO_COLOR": "1",
           "COLUMNS": str(width), "CIPHERBENCH_DB": str(db)}
    r = in_process(args, env)
    return r.rc, r.out, r.err


def add(store: Store, ns: float, openssl="3.0.15", **meta) -> int:
    m = dict(META, libraries={"openssl": {"version": openssl, "caps": ["aes_hw"]}}, **meta)
    run = store.begin_run("run", {}, m)
    for algo, scale in (("aes-128-gcm", 1.0), ("chacha20-poly1305", 2.5)):
        t = ns * scale
        store.add_result(run, Result("primitive", "openssl", algo, "encrypt", 16384, "ns_per_op",
                                     "ns", t, t * 0.99, t * 1.01, 10, 0.01))
    store.finish_run(run, "complete")
    return run


def test_like_for_like_runs_get_no_warning(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        a, b = add(s, 4000), add(s, 4100)
    rc, out, err = cli(db, "compare", str(a), str(b))
    assert rc == 0 and "not like for like" not in err and err == ""


def test_another_library_version_is_compared_labelled_and_named_in_one_line(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        a, b = add(s, 4000, openssl="3.0.11"), add(s, 3000, openssl="3.0.15")
    rc, out, err = cli(db, "compare", str(a), str(b))
    assert rc == 0
    lines = err.strip().splitlines()
    assert lines == [f"cipherbench: warning: runs {a} and {b} are not like for like: openssl "
                     "version 3.0.11 -> 3.0.15; the ratios measure that difference too, not "
                     "only the noise"]
    # the comparison is still made, each library labelled with its versions
    assert "openssl 3.0.11 -> 3.0.15: B/A 1.33x" in out and "faster" in out
    rc, out, err = cli(db, "compare", str(a), str(b), "--json")
    import json
    assert json.loads(out)["mismatches"] == [{"what": "openssl version", "a": "3.0.11",
                                              "b": "3.0.15"}]


@pytest.mark.parametrize("meta,what", [
    ({"hostname": "nas", "cpu_model": "ARM Cortex-A55"},
     "machine vm (AMD EPYC) -> nas (ARM Cortex-A55)"),
    ({"hw_disabled": ["aes", "pclmul"]}, "hardware switches all on -> off: aes, pclmul"),
    ({"core_version": "1.0.0"}, "core build 0.9.0 gcc 12 -O2 -> 1.0.0 gcc 12 -O2")])
@pytest.mark.real
def test_machine_switches_and_core_build_are_named(tmp_path, meta, what):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        a, b = add(s, 4000), add(s, 4000, **meta)
    rc, _out, err = cli(db, "compare", str(a), str(b))
    assert rc == 0 and len(err.strip().splitlines()) == 1 and what in err


def test_a_switch_made_through_the_library_shows_in_its_hardware(tmp_path):
    # the recorded pair: OpenSSL with and without its AES instructions (OPENSSL_ia32cap)
    db = tmp_path / "r.sqlite"
    a, b = load_runs(db)
    rc, out, err = cli(db, "compare", str(a), str(b))
    assert rc == 0 and "openssl hardware aes_hw, clmul_hw, sha_hw, vector -> vector" in err


@pytest.mark.parametrize("width", (80, 100))
def test_the_table_fits_narrow_terminals(tmp_path, width):
    db = tmp_path / "r.sqlite"
    a, b = load_runs(db)
    rc, out, _err = cli(db, "compare", str(a), str(b), width=width)
    assert rc == 0
    for line in out.splitlines():
        assert len(line) <= width, line
    assert "…" not in out
    assert "slower" in out and "aes-128-gcm" in out
