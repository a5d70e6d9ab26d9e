# SPDX-License-Identifier: GPL-3.0-or-later
"""The C core's library modules seen from the front end: a copy of the build's modules in
which one backend's module is linked against a library that is then removed (what a host
lacking that library is to the loader). ``cipherbench list`` names it with the loader's
line, a run over every library measures the others and stores one ``library_missing``
warning, and ``--lib`` of it is one line with the reason."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from cipherbench.cores.core_client import Core
from conftest import real_core

LOADER_LINE = "libcbtmissing.so: cannot open shared object file"


def broken_modules(tmp_path: Path) -> tuple[Path, Path, str, list[str]]:
    """(core, modules dir, the library left without its own, the libraries still there)."""
    if shutil.which("cc") is None:
        pytest.skip("needs a C compiler to build a module with a missing library")
    core = real_core()
    modules = Core(core).list().modules
    found = [m for m in modules if m.loaded and m.path]
    if len(found) < 2:
        pytest.skip("the real core has fewer than two library modules")
    victim = found[-1].lib
    out = tmp_path / "modules"
    out.mkdir()
    for m in found:
        shutil.copy(m.path, out / Path(m.path).name)
    (tmp_path / "m.c").write_text("int cbt_missing(void) { return 1; }\n")
    (tmp_path / "x.c").write_text("int cbt_missing(void);\nint cbt_use(void) "
                                  "{ return cbt_missing(); }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libcbtmissing.so"),
                    str(tmp_path / "m.c")], check=True)
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(out / f"{victim}.so"),
                    str(tmp_path / "x.c"), f"-L{tmp_path}", "-lcbtmissing"], check=True)
    (tmp_path / "libcbtmissing.so").unlink()
    return core, out, victim, [m.lib for m in found[:-1]]


@pytest.fixture
def broken(env, tmp_path):
    core, modules, victim, others = broken_modules(tmp_path)
    return dict(env, CIPHERBENCH_CORE=str(core), CIPHERBENCH_MODULES=str(modules)), victim, others


def test_list_names_the_module_that_did_not_load(cli, broken):
    e, victim, others = broken
    r = cli("list", env_override=e)
    assert r.rc == 0, r.err
    lines = [x for x in r.err.splitlines() if victim in x]
    assert len(lines) == 1 and "its module did not load" in lines[0] and LOADER_LINE in lines[0]
    doc = json.loads(cli("list", "--json", env_override=e).out)
    libs = {row["lib"] for row in doc["libraries"]}
    assert set(others) <= libs and victim not in libs
    state = {m["lib"]: m for m in doc["modules"]}
    assert all(state[lib]["loaded"] and state[lib]["error"] is None for lib in others)
    assert not state[victim]["loaded"] and LOADER_LINE in state[victim]["error"]


def test_a_run_measures_every_other_library_and_warns_once(cli, broken):
    e, victim, others = broken
    r = cli("run", "--algo", "sha256", "--sizes", "1024", "--samples", "3", "--json",
            env_override=e)
    assert r.rc == 0, r.err
    doc = json.loads(r.out)
    measured = {x["lib"] for x in doc["results"]}
    assert set(others) <= measured | {"ref"} and victim not in measured
    assert set(others) & measured
    missing = [w for w in doc["warnings"] if w["kind"] == "library_missing"]
    assert len(missing) == 1 and missing[0]["subject"] == victim
    assert LOADER_LINE in missing[0]["text"]


def test_lib_of_the_missing_module_is_one_line(cli, broken):
    e, victim, _ = broken
    for command in (["run", "--algo", "sha256"], ["list"]):
        r = cli(*command, "--lib", victim, env_override=e)
        lines = r.err.strip().splitlines()
        assert r.rc == 2 and len(lines) == 1, r.err
        assert f"library '{victim}' is not available here: its module did not load" in lines[0]
        assert LOADER_LINE in lines[0]


def test_a_core_whose_modules_all_fail_says_why(cli, env, tmp_path):
    """No module at all where the core looks (a copy of the executable alone): the run says
    that the modules did not load and why, not that the core was built without libraries."""
    core = real_core()
    if not [m for m in Core(core).list().modules if m.loaded]:
        pytest.skip("the real core has no library module")
    (tmp_path / "empty").mkdir()
    e = dict(env, CIPHERBENCH_CORE=str(core), CIPHERBENCH_MODULES=str(tmp_path / "empty"))
    r = cli("run", "--algo", "sha256", env_override=e)
    lines = r.err.strip().splitlines()
    assert r.rc != 0 and len(lines) == 1, r.err
    assert "no library module of this cipherbench-core loaded" in lines[0]
    assert "no module" in lines[0] and str(tmp_path / "empty") in lines[0]
