# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench tls``: suite grades and names, the ranked table, and the command end to end
with the real core (skipped when it is not built) and the real openssl program."""
import os
import shutil
from pathlib import Path

import pytest

from cipherbench.cores import core_client
from cipherbench.scenarios.tls import loopback as lb
from cipherbench.scenarios.tls import tables
from cipherbench.scenarios.tls.suites import Suite, resolve
from cipherbench.store import Result, Store
from conftest import FAKE_CORE


def suite(iana, proto="TLS1.2", kx="ECDHE-RSA", cipher="aes-128-gcm", mac="aead",
          legacy=False):
    return Suite(iana, proto, kx, cipher, mac, iana.lower(), iana.upper(), legacy)


@pytest.mark.parametrize("s,level", [
    (suite("TLS_AES_128_GCM_SHA256", "TLS1.3", "any"), "recommended"),
    (suite("TLS_AES_128_CCM_8_SHA256", "TLS1.3", "any", "aes-128-ccm", "aead-8"), "acceptable"),
    (suite("E_GCM"), "recommended"),
    (suite("E_CBC", cipher="aes-128-cbc", mac="hmac-sha1"), "acceptable"),
    (suite("RSA_CAMELLIA", kx="RSA", cipher="camellia-128-cbc", mac="hmac-sha1"), "legacy"),
    (suite("E_3DES", cipher="3des-cbc", mac="hmac-sha1", legacy=True), "legacy"),
    (suite("RSA_RC4_MD5", kx="RSA", cipher="rc4", mac="hmac-md5", legacy=True), "broken"),
])
def test_a_suite_is_graded_by_its_weakest_part(s, level):
    assert s.grade.level == level
    assert s.grade.reason and s.grade.reference


def test_static_rsa_says_why():
    g = suite("R", kx="RSA", cipher="aes-128-gcm").grade
    assert "forward secrecy" in g.reason


def test_suites_resolve_by_any_name_and_by_group():
    known = [suite("TLS_AES_128_GCM_SHA256", "TLS1.3", "any"),
             suite("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
             suite("TLS_RSA_WITH_RC4_128_SHA", kx="RSA", cipher="rc4", mac="hmac-sha1",
                   legacy=True)]
    got, unknown = resolve(["tls_aes_128_gcm_sha256", "TLS_RSA_WITH_RC4_128_SHA".lower(),
                            "nope"], known)
    assert [s.iana for s in got] == ["TLS_AES_128_GCM_SHA256", "TLS_RSA_WITH_RC4_128_SHA"]
    assert unknown == ["nope"]
    assert [s.proto for s in resolve(["tls1.3"], known)[0]] == ["TLS1.3"]
    assert [s.iana for s in resolve(["legacy"], known)[0]] == ["TLS_RSA_WITH_RC4_128_SHA"]
    assert len(resolve(["all", "tls1.2"], known)[0]) == 3


def _r(lib, algo, size, metric, median, **extra):
    return Result("tls", lib, algo, "transfer", size, metric, "B/s", median, median, median,
                  extra=extra)


def test_rows_are_ranked_by_the_largest_write_with_refusals_last():
    results = [
        _r("openssl", "SLOW", 1400, "bytes_per_s", 900.0, grade="recommended"),
        _r("openssl", "SLOW", 16384, "bytes_per_s", 100.0, grade="recommended"),
        _r("openssl", "RC4", None, "refused", 0.0, message="no cipher match"),
        _r("openssl", "FAST", 1400, "bytes_per_s", 10.0, grade="recommended"),
        _r("openssl", "FAST", 16384, "bytes_per_s", 500.0, grade="recommended"),
        Result("tls", tables.LOOPBACK_LIB, "FAST", "loopback", 1 << 20, "bytes_per_s", "B/s",
               300.0),
        Result("tls", "gnutls", "x25519+rsa2048", "handshake", None, "per_s", "1/s", 1000.0),
        Result("tls", "gnutls", "x25519+rsa2048", "resume", None, "per_s", "1/s", 3000.0),
    ]
    rows = tables.suite_rows(results)
    assert [r.iana for r in rows["openssl"]] == ["FAST", "SLOW", "RC4"]
    assert rows["openssl"][0].loopback == 300.0
    header, cells = tables.format_suite_table(rows["openssl"], [1400, 16384], True)
    assert cells[0][0] == "1" and cells[2][0] == "-" and "no cipher match" in cells[2][6]
    (h,) = tables.handshake_rows(results)
    assert (h.group, h.cert, h.full, h.resumed) == ("x25519", "rsa2048", 1000.0, 3000.0)
    assert "FAST" in tables.answer(rows, [1400, 16384])[0]


def real_env(env):
    e = dict(os.environ)
    if Path(e.get("CIPHERBENCH_CORE", "")).resolve() == FAKE_CORE:
        e.pop("CIPHERBENCH_CORE")
    try:
        core = core_client.find_core(e)
    except core_client.CoreNotFound as err:
        pytest.skip(f"the real core is not built: {err}")
    recs = core_client.Core(core).run_lines(["tls", "--list"])
    libs = [r["lib"] for r in recs if r["type"] == "library"]
    if not {"openssl", "gnutls"} & set(libs):
        pytest.skip("the core has no TLS library")
    return dict(env, CIPHERBENCH_CORE=str(core)), libs


def _children_named(name):
    """Live processes whose parent is this one and whose command is ``name``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        if comm == name and int(fields[1]) == os.getpid() and fields[0] != "Z":
            found.append(stat.parent.name)
    return found


def test_cli_measures_stores_refuses_and_cleans_up(cli, env, tmp_path):
    e, libs = real_env(env)
    e["TMPDIR"] = str(tmp_path / "tmp")
    os.makedirs(e["TMPDIR"])
    lib_arg = ",".join(l for l in ("openssl", "gnutls") if l in libs)
    out = cli("tls", "--lib", lib_arg, "--suites", "TLS_AES_128_GCM_SHA256,RC4-SHA",
              "--sizes", "1400,16384", "--budget", "0", "--precision", "0.5",
              "--loopback", "--loopback-size", "1M", "--json", env_override=e)
    assert out.rc == 0, out.err
    data = out.json()
    ok = [s for s in data["suites"] if s["iana"] == "TLS_AES_128_GCM_SHA256"]
    assert {s["lib"] for s in ok} == set(lib_arg.split(","))
    for s in ok:
        assert s["grade"] == "recommended" and s["proto"] == "TLS1.3"
        assert s["openssl"] == "TLS_AES_128_GCM_SHA256" and s["gnutls"]
        assert set(s["bytes_per_s"]) == {"1400", "16384"}
        assert all(v > 0 for v in s["bytes_per_s"].values())
    rc4 = [s for s in data["suites"] if s["iana"] == "TLS_RSA_WITH_RC4_128_SHA"]
    assert rc4 and all(s["grade"] == "broken" for s in rc4)
    assert all(s["status"] == "refused" and s["message"] or s["bytes_per_s"] for s in rc4)
    with Store.open(env["CIPHERBENCH_DB"], create=False) as store:
        run = store.get_run("last")
        assert run.command == "tls" and run.status == "complete"
        res = store.results(run.id)
    assert res and all(r.scenario == "tls" for r in res)
    if "openssl" in libs and shutil.which("openssl"):
        loop = [r for r in res if r.lib == tables.LOOPBACK_LIB]
        assert loop and loop[0].algo == "TLS_AES_128_GCM_SHA256"
        assert loop[0].metric == "bytes_per_s" and loop[0].extra["verified"]
    # The private directory with the certificate is gone, and no s_server is left running.
    assert os.listdir(e["TMPDIR"]) == []
    assert _children_named("openssl") == []


def test_cli_table_lists_names_and_handshakes(cli, env):
    e, libs = real_env(env)
    lib = "gnutls" if "gnutls" in libs else "openssl"
    out = cli("tls", "--lib", lib, "--suites", "TLS_CHACHA20_POLY1305_SHA256", "--sizes",
              "1400", "--budget", "0", "--precision", "0.5", "--handshakes", "--no-loopback",
              env_override=e)
    assert out.rc == 0, out.err
    assert "TLS_CHACHA20_POLY1305_SHA256" in out.out and "recommended" in out.out
    assert "handshakes per second" in out.out
    for word in ("x25519", "p384", "x448", "ffdhe2048", "rsa3072", "ed25519"):
        assert word in out.out


def test_loopback_refusal_is_an_error_and_stops_the_server(tmp_path):
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl program not installed")
    bogus = Suite("TLS_NOT_A_SUITE", "TLS1.2", "RSA", "rc4", "hmac-sha1", "NOT-A-SUITE", "X")
    with lb.Loopback(openssl, 4096, dict(os.environ, TMPDIR=str(tmp_path))) as loop:
        where = loop.dir
        m = loop.measure(bogus, budget_s=0)
    assert m.error and m.bytes_per_s is None
    assert not where.exists()
    assert _children_named("openssl") == []


@pytest.mark.parametrize("args,text", [
    (["--lib", "nosuch"], "unknown TLS library"),
    (["--suites", "TLS_NOPE"], "unknown suite"),
    (["--sizes", "8"], "out of range"),
    (["--no-transfer"], "--handshakes"),
    (["--precision", "2"], "precision"),
])
def test_cli_usage_errors(cli, env, args, text):
    e, _ = real_env(env)
    out = cli("tls", *args, env_override=e)
    assert out.rc == 2
    assert text in out.err and len(out.err.strip().splitlines()) == 1


EXAMPLES = Path(__file__).resolve().parents[1] / "core" / "protocol" / "examples"


@pytest.mark.parametrize("name", ["tls.jsonl", "tls-refused.jsonl", "tls-list.jsonl"])
def test_golden_tls_streams_match_the_schema(name):
    import json
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((EXAMPLES.parent / "schema.json").read_text())
    v = jsonschema.Draft202012Validator(schema)
    recs = [json.loads(line) for line in (EXAMPLES / name).read_text().splitlines()]
    assert recs[0]["type"] == "preamble" and recs[0]["command"] == "tls"
    assert recs[-1]["type"] == "end"
    for r in recs:
        v.validate(r)
    # A record the schema must refuse: a transfer point with an unknown protocol.
    bad = next((dict(r, proto="SSL3") for r in recs if r["type"] == "point"), None)
    if bad:
        assert not v.is_valid(bad)


def test_golden_list_gives_every_suite_a_grade():
    import json
    from cipherbench.scenarios.tls.suites import parse_list
    recs = [json.loads(line) for line in (EXAMPLES / "tls-list.jsonl").read_text().splitlines()]
    suites = parse_list(recs)
    assert len(suites) >= 20
    grades = {s.iana: s.grade.level for s in suites}
    assert grades["TLS_AES_256_GCM_SHA384"] == "recommended"
    assert grades["TLS_RSA_WITH_3DES_EDE_CBC_SHA"] == "legacy"
    assert grades["TLS_ECDHE_RSA_WITH_RC4_128_SHA"] == "broken"


def test_cli_lists_suites_without_measuring(cli, env):
    e, _ = real_env(env)
    out = cli("tls", "--list-suites", env_override=e)
    assert out.rc == 0, out.err
    for text in ("TLS_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
                 "TLS_RSA_ARCFOUR_128_SHA1", "broken", "legacy"):
        assert text in out.out
