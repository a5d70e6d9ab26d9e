# SPDX-License-Identifier: GPL-3.0-or-later
"""The answer says only what its evidence shows (the cases seen as users): no claim without
evidence, a lower evidence layer never overriding a higher one, the newest run of the deciding
layer deciding, evidence for --host only from that host, headlines that work alone, and the
same conclusion from runs whose verdicts agree. Stored fixtures, nothing timed."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from advise_fixtures import (
    AES_CPU,
    GPG,
    LOAD,
    SSH_AES,
    add_gpg,
    add_primitive,
    add_ssh,
    add_ssh_rounds,
    add_tls,
    steady,
)

import cipherbench
from cipherbench.advise import engine, facts
from cipherbench.store import Store

FLAGS = ["aes", "pclmulqdq"]
GCM, CHACHA, BASE = "aes128-gcm@openssh.com", "chacha20-poly1305@openssh.com", "cleartext-tcp"
SCHEMA_DOC = json.loads((Path(cipherbench.__file__).parent / "export" /
                         "advise.schema.json").read_text())
#: what the record layer of OpenSSL measured (MB/s at 16 KiB writes; RSA-certificate suites)
TLS_RUN = {"TLS_AES_128_GCM_SHA256": 1260, "TLS_AES_256_GCM_SHA384": 1100,
           "TLS_CHACHA20_POLY1305_SHA256": 900,
           "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": 1250,
           "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384": 1090,
           "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256": 880}


#: the readings themselves, before the fixture below replaces them
READ_TLS_ORDER = facts.tls_suite_order


@pytest.fixture(autouse=True)
def tools(monkeypatch):
    """The tools' defaults as they read on a Debian 12 machine, whatever this one has."""
    monkeypatch.setattr(engine, "ssh_client_default", lambda *a, **k: CHACHA)
    monkeypatch.setattr(engine, "gpg_default",
                        lambda env: facts.ToolDefault("AES256", "a probe encryption"))
    monkeypatch.setattr(facts, "tls_suite_order", lambda lib, env=None: (
        ["TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_GCM_SHA256",
         "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384"],
        "`openssl ciphers -s`"))


def advise(cli, *args, rc=0):
    out = cli("advise", "--no-measure", "--json", *args)
    assert out.rc == rc, (out.rc, out.err)
    doc = out.json()
    jsonschema.validate(doc, SCHEMA_DOC)
    return doc


def target(doc, name):
    return next(t for t in doc["targets"] if t["target"] == name)


def cand(t, key):
    return next(c for c in t["candidates"] if c["choice"] == key)


# -- 1. claims with no evidence ------------------------------------------------------------------
@pytest.mark.real
def test_nothing_measured_recommends_nothing_and_claims_no_default(cli):
    doc = advise(cli, "--for", "gpg", rc=3)
    t = target(doc, "gpg")
    assert doc["exit"] == 3
    assert t["verdict"]["state"] == "not measured" and t["recommendation"] is None
    assert t["answer"].startswith("For gpg: not measured, so nothing is recommended; run "
                                  "`cipherbench gpg` to measure it.")
    for claim in ("already the default", "use gpg", "fastest"):
        assert claim not in t["answer"]
    assert t["config"] == [] and t["figures"] == ""
    text = cli("advise", "--no-measure", "--for", "gpg")
    assert text.rc == 3 and "not measured" in text.out and "already the default" not in text.out


@pytest.mark.real
def test_gpgs_default_is_the_one_gpg_itself_chose(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = add_gpg(s, GPG, FLAGS, default="AES256")
    t = target(advise(cli, "--for", "gpg"), "gpg")
    # gpg -c writes AES256 (cipher 9): AES is not the default, and is said to be faster
    assert cand(t, "AES256")["default"] and not cand(t, "AES")["default"]
    assert t["verdict"]["default"] == "gpg --cipher-algo AES256"
    assert f"run {run}'s probe encryption" in t["verdict"]["default_read_from"]
    assert t["answer"].startswith("For gpg, use gpg --cipher-algo AES. It is measurably faster "
                                  "than the default (gpg --cipher-algo AES256).")
    assert "already the default" not in json.dumps(t)


# -- 2. a lower layer never overrides a higher one -------------------------------------------------
@pytest.mark.real
def test_a_newer_primitive_run_does_not_replace_the_tls_record_layer(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        tls = add_tls(s, TLS_RUN, FLAGS)                        # stored without capabilities
        prim = add_primitive(s, AES_CPU, FLAGS, meta={
            "libraries": {"openssl": {"version": "3.0.19", "caps": ["aes", "pclmul"]}},
            "core_version": "0.9.0"})
    for name in ("nginx", "tls-server", "stunnel"):
        t = target(advise(cli, "--for", name), name)
        rec = t["recommendation"]
        assert rec["rate"]["source"] == "tls" and rec["rate"]["bytes_per_s"] == 1260e6, name
        assert t["verdict"]["layer"] == "tls:openssl" and t["verdict"]["runs"] == [tls], name
        assert t["decided_by"].startswith(f"Decided by the openssl TLS record layer, run {tls}")
        assert not any("no stored TLS record-layer results" in n for n in t["notes"])
        assert not any(f"run {tls} (" in n for n in t["notes"]), t["notes"]
        # what the TLS run did not measure shows its primitive, below and unranked
        ccm = cand(t, "TLS_AES_128_CCM_SHA256")
        assert ccm["rate"]["layer"] == "primitive:openssl" and ccm["rank"] is None
        assert prim in ccm["rate"]["runs"]


# -- 3. the newest run of the deciding layer decides ---------------------------------------------
@pytest.mark.real
def test_the_newer_pipe_run_decides_ssh_over_an_older_scp_run_that_covers_more(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        scp = add_ssh(s, dict(SSH_AES, **{GCM: 600, CHACHA: 610}), FLAGS, via="scp")
        pipe = add_ssh_rounds(s, {GCM: steady(980, LOAD), CHACHA: steady(610, LOAD),
                                  BASE: steady(3000, LOAD)}, FLAGS)
    t = target(advise(cli, "--for", "ssh"), "ssh")
    assert t["recommendation"]["rate"]["runs"] == [pipe]
    assert t["recommendation"]["choice"] == GCM
    assert t["verdict"]["layer"] == "ssh:pipe" and t["verdict"]["runs"] == [pipe]
    assert t["decided_by"].startswith(f"Decided by ssh through its own pipe, run {pipe}")
    # the scp run is another real path: below the pipe run, never ranked against it
    other = cand(t, "aes256-gcm@openssh.com")
    assert other["rate"]["layer"] == "ssh:scp" and other["rank"] is None
    assert scp in other["rate"]["runs"]
    # --via scp asks for the scp path: then that run decides
    t = target(advise(cli, "--for", "ssh", "--via", "scp"), "ssh")
    assert t["verdict"]["layer"] == "ssh:scp" and t["verdict"]["runs"] == [scp]
    assert f"newer run {pipe} not used: did not move bytes through scp" in t["decided_by"]


# -- 5. a host never reached -------------------------------------------------------------------
@pytest.mark.real
def test_an_unreachable_host_is_one_line_and_a_failure(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, AES_CPU, FLAGS)                        # this machine's, not the host's
    host = "nosuch-host.invalid"
    e = dict(env, HOME=env["HOME"])
    out = cli("advise", "--for", "ssh", "--host", host, env_override=e)
    assert out.rc == 1, out.out
    lines = out.err.strip().splitlines()
    assert lines[-1].startswith(f"cipherbench: error: --host {host}: not measured")
    assert "Traceback" not in out.err and "For ssh" not in out.out
    # nothing measured of it, nothing stored of it: without measuring, not measured either
    t = target(advise(cli, "--for", "ssh", "--host", host, rc=3), "ssh")
    assert t["evidence_runs"] == [] and t["recommendation"] is None
    # nor any other target: this machine's TLS, gpg or primitives never stand for the host
    doc = advise(cli, "--for", "all", "--host", host, rc=3)
    assert all(x["recommendation"] is None for x in doc["targets"])
    t = target(doc, "tls-server")
    assert f"run `cipherbench run --host {host}` to measure it" in t["answer"]


@pytest.mark.real
def test_the_hosts_own_primitives_answer_for_it(cli, env):
    from advise_fixtures import NO_AES_CPU
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        here = add_primitive(s, AES_CPU, FLAGS)
        nas = add_primitive(s, NO_AES_CPU, ["ssse3"], meta={"host": "me@nas",
                                                           "hostname": "nas"})
    t = target(advise(cli, "--for", "tls-server", "--host", "nas"), "tls-server")
    assert t["recommendation"]["choice"] == "TLS_CHACHA20_POLY1305_SHA256"
    assert t["evidence_runs"] == [nas] and here not in t["evidence_runs"]
    assert t["decided_by"].startswith("Decided by openssl's primitives measured on nas")


# -- 6. a headline usable alone ----------------------------------------------------------------
@pytest.mark.real
def test_the_tls12_headline_names_the_suite_measured_for_an_rsa_certificate(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_tls(s, TLS_RUN, FLAGS)
    for name in ("nzbget",):
        t = target(advise(cli, "--for", name, "--lib", "openssl"), name)
        rec = t["recommendation"]
        assert rec["choice"] == "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", rec
        assert rec["rate"]["layer"] == "tls:openssl"
        assert t["answer"].startswith(f"For {name}, use ECDHE-RSA-AES128-GCM-SHA256.")
        assert "It is the TLS 1.2 suite for a server with an RSA certificate; the config " \
            "line lists its ECDSA twin too." in t["answer"]
        line = next(c["text"] for c in t["config"] if "ECDHE-RSA-AES128-GCM-SHA256" in c["text"])
        assert "ECDHE-ECDSA-AES128-GCM-SHA256" in line
        # the ECDSA twin was not measured: its rate is the twin's, in a lower layer
        twin = cand(t, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256")
        assert twin["rate"]["layer"] == "tls-twin:openssl" and twin["rank"] is None


# -- 7. the same verdicts, the same conclusion ---------------------------------------------------
def _tls_answer(cli, env, rates: dict) -> dict:
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = add_tls(s, rates, FLAGS)
    t = target(advise(cli, "--for", "tls-server"), "tls-server")
    assert t["recommendation"]["rate"]["runs"] == [run]
    return t


@pytest.mark.real
def test_two_runs_whose_verdicts_agree_print_the_same_conclusion(cli, env):
    # 5% apart, then 18% apart: both "faster than the default", with other figures
    a = _tls_answer(cli, env, {"TLS_AES_128_GCM_SHA256": 1155, "TLS_AES_256_GCM_SHA384": 1100,
                               "TLS_CHACHA20_POLY1305_SHA256": 1080})
    b = _tls_answer(cli, env, {"TLS_AES_128_GCM_SHA256": 1300, "TLS_AES_256_GCM_SHA384": 1100,
                               "TLS_CHACHA20_POLY1305_SHA256": 700})
    assert a["bottleneck"] == b["bottleneck"]
    assert a["verdict"]["state"] == b["verdict"]["state"] == "use"
    assert a["answer"] == b["answer"] == (
        "For tls-server, use TLS_AES_128_GCM_SHA256. It is measurably faster than the default "
        "(TLS_AES_256_GCM_SHA384).")
    assert a["bottleneck"] == b["bottleneck"]
    assert a["figures"] != b["figures"]          # the numbers live on their own line
    # inside the noise the verdict differs, and so does the sentence: the default is kept
    c = _tls_answer(cli, env, {"TLS_AES_128_GCM_SHA256": 1105, "TLS_AES_256_GCM_SHA384": 1100,
                               "TLS_CHACHA20_POLY1305_SHA256": 700})
    assert c["answer"].startswith("For tls-server, keep the default, TLS_AES_256_GCM_SHA384.")
    # and the config line puts the kept default first, as the answer says
    suites = next(x["text"] for x in c["config"] if "TLS_AES_128_GCM_SHA256" in x["text"])
    assert suites.index("TLS_AES_256_GCM_SHA384") < suites.index("TLS_AES_128_GCM_SHA256")


def test_the_conclusion_is_a_function_of_the_verdict_alone():
    from cipherbench.advise import verdicts as A
    from cipherbench.advise import wording as W
    from cipherbench.advise.evidence import Rate
    from cipherbench.analysis import verdict as V

    def v(ratio, bps):
        return A.AnswerVerdict(
            "ssh", A.USE, A.FASTER, GCM, CHACHA, "`ssh -G`",
            versus=A.Comparison(V.Verdict(V.FASTER, ratio, ratio - 0.1, ratio + 0.1, 12),
                                "paired rounds of run 4"),
            choice_rate=Rate(bps, "ssh", (4,), ""), policy="modern")
    one, two = v(1.2, 900e6), v(1.6, 1200e6)
    assert W.answer(one) == W.answer(two)
    assert W.figures(one) != W.figures(two)


# -- advise --for all: one summary table at the end, notes of the whole invocation once ---------
@pytest.mark.real
def test_for_all_ends_with_one_summary_table_and_says_shared_notes_once(cli, env):
    from advise_fixtures import fill
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        other = add_primitive(s, AES_CPU, FLAGS, meta={"hostname": "nas", "cpu_model": "ARM"})
    fill(env["CIPHERBENCH_DB"], "aes")
    e = dict(env, COLUMNS="100")
    out = cli("advise", "--no-measure", "--for", "all", env_override=e)
    assert out.rc == 0, out.err
    lines = out.out.rstrip().splitlines()
    assert lines[-1].startswith("stored as run ")
    head = next(i for i, ln in enumerate(lines) if "against the default" in ln)
    assert "target" in lines[head] and "use" in lines[head] and "bottleneck" in lines[head]
    table = "\n".join(lines[head:])
    from cipherbench.advise.targets import ALL
    for name in ALL:
        assert any(ln.startswith(name + " ") for ln in lines[head:]), name
    assert "aes128-gcm@openssh.com" in table
    # the details are behind --details; the left-out run is named once, for every target
    assert "config (each line checked" not in out.out
    assert out.out.count(f"run {other} (another machine") == 1
    assert "--details" in out.out and len(lines) < 40
    detailed = cli("advise", "--no-measure", "--for", "all", "--details", env_override=e)
    assert detailed.out.count("config (each line checked") >= 5
    assert detailed.out.count(f"run {other} (another machine") == 1
    tail = detailed.out.rstrip().splitlines()
    assert any("against the default" in ln for ln in tail[-(len(ALL) + 12):])
    doc = advise(cli, "--for", "all")
    assert [r["target"] for r in doc["summary"]] == list(ALL)
    assert next(r for r in doc["summary"] if r["target"] == "ssh")["use"] == GCM


def test_a_tls_run_stores_the_capabilities_its_library_lists():
    """TLS runs store the CPU capabilities the core lists for the same library and version,
    so coherence sees the same library the primitive runs measured."""
    from types import SimpleNamespace

    from cipherbench.scenarios.tls.scenario import with_capabilities
    listed = {"openssl": {"lib": "openssl", "version": "OpenSSL 3.0.19", "caps": ["aes_hw"],
                          "provider": "aesni", "hw_used": ["aes"]},
              "gnutls": {"lib": "gnutls", "version": "GnuTLS 3.7.8", "caps": ["aes_hw"]}}
    core = SimpleNamespace(list=lambda lib: SimpleNamespace(libraries={lib: listed[lib]}))
    tls = {"openssl": {"lib": "openssl", "version": "OpenSSL 3.0.19", "caps": None},
           "gnutls": {"lib": "gnutls", "version": "GnuTLS 3.7.9", "caps": None}}
    got = with_capabilities(core, tls, ["openssl", "gnutls"])
    assert got["openssl"]["caps"] == ["aes_hw"] and got["openssl"]["provider"] == "aesni"
    assert got["gnutls"]["caps"] is None          # another version: nothing claimed


# -- facts read from the tools -------------------------------------------------------------------
def test_gpgs_cipher_is_read_from_the_packets_it_wrote():
    listing = (b"# off=0 ctb=8c tag=3 hlen=2 plen=13\n"
               b":symkey enc packet: version 4, cipher 9, aead 0, s2k 3, hash 2\n")
    assert facts.gpg_cipher_of_packets(listing) == "AES256"
    assert facts.gpg_cipher_of_packets(listing.replace(b"cipher 9", b"cipher 7")) == "AES"
    assert facts.gpg_cipher_of_packets(b"gpg: no valid OpenPGP data found.\n") is None


@pytest.mark.real
def test_an_unreadable_tool_leaves_the_default_unknown(cli, env, monkeypatch):
    # ssh cannot be asked: the answer names the fastest choice and says the default is unknown
    monkeypatch.setattr(engine, "ssh_client_default", lambda *a, **k: None)
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, AES_CPU, FLAGS)
    t = target(advise(cli, "--for", "ssh"), "ssh")
    assert t["verdict"]["against_default"] == "default not read"
    assert not any(c["default"] for c in t["candidates"])
    assert "whether it is already the default is not said" in t["answer"]
    assert "`ssh -G` could not be read" in t["answer"]


def test_tls_default_order_is_read_from_the_library(monkeypatch):
    from subprocess import CompletedProcess
    monkeypatch.setattr(facts, "_run", lambda args, env=None, data=None: CompletedProcess(
        args, 0, b"Cipher suites for NORMAL\nTLS_AES_256_GCM_SHA384  \t0x13, 0x02\tTLS1.3\n"
                 b"TLS_CHACHA20_POLY1305_SHA256\t0x13, 0x03\tTLS1.3\n", b""))
    names, how = READ_TLS_ORDER("gnutls")
    assert names == ["TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"]
    assert how == "`gnutls-cli --priority NORMAL --list`"
    monkeypatch.setattr(facts, "_run", lambda args, env=None, data=None: CompletedProcess(
        args, 0, b"Usage: cryptsetup [OPTION...] <action>\nDefault compiled-in device cipher "
                 b"parameters:\n\tplain: aes-cbc-essiv:sha256, Key: 256 bits\n\tLUKS: "
                 b"aes-xts-plain64, Key: 512 bits, LUKS header hashing: sha256\n", b""))
    assert facts.luks_default().name == "aes-xts-plain64:512"


@pytest.mark.real
def test_a_tls13_program_is_answered_with_a_tls13_suite(cli, env):
    # the TLS 1.2 suite measured faster than the TLS 1.3 default is not the answer for a
    # program that speaks TLS 1.3: its peers negotiate 1.3; the 1.2 list is in its config
    rates = {**TLS_RUN, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": 1600,
             "TLS_AES_128_GCM_SHA256": 1105}
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_tls(s, rates, FLAGS)
    t = target(advise(cli, "--for", "nginx"), "nginx")
    assert t["answer"].startswith("For nginx, keep the default, TLS_AES_256_GCM_SHA384.")
    line = next(c["text"] for c in t["config"] if c["text"].startswith("ssl_ciphers "))
    assert line.split()[1].startswith("ECDHE-RSA-AES128-GCM-SHA256:")
