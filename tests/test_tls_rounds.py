# SPDX-License-Identifier: GPL-3.0-or-later
"""tls in randomized interleaved rounds: the order of the core processes, the paired verdicts
against the library's default suite (a test double stands in for the core's stream), what is
stored and redrawn, and a short run of the real core and openssl."""
from __future__ import annotations

import io
import json
import random
import shutil
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console

import cipherbench
from cipherbench.analysis import verdict as V
from cipherbench.cores.records import CoreError, Point
from cipherbench.scenarios.tls import interleaved, tables
from cipherbench.scenarios.tls import scenario as tls
from cipherbench.scenarios.tls.core_tls import Plan, TlsRunner
from cipherbench.scenarios.tls.suites import Suite
from cipherbench.store import Result, Run, Store

SCHEMA = json.loads((Path(cipherbench.__file__).parent / "export" / "schema.json").read_text())


def _suite(iana, cipher="aes-128-gcm", proto="TLS1.3", mac="aead", kx="any"):
    return Suite(iana, proto, kx, cipher, mac, iana, iana)


AES128 = _suite("TLS_AES_128_GCM_SHA256")
AES256 = _suite("TLS_AES_256_GCM_SHA384", "aes-256-gcm")
CHACHA = _suite("TLS_CHACHA20_POLY1305_SHA256", "chacha20-poly1305")
RC4 = _suite("TLS_RSA_WITH_RC4_128_MD5", "rc4", "TLS1.2", "hmac-md5", "RSA")


class _Progress:
    total = 1

    def working(self, text):
        pass

    def done(self, text, n=1):
        pass


class _Rec:
    """What the runner needs of a ``Recording``."""

    def __init__(self):
        self.progress = _Progress()
        self.added: list[Result] = []
        self.warnings = []

    def add(self, r):
        self.added.append(r)

    def warn(self, ws):
        self.warnings.extend(ws)


class FakeCore:
    """Stands in for ``cipherbench-core tls --suites S``: a write of suite S takes
    ``cost[S] * size`` ns times the load of the moment (one factor per round, drawn at random,
    moving every process of the round alike); RC4 is refused."""

    def __init__(self, cost, per_round, loads=(1.0, 1.0, 1.5, 2.5, 4.0), seed=2):
        self.cost, self.per_round, self.loads = cost, per_round, loads
        self.rng = random.Random(seed)
        self.calls: list[str] = []
        self.load = 1.0

    def __call__(self, args):
        suite = args[args.index("--suites") + 1]
        sizes = [int(x) for x in args[args.index("--sizes") + 1].split(",")]
        if len(self.calls) % self.per_round == 0:
            self.load = self.rng.choice(self.loads)
        self.calls.append(suite)
        if suite == RC4.iana:
            return _Stream([CoreError("openssl", suite, "transfer", "refused", "no cipher match",
                                      raw={"reason": "refused", "size": None})])
        recs = []
        for size in sizes:
            ns = self.cost[suite] * size * self.load
            recs.append(Point("point", "openssl", suite, "transfer", size, 10,
                              tuple([ns * 10] * 5), tuple([ns * 10] * 5),
                              raw={"proto": "TLS1.3", "suite": suite}))
        return _Stream(recs)


class _Stream:
    def __init__(self, recs):
        self.recs = recs

    def __enter__(self):
        return iter(self.recs)

    def __exit__(self, *exc):
        return False


def _lib_rounds(cost, suites, *, n_rounds=12, seed=5, budget_s=1e9, precision=0.0,
                loads=(1.0, 1.0, 1.5, 2.5, 4.0)):
    rec = _Rec()
    plan = Plan(libs=("openssl",), suites=tuple(suites), sizes=(1400, 16384),
                precision=precision)
    runner = TlsRunner(core=None, rec=rec, plan=plan)
    fake = FakeCore(cost, len(suites), loads)
    runner._stream = fake
    out = interleaved.run_lib(runner, "openssl", suites, AES256, n_rounds, random.Random(seed),
                              budget_s=budget_s, clock=lambda: 0.0)
    return out, rec, fake


def test_every_round_starts_every_suite_once_in_a_new_order():
    suites = [AES128, AES256, CHACHA]
    out, _, fake = _lib_rounds({s.iana: 1.0 for s in suites}, suites)
    orders = [tuple(r.order) for r in out.done]
    assert len(orders) == 12 and all(sorted(o) == sorted(s.iana for s in suites)
                                     for o in orders)
    assert len(set(orders)) > 3
    assert fake.calls == [s for o in orders for s in o]   # one process per suite and round
    again, _, _ = _lib_rounds({s.iana: 1.0 for s in suites}, suites)
    assert [tuple(r.order) for r in again.done] == orders


def test_paired_verdicts_against_the_default_suite_see_through_the_load():
    suites = [AES128, AES256, CHACHA]
    # AES-128 8% faster than the default, ChaCha20 the same; the load moves rounds by 4x
    out, rec, _ = _lib_rounds({AES128.iana: 0.92, AES256.iana: 1.0, CHACHA.iana: 1.0}, suites)
    rows = tables.suite_rows(rec.added)["openssl"]
    by = {r.iana: r for r in rows}
    assert by[AES256.iana].is_default and not by[AES256.iana].versus
    assert by[AES128.iana].versus[16384].state == V.FASTER
    assert by[AES128.iana].versus[16384].ratio == pytest.approx(1 / 0.92)
    assert by[CHACHA.iana].versus[16384].state == V.CANNOT_TELL
    stored = next(r for r in rec.added if r.algo == AES128.iana and r.size == 16384)
    assert stored.extra["rounds"] == 12 and len(stored.extra["rounds_at"]) == 12
    assert stored.extra["default_suite"] == AES256.iana


def test_a_suite_entered_twice_cannot_be_told_apart():
    twin = _suite(AES256.iana + "_TWIN", "aes-256-gcm")
    suites = [AES256, twin]
    out, _, _ = _lib_rounds({AES256.iana: 1.0, twin.iana: 1.0}, suites)
    v = V.judge(interleaved.paired(out.figures(AES256.iana, 16384),
                                   out.figures(twin.iana, 16384)))
    assert v.state == V.CANNOT_TELL


def test_a_refused_suite_is_stored_at_once_and_leaves_the_rounds():
    suites = [AES256, RC4]
    out, rec, fake = _lib_rounds({AES256.iana: 1.0}, suites)
    assert fake.calls.count(RC4.iana) == 1
    refused = [r for r in rec.added if r.metric == "refused"]
    assert len(refused) == 1 and rec.added.index(refused[0]) == 0   # before the rounds' rows


def test_no_verdict_from_fewer_rounds_and_the_budget_stops_at_six():
    suites = [AES128, AES256]
    out, rec, _ = _lib_rounds({AES128.iana: 0.5, AES256.iana: 1.0}, suites, n_rounds=4)
    row = {r.iana: r for r in tables.suite_rows(rec.added)["openssl"]}[AES128.iana]
    assert "a verdict needs 6" in row.versus[16384].text()
    out, _, _ = _lib_rounds({AES128.iana: 0.5, AES256.iana: 1.0}, suites, budget_s=0.0)
    assert len(out.done) == V.MIN_ROUNDS


def test_a_missed_precision_is_said_not_loosened():
    suites = [AES128, AES256]
    _, rec, _ = _lib_rounds({AES128.iana: 0.9, AES256.iana: 1.0}, suites, precision=0.001)
    assert rec.warnings and all("not the asked +-0.1%" in w.text for w in rec.warnings)
    quiet, rec2, _ = _lib_rounds({AES128.iana: 0.9, AES256.iana: 1.0}, suites,
                                 precision=0.01, loads=(1.0,))
    assert len(quiet.done) == 8 and not rec2.warnings   # the first planned look


def _view(results, width):
    out = io.StringIO()

    class _Screen:
        console = Console(file=out, width=width, force_terminal=False)
        err_console = console

    tls.view(_Screen(), Run(1, "tls", "2026-01-01T00:00:00", None, "complete", {}, {}, "0"),
             results, [], libraries={"openssl": {"version": "OpenSSL 3.0.15 3 Sep 2024"}})
    return out.getvalue()


@pytest.mark.parametrize("width", [80, 100])
def test_the_suite_table_with_verdicts_fits_narrow_terminals(width):
    _, rec, _ = _lib_rounds({AES128.iana: 0.92, AES256.iana: 1.0, CHACHA.iana: 1.0},
                            [AES128, AES256, CHACHA, RC4])
    text = _view(rec.added, width)
    assert all(len(line) <= width and "…" not in line for line in text.splitlines())
    words = " ".join(text.split())
    # a verdict cell may wrap at a space, beside the wrapped cells of its row
    assert {"faster", "cannot", "tell", "here", "(within", "1%)", "default:", "reference",
            "vs", "(16", "KiB)"} <= set(words.split())


def test_export_carries_the_verdicts_and_follows_the_schema(tmp_path):
    _, rec, _ = _lib_rounds({AES128.iana: 0.92, AES256.iana: 1.0}, [AES128, AES256])
    with Store.open(str(tmp_path / "r.sqlite")) as store:
        run_id = store.begin_run("tls", {"rounds": 12, "seed": 5}, {})
        for r in rec.added:
            store.add_result(run_id, r)
        store.finish_run(run_id, "complete")
        from cipherbench.export import EXPORTERS, RunBundle
        doc = json.loads(EXPORTERS["json"].render(RunBundle.load(store, run_id)))
    jsonschema.validate(doc, SCHEMA)
    s = next(x for x in doc["suites"] if x["iana"] == AES128.iana)
    assert s["vs_default"]["16384"]["verdict"] == "faster"
    assert s["vs_default"]["16384"]["rounds"] == 12 and s["loopback_vs_default"] is None


def test_cli_real_core_and_openssl_in_rounds(cli, env, tmp_path):
    from conftest import real_core
    core = real_core()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    e = dict(env, CIPHERBENCH_CORE=str(core), TMPDIR=str(tmp))
    use_loopback = shutil.which("openssl") is not None
    out = cli("tls", "--lib", "openssl", "--suites", "TLS_CHACHA20_POLY1305_SHA256",
              "--sizes", "16384", "--rounds", "6", "--seed", "9", "--budget", "0",
              "--loopback-size", "1M", *(["--loopback"] if use_loopback else []), "--json",
              env_override=e)
    assert out.rc == 0, out.err
    doc = out.json()
    jsonschema.validate(doc, SCHEMA)
    assert doc["run"]["args"]["rounds"] == 6 and doc["run"]["args"]["seed"] == 9
    by = {s["iana"]: s for s in doc["suites"]}
    assert by["TLS_AES_256_GCM_SHA384"]["is_default"]      # the default joined the rounds
    cha = by["TLS_CHACHA20_POLY1305_SHA256"]
    assert cha["vs_default"]["16384"]["rounds"] == 6
    if use_loopback:
        assert cha["loopback_vs_default"]["rounds"] == 6
    shown = cli("show", "last", env_override=e)
    assert shown.rc == 0 and "vs default (16 KiB)" in " ".join(shown.out.split())
    assert list(tmp.iterdir()) == []          # the certificate's directory is gone
