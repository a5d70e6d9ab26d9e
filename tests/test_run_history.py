# SPDX-License-Identifier: GPL-3.0-or-later
"""A figure off this machine's earlier runs of the same cell is called out: a machine slower
for the whole of one run leaves that run's own statistics tight, the store's history does
not. Judged only against comparable runs (same machine, library version, setup), and only
with three of them."""
from __future__ import annotations

import json
import sqlite3

import pytest

from cipherbench.scenarios.primitive.history import MIN_EARLIER, OFF, off_by
from test_cli_run import SMALL

CELL = "openssl aes-128-gcm encrypt 16384 B"


def test_off_by_needs_three_earlier_figures_and_more_than_five_percent():
    assert off_by(100.0, [100.0, 100.0]) is None
    assert off_by(104.0, [100.0] * MIN_EARLIER) is None
    assert off_by(100.0 * (1 + OFF) + 1, [100.0] * MIN_EARLIER) == pytest.approx(1.06)
    assert off_by(80.0, [100.0, 101.0, 99.0, 300.0]) == pytest.approx(80 / 100.5)


def _run(cli, env) -> dict:
    out = cli("run", *SMALL, "--json", env_override=env)
    assert out.rc == 0, out.err
    return out.json()


def _unlike(doc: dict) -> list[dict]:
    return [w for w in doc["warnings"] if w["kind"] == "unlike_before"]


def _scale_earlier(env, factor: float, cell_algo: str = "aes-128-gcm") -> None:
    with sqlite3.connect(env["CIPHERBENCH_DB"]) as db:
        db.execute("UPDATE results SET median = median * ? WHERE metric = 'ns_per_op' AND "
                   "lib = 'openssl' AND algo = ? AND op = 'encrypt' AND size = 16384", (factor, cell_algo))


def test_the_same_figures_again_say_nothing_and_a_changed_machine_is_named(cli, env):
    for _ in range(MIN_EARLIER):
        assert _unlike(_run(cli, env)) == []
    assert _unlike(_run(cli, env)) == []          # three earlier runs, the same figures
    _scale_earlier(env, 1.25)                       # the earlier runs 25% slower
    warned = _unlike(_run(cli, env))
    assert [w["subject"] for w in warned] == [CELL]
    assert "20% faster than in this machine's 4 earlier runs of openssl" in warned[0]["text"]
    assert "--wait-quiet" in warned[0]["text"]


def _another_machine(m: dict) -> None:
    m["machine_id"] = "another"


def _another_openssl(m: dict) -> None:
    m["libraries"]["openssl"]["version"] = "0.9.8"


@pytest.mark.parametrize("change", [_another_machine, _another_openssl])
def test_only_comparable_runs_are_judged_against(cli, env, change):
    for _ in range(MIN_EARLIER):
        _run(cli, env)
    _scale_earlier(env, 1.25)
    with sqlite3.connect(env["CIPHERBENCH_DB"]) as db:
        for rid, meta in db.execute("SELECT id, metadata FROM runs").fetchall():
            m = json.loads(meta)
            change(m)
            db.execute("UPDATE runs SET metadata = ? WHERE id = ?", (json.dumps(m), rid))
    assert _unlike(_run(cli, env)) == []
