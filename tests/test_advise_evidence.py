# SPDX-License-Identifier: GPL-3.0-or-later
"""Coherent evidence: advise never mixes results of other library versions, hardware switches,
core builds or machines; it takes the newest complete coherent runs, names them and the runs
it left out; a partial later run does not hide a complete earlier one."""
from __future__ import annotations

import pytest

from advise_fixtures import AES_CPU, SSH_AES, add_gpg, add_primitive, add_ssh, fill
from cipherbench.machine import coherence
from cipherbench.advise.evidence import Evidence
from cipherbench.store import Result, Store

FLAGS = ["aes", "pclmulqdq"]


def libs(openssl="3.0.15", libgcrypt="1.10.1") -> dict:
    return {"libraries": {"openssl": {"version": openssl}, "libgcrypt": {"version": libgcrypt}},
            "core_version": "0.9.0", "core_compiler": "gcc 12", "core_cflags": "-O2"}


def target(cli, *args):
    out = cli("advise", "--no-measure", "--json", *args)
    assert out.rc == 0, out.err
    return out.json()["targets"][0]


def test_a_later_library_version_is_not_mixed_with_the_earlier_one(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        old = add_primitive(s, AES_CPU, FLAGS, meta=libs(openssl="3.0.11"))
        new = add_primitive(s, {"aes-128-gcm": 3900}, FLAGS, meta=libs(openssl="3.0.15"))
        ev = Evidence.load(s)
    # openssl figures only from the newest version; chacha20 (measured only with 3.0.11) is
    # missing rather than mixed in
    assert ev.primitive[("openssl", "aes-128-gcm", "encrypt")].run.id == new
    assert ("openssl", "chacha20-poly1305", "encrypt") not in ev.primitive
    assert [x.run_id for x in ev.left_out] == [old]
    assert "openssl 3.0.11, not 3.0.15" in ev.left_out[0].text()


def test_a_library_whose_version_agrees_is_still_used_from_the_older_run(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        old = add_primitive(s, {"twofish-256-cbc": 200}, FLAGS, lib="libgcrypt",
                            meta=libs(openssl="3.0.11"))
        add_primitive(s, {"aes-128-gcm": 3900}, FLAGS, meta=libs(openssl="3.0.15"))
        ev = Evidence.load(s)
    assert ev.primitive[("libgcrypt", "twofish-256-cbc", "encrypt")].run.id == old


def test_another_core_build_and_other_hardware_switches_are_left_out(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        other_core = add_primitive(s, AES_CPU, FLAGS, meta=dict(libs(), core_version="0.8.0"))
        off = add_primitive(s, AES_CPU, FLAGS, meta=dict(libs(), hw_disabled=["aes"]))
        new = add_primitive(s, {"aes-128-gcm": 3900}, FLAGS, meta=libs())
        ev = Evidence.load(s)
        assert {p.run.id for p in ev.primitive.values()} == {new}
        assert [x.run_id for x in ev.left_out] == [other_core]
        assert "another core build: 0.8.0" in ev.left_out[0].reason
        # --assume-no-aes takes the run with AES switched off, and only it
        ev = Evidence.load(s, assume_no_aes=True)
        assert {p.run.id for p in ev.primitive.values()} == {off}


def test_another_machine_is_left_out_and_this_one_preferred(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        mine = add_primitive(s, AES_CPU, FLAGS)                       # host "recorded"
        theirs = add_primitive(s, AES_CPU, FLAGS, scale=2.0,
                               meta={"hostname": "nas", "cpu_model": "ARM Cortex-A55"})
        here = ("recorded", "Recorded CPU", "")
        ev = Evidence.load(s, machine=here)
        assert {p.run.id for p in ev.primitive.values()} == {mine}
        assert ev.left_out[0].run_id == theirs and "nas (ARM Cortex-A55)" in \
            ev.left_out[0].reason
        # a store with no run of this machine: the newest run's machine, alone
        ev = Evidence.load(s, machine=("elsewhere", "X", ""))
        assert {p.run.id for p in ev.primitive.values()} == {theirs}


@pytest.mark.real
def test_the_newest_complete_gpg_run_decides_and_a_newer_partial_one_is_named(cli, env):
    ids = fill(env["CIPHERBENCH_DB"], "aes")
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        small = add_gpg(s, {"AES": 330, "AES256": 300}, ["aes"])   # complete, newer
        run = s.begin_run("gpg", {"size": 32 << 20}, {"hostname": "recorded",
                                                       "cpu_model": "Recorded CPU"})
        s.add_result(run, Result("gpg", "gnupg", "TWOFISH", "encrypt", 32 << 20, "bytes_per_s",
                                 "B/s", 900e6, 880e6, 920e6, 3, 0.01))
        s.finish_run(run, "interrupted")
    t = target(cli, "--for", "gpg")
    # within the layer the newest complete run decides, whatever an older one covered
    assert t["verdict"]["layer"] == "gpg" and t["verdict"]["runs"] == [small]
    assert ids["gpg"] not in t["evidence_runs"] and run not in t["evidence_runs"]
    assert t["decided_by"].startswith(f"Decided by gpg --symmetric and age, encrypting, run "
                                      f"{small}; newer run {run} not used: interrupted; run "
                                      f"{small} is complete.")
    # what that run did not measure shows its lower layer, unranked
    twofish = next(c for c in t["candidates"] if c["choice"] == "TWOFISH")
    assert twofish["rate"] is None or twofish["rate"]["layer"] == "primitive:libgcrypt"
    assert twofish["rank"] is None


@pytest.mark.real
def test_an_interrupted_run_is_used_when_nothing_complete_has_it(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, AES_CPU, ["aes"])
        run = add_ssh(s, SSH_AES, ["aes"], status="interrupted")
    t = target(cli, "--for", "ssh")
    assert t["recommendation"]["rate"]["source"] == "ssh" and run in t["evidence_runs"]


@pytest.mark.real
def test_the_runs_used_are_named(cli, env):
    ids = fill(env["CIPHERBENCH_DB"], "aes")
    out = cli("advise", "--no-measure", "--for", "ssh")
    assert out.rc == 0, out.err
    assert f"evidence: runs {ids['primitive']}, {ids['ssh']}" in " ".join(out.out.split()) or \
        f"evidence: runs {ids['ssh']}" in " ".join(out.out.split())


def test_facts_and_mismatches():
    from cipherbench.store import Run
    a = Run(1, "run", "", None, "complete", {}, dict(libs(), hostname="h", cpu_model="c"), "0")
    b = Run(2, "run", "", None, "complete", {}, dict(libs(openssl="3.2.0"), hostname="h",
                                                     cpu_model="c", hw_disabled=["aes"]), "0")
    ms = coherence.mismatches(coherence.facts(a), coherence.facts(b))
    assert [m.what for m in ms] == ["hardware switches", "openssl version"]
    assert coherence.describe(ms) == ("hardware switches all on -> off: aes; "
                                      "openssl version 3.0.15 -> 3.2.0")
    assert coherence.hw_off("aes,pclmul") == ("aes", "pclmul")
    assert coherence.hw_off(True) == ("all",) and coherence.hw_off([]) == ()
