# SPDX-License-Identifier: GPL-3.0-or-later
"""`advise --host` on a host that gave the core a quarter of a CPU (``core_cpu_share`` of its
run): the rates it answers with, for how long and for the bottleneck, are what the host
delivers per wall-clock second, and the answer says so; this machine's runs keep theirs."""
from __future__ import annotations

import pytest

from advise_fixtures import NO_AES_CPU, add_primitive
from cipherbench.store import Store
from test_advise_answer import advise, cand, target

MB = 1e6


def _chacha_rate(doc) -> float:
    return cand(target(doc, "tls-server"), "TLS_CHACHA20_POLY1305_SHA256")["rate"]["bytes_per_s"]


@pytest.mark.real
def test_advise_host_reads_the_delivered_rate(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, NO_AES_CPU, ["ssse3"], meta={"host": "me@nas", "hostname": "nas",
                                                      "core_cpu_share": 0.25})
    doc = advise(cli, "--for", "tls-server", "--host", "nas")
    assert _chacha_rate(doc) == pytest.approx(0.25 * NO_AES_CPU["chacha20-poly1305"] * MB,
                                              rel=0.02)
    t = target(doc, "tls-server")
    assert any("gave the core 25% of a CPU" in n for n in t["notes"]), t["notes"]


@pytest.mark.real
def test_this_machines_own_share_is_not_applied(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, NO_AES_CPU, ["ssse3"], meta={"core_cpu_share": 0.25})
    doc = advise(cli, "--for", "tls-server")
    assert _chacha_rate(doc) == pytest.approx(NO_AES_CPU["chacha20-poly1305"] * MB, rel=0.02)
