# SPDX-License-Identifier: GPL-3.0-or-later
"""One core process per library across a run: ``cipherbench-core serve`` and the front end's
``CoreSession``. The real core answers requests in turn (known answers once, each point
calibrated once, a bad request refused without ending the process); the fake core, with
FAKE_CORE_SERVE=1, shows that a run through served cores asks for exactly what a run of
``bench`` processes asks for, stores the same figures, and stops its processes on every way
out; a core without ``serve`` gets a process per batch."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from cipherbench.cores import core_client as cc
from cipherbench.cores.records import End, Point
from cipherbench.store import Store
from conftest import FAKE_CORE, real_core

ROUNDS = ["--lib", "openssl,libgcrypt,nettle", "--algo", "aes-128-gcm,chacha20-poly1305",
          "--op", "encrypt", "--sizes", "1024,16384", "--no-ref", "--samples", "3"]
SMALL = ["--lib", "openssl,libgcrypt,nettle", "--algo", "aes-128-gcm,chacha20-poly1305,sha256",
         "--sizes", "16,1024,16384", "--budget", "0"]


def _log(path: Path) -> tuple[list[str], list[str]]:
    """(processes started, batches asked) from FAKE_CORE_LOG: every process is its command
    line, every batch the bench arguments (a served request is logged as the bench it stands
    for, after "request: ")."""
    procs, batches = [], []
    for line in path.read_text().splitlines():
        if line.startswith("request: "):
            batches.append(line[len("request: "):])
        else:
            procs.append(line)
            if line.startswith("bench"):
                batches.append(line)
    return procs, batches


def _served_children() -> list[int]:
    """Living children of this process running a core's ``serve``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
            cmd = Path(f"/proc/{name}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"serve" in cmd and " Z " not in stat:
            found.append(int(name))
    return found


def _figures(db: str) -> dict:
    with Store.open(db, create=False) as s:
        run = s.get_run("last")
        return {(x.lib, x.algo, x.op, x.size, x.metric): (x.median, x.ci_low, x.ci_high)
                for x in s.results(run.id)}


def test_rounds_use_one_process_per_library(cli, env, tmp_path):
    """The same batches, in the same order, as a process per batch; three processes instead
    of 36; the same stored figures."""
    served_log, bench_log = tmp_path / "served.log", tmp_path / "bench.log"
    served = dict(env, FAKE_CORE_SERVE="1", FAKE_CORE_LOG=str(served_log),
                  CIPHERBENCH_DB=str(tmp_path / "served.sqlite"))
    bench = dict(env, FAKE_CORE_SERVE="", FAKE_CORE_LOG=str(bench_log), CIPHERBENCH_DB=str(tmp_path / "b.sqlite"))
    for e in (served, bench):
        r = cli("run", *ROUNDS, "--rounds", "3", "--seed", "7", env_override=e)
        assert r.rc == 0, r.err
    procs, batches = _log(served_log)
    assert sorted(p for p in procs if p != "list") == \
        [f"serve --lib {lib}" for lib in ("libgcrypt", "nettle", "openssl")]
    b_procs, b_batches = _log(bench_log)
    assert len(b_batches) == 2 * 6 * 3 and len(b_procs) == 1 + len(b_batches)
    # the same batches in the same order (the bench line also names --samples)
    assert batches == b_batches
    assert _figures(served["CIPHERBENCH_DB"]) == _figures(bench["CIPHERBENCH_DB"])
    assert not _served_children()


def test_served_run_without_rounds_stores_the_same(cli, env, tmp_path):
    served = dict(env, FAKE_CORE_SERVE="1", CIPHERBENCH_DB=str(tmp_path / "served.sqlite"))
    for e in (served, dict(env, FAKE_CORE_SERVE="")):
        assert cli("run", *SMALL, env_override=e).rc == 0
    assert _figures(served["CIPHERBENCH_DB"]) == _figures(env["CIPHERBENCH_DB"])


def test_crash_of_a_served_core_keeps_finished_points(cli, env):
    e = dict(env, FAKE_CORE_SERVE="1", FAKE_CORE_CRASH="libgcrypt:2")
    r = cli("run", *SMALL, env_override=e)
    assert r.rc == 1
    assert "SIGSEGV" in r.err and "interrupted" in r.err and "Traceback" not in r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        results = s.results(run.id)
    assert run.status == "interrupted"
    assert {"ref", "openssl", "nettle"} <= {x.lib for x in results}
    # what libgcrypt finished before its core died is kept (its other algorithms go on)
    assert len([x for x in results if x.lib == "libgcrypt" and x.metric == "ns_per_op"]) >= 2
    assert not _served_children()


def test_ctrl_c_stops_the_served_cores(cli, env):
    e = dict(env, FAKE_CORE_SERVE="1", FAKE_CORE_SIGINT="openssl:1")
    r = cli("run", *SMALL, env_override=e, own_signals=True)   # the command's own Ctrl-C
    assert r.rc == 130 and "interrupted" in r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        assert s.get_run("last").status == "interrupted"
    assert not _served_children()


def test_a_core_without_serve_gets_a_process_per_batch(tmp_path):
    log = tmp_path / "core.log"
    core = cc.Core(FAKE_CORE, dict(os.environ, FAKE_CORE_LOG=str(log)))
    assert not core.serves()
    with cc.CoreSession(core) as session:
        for _ in range(2):
            with session.bench("openssl", ["aes-128-gcm"], "encrypt", [1024], samples=3) as s:
                assert [r.type for r in s].count("point") == 1
        assert session.processes == 2
    procs, batches = _log(log)
    assert len(procs) == 3 and procs[0] == "list" and len(batches) == 2


def test_a_core_without_serve_keeps_a_process_per_batch_beside_served_c_libraries(cli, env, tmp_path):
    """The recorded Go core, from before its ``serve``, stands for a core without it."""
    log = tmp_path / "calls"
    e = dict(env, CIPHERBENCH_CORE_GO=str(FAKE_CORE.parent / "cipherbench-core-go"),
             FAKE_CORE_SERVE="1", FAKE_CORE_LOG=str(log))
    r = cli("run", "--lib", "go,openssl", "--algo", "aes-128-gcm", "--op", "encrypt",
            "--sizes", "1024,16384", "--no-ref", "--samples", "3", "--rounds", "2", env_override=e)
    assert r.rc == 0, r.err
    procs, batches = _log(log)
    started = [p.split()[:3] for p in procs if not p.startswith("list")]
    assert started.count(["serve", "--lib", "openssl"]) == 1
    assert started.count(["bench", "--lib", "go"]) == 2 * 2      # sizes x rounds
    assert len(started) == 1 + 4
    assert len(batches) == 2 * 2 * 2
    assert not _served_children()


# -- the real core ---------------------------------------------------------------------------

def _real() -> cc.Core:
    core = cc.Core(real_core())
    if not core.serves():
        pytest.skip("this cipherbench-core has no serve")
    return core


def _with_lib(core: cc.Core, algo: str) -> str:
    inv = core.list()
    libs = [lib for lib in inv.libs() if lib != "ref" and inv.supports(lib, algo)]
    if not libs:
        pytest.skip(f"no library of this build has {algo}")
    return libs[0]


def test_real_core_says_it_serves():
    core = cc.Core(real_core())
    core.list()
    assert core.commands and {"list", "kat", "bench", "serve"} <= set(core.commands)


def test_known_answers_once_calibration_kept():
    core = _real()
    lib = _with_lib(core, "sha256")
    served = core.serve(lib)
    assert served is not None
    try:
        answers = [list(served.request(["sha256"], "hash", [64, 1024], samples=3,
                                       min_sample_ms=0.5)) for _ in range(3)]
    finally:
        served.close()
    types = [[o["type"] for o in a] for a in answers]
    assert types[0][:2] == ["preamble", "library"] and "kat" in types[0]
    assert all("kat" not in t and "preamble" not in t for t in types[1:])
    assert all(t[-1] == "end" for t in types)
    iters = [{o["size"]: o["iters"] for o in a if o["type"] == "point"} for a in answers]
    assert set(iters[0]) == {64, 1024}
    # the loop count is kept; only a machine that became more than twice as fast between two
    # answers has a point calibrated again, too rare to happen twice in a row
    assert iters[0] == iters[1] or iters[1] == iters[2]
    assert served.proc.returncode == 0


def test_bad_request_is_refused_and_the_process_goes_on():
    core = _real()
    lib = _with_lib(core, "aes-128-cbc")
    served = core.serve(lib)
    try:
        with pytest.raises(cc.CoreUsage, match="not a multiple of aes-128-cbc's block"):
            list(served.request(["aes-128-cbc"], "encrypt", [100]))
        got = list(served.request(["aes-128-cbc"], "encrypt", [1024], samples=2,
                                  min_sample_ms=0.2))
        assert [o["type"] for o in got].count("point") == 1
    finally:
        served.close()


def test_long_and_broken_lines_get_an_error_each():
    """Straight through the pipe: a line past the limit, one that is not JSON and a good one
    are answered in turn, each closed by its end."""
    lines = ["x" * 70000, "{not json", json.dumps({"algo": ["memcpy"], "op": "ref",
                                                   "sizes": [64], "samples": 2,
                                                   "min_sample_ms": 0.2})]
    p = subprocess.run([str(real_core()), "serve", "--lib", "ref"], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(x) for x in p.stdout.splitlines()]
    types = [r["type"] for r in recs]
    assert types == ["preamble", "library", "error", "end", "error", "end", "point", "end"]
    assert "longer than 65536 bytes" in recs[2]["message"]
    assert recs[2]["reason"] == recs[4]["reason"] == "bad_request" and recs[4]["algo"] is None


def test_session_serves_each_library_once():
    core = _real()
    with cc.CoreSession(core) as session:
        for size in (64, 1024, 64):
            with session.bench("ref", ["memcpy"], "ref", [size], samples=2,
                               min_sample_ms=0.2) as s:
                recs = list(s)
            assert isinstance(recs[-1], End) and sum(isinstance(r, Point) for r in recs) == 1
        assert session.processes == 1
        assert len(_served_children()) == 1
    assert not _served_children()


def test_any_byte_in_a_request_gets_an_answer_and_serving_goes_on():
    """A NUL byte, bytes that are not UTF-8, a cut multi-byte character and random bytes:
    each line is answered with one bad_request error and its end (never "longer than the
    limit", never a later request left unanswered), and the good requests after them are
    served; every record is JSON in UTF-8."""
    good = json.dumps({"algo": ["memcpy"], "op": "ref", "sizes": [64], "samples": 2,
                       "min_sample_ms": 0.2}).encode()
    bad = [b'{"al\0go":["memcpy"],"op":"ref"}', b"\0", b'{"\xff\xfe":1}',
           b'{"algo":["' + "\u00e9".encode() * 40 + b'\xc3"],"op":"ref"}',
           b'{"' + "\u00e9".encode() * 40 + b'":1}',
           bytes(range(256)).replace(b"\n", b""), os.urandom(4096).replace(b"\n", b"")]
    stream = b"".join(line + b"\n" + good + b"\n" for line in bad)
    p = subprocess.run([str(real_core()), "serve", "--lib", "ref"], input=stream,
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    recs = [json.loads(x.decode("utf-8")) for x in p.stdout.splitlines()]
    types = [r["type"] for r in recs]
    assert types == ["preamble", "library"] + ["error", "end", "point", "end"] * len(bad)
    errors = [r for r in recs if r["type"] == "error"]
    assert all(e["reason"] == "bad_request" and "longer than" not in e["message"]
               for e in errors)
    assert "NUL byte (byte 5)" in errors[0]["message"]
    assert "not UTF-8 text (byte 3 is 0xff)" in errors[2]["message"]
