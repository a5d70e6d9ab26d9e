# SPDX-License-Identifier: GPL-3.0-or-later
"""LUKS on the kernel's implementation: /proc/crypto parsed (this VM's stored text, a
Raspberry Pi 4 without the ARMv8 Crypto Extensions, an x86 with aesni_intel), the driver
dm-crypt would get for each cryptsetup spec, each candidate rated by user-space code of the
same kind, Adiantum a candidate, --sector-size 4096 in the line, and a warning when the CPU
has AES instructions the kernel does not use."""
from __future__ import annotations

from pathlib import Path

import pytest

from advise_fixtures import AES_CPU, NO_AES_CPU, add_primitive
from cipherbench.scenarios.luks.specs import ADIANTUM_SPEC
from cipherbench.machine import kernel_crypto as K
from cipherbench.store import Store

FIXTURES = Path(__file__).parent / "proc_crypto"
VM = FIXTURES / "x86-vm-generic.txt"        # `cat /proc/crypto` of the shared test VM
PI4 = FIXTURES / "arm64-rpi4-no-ce.txt"
AESNI = FIXTURES / "x86-aesni.txt"
#: libtomcrypt's portable C (MB/s): what the kernel's generic drivers are rated by
GENERIC_C = {"aes-128-xts": 160, "aes-256-xts": 120, "aes-128-cbc": 150, "aes-256-cbc": 110,
             "chacha20": 500}


def drivers(path: Path) -> list[K.Driver]:
    return K.parse(path.read_text())


def test_the_parser_reads_every_block_of_the_stored_texts():
    vm = drivers(VM)
    assert len(vm) == VM.read_text().count("\nname") + 1
    aes = [d for d in vm if d.name == "aes"]
    assert {d.driver for d in aes} == {"aes-generic", "aes-fixed-time"}
    assert K.best(vm, "aes").driver == "aes-fixed-time"          # priority 101 over 100
    x86 = drivers(AESNI)
    assert K.best(x86, "xts(aes)").driver == "xts-aes-vaes-avx2"   # the highest of three
    assert K.best(x86, "__xts(aes)") is None                       # internal: never handed out
    assert K.parse("") == [] and K.parse("garbage\n\nname : x\n") == []


@pytest.mark.parametrize("fixture, spec, driver, kind, listed", [
    (VM, "aes-xts-plain64", "xts(ecb(aes-fixed-time))", K.GENERIC, False),
    (VM, "aes-cbc-essiv:sha256", "essiv(cbc(ecb(aes-fixed-time)),sha256-lib)", K.GENERIC, False),
    (VM, ADIANTUM_SPEC, None, None, False),
    (PI4, "aes-xts-plain64", "xts-aes-neonbs", K.VECTOR, True),
    (PI4, ADIANTUM_SPEC, "adiantum(xchacha12-neon,aes-arm64,nhpoly1305-neon)", K.VECTOR, True),
    (AESNI, "aes-xts-plain64", "xts-aes-vaes-avx2", K.HARDWARE, True),
    (AESNI, "aes-cbc-essiv:sha256", "essiv-cbc-aes-sha256-aesni", K.HARDWARE, True),
    (AESNI, ADIANTUM_SPEC, "adiantum(xchacha12-simd,aes-aesni,nhpoly1305-avx2)", K.VECTOR,
     False),
])
def test_the_implementation_dm_crypt_would_get(fixture, spec, driver, kind, listed):
    impl = K.resolve(drivers(fixture), K.kernel_name(spec))
    assert (impl.driver, impl.kind, impl.listed) == (driver, kind, listed)
    if driver is None:
        assert "not loaded" in impl.text() and "xchacha12" in impl.text()


def test_kernel_names_and_kinds():
    assert K.kernel_name("aes-xts-plain64") == "xts(aes)"
    assert K.kernel_name("aes-cbc-essiv:sha256") == "essiv(cbc(aes),sha256)"
    assert K.kernel_name(ADIANTUM_SPEC) == "adiantum(xchacha12,aes)"
    assert K.kind_of("xts-aes-ce") == K.HARDWARE and K.kind_of("aes-arm64") == K.GENERIC
    assert K.kind_of("xchacha12-generic") == K.GENERIC
    assert K.cpu_has_aes("flags\t\t: fpu sse2 aes avx\n") is True
    assert K.cpu_has_aes("Features\t: fp asimd evtstrm crc32 cpuid\n") is False
    assert K.cpu_has_aes("processor : 0\n") is None


def _advise(cli, env, proc: Path, flags: list[str], user_space: dict, *args: str) -> dict:
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, {**user_space, "chacha20": user_space.get("chacha20-poly1305", 0) * 1.3},
                      flags)
        add_primitive(s, GENERIC_C, flags, lib="libtomcrypt")
    out = cli("advise", "--no-measure", "--json", "--for", "luks", *args,
              env_override={**env, "CIPHERBENCH_PROC_CRYPTO": str(proc)})
    assert out.rc == 0, out.err
    return out.json()["targets"][0]


def _cand(t: dict, choice: str) -> dict:
    return next(c for c in t["candidates"] if c["choice"] == choice)


@pytest.mark.real
def test_a_generic_kernel_driver_is_rated_by_generic_code_and_warned_about(cli, env):
    # The seen case: this VM's CPU has AES-NI, OpenSSL uses it at 4 GB/s, but the kernel
    # offers dm-crypt only aes-fixed-time: the AES candidates run generic C there.
    t = _advise(cli, env, VM, ["aes", "avx2"], AES_CPU)
    xts = _cand(t, "aes-xts-plain64:256")
    assert xts["rate"]["bytes_per_s"] == pytest.approx(160e6, rel=0.02)
    assert "libtomcrypt aes-128-xts" in xts["rate"]["detail"]
    assert "xts(ecb(aes-fixed-time)) (generic code" in xts["rate"]["detail"]
    assert any(n.startswith("warning: this CPU has AES instructions, but the kernel's "
                            "xts(aes) is xts(ecb(aes-fixed-time))") and "modprobe aesni_intel"
               in n for n in t["notes"])


@pytest.mark.real
def test_a_raspberry_pi_4_gets_adiantum(cli, env):
    t = _advise(cli, env, PI4, ["fp", "asimd"], NO_AES_CPU)
    assert t["recommendation"]["choice"] == f"{ADIANTUM_SPEC}:256"
    ad = _cand(t, f"{ADIANTUM_SPEC}:256")
    assert ad["allowed"] and ad["rate"]["estimated"]
    assert "xchacha12-neon" in ad["rate"]["detail"]
    xts = _cand(t, "aes-xts-plain64:512")
    assert "xts-aes-neonbs" in xts["rate"]["detail"]
    assert "may be faster" in xts["rate"]["detail"]            # neonbs: libtomcrypt is a floor
    line = next(c["text"] for c in t["config"] if c["text"].startswith("cryptsetup"))
    assert line == (f"cryptsetup luksFormat --type luks2 --cipher {ADIANTUM_SPEC} --key-size "
                    "256 --sector-size 4096 DEVICE")
    assert not any(n.startswith("warning:") for n in t["notes"])   # no AES here to waste


@pytest.mark.real
def test_an_aesni_kernel_keeps_aes_xts_on_the_aes_instruction_rate(cli, env):
    t = _advise(cli, env, AESNI, ["aes", "avx2"], AES_CPU)
    assert t["recommendation"]["choice"] == "aes-xts-plain64:256"
    xts = _cand(t, "aes-xts-plain64:256")
    assert xts["rate"]["bytes_per_s"] == pytest.approx(5000e6, rel=0.02)
    assert "xts-aes-vaes-avx2 (AES instructions)" in xts["rate"]["detail"]
    line = next(c["text"] for c in t["config"] if c["text"].startswith("cryptsetup"))
    assert "--sector-size 4096" in line
    assert not any(n.startswith("warning:") for n in t["notes"])


# -- --kernel: the kernel's dm-crypt itself ------------------------------------------------
from cipherbench.scenarios.luks import dmcrypt  # noqa: E402
from cipherbench.scenarios.luks import scenario as luks_scenario  # noqa: E402


def test_the_dm_table_of_each_spec():
    assert dmcrypt.table("aes-xts-plain64", "ab" * 64, 16384, "/dev/loop3", 4096) == \
        f"0 16384 crypt aes-xts-plain64 {'ab' * 64} 0 /dev/loop3 0 1 sector_size:4096"
    assert dmcrypt.cipher_arg(ADIANTUM_SPEC) == "capi:adiantum(xchacha12,aes)-plain64"
    assert dmcrypt.table("aes-cbc-essiv:sha256", "00", 8, "/dev/loop0", 512) == \
        "0 8 crypt aes-cbc-essiv:sha256 00 0 /dev/loop0 0"


def test_kernel_where_dm_crypt_is_missing_is_one_line_and_no_advice(cli, env, monkeypatch):
    monkeypatch.setattr(dmcrypt, "unavailable", lambda: "the kernel has no device-mapper")
    out = cli("advise", "--for", "luks", "--kernel")
    assert out.rc != 0 and out.out == ""
    assert out.err.strip() == ("cipherbench: error: --kernel: dm-crypt cannot be measured "
                               "here: the kernel has no device-mapper")
    assert cli("advise", "--for", "ssh", "--kernel").rc == 2
    assert cli("advise", "--for", "luks", "--kernel", "--no-measure").rc == 2
    out = cli("luks")
    assert out.rc != 0 and "dm-crypt cannot be measured here" in out.err
    assert "Traceback" not in out.err


@pytest.mark.real
def test_a_stored_dm_crypt_run_rates_the_candidates_itself(cli, env):
    from cipherbench.machine import kernel_crypto
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        add_primitive(s, AES_CPU, ["aes"])
        run = s.begin_run("luks", {"size": 64 << 20, "sector_size": 4096},
                          {"cpu_model": "Recorded CPU", "cpu_flags": ["aes"],
                           "hostname": "recorded"})
        p = luks_scenario.LuksPlan()        # the default specs: every one modern allows
        rows = []
        for i in range(6):
            for algo, secs in (("aes-xts-plain64:512", 0.055), ("aes-xts-plain64:256", 0.05),
                               (f"{ADIANTUM_SPEC}:256", 0.04)):
                for op in ("encrypt", "decrypt"):
                    rows.append(luks_scenario.Result("luks", "dm-crypt", algo, op, 64 << 20,
                                                     "round_s", "s", secs * (1 + i / 100),
                                                     n_samples=1, extra={"round": i}))
        for r in rows + luks_scenario.summary_results(rows, p, drivers(AESNI)):
            s.add_result(run, r)
        s.finish_run(run, "complete")
    out = cli("advise", "--no-measure", "--json", "--for", "luks")
    t = out.json()["targets"][0]
    xts = _cand(t, "aes-xts-plain64:256")
    assert xts["rate"]["source"] == "dm-crypt" and run in xts["rate"]["runs"]
    assert "xts-aes-vaes-avx2" in xts["rate"]["detail"]
    assert t["recommendation"]["choice"] == f"{ADIANTUM_SPEC}:256"   # measured faster here
    assert kernel_crypto.kind_of("xts-aes-vaes-avx2") == kernel_crypto.HARDWARE


@pytest.mark.skipif(dmcrypt.unavailable() is not None,
                    reason=f"dm-crypt cannot be measured here: {dmcrypt.unavailable()}")
def test_cipherbench_luks_measures_a_real_mapping_and_leaves_nothing(cli, env):
    import os
    before = set(os.listdir(dmcrypt.RAM_DIR))
    out = cli("luks", "--cipher", "aes-xts-plain64:512", "--size", "8M", "--rounds", "2",
              "--json")
    assert out.rc == 0, out.err
    heads = [r for r in out.json()["results"] if r["metric"] == "bytes_per_s"]
    assert {r["op"] for r in heads} == {"encrypt", "decrypt"}
    assert all(r["median"] > 0 for r in heads)
    assert set(os.listdir(dmcrypt.RAM_DIR)) == before
    assert "cipherbench-" not in " ".join(os.listdir("/dev/mapper"))
