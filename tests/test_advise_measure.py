"""The advisor measures through the scenarios, not the command line: typed measurements with
the stored run and its status, or the error, and the results in the same store."""
from __future__ import annotations

import pytest

from cipherbench.advise.measure import Measurer
from cipherbench.store import Store


@pytest.fixture
def measurer(env, tmp_path):
    said: list[str] = []
    m = Measurer(env, str(tmp_path / "advise.sqlite"), said.append)
    m.said = said
    return m


def test_primitives_are_stored_as_a_quick_run(measurer, tmp_path):
    m = measurer.primitive(["openssl"], ["aes-128-gcm", "chacha20-poly1305"])
    assert m.rc == 0 and m.error == "" and m.status == "complete" and m.run_id == 1
    assert m.args[:2] == ["run", "--quick"]
    with Store.open(tmp_path / "advise.sqlite") as store:
        run = store.get_run(m.run_id)
        algos = {r.algo for r in store.results(m.run_id)}
    assert run.command == "run" and run.args["preset"] == "quick"
    assert {"aes-128-gcm", "chacha20-poly1305"} <= algos and "memcpy" not in algos
    assert measurer.said[0].startswith("measuring primitives of openssl")
    assert measurer.done == [m]


def test_an_error_comes_back_typed_and_the_advice_goes_on(measurer):
    m = measurer.primitive(["no-such-lib"], ["aes-128-gcm"])
    assert m.rc == 2 and "unknown library 'no-such-lib'" in m.error and m.run_id is None
    m = measurer.tls("openssl")   # the fake core refuses `tls --list` (exit 2)
    assert m.rc == 2 and "unexpected argument" in m.error and m.run_id is None
    assert len(measurer.done) == 2


def test_a_crashed_core_is_an_interrupted_run(measurer, env):
    measurer.env = dict(env, FAKE_CORE_CRASH="openssl:1")
    m = measurer.primitive(["openssl"], ["aes-128-gcm", "chacha20-poly1305"])
    assert m.rc == 1 and m.status == "interrupted" and m.run_id == 1
    assert any(w.kind == "core_crashed" for w in m.warnings)
