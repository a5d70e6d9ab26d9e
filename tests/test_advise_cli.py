# SPDX-License-Identifier: GPL-3.0-or-later
"""cipherbench advise on recorded results (nothing is timed: --no-measure)."""
from __future__ import annotations

import pytest

from advise_fixtures import add_primitive, fill, NO_AES_CPU
from cipherbench.store import Store

GOOD = ("recommended", "acceptable")


def advise(cli, *args):
    out = cli("advise", "--no-measure", "--json", *args)
    # 3: a target without evidence (it recommends nothing); the others answer
    assert out.rc in (0, 3), out.err
    assert out.rc == out.json()["exit"]
    return out.json()


def target(doc, name):
    return next(t for t in doc["targets"] if t["target"] == name)


@pytest.mark.real
def test_no_aes_cpu_recommends_chacha20_for_ssh_and_tls(cli, env):
    fill(env["CIPHERBENCH_DB"], "no-aes")
    doc = advise(cli, "--for", "all")
    assert target(doc, "ssh")["recommendation"]["choice"] == "chacha20-poly1305@openssh.com"
    for t in ("tls-server", "tls-client", "nginx", "stunnel"):
        assert target(doc, t)["recommendation"]["choice"] == "TLS_CHACHA20_POLY1305_SHA256", t
    # NZBGet's OpenSSL line is a TLS 1.2 list: its answer names the TLS 1.2 ChaCha20 suite
    nzb = target(doc, "nzbget")["recommendation"]["choice"]
    assert nzb.startswith("TLS_ECDHE_") and nzb.endswith("CHACHA20_POLY1305_SHA256"), nzb
    ssh_lines = [c["text"] for c in target(doc, "ssh")["config"]]
    assert any(ln.strip().startswith("Ciphers chacha20-poly1305@openssh.com") for ln in ssh_lines)


@pytest.mark.real
def test_aes_cpu_recommends_aes_gcm(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    doc = advise(cli, "--for", "all")
    assert target(doc, "ssh")["recommendation"]["choice"] == "aes128-gcm@openssh.com"
    assert target(doc, "tls-server")["recommendation"]["choice"] == "TLS_AES_128_GCM_SHA256"
    assert target(doc, "luks")["recommendation"]["choice"] == "aes-xts-plain64:256"
    # measured evidence is named by run id
    assert target(doc, "ssh")["evidence_runs"]
    # the TLS rates are primitives standing in, and the output says so
    decided = target(doc, "tls-server")["decided_by"]
    assert decided.startswith("Decided by openssl's primitives, run ")
    assert "nothing allowed measured by the openssl TLS record layer" in decided
    assert "`cipherbench tls --lib openssl` measures it" in decided
    # without a link, the bottleneck sentence compares with the ssh cleartext baseline
    assert "cleartext baseline" in target(doc, "ssh")["bottleneck"]


@pytest.mark.real
def test_assume_no_aes_estimates_from_an_aes_cpu(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    doc = advise(cli, "--for", "ssh", "--assume-no-aes")
    t = target(doc, "ssh")
    assert t["recommendation"]["choice"] == "chacha20-poly1305@openssh.com"
    assert any("estimate" in n for n in t["notes"])
    gcm = next(c for c in t["candidates"] if c["choice"] == "aes128-gcm@openssh.com")
    assert gcm["rate"]["estimated"] is True
    doc = advise(cli, "--for", "tls-server", "--assume-no-aes")
    assert target(doc, "tls-server")["recommendation"]["choice"] == \
        "TLS_CHACHA20_POLY1305_SHA256"


@pytest.mark.real
def test_assume_no_aes_uses_runs_with_aes_switched_off(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        off = add_primitive(s, NO_AES_CPU, ["aes", "pclmulqdq"],
                            meta={"hw_disabled": ["aes", "pclmul"]})
    doc = advise(cli, "--for", "tls-server", "--assume-no-aes")
    t = target(doc, "tls-server")
    assert t["recommendation"]["choice"] == "TLS_CHACHA20_POLY1305_SHA256"
    assert t["recommendation"]["rate"]["estimated"] is False
    assert off in t["evidence_runs"]
    # without the flag the switched-off run is not evidence for this machine
    doc = advise(cli, "--for", "tls-server")
    assert off not in target(doc, "tls-server")["evidence_runs"]
    assert target(doc, "tls-server")["recommendation"]["choice"] == "TLS_AES_128_GCM_SHA256"


@pytest.mark.real
@pytest.mark.parametrize("link", ["100Mbit", "100M", "12.5MB/s"])
def test_100_mbit_link_is_the_bottleneck(cli, env, link):
    fill(env["CIPHERBENCH_DB"], "aes")
    doc = advise(cli, "--for", "ssh", "--link", link)
    text = target(doc, "ssh")["bottleneck"]
    # the measured loopback path (3 GB/s) is wider than the link: the link caps it
    assert text.startswith("The link is the bottleneck, not the cipher")
    assert "100 Mbit/s link" in text or "12.5 MB/s link" in text


@pytest.mark.real
def test_slow_cpu_against_10gbit_link_says_crypto_is(cli, env):
    fill(env["CIPHERBENCH_DB"], "no-aes")
    doc = advise(cli, "--for", "ssh", "--link", "10Gbit")
    # the measured cleartext path (900 MB/s) is narrower than the link: it is the path, and
    # the fastest cipher reaches 27% of it
    text = target(doc, "ssh")["bottleneck"]
    assert text.startswith("Crypto is the bottleneck") and "27% of the cleartext baseline" in text


@pytest.mark.real
def test_no_link_says_how_the_choice_stands_against_the_default(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    t = target(advise(cli, "--for", "tls-server"), "tls-server")
    # the default read from OpenSSL itself (`openssl ciphers -s`)
    assert t["verdict"]["default_read_from"] == "`openssl ciphers -s`"
    assert "It is measurably faster than the default (TLS_AES_256_GCM_SHA384)." in t["answer"]
    assert "x the default's speed (95% CI " in t["figures"] and "; 95% intervals)" in t["figures"]
    # no path was measured beside the cipher: the bottleneck is not claimed
    assert t["bottleneck"].startswith("No path was measured beside the cipher")


@pytest.mark.real
def test_modern_never_recommends_legacy_or_broken_whatever_the_numbers(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        rigged = dict(NO_AES_CPU, rc4=90000, **{"3des-cbc": 80000, "hmac-md5": 90000,
                                                 "hmac-sha1": 90000})
        add_primitive(s, rigged, ["ssse3"])
    for policy in ("modern", "compat"):
        doc = advise(cli, "--for", "all", "--policy", policy)
        for t in doc["targets"]:
            rec = t["recommendation"]
            assert rec is None or rec["grade"] in GOOD, (policy, t["target"], rec)
            for c in t["candidates"]:
                if c["grade"] not in GOOD:
                    assert not c["allowed"], (policy, c)
            text = "\n".join(c["text"] for c in t["config"] if not c["text"].startswith("#"))
            for bad in ("RC4", "ARCFOUR", "3DES", "DES-CBC3", "arcfour", "3des", "MD5"):
                assert bad not in text, (policy, t["target"], bad)
    # the fast broken cipher is still shown, with its reason
    doc = advise(cli, "--for", "tls-server")
    rc4 = next(c for c in target(doc, "tls-server")["candidates"]
               if c["choice"] == "TLS_RSA_WITH_RC4_128_SHA")
    assert rc4["grade"] == "broken" and "RFC 7465" in rc4["grade_reference"]
    assert rc4["rank"] <= 2 and not rc4["allowed"]   # RC4-MD5 may be first
    # and the answer says the broken one would be faster, never that nothing old is faster
    also = " ".join(target(doc, "tls-server")["also"])
    assert "No legacy or broken choice is faster" not in also
    assert "faster" in also and ("not allowed" in also or "not recommended" in also)


@pytest.mark.real
def test_modern_transport_is_aead_only(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    doc = advise(cli, "--for", "ssh")
    allowed = [c for c in target(doc, "ssh")["candidates"] if c["allowed"]]
    assert allowed and all(c["aead"] for c in allowed)
    doc = advise(cli, "--for", "ssh", "--policy", "compat")
    assert any(not c["aead"] for c in target(doc, "ssh")["candidates"] if c["allowed"])


@pytest.mark.real
def test_legacy_policy_marks_the_legacy_choice(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, dict(NO_AES_CPU, **{"3des-cbc": 90000, "hmac-sha1": 90000}), ["ssse3"])
    # a TLS 1.2 list (NZBGet's): the legacy suite is the answer, marked; a TLS 1.3 server
    # is answered with its TLS 1.3 suite, the legacy one only in its TLS 1.2 line
    out = cli("advise", "--no-measure", "--for", "nzbget", "--policy", "legacy")
    assert out.rc == 0, out.err
    assert "use DES-CBC3-SHA" in out.out and "It is LEGACY" in out.out and "Sweet32" in out.out
    out = cli("advise", "--no-measure", "--json", "--for", "tls-server", "--policy", "legacy")
    t = out.json()["targets"][0]
    assert t["recommendation"]["choice"].startswith("TLS_") and "_WITH_" not in \
        t["recommendation"]["choice"]
    assert any("+3DES-CBC" in c["text"] for c in t["config"] if not c["text"].startswith("#"))


@pytest.mark.real
def test_table_answer_and_config_block(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    out = cli("advise", "--no-measure", "--for", "gpg", "--link", "1Gbit")
    assert out.rc == 0, out.err
    assert "For gpg, use" in out.out
    assert "personal-cipher-preferences" in out.out
    assert "stored as run" in out.out


@pytest.mark.real
def test_advice_is_stored_as_a_run(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    doc = advise(cli, "--for", "ssh")
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.get_run(doc["run"])
        assert run.command == "advise" and run.args["for"] == "ssh"
        rows = s.results(run.id, "advise")
    rec = [r for r in rows if r.op == "recommend"]
    assert len(rec) == 1 and rec[0].lib == "ssh"
    assert rec[0].algo == "aes128-gcm@openssh.com" and rec[0].extra["answer"]
    assert any(r.op == "candidate" for r in rows)


@pytest.mark.real
def test_nothing_stored_recommends_nothing_and_says_how_to_measure(cli, env):
    doc = advise(cli, "--for", "ssh")
    t = target(doc, "ssh")
    assert doc["exit"] == 3 and t["recommendation"] is None and t["config"] == []
    assert t["verdict"]["state"] == "not measured"
    assert t["answer"].startswith("For ssh: not measured, so nothing is recommended; run "
                                  "`cipherbench advise --for ssh` to measure it.")
    assert "cannot be told" in t["bottleneck"]


@pytest.mark.parametrize("args", [["--for", "ssh", "--link", "fast"],
                                  ["--for", "bogus"], ["--for", "ssh", "--policy", "weak"]])
def test_bad_input_is_one_line_and_exit_2(cli, args):
    out = cli("advise", "--no-measure", *args)
    assert out.rc == 2
    assert len(out.err.strip().splitlines()) == 1 and "Traceback" not in out.err


@pytest.mark.real
def test_history_lists_advice_only_with_all(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    doc = advise(cli, "--for", "ssh")
    listed = [x["run"] for x in cli("history", "--json").json()["runs"]]
    every = [x["run"] for x in cli("history", "--all", "--json").json()["runs"]]
    assert doc["run"] not in listed and doc["run"] in every
    assert set(listed) < set(every)
    text = cli("history").out
    assert "1 advise run not listed: --all lists them" in text
    assert "advise" in cli("history", "--all").out
    # kept all the same: show finds it by id
    assert cli("show", str(doc["run"])).rc == 0


@pytest.mark.real
def test_history_with_only_advice_says_how_to_list_it(cli, env):
    advise(cli, "--for", "ssh")
    out = cli("history")
    assert out.rc == 0 and "only advice is stored" in out.out and "--all" in out.out
    assert cli("history", "--json").json()["runs"] == []


@pytest.mark.real
def test_gpg_answer_is_a_gpg_setting_and_age_answer_is_age(cli, env):
    # the fixture's age (700 MB/s) is faster than every gpg cipher: gpg's answer still names
    # a --cipher-algo and mentions age only as an alternative; age's answer names age
    fill(env["CIPHERBENCH_DB"], "aes")
    gpg = target(advise(cli, "--for", "gpg"), "gpg")
    age = target(advise(cli, "--for", "age"), "age")
    assert gpg["recommendation"]["choice"] != "age"
    assert gpg["answer"].startswith("For gpg, use gpg --cipher-algo ")
    assert any(x.startswith("Alternative, if you can change the tool: age") for x in gpg["also"])
    assert any(c["text"].startswith("personal-cipher-preferences") for c in gpg["config"])
    assert age["recommendation"]["choice"] == "age"
    assert age["answer"].startswith("For age, use age")
    assert not any("--cipher-algo" in c["text"] for c in age["config"])
