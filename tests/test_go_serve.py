# SPDX-License-Identifier: GPL-3.0-or-later
"""The Go core's ``serve`` (core-go/serve.go) as the front end uses it: its ``list`` says it
serves, so a run measures the library ``go`` in one process for all its batches (rounds,
extra samples) instead of a process a batch, and the estimate no longer charges that
process for each batch. Skipped, with the reason, when the Go core was not built
(scripts/build-extra-cores.sh)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from cipherbench.cores import combined
from cipherbench.cores import core_client as cc
from cipherbench.cores.records import End, Point
from cipherbench.store import Store
from conftest import real_core

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "vectors"


def go_core() -> Path:
    p = Path(os.environ.get("CIPHERBENCH_CORE_GO") or ROOT / "build-extra" / "cipherbench-core-go")
    if not (p.is_file() and os.access(p, os.X_OK)):
        pytest.skip(f"{p.name} not built (scripts/build-extra-cores.sh builds it when go is "
                    "installed)")
    return p


def logging_go_core(tmp_path: Path) -> tuple[Path, Path]:
    """A wrapper that logs each start of the Go core (its arguments, a line each) and runs
    it; (wrapper, log)."""
    log = tmp_path / "go-starts.log"
    wrapper = tmp_path / "cipherbench-core-go"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{go_core()}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return wrapper, log


def real_env(env: dict, go: Path) -> dict:
    e = dict(env, CIPHERBENCH_CORE=str(real_core()), CIPHERBENCH_CORE_GO=str(go),
             CIPHERBENCH_VECTORS=str(VECTORS))
    e.pop("FAKE_CORE_SERVE", None)
    return e


def test_the_go_core_says_it_serves():
    core = cc.Core(go_core(), dict(os.environ, CIPHERBENCH_VECTORS=str(VECTORS)))
    core.list()
    assert core.commands and {"list", "kat", "bench", "serve", "tls"} <= set(core.commands)
    assert core.serves_lib("go")


def test_a_session_measures_go_in_one_process():
    core = cc.Core(go_core(), dict(os.environ, CIPHERBENCH_VECTORS=str(VECTORS)))
    with cc.CoreSession(core) as session:
        for size in (64, 1024, 64):
            with session.bench("go", ["chacha20-poly1305"], "decrypt", [size], samples=2,
                               min_sample_ms=0.1) as s:
                recs = list(s)
            assert isinstance(recs[-1], End)
            assert [r.size for r in recs if isinstance(r, Point)] == [size]
        with pytest.raises(cc.CoreUsage, match="serve refused a request: .*no algorithm 'nosuch'"):
            with session.bench("go", ["nosuch"], "encrypt", [64]) as s:
                list(s)
        assert session.processes == 1


def test_run_of_go_in_rounds_starts_one_go_process(cli, env, tmp_path):
    """Rounds of two algorithms at two sizes: 12 batches, one Go core process (with a process
    a batch it was 12), and the results stored."""
    wrapper, log = logging_go_core(tmp_path)
    e = real_env(env, wrapper)
    r = cli("run", "--lib", "go", "--algo", "aes-128-gcm,chacha20-poly1305", "--op", "encrypt",
            "--sizes", "1024,16384", "--no-ref", "--samples", "3", "--rounds", "3",
            env_override=e)
    assert r.rc == 0, r.err
    starts = [line.split() for line in log.read_text().splitlines()]
    measuring = [s for s in starts if s[0] != "list"]
    assert measuring == [["serve", "--lib", "go"]]
    with Store.open(e["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        cells = {(x.algo, x.size) for x in s.results(run.id) if x.lib == "go"}
    assert run.status == "complete"
    assert cells >= {(a, n) for a in ("aes-128-gcm", "chacha20-poly1305") for n in (1024, 16384)}


def test_the_estimate_charges_no_process_a_batch_for_the_served_go_core(env):
    """With the Go core serving, a round of its points costs what a round of the C core's
    costs: no process a batch (the cost the estimate keeps for a core without serve)."""
    from cipherbench import presets
    from cipherbench.scenarios.primitive import scenario as primitive
    from cipherbench.scenarios.primitive.batches import Item, Selection

    e = real_env(env, go_core())
    e.pop("CIPHERBENCH_CORE_RUST", None)
    cores = combined.Cores.find(e)
    inv = cores.list()
    assert "go" in inv.libs() and cores.serves_lib("go")

    class WithoutServe:
        """The same cores, but go's batches a process each (the Go core before serve)."""

        def serves_lib(self, lib: str) -> bool:
            return lib != "go" and cores.serves_lib(lib)

    sel = Selection(libs=("go",), algos=("aes-128-gcm",), ops=("encrypt",), sizes=(1024, 16384),
                    samples=6, min_sample_ms=0.5, run_budget_s=None)
    items = [Item("go", "aes-128-gcm", "encrypt", sel.sizes)]

    def estimate(core):
        return primitive.estimate_s(primitive.RunPlan(core, inv, presets.QUICK, sel, items, [],
                                                      adaptive=True))

    served, unserved = estimate(cores), estimate(WithoutServe())
    assert served.start_s == primitive._PROCESS_S and unserved.start_s == 0
    assert unserved.per_round_s - served.per_round_s == pytest.approx(2 * primitive._PROCESS_S)


def serve_stream(stdin: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(go_core()), "serve", *args], input=stdin, capture_output=True,
                          timeout=120, env=dict(os.environ, CIPHERBENCH_VECTORS=str(VECTORS)))


GOOD = json.dumps({"algo": ["sha256"], "op": "hash", "sizes": [64], "samples": 2,
                   "min_sample_ms": 0.1}).encode()


def test_any_line_gets_an_answer_and_serving_goes_on():
    """Straight through the pipe, as the C core's test: a line past 64 KiB, one that is not
    JSON, a NUL byte, bytes that are not UTF-8, a cut character and random bytes are each
    answered with one bad_request error and its end, and the good request after each is
    served; every record is JSON in UTF-8 and fits the protocol's schema."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(
        json.loads((ROOT / "core" / "protocol" / "schema.json").read_text()))
    bad = [b"x" * 70000, b"{not json", b'{"al\0go":["sha256"],"op":"hash"}', b"\0",
           b'{"\xff\xfe":1}', b'{"algo":["' + "\u00e9".encode() * 40 + b'\xc3"],"op":"hash"}',
           b'{"' + "\u00e9".encode() * 40 + b'":1}',
           bytes(range(256)).replace(b"\n", b""), os.urandom(4096).replace(b"\n", b"")]
    p = serve_stream(b"".join(line + b"\n \n" + GOOD + b"\n" for line in bad), "--lib", "go")
    assert p.returncode == 0, p.stderr
    recs = [json.loads(x.decode("utf-8")) for x in p.stdout.splitlines()]
    for r in recs:
        validator.validate(r)
    types = [r["type"] for r in recs]
    assert types[:3] == ["preamble", "library", "error"]
    # the first good request checks the known answers (kat), the others do not
    first = ["kat"] * types.count("kat") + ["point", "end"]
    assert types[2:] == ["error", "end"] + first + ["error", "end", "point", "end"] * (len(bad) - 1)
    errors = [r for r in recs if r["type"] == "error"]
    assert all(e["reason"] == "bad_request" and e["algo"] is None and e["op"] is None
               for e in errors)
    assert "longer than 65536 bytes" in errors[0]["message"]
    assert "not one JSON object" in errors[1]["message"]
    assert "NUL byte (byte 5)" in errors[2]["message"]
    assert "not UTF-8 text (byte 3 is 0xff)" in errors[4]["message"]
    assert all("longer than" not in e["message"] for e in errors[1:])
    assert all("cpu_ns" in r for r in recs if r["type"] == "end")


@pytest.mark.parametrize("args,message", [((), "serve needs --lib"),
                                          (("--lib", "nosuch"), "unknown library 'nosuch'"),
                                          (("--lib", "go", "--algo", "sha256"), "unknown option")])
def test_bad_arguments_of_serve_are_one_line_and_exit_2(args, message):
    p = serve_stream(GOOD + b"\n", *args)
    assert p.returncode == 2 and p.stdout == b""
    assert message in p.stderr.decode() and len(p.stderr.decode().splitlines()) == 1
