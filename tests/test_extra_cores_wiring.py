# SPDX-License-Identifier: GPL-3.0-or-later
"""The front end with more than one core: the Go core's libraries beside the C core's in
``list``, ``run``, ``show`` and ``export``; a missing extra core is absent, a broken one is one
warning line. The recorded Go core (tests/fake_core/cipherbench-core-go, replaying
recordings/go/ made by core-go) stands in for it; one test runs the real Go core and is
skipped, with the reason, when it was not built."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cipherbench.cores import combined
from cipherbench.store import Store
from conftest import FAKE_CORE, real_core

FAKE_GO = FAKE_CORE.parent / "cipherbench-core-go"
ROOT = Path(__file__).resolve().parents[1]
REAL_GO = Path(os.environ.get("CIPHERBENCH_CORE_GO") or ROOT / "build-extra" / "cipherbench-core-go")
PAIR = ["--lib", "go,openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384", "--budget", "0"]


@pytest.fixture
def go_env(env) -> dict:
    return dict(env, CIPHERBENCH_CORE_GO=str(FAKE_GO))


def results(env):
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        return run, s.results(run.id)


def header(out: str) -> str:
    return next(l for l in out.splitlines() if "algorithm" in l and "op" in l)


def test_run_shows_the_go_column_beside_openssl(cli, go_env, tmp_path):
    log = tmp_path / "calls"
    # one library after another: one bench process per library, asked the same
    r = cli("run", *PAIR, "--rounds", "off", env_override=dict(go_env, FAKE_CORE_LOG=str(log),
                                                           FAKE_CORE_SERVE=""))
    assert r.rc == 0, r.err
    assert "go" in header(r.out).split() and "openssl" in header(r.out).split()
    run, res = results(go_env)
    assert run.status == "complete"
    pts = {(x.lib, x.size) for x in res if x.metric == "ns_per_op" and x.algo == "aes-128-gcm"}
    assert pts == {("go", 1024), ("go", 16384), ("openssl", 1024), ("openssl", 16384)}
    assert run.metadata["libraries"]["go"]["version"].startswith("Go go1.")
    # one bench process per library, each asked with the same arguments but its --lib
    benches = [l.split() for l in log.read_text().splitlines() if l.startswith("bench")]
    by_lib = {b[b.index("--lib") + 1]: b for b in benches if "aes-128-gcm" in b}
    assert set(by_lib) == {"go", "openssl"}
    strip = lambda b: [x for x in b if x not in ("go", "openssl")]
    assert strip(by_lib["go"]) == strip(by_lib["openssl"])
    # and the stored run reads back the same way
    shown = cli("show", "last", env_override=go_env)
    assert shown.rc == 0 and "go" in header(shown.out).split()
    doc = cli("export", "last", "--format", "json", env_override=go_env)
    assert doc.rc == 0, doc.err
    assert {"go", "openssl"} <= {x["lib"] for x in json.loads(doc.out)["results"]}


def test_list_names_each_core_and_its_libraries(cli, go_env):
    r = cli("list", "--json", env_override=go_env)
    assert r.rc == 0, r.err
    doc = r.json()
    assert "go" in [l["lib"] for l in doc["libraries"]]
    by_core = {c["core"]: c for c in doc["cores"]}
    assert by_core["cipherbench-core-go"] == {"core": "cipherbench-core-go", "path": str(FAKE_GO),
                                              "libs": ["go"], "problem": None}
    assert "go" not in by_core["cipherbench-core"]["libs"]
    assert "scripts/build-extra-cores.sh" in by_core["cipherbench-core-rust"]["problem"]
    assert by_core["cipherbench-core-rust"]["path"] is None
    text = cli("list", env_override=go_env).out
    assert "measured by" in text and str(FAKE_GO) in text


def test_list_missing_says_the_go_core_does_not_enumerate(cli, go_env):
    """The Go core has no ``list --offered``: its library is said not to enumerate, never
    reported as complete (the real C core answers for its own libraries)."""
    e = dict(go_env, CIPHERBENCH_CORE=str(real_core()))
    missing = cli("list", "--missing", "--json", "--lib", "go", env_override=e)
    assert missing.rc == 0, missing.err
    assert [(d["lib"], d["enumerates"], d["missing"]) for d in missing.json()["libraries"]] == \
        [("go", False, [])]


def test_reference_rows_come_from_the_c_core_only(go_env):
    inv = combined.Cores.find(go_env).list()
    assert [a.algo for a in inv.rows("ref")] == ["memcpy", "null"]
    assert inv.preamble["compiler"].startswith("gcc")   # the C core's preamble
    assert {a.lib for a in inv.algorithms if a.algo == "aes-128-gcm"} >= {"go", "openssl"}


def test_missing_extra_core_is_simply_absent(cli, env, tmp_path, monkeypatch):
    # not set, not on PATH, not beside the script, not in the source tree: an install by pip
    monkeypatch.setattr(combined, "INSTALL_SCRIPTS", tmp_path / "bin")
    monkeypatch.setattr(combined, "SOURCE_TREE", tmp_path / "src")
    monkeypatch.setattr(combined.sys, "prefix", combined.sys.base_prefix)
    e = {k: v for k, v in env.items() if not k.startswith("CIPHERBENCH_CORE_")}
    assert all(combined.find_extra(spec, e) is None for spec in combined.EXTRA_CORES)
    r = cli("run", *PAIR, env_override=e)
    assert r.rc == 2 and "unknown library 'go'" in r.err and r.err.count("\n") == 1
    r = cli("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024",
            "--budget", "0", env_override=e)
    assert r.rc == 0 and "cipherbench: warning" not in r.err
    listing = cli("list", "--json", env_override=e).json()
    assert "go" not in [l["lib"] for l in listing["libraries"]]
    absent = [c for c in listing["cores"] if c["path"] is None]
    assert [c["core"] for c in absent] == ["cipherbench-core-go", "cipherbench-core-rust"]
    assert all("pip does not install it" in c["problem"] for c in absent)


def test_extra_core_variable_naming_nothing_is_one_warning(cli, env, tmp_path):
    e = dict(env, CIPHERBENCH_CORE_GO=str(tmp_path / "nope"))
    r = cli("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024",
            "--budget", "0", env_override=e)
    assert r.rc == 0, r.err
    warned = [l for l in r.err.splitlines() if l.startswith("cipherbench: warning:")]
    assert len(warned) == 1 and "CIPHERBENCH_CORE_GO" in warned[0]


def test_extra_core_crashing_on_list_is_one_warning_not_a_failed_run(cli, go_env):
    e = dict(go_env, FAKE_CORE_CRASH_LIST="cipherbench-core-go")
    r = cli("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384",
            "--budget", "0", "--hw-both", env_override=e)
    assert r.rc == 0, r.err
    warned = [l for l in r.err.splitlines() if "cipherbench-core-go" in l]
    assert len(warned) == 1 and "SIGSEGV" in warned[0] and "left out" in warned[0]
    assert "openssl" in header(r.out).split() and "go" not in header(r.out).split()
    listing = cli("list", "--json", env_override=e)
    assert listing.rc == 0
    go = next(c for c in listing.json()["cores"] if c["core"] == "cipherbench-core-go")
    assert go["libs"] == [] and "SIGSEGV" in go["problem"]


def test_go_core_crash_mid_bench_names_it_and_keeps_openssl(cli, go_env):
    # one library after another: the Go core serves no requests, so in rounds each batch is
    # a process of its own and the knob (points of one process) never fires
    r = cli("run", *PAIR, "--rounds", "off", env_override=dict(go_env, FAKE_CORE_CRASH="go:1"))
    assert r.rc == 1
    run, res = results(go_env)
    assert run.status == "interrupted"
    libs = {(x.lib, x.size) for x in res if x.metric == "ns_per_op" and x.lib != "ref"}
    assert libs == {("go", 1024), ("openssl", 1024), ("openssl", 16384)}
    assert "cipherbench-core-go killed by SIGSEGV" in r.out + r.err


def test_real_go_core_beside_openssl(cli, env):
    if not (REAL_GO.is_file() and os.access(REAL_GO, os.X_OK)):
        pytest.skip(f"{REAL_GO.name} not built (scripts/build-extra-cores.sh builds it when go "
                    "is installed)")
    e = dict(env, CIPHERBENCH_CORE=str(real_core()), CIPHERBENCH_CORE_GO=str(REAL_GO))
    if "openssl" not in [l for l in combined.Cores.find(e).list().libs()]:
        pytest.skip("this C core was built without OpenSSL")
    r = cli("run", "--lib", "go,openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384",
            "--quick", env_override=e)
    assert r.rc == 0, r.err
    cols = header(r.out).split()
    assert "go" in cols and "openssl" in cols
    run, res = results(e)
    assert run.status == "complete"
    go = {x.size: x for x in res if x.lib == "go" and x.metric == "ns_per_op"}
    assert set(go) == {1024, 16384}
    assert all(0 < p.ci_low <= p.median <= p.ci_high for p in go.values())
    assert go[1024].median < go[16384].median     # 16 times the bytes takes longer


def test_found_in_the_checkout_holding_the_virtual_environment(env, tmp_path, monkeypatch):
    """scripts/setup.sh installs cipherbench into the checkout's .venv and builds the extra
    cores into the checkout's build-extra/: .venv/bin/cipherbench finds them there."""
    monkeypatch.setattr(combined, "INSTALL_SCRIPTS", tmp_path / ".venv" / "bin")
    monkeypatch.setattr(combined, "SOURCE_TREE", tmp_path / "site-packages")
    monkeypatch.setattr(combined.sys, "prefix", str(tmp_path / ".venv"))
    (tmp_path / "build-extra").mkdir()
    go = tmp_path / "build-extra" / "cipherbench-core-go"
    go.symlink_to(FAKE_GO)
    e = {k: v for k, v in env.items() if not k.startswith("CIPHERBENCH_CORE_")}
    found = {spec.name: combined.find_extra(spec, e) for spec in combined.EXTRA_CORES}
    assert found == {"go": go, "rust": None}


REAL_RUST = Path(os.environ.get("CIPHERBENCH_CORE_RUST")
                 or ROOT / "build-extra" / "cipherbench-core-rust")


def real_tls_env(env) -> dict:
    """The real C, Go and Rust cores (skips when one is not built)."""
    for p in (REAL_GO, REAL_RUST):
        if not (p.is_file() and os.access(p, os.X_OK)):
            pytest.skip(f"{p.name} not built (scripts/build-extra-cores.sh builds it when its "
                        "toolchain is installed)")
    return dict(env, CIPHERBENCH_CORE=str(real_core()), CIPHERBENCH_CORE_GO=str(REAL_GO),
                CIPHERBENCH_CORE_RUST=str(REAL_RUST))


def test_tls_lists_and_routes_the_go_and_rustls_libraries(cli, env, tmp_path):
    """`cipherbench tls --lib go,rustls-ring` starts each library's own core (the Go core's
    and the Rust core's tls) and stores their rows like the C libraries'."""
    e = real_tls_env(env)
    listed = cli("tls", "--list-suites", env_override=e)
    assert listed.rc == 0, listed.err
    assert "go" in listed.out and "rustls-ring" in listed.out
    bad = cli("tls", "--lib", "rustls-nosuch", env_override=e)
    assert bad.rc == 2 and "rustls-ring" in bad.err and bad.err.count("\n") == 1
    r = cli("tls", "--lib", "go,rustls-ring", "--suites",
            "ECDHE-RSA-CHACHA20-POLY1305,TLS_AES_128_CCM_SHA256", "--sizes", "1400",
            "--budget", "0", "--no-loopback", env_override=e)
    assert r.rc == 0, r.err
    run, res = results(e)
    assert run.status == "complete"
    rows = {(x.lib, x.algo): x for x in res}
    chacha = "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"
    for lib in ("go", "rustls-ring"):
        x = rows[(lib, chacha)]
        assert x.metric == "bytes_per_s" and x.median > 0 and x.extra["proto"] == "TLS1.2"
        assert rows[(lib, "TLS_AES_128_CCM_SHA256")].metric == "refused"
    assert run.metadata["libraries"]["rustls-ring"]["version"].startswith("rustls ")
    assert run.metadata["libraries"]["go"]["version"].startswith("Go go1.")
    for lib in ("go", "rustls-ring"):
        assert f"{lib} (" in r.out     # a table per library, as for openssl and gnutls


def test_caddy_is_rated_by_a_stored_go_tls_result(cli, env):
    """A stored `cipherbench tls --lib go` result rates Caddy's suite by Go's own record
    layer, not by a primitive stand-in."""
    from cipherbench.store import Result
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.begin_run("tls", {"libs": ["go"]}, {"cpu_model": "Recorded CPU",
                                                    "cpu_flags": ["aes"], "hostname": "r"})
        for iana, mbs in (("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", 900),
                          ("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", 600)):
            s.add_result(run, Result("tls", "go", iana, "transfer", 16384, "bytes_per_s", "B/s",
                                     mbs * 1e6, mbs * 0.99e6, mbs * 1.01e6, 10, 0.01,
                                     extra={"iana": iana, "proto": "TLS1.2"}))
        s.finish_run(run, "complete")
    out = cli("advise", "--no-measure", "--json", "--for", "caddy")
    assert out.rc == 0, out.err
    t = next(x for x in out.json()["targets"] if x["target"] == "caddy")
    rated = {c["choice"]: c["rate"] for c in t["candidates"] if c["rate"]}
    chacha = rated["TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"]
    assert chacha["source"] == "tls" and chacha["detail"].startswith("go TLS record layer")
