# SPDX-License-Identifier: GPL-3.0-or-later
"""`advise --host HOST`: the ssh ranking takes its primitives from the newest run measured on
that host (`run --host`); runs of another host never stand for this machine."""
from __future__ import annotations

import pytest

from advise_fixtures import AES_CPU, NO_AES_CPU, add_primitive
from cipherbench.store import Store


def advise(cli, *args, rc=0):
    out = cli("advise", "--no-measure", "--json", *args)
    assert out.rc == rc, out.err
    return out.json()


def target(doc, name):
    return next(t for t in doc["targets"] if t["target"] == name)


@pytest.mark.real
def test_the_hosts_primitives_rank_ssh_and_stay_out_of_this_machines_advice(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        here = add_primitive(s, AES_CPU, ["aes", "pclmulqdq"])
        # newer, and of a CPU without AES instructions: the NAS
        nas = add_primitive(s, NO_AES_CPU, ["ssse3"], meta={"host": "me@nas",
                                                           "hostname": "nas"})
    t = target(advise(cli, "--for", "ssh", "--host", "nas"), "ssh")
    assert t["recommendation"]["choice"] == "chacha20-poly1305@openssh.com"
    assert nas in t["evidence_runs"] and here not in t["evidence_runs"]
    assert "measured on nas" in t["recommendation"]["rate"]["detail"]

    # this machine's advice: its own run only, whatever is newer
    for name in ("ssh", "tls-server"):
        t = target(advise(cli, "--for", name), name)
        assert nas not in t["evidence_runs"] and here in t["evidence_runs"], name
    assert target(advise(cli, "--for", "ssh"), "ssh")["recommendation"]["choice"] == \
        "aes128-gcm@openssh.com"
    # a host with no run of its own: nothing of this machine stands in for it
    t = target(advise(cli, "--for", "ssh", "--host", "other", rc=3), "ssh")
    assert t["evidence_runs"] == [] and t["recommendation"] is None
    assert t["verdict"]["state"] == "not measured"
    assert "run `cipherbench advise --for ssh --host other`" in t["answer"]
