# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench run`` that measured nothing is not a complete run: every algorithm refused by
its known answers (a vector the library fails, a malformed vector file) used to store a
``complete`` run with no result and exit 0, so CI could not tell it from success."""
from cipherbench.store import Store
from conftest import write_recordings


def stored(env):
    s = Store.open(env["CIPHERBENCH_DB"], create=False)
    run = s.get_run("last")
    return run, s.results(run.id)


def recordings(tmp_path):
    return write_recordings(tmp_path / "rec", "lib1", {
        ("aes-128-gcm", "encrypt", s): [100.0 + s] * 6 for s in (1024, 16384)},
        {"aes-128-gcm": ("aead", ["encrypt"]), "3des-cbc": ("cipher", ["encrypt"])},
        errors=[{"algo": "3des-cbc", "op": "encrypt", "reason": "kat_failed",
                 "message": "3des-cbc: vector 2: ciphertext differs"}])


def test_a_run_whose_every_algorithm_failed_its_vectors_fails(cli, tmp_path, env):
    r = cli("run", "--lib", "lib1", "--algo", "3des-cbc", "--op", "encrypt",
            "--sizes", "1024,16384", "--budget", "0",
            env_override=dict(env, FAKE_CORE_RECORDINGS=str(recordings(tmp_path))))
    assert r.rc == 1, r.err
    line = next(l for l in r.err.splitlines() if "nothing was measured" in l)
    assert line.startswith("cipherbench: error: nothing was measured: run 1 is marked failed")
    assert "ciphertext differs" in line
    assert "Traceback" not in r.err
    run, results = stored(env)
    assert run.status == "failed"
    # the reference rows were measured beside it: they are not what the run was for
    assert not [x for x in results if x.lib == "lib1"]


def test_a_run_that_measured_one_algorithm_is_complete(cli, tmp_path, env):
    r = cli("run", "--lib", "lib1", "--algo", "3des-cbc,aes-128-gcm", "--op", "encrypt",
            "--sizes", "1024,16384", "--budget", "0",
            env_override=dict(env, FAKE_CORE_RECORDINGS=str(recordings(tmp_path))))
    assert r.rc == 0, r.err
    assert "nothing was measured" not in r.err
    run, _ = stored(env)
    assert run.status == "complete"
