# SPDX-License-Identifier: GPL-3.0-or-later
"""The Rust core's ``serve`` (core-rust/src/serve.rs) as the front end uses it: a run over the
Rust libraries starts one process per library, not one per batch, and the estimate no longer
charges a process a batch for them. Skipped when the Rust core is not built
(scripts/build-extra-cores.sh)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from cipherbench.cores import combined
from cipherbench.cores import core_client as cc
from cipherbench.store import Store
from conftest import real_core

ROOT = Path(__file__).resolve().parents[1]


def _rust() -> Path:
    p = Path(os.environ.get("CIPHERBENCH_CORE_RUST") or ROOT / "build-extra" / "cipherbench-core-rust")
    if not (p.is_file() and os.access(p, os.X_OK)):
        pytest.skip(f"{p.name} not built (scripts/build-extra-cores.sh builds it when cargo is installed)")
    return p


def _logging(tmp_path: Path, core: Path) -> tuple[Path, Path]:
    """A wrapper that logs each command line it is started with, then runs core; and its log."""
    log, wrapper = tmp_path / "calls.log", tmp_path / core.name
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{core}" "$@"\n')
    wrapper.chmod(0o755)
    return wrapper, log


def _rust_libs(rust: Path) -> list[str]:
    return cc.Core(rust).list().libs()


def test_the_rust_core_says_it_serves():
    core = cc.Core(_rust())
    assert core.serves() and {"list", "kat", "bench", "serve", "tls"} <= set(core.commands or ())


def test_a_run_over_the_rust_libraries_starts_one_process_per_library(cli, env, tmp_path):
    """Two rounds of six points for each library: one ``serve`` each instead of 12 ``bench``
    processes each, and every point stored."""
    wrapper, log = _logging(tmp_path, _rust())
    libs = _rust_libs(wrapper)
    e = dict(env, CIPHERBENCH_CORE=str(real_core()), CIPHERBENCH_CORE_RUST=str(wrapper))
    r = cli("run", "--lib", ",".join(libs), "--algo", "sha256,chacha20-poly1305",
            "--sizes", "1024,16384", "--no-ref", "--samples", "3", "--rounds", "2", env_override=e)
    assert r.rc == 0, r.err
    started = [line for line in log.read_text().splitlines() if not line.startswith("list")]
    assert sorted(started) == [f"serve --lib {lib}" for lib in sorted(libs)]
    with Store.open(e["CIPHERBENCH_DB"], create=False) as s:
        stored = {(x.lib, x.algo, x.op, x.size) for x in s.results(s.get_run("last").id)
                  if x.metric == "ns_per_op"}
    assert stored == {(lib, algo, op, size) for lib in libs for size in (1024, 16384)
                      for algo, op in (("sha256", "hash"), ("chacha20-poly1305", "encrypt"),
                                       ("chacha20-poly1305", "decrypt"))}


def test_a_session_keeps_one_rust_process_per_library():
    """Three batches, one process; known answers with the first request only."""
    with cc.CoreSession(cc.Core(_rust())) as session:
        kinds = []
        for size in (64, 1024, 64):
            with session.bench("rustcrypto", ["sha256"], "hash", [size], samples=2,
                               min_sample_ms=0.05) as answer:
                kinds.append([rec.type for rec in answer])
        assert session.processes == 1
    assert kinds == [["preamble", "library", "kat", "point", "end"], ["point", "end"],
                     ["point", "end"]]


def test_a_refused_request_raises_and_the_process_goes_on():
    served = cc.Core(_rust()).serve("ring")
    assert served is not None
    try:
        with pytest.raises(cc.CoreUsage, match="serve refused a request: library ring has no "
                                               "algorithm 'no-such-algo'"):
            list(served.request(["no-such-algo"], "hash", [64]))
        got = list(served.request(["sha256"], "hash", [64], samples=2, min_sample_ms=0.05))
        assert [o["type"] for o in got] == ["kat", "point", "end"]
    finally:
        served.close()
    assert served.proc.returncode == 0


def test_the_estimate_charges_no_process_a_batch_for_the_rust_libraries(env):
    """The estimate asks the cores which libraries are served: the Rust core's now are, so
    their rounds cost what the C core's do."""
    from cipherbench import presets
    from cipherbench.scenarios.primitive import scenario as primitive
    from cipherbench.scenarios.primitive.batches import Item, Selection

    e = dict(env, CIPHERBENCH_CORE=str(real_core()), CIPHERBENCH_CORE_RUST=str(_rust()))
    cores = combined.Cores.find(e)
    inv = cores.list()
    libs = [lib for lib in inv.libs() if lib in ("ring", "rustcrypto", "aws-lc")]
    assert libs and all(cores.serves_lib(lib) for lib in libs)

    class Stub:
        def __init__(self, served: bool):
            self.served = served

        def serves_lib(self, lib):  # noqa: ARG002 - every library alike
            return self.served

    sel = Selection(libs=tuple(libs), algos=("sha256",), ops=("hash",), sizes=(1024, 16384),
                    samples=6, min_sample_ms=0.5, run_budget_s=None)
    items = [Item(lib, "sha256", "hash", sel.sizes) for lib in libs]

    def estimate(core):
        return primitive.estimate_s(primitive.RunPlan(core, inv, presets.QUICK, sel, items, [],
                                                      adaptive=True))

    real, served, unserved = estimate(cores), estimate(Stub(True)), estimate(Stub(False))
    assert (real.per_round_s, real.start_s) == (served.per_round_s, served.start_s)
    assert unserved.per_round_s > real.per_round_s
