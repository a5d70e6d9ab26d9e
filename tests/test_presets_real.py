# SPDX-License-Identifier: GPL-3.0-or-later
"""Every preset of ``run`` starts and finishes against the real core, for every library this
build has, with a tiny budget (two samples a point, no extra samples). ``--full`` asks for more
algorithms of one library and operation than one request of the core takes (128 names): the
front end splits them. Skipped, with the reason, when the core is not built."""

import pytest

from cipherbench.cores import core_client
from cipherbench.presets import PRESETS
from cipherbench.store import Store
from conftest import real_core

#: ``--full`` on one size: every request of the preset, a seventh of its points.
ARGS = {"quick": ["--quick"], "default": [], "full": ["--full", "--sizes", "64"]}


def test_algo_batches_keep_order_and_the_core_limits():
    names = [f"algo-{i:03d}" for i in range(300)]
    batches = core_client.algo_batches(names)
    assert [n for b in batches for n in b] == names
    assert [len(b) for b in batches] == [128, 128, 44]
    long = ["x" * 99] * 100          # 100 bytes each with its separator: 40 a batch
    assert [len(b) for b in core_client.algo_batches(long)] == [40, 40, 20]
    assert core_client.algo_batches([]) == []


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_runs_for_every_library_built(cli, env, preset):
    core = real_core()
    inv = core_client.Core(core).list()
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", *ARGS[preset], "--samples", "2", "--budget", "0", "--no-progress",
            env_override=e)
    assert r.rc == 0, r.err[-2000:]
    assert "refused a request" not in r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        assert run.status == "complete"
        measured = {x.lib for x in s.results(run.id) if x.metric == "ns_per_op"}
    wanted = PRESETS[preset].algos
    for lib in inv.libs():
        if wanted is None or any(row.algo in wanted for row in inv.rows(lib)):
            assert lib in measured, f"{preset}: nothing of {lib} was measured"


def test_request_batches_cover_every_algorithm_and_size_once():
    sizes = list(range(16, 16 * 70, 16))          # 69 sizes: one more request
    got = core_client.request_batches(["a", "b"], sizes)
    assert [(a, len(s)) for a, s in got] == [(["a", "b"], 64), (["a", "b"], 5)]
    assert sorted(x for _, s in got for x in s) == sizes
