# SPDX-License-Identifier: GPL-3.0-or-later
"""--cpu-profile: the profiles' feature sets, the options, and against the real core that
`baseline` leaves OpenSSL nothing beyond SSE2 (AVX-512 included, which --no-hw left on), that
each library's state is stored with the run, and that a library that cannot follow is
reported, not measured."""
from __future__ import annotations

import pytest

from cipherbench.cores import core_client
from cipherbench.cores.cpu_profiles import (HW_FEATURES, PROFILES, follows, hw_args,
                                            openssl_env, profile_of)
from cipherbench.errors import UsageError
from cipherbench.scenarios.primitive.command import resolve_hw
from cipherbench.store import Store
from conftest import real_core


def test_profiles_and_their_core_arguments():
    assert PROFILES["no-aes"].features == ("aes", "pclmul", "avx2", "vaes", "sha")
    assert PROFILES["baseline"].features == HW_FEATURES
    assert {"avx512", "avx", "ssse3", "bmi"} <= set(PROFILES["baseline"].features)
    assert hw_args(list(HW_FEATURES)) == ["--cpu-profile", "baseline"]
    assert hw_args(list(PROFILES["no-aes"].features)) == ["--no-hw"]
    assert profile_of(["aes"]) is None and profile_of(HW_FEATURES) == "baseline"
    assert resolve_hw(False, None, False, "baseline") == list(HW_FEATURES)
    assert resolve_hw(False, None, True, "baseline") == list(HW_FEATURES)
    with pytest.raises(UsageError, match="exclude each other"):
        resolve_hw(True, None, False, "baseline")
    with pytest.raises(UsageError, match="exclude each other"):
        resolve_hw(False, "aes", False, "no-aes")


def test_follows_and_openssl_env_read_the_library_records():
    libs = {"openssl": {"hw_switch": "applied", "hw_used": [],
                        "hw_env": ["OPENSSL_ia32cap=~0x1:~0x2"]},
            "libsodium": {"hw_switch": "cannot_disable", "hw_used": None},
            "ref": {"hw_switch": "applied"}, "nettle": {}}
    st = {f.lib: f for f in follows(libs)}
    assert set(st) == {"openssl", "libsodium"}
    assert st["openssl"].follows and not st["libsodium"].follows
    assert openssl_env(libs) == {"OPENSSL_ia32cap": "~0x1:~0x2"}
    assert openssl_env({"openssl": {"hw_switch": "failed"}}) is None


def test_unknown_profile_is_one_line(cli, env):
    r = cli("run", "--cpu-profile", "pentium")
    assert r.rc == 2 and "Traceback" not in r.err and "no-aes" in r.err


def test_baseline_masks_avx512_in_openssl_where_no_aes_does_not():
    core = real_core()
    c = core_client.Core(core)
    c.common_args = hw_args(list(PROFILES["no-aes"].features))
    no_aes = c.list("openssl").libraries.get("openssl")
    if not no_aes:
        pytest.skip("OpenSSL is not built into the core")
    c.common_args = hw_args(list(HW_FEATURES))
    base = c.list("openssl").libraries["openssl"]
    assert base["hw_switch"] == "applied", base
    assert base["hw_used"] == [], base          # OpenSSL's own capability vector
    assert base["hw_off_requested"] == list(HW_FEATURES)
    env = openssl_env({"openssl": base})
    assert env and env["OPENSSL_ia32cap"].count(":") == 1   # both words masked
    flags = core_client.Core(core).list().preamble.get("cpu_flags") or []
    if "avx512f" not in flags:
        pytest.skip("this CPU has no AVX-512: nothing for no-aes to leave on")
    assert "avx512" in no_aes["hw_used"]


def test_portable_c_builds_follow_every_profile_with_nothing_to_switch():
    """wolfSSL built without its assembly (Debian's build) and LibTomCrypt have no code beyond
    the baseline: measured under a profile, not reported as unable to follow it."""
    core = real_core()
    c = core_client.Core(core)
    c.common_args = hw_args(list(HW_FEATURES))
    libs = c.list().libraries
    portable = {name: rec for name, rec in libs.items()
                if name in ("wolfssl", "libtomcrypt") and rec.get("provider") == "c"}
    if not portable:
        pytest.skip("neither wolfSSL nor LibTomCrypt is a portable-C build in this core")
    for name, rec in portable.items():
        assert rec["hw_switch"] == "applied", (name, rec)


def test_run_stores_the_profile_and_each_library_state(cli, env):
    core = real_core()
    inv = core_client.Core(core).list()
    libs = [l for l in ("openssl", "libsodium") if inv.supports(l, "chacha20-poly1305", "encrypt")]
    if "openssl" not in libs:
        pytest.skip("OpenSSL is not built into the core")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("run", "--lib", ",".join(libs), "--algo", "chacha20-poly1305", "--op", "encrypt",
            "--sizes", "1024", "--samples", "2", "--budget", "0", "--no-ref",
            "--cpu-profile", "baseline", env_override=e)
    assert r.rc == 0, r.err
    assert "CPU profile baseline" in r.out
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        (run,) = s.runs()
        results = s.results(run.id)
    assert run.metadata["cpu_profile"] == "baseline"
    assert run.metadata["hw_disabled"] == list(HW_FEATURES)
    ossl = run.metadata["libraries"]["openssl"]
    assert ossl["hw_switch"] == "applied" and ossl["hw_used"] == []
    assert {x.lib for x in results} == {"openssl"}
    if "libsodium" in libs:
        assert run.metadata["libraries"]["libsodium"]["hw_switch"] == "cannot_disable"
        assert "cannot follow the profile" in r.out and "libsodium" in r.out


def test_tls_follows_the_profile_at_the_record_layer(cli, env):
    core = real_core()
    listing = core_client.Core(core).run_lines(["tls", "--list"])
    libs = [r["lib"] for r in listing if r["type"] == "library" and r["lib"] in ("openssl", "gnutls")]
    if not libs:
        pytest.skip("the core has no TLS library")
    e = dict(env, CIPHERBENCH_CORE=str(core))
    r = cli("tls", "--lib", ",".join(libs), "--suites", "TLS_AES_128_GCM_SHA256", "--sizes",
            "16384", "--budget", "0", "--precision", "0.5", "--loopback", "--loopback-size", "1M",
            "--cpu-profile", "baseline", env_override=e)
    assert r.rc == 0, r.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
        results = s.results(run.id)
    assert run.metadata["cpu_profile"] == "baseline"
    assert run.args["cpu_profile"] == "baseline"
    for lib in libs:   # each library's own report after its switch
        rec = run.metadata["libraries"][lib]
        assert rec["hw_switch"] == "applied" and rec["hw_used"] == [], rec
    assert {x.lib for x in results} >= set(libs)


def test_tls_plan_gives_the_loopback_programs_the_openssl_switch(env):
    from cipherbench.scenarios.tls import scenario as tls
    core = real_core()
    c = core_client.Core(core)
    c.common_args = hw_args(list(HW_FEATURES))
    listing = c.run_lines(["tls", "--list"])
    if "openssl" not in {r["lib"] for r in listing if r["type"] == "library"}:
        pytest.skip("the core has no OpenSSL TLS")
    p = tls.make_plan(c, env, libs=["openssl"], suites=["TLS_AES_128_GCM_SHA256"],
                      sizes=(16384,), handshakes=False, transfer=True, loopback=True,
                      loopback_size=1 << 20, precision=0.5, budget_s=0, cpu=None,
                      hw_off=HW_FEATURES)
    assert p.loopback_env["OPENSSL_ia32cap"] == \
        openssl_env(p.libraries)["OPENSSL_ia32cap"]
    assert "~0x" in p.loopback_env["OPENSSL_ia32cap"]


def _openssh() -> None:
    from cipherbench.scenarios.ssh.server import SSHD
    import os
    import shutil
    if not os.access(SSHD, os.X_OK) or shutil.which("ssh") is None:
        pytest.skip(f"needs OpenSSH (client and {SSHD}): apt-get install openssh-server")


def test_private_sshd_gets_openssl_switch(tmp_path):
    """sshd, started inside programs_inherit, has the switch in its environment when it
    starts (when libcrypto reads it; sshd then writes its title over /proc's copy)."""
    from cipherbench.cores.cpu_profiles import programs_inherit
    from cipherbench.scenarios.ssh.server import PrivateServer
    import os
    _openssh()
    mask = "~0x200000200000000:~0x0"
    seen = tmp_path / "seen"
    wrap = ("sh", "-c", f'printf %s "$OPENSSL_ia32cap" > {seen}; exec "$@"', "sh")
    before = os.environ.get("OPENSSL_ia32cap")
    with programs_inherit({"OPENSSL_ia32cap": mask}), PrivateServer(wrap=wrap) as srv:
        assert srv.proc is not None
    assert seen.read_text() == mask
    assert os.environ.get("OPENSSL_ia32cap") == before


def test_ssh_run_stores_the_profile_and_openssl_state(cli, env):
    _openssh()
    core = real_core()
    e = dict(env, CIPHERBENCH_CORE=str(core))
    res = cli("ssh", "--size", "1M", "--ciphers", "aes128-gcm@openssh.com", "--via", "pipe",
              "--rounds", "2", "--no-baseline", "--cpu-profile", "baseline", "--json",
              env_override=e)
    if res.rc == 2 and "not built with OpenSSL" in res.err:
        pytest.skip(res.err.strip())
    assert res.rc == 0, res.err
    with Store.open(env["CIPHERBENCH_DB"], create=False) as s:
        run = s.get_run("last")
    assert run.metadata["cpu_profile"] == "baseline"
    ossl = run.metadata["libraries"]["openssl"]
    assert ossl["hw_switch"] == "applied" and ossl["hw_used"] == []
    assert any(v.startswith("OPENSSL_ia32cap=~") for v in ossl["hw_env"])


def test_gpg_says_it_cannot_follow_a_profile(cli):
    r = cli("gpg", "--cpu-profile", "baseline")
    assert r.rc == 2 and "Traceback" not in r.err
    assert "hwf.deny" in r.err and "--cpu-profile baseline" in r.err
