# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared fixtures: an environment that points cipherbench at the fake core and a private
database, and a helper that runs the CLI in-process."""
from __future__ import annotations

import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from cipherbench.cli import main

TESTS = Path(__file__).resolve().parent
FAKE_CORE = TESTS / "fake_core" / "cipherbench-core"
RECORDINGS = TESTS / "fake_core" / "recordings"


@dataclass
class Outcome:
    """Exit status and captured output of one in-process CLI call."""

    rc: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


@pytest.fixture(scope="session")
def this_python(tmp_path_factory) -> Path:
    """A directory holding only ``python3``, a link to the interpreter running the tests: first
    on the fake core's PATH, its ``#!/usr/bin/env python3`` starts in a few milliseconds where
    a version manager's ``python3`` shim (pyenv) takes ten times that, over the thousands of
    fake cores the tests start."""
    directory = tmp_path_factory.mktemp("this-python")
    (directory / "python3").symlink_to(sys.executable)
    return directory


@pytest.fixture
def env(tmp_path, this_python) -> dict:
    """Environment for the CLI: the fake core (serving, as the real one), a private database
    and data directory."""
    return {
        "PATH": os.pathsep.join([str(this_python), os.environ.get("PATH", "/usr/bin:/bin")]),
        "HOME": str(tmp_path / "home"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "CIPHERBENCH_CORE": str(FAKE_CORE),
        # the fake core has `serve`, as the real C core: one process per library across a
        # run rather than a Python start per batch (a minute of CPU over the fast tier); the
        # tests of the process-per-batch path (a core without serve) set it to ""
        "FAKE_CORE_SERVE": "1",
        # the cores of other languages left out unless a test asks for them
        "CIPHERBENCH_CORE_GO": "",
        "CIPHERBENCH_CORE_RUST": "",
        "CIPHERBENCH_DB": str(tmp_path / "results.sqlite"),
        # the kernel's crypto drivers (advise --for luks) of a stored x86 with AES-NI, not
        # this machine's
        "CIPHERBENCH_PROC_CRYPTO": str(Path(__file__).parent / "proc_crypto" / "x86-aesni.txt"),
        "NO_COLOR": "1",
        "COLUMNS": "200",
    }


def in_process(args, env: dict, own_signals: bool = False) -> Outcome:
    """``cipherbench ARGS`` run in this process. pytest's signal handlers stay in place unless
    the test is about the command's own (``own_signals``), so Ctrl-C stops the whole session
    rather than failing the one test it lands in."""
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(args), env, stdout=out, stderr=err, own_signals=own_signals)
    return Outcome(rc, out.getvalue(), err.getvalue())


@pytest.fixture
def cli(env):
    """``cli(*args, env_override=None, own_signals=False) -> Outcome``: run ``cipherbench
    ARGS`` in-process (``in_process``)."""

    def run(*args: str, env_override: dict | None = None, own_signals: bool = False) -> Outcome:
        return in_process(args, env_override if env_override is not None else env, own_signals)

    return run


def write_recordings(directory: Path, lib: str, points: dict, algos: dict,
                     errors: list | None = None) -> Path:
    """Make a small recording set: ``points[(algo, op, size)] = [wall_ns per op...]`` with
    iters=1; ``algos[algo] = (kind, [ops])``."""
    directory.mkdir(parents=True, exist_ok=True)
    pre = {"v": 1, "type": "preamble", "core_version": "0.1.0", "compiler": "gcc 12.2.0",
           "cflags": "-O3", "cpu_model": "Test CPU", "cpu_flags": ["aes"], "freq_hz": 3e9,
           "clock": "CLOCK_MONOTONIC", "command": "list"}
    libs = [{"v": 1, "type": "library", "lib": name, "version": "1.0", "caps": [],
             "provider": None} for name in (lib, "ref")]
    rows = [{"v": 1, "type": "algorithm", "lib": lib, "algo": a, "kind": k, "ops": ops}
            for a, (k, ops) in algos.items()]
    rows += [{"v": 1, "type": "algorithm", "lib": "ref", "algo": a, "kind": "ref",
              "ops": ["ref"]} for a in ("memcpy", "null")]
    with open(directory / "list.jsonl", "w") as f:
        for r in [pre] + libs + rows:
            f.write(json.dumps(r) + "\n")
    with open(directory / f"bench-{lib}.jsonl", "w") as f:
        f.write(json.dumps(dict(pre, command="bench")) + "\n")
        for (a, op, size), walls in points.items():
            f.write(json.dumps({"v": 1, "type": "point", "lib": lib, "algo": a, "op": op,
                                "size": size, "iters": 1, "wall_ns": walls, "cpu_ns": walls,
                                "misalign": 0}) + "\n")
        for e in errors or []:
            f.write(json.dumps(dict({"v": 1, "type": "error", "lib": lib}, **e)) + "\n")
        f.write(json.dumps({"v": 1, "type": "end", "freq_hz": 3e9, "elapsed_ns": 1}) + "\n")
    with open(directory / "bench-ref.jsonl", "w") as f:
        for a, base in (("memcpy", 0.05), ("null", 0.0)):
            for size in sorted({k[2] for k in points}):
                t = 2.0 + base * size
                f.write(json.dumps({"v": 1, "type": "point", "lib": "ref", "algo": a,
                                    "op": "ref", "size": size, "iters": 1,
                                    "wall_ns": [t] * 6, "cpu_ns": [t] * 6}) + "\n")
    return directory


def real_core() -> Path:
    """The real cipherbench-core (``$CIPHERBENCH_CORE`` unless that is the fake, then PATH or
    the source tree's build); the calling test is skipped, with the reason, when none is built."""
    from cipherbench.cores import core_client
    env = dict(os.environ)
    if Path(env.get("CIPHERBENCH_CORE", "")).resolve() == FAKE_CORE:
        env.pop("CIPHERBENCH_CORE")
    try:
        return core_client.find_core(env)
    except core_client.CoreNotFound as e:
        pytest.skip(f"the real core is not built: {e}")


# --- The three kinds of test (`-m unit`, `-m fake_core`, `-m real`; `scripts/test.sh --fast`
# runs all but `real`). A module is `real` when its source drives real programs: the real
# core, a subprocess, sshd, a network namespace, a library built from source. Read from the
# source rather than declared, so a new module cannot forget it. A test whose real programs
# are reached through the code it calls (cipherbench checking a config line with `ssh -G`)
# says so itself with `@pytest.mark.real` (or `pytestmark = pytest.mark.real`).
import re  # noqa: E402

_REAL_SOURCE = re.compile(
    r"real_core\(|subprocess\.|Popen|sshd|netns|unshare|build_once|LD_PRELOAD"
    r"|which\(\"(gpg|ssh|openssl|age|chromium|socat|nc|rsync|sftp|scp)\"")
_real_modules: dict[Path, bool] = {}


def _drives_real_programs(path: Path) -> bool:
    if path not in _real_modules:
        _real_modules[path] = bool(_REAL_SOURCE.search(path.read_text(encoding="utf-8")))
    return _real_modules[path]


# `serial`: a module that cannot share the machine with another test process. The network
# namespaces' host ends use fixed addresses (test_ssh_netns.py), and the remote-run modules
# that import those fixtures count the run directories and processes of the whole host.
# scripts/test.sh runs them in a second pass, one at a time, after the parallel one.
_SERIAL_SOURCE = re.compile(r'"netns", "add"|^from test_\w*netns import', re.M)
_serial_modules: dict[Path, bool] = {}


def _must_run_alone(path: Path) -> bool:
    if path not in _serial_modules:
        _serial_modules[path] = bool(_SERIAL_SOURCE.search(path.read_text(encoding="utf-8")))
    return _serial_modules[path]


def pytest_collection_modifyitems(config, items):  # noqa: ARG001 - pytest hook signature
    for item in items:
        if _must_run_alone(Path(str(item.fspath))):
            item.add_marker(pytest.mark.serial)
        if item.get_closest_marker("real") is not None:
            continue
        if _drives_real_programs(Path(str(item.fspath))):
            item.add_marker(pytest.mark.real)
        elif {"env", "cli"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.fake_core)
        else:
            item.add_marker(pytest.mark.unit)


# --- The marks kept true: a test not marked `real` that starts a real program (one that is
# neither the fake core nor a stand-in script the test wrote under its tmp_path) fails,
# naming the program, so the fast tier stays free of real programs as tests are added.
_current: list = [None]      # [the running test's list of real programs started], or [None]
_allowed_roots: list[str] = [str(TESTS / "fake_core")]


def _audit(event: str, args: tuple) -> None:
    if event != "subprocess.Popen" or _current[0] is None:
        return
    import shutil
    executable, argv, _cwd, env = args
    argv0 = str(executable or (argv if isinstance(argv, (str, bytes)) else list(argv)[0]))
    if isinstance(argv0, bytes):
        argv0 = argv0.decode()
    path = argv0 if os.sep in argv0 else shutil.which(
        argv0, path=(env or os.environ).get("PATH")) or argv0
    if not any(os.path.realpath(path).startswith(root + os.sep) for root in _allowed_roots):
        _current[0].append(os.path.basename(argv0))


def pytest_sessionstart(session):
    _allowed_roots.append(os.path.realpath(session.config._tmp_path_factory.getbasetemp()))
    sys.addaudithook(_audit)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if item.get_closest_marker("real") is not None:
        return (yield)
    _current[0] = started = []
    try:
        result = yield
    finally:
        _current[0] = None
    if started:
        pytest.fail(f"this test starts real programs ({', '.join(sorted(set(started)))}): "
                    "mark it `@pytest.mark.real` (tests/conftest.py)", pytrace=False)
    return result
