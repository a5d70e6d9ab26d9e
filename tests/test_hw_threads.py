# SPDX-License-Identifier: GPL-3.0-or-later
"""--no-hw, --hw-both and --threads against the real cipherbench-core (skipped, with the
reason, when the core is not built or the CPU lacks what a test needs)."""
from __future__ import annotations

from pathlib import Path

import pytest

from cipherbench.cores import core_client
from cipherbench.cores.cpu_profiles import PROFILES, hw_args
from cipherbench.scenarios.primitive.command import resolve_hw
from cipherbench.errors import UsageError
from cipherbench.scenarios import threads as thr
from cipherbench.store import Store
from conftest import real_core


def cpu_has(flag: str) -> bool:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return any(flag in line.split(":", 1)[1].split()
               for line in text.splitlines() if line.startswith("flags"))


def runs(env) -> list:
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        return [(r, s.results(r.id), s.warnings(r.id)) for r in s.runs()]


def rate(results, lib, algo="aes-128-gcm", size=16384) -> float:
    p = next(x for x in results if (x.lib, x.algo, x.size, x.metric)
             == (lib, algo, size, "ns_per_op"))
    return size / p.median


def test_resolve_hw():
    no_aes = list(PROFILES["no-aes"].features)
    assert resolve_hw(True, None, False) == no_aes
    assert resolve_hw(False, "sha,aes", False) == ["aes", "sha"]
    assert resolve_hw(False, None, True) == no_aes
    assert resolve_hw(False, None, False) == []
    with pytest.raises(UsageError, match="valid: aes, pclmul"):
        resolve_hw(False, "aes,mmx", False)
    with pytest.raises(UsageError):
        resolve_hw(True, "aes", False)
    assert hw_args(["aes"]) == ["--disable-cpu-feature", "aes"]
    assert hw_args(no_aes) == ["--no-hw"]


def test_parse_threads():
    assert thr.parse_threads(None) == 1 and thr.parse_threads("2") == 2
    assert thr.parse_threads("all") == len(thr.allowed_cpus())
    for bad in ("0", "x", "-1"):
        with pytest.raises(UsageError, match="--threads"):
            thr.parse_threads(bad)


def test_no_hw_makes_aes_gcm_slower_and_says_what_was_off(cli, env):
    core = real_core()
    if not cpu_has("aes"):
        pytest.skip("this CPU has no AES instructions (no 'aes' flag in /proc/cpuinfo): "
                    "there is no acceleration to turn off")
    inv = core_client.Core(core).list()
    libs = [l for l in ("openssl", "libgcrypt") if inv.supports(l, "aes-128-gcm", "encrypt")]
    if not libs:
        pytest.skip("neither OpenSSL nor libgcrypt is built in")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", ",".join(libs), "--algo", "aes-128-gcm", "--op", "encrypt",
            "--sizes", "16384", "--samples", "5", "--budget", "0", "--no-ref", "--hw-both",
            env_override=e)
    assert r.rc == 0, r.err
    (on, on_res, _), (off, off_res, _) = runs(env)
    assert on.metadata["hw_disabled"] == [] and on.metadata["hw_pair"] == off.id
    assert off.metadata["hw_disabled"] == list(PROFILES["no-aes"].features)
    assert off.metadata["hw_pair"] == on.id
    for lib in libs:
        # The library's own report: the switch applied and no feature asked off in use.
        rep = off.metadata["libraries"][lib]
        assert rep["hw_switch"] == "applied"
        assert not set(rep["hw_used"]) & set(PROFILES["no-aes"].features)
        assert "aes" in on.metadata["libraries"][lib]["hw_used"]
        ratio = rate(on_res, lib) / rate(off_res, lib)
        assert ratio >= 3, f"{lib}: with AES-NI only {ratio:.1f}x faster than without"


def test_library_without_switch_is_reported_not_measured(cli, env):
    core = real_core()
    inv = core_client.Core(core).list()
    if not inv.supports("libsodium", "chacha20-poly1305", "encrypt"):
        pytest.skip("libsodium is not built in")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", "libsodium", "--algo", "chacha20-poly1305", "--op", "encrypt",
            "--sizes", "1024", "--samples", "3", "--budget", "0", "--no-ref", "--no-hw",
            env_override=e)
    # nothing measured: a failed run, and the error line says why
    assert r.rc == 1 and "nothing was measured" in r.err and "switch" in r.err, r.err
    (run, results, warnings), = runs(env)
    assert run.status == "failed"
    assert run.metadata["libraries"]["libsodium"]["hw_switch"] == "cannot_disable"
    assert not [x for x in results if x.lib == "libsodium"]
    assert any("no supported switch" in w.text for w in warnings)
    assert "not measured, cannot follow the profile (no working switch): libsodium" in r.out


def test_threads_report_aggregate_and_efficiency(cli, env):
    core = real_core()
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", "openssl", "--algo", "sha256", "--op", "hash", "--sizes", "4096",
            "--samples", "3", "--budget", "0", "--no-ref", "--threads", "2", env_override=e)
    assert r.rc == 0, r.err
    (run, results, warnings), = runs(env)
    assert run.metadata["threads"] == 2
    t = [x for x in results if x.metric == thr.METRIC]
    assert len(t) == 1, [w.text for w in warnings]
    x = t[0]
    assert len(x.extra["per_thread_bps"]) == 2
    assert x.median == pytest.approx(sum(x.extra["per_thread_bps"]))
    # Two processes on two CPUs cannot do more than twice the work of one; a little over 1
    # would only be noise between the single and the paired measurement.
    assert 0 < x.extra["efficiency"] <= 1.1, x.extra
    assert "efficiency" in r.out
