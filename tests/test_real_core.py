"""The real cipherbench-core through the real CLI on a tiny selection (skipped, with the
reason, when the core is not built)."""

import pytest

from cipherbench import core_client
from cipherbench.store import Store
from conftest import real_core


def test_real_core_measures_sanely(cli, env):
    core = real_core()
    inv = core_client.Core(core).list()
    lib = next((l for l in ("openssl", "nettle", "libgcrypt")
                if inv.supports(l, "3des-cbc", "encrypt")), None)
    if lib is None:
        pytest.skip("no library of this build has 3des-cbc")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", lib, "--algo", "3des-cbc", "--op", "encrypt",
            "--sizes", "1024,16384", "--samples", "5", "--budget", "0", env_override=e)
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        assert run.status == "complete"
        pts = {(x.lib, x.algo, x.size): x for x in s.results(run.id) if x.metric == "ns_per_op"}
    for p in pts.values():
        assert p.median > 0 and p.n_samples >= 5 and p.ci_low <= p.median <= p.ci_high
    memcpy = pts[("ref", "memcpy", 16384)].median
    des3 = pts[(lib, "3des-cbc", 16384)].median
    assert memcpy < des3, "copying 16 KiB must be faster than encrypting it with 3DES"
    assert run.metadata["libraries"][lib]["version"]
