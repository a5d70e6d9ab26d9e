# SPDX-License-Identifier: GPL-3.0-or-later
"""Metadata: one registry of keys; readers fed with fixture files."""
from pathlib import Path

from cipherbench.machine import metadata

CPUINFO = """processor\t: 0
model name\t: Test CPU @ 3.00GHz
flags\t\t: fpu sse2 ssse3 aes pclmulqdq avx avx2 sha_ni hypervisor
"""


def make_root(tmp_path: Path) -> Path:
    (tmp_path / "proc").mkdir()
    (tmp_path / "proc/cpuinfo").write_text(CPUINFO)
    gov = tmp_path / "sys/devices/system/cpu/cpu0/cpufreq"
    gov.mkdir(parents=True)
    (gov / "scaling_governor").write_text("powersave\n")
    dmi = tmp_path / "sys/class/dmi/id"
    dmi.mkdir(parents=True)
    (dmi / "sys_vendor").write_text("QEMU\n")
    return tmp_path


def test_readers(tmp_path):
    root = make_root(tmp_path)
    cpu = metadata.read_cpuinfo(root)
    assert cpu["cpu_model"] == "Test CPU @ 3.00GHz"
    assert cpu["cpu_flags"] == ["aes", "pclmulqdq", "ssse3", "avx", "avx2", "sha_ni"]
    assert cpu["hv_flag"]
    assert metadata.read_hypervisor(root, True) == "QEMU"
    assert metadata.read_hypervisor(tmp_path / "nothing", True) == "unknown"
    assert metadata.read_hypervisor(tmp_path / "nothing", False) == "none"
    assert metadata.read_governor(root) == "powersave"


def test_collect_only_registered_keys(tmp_path):
    pre = {"core_version": "0.1.0", "compiler": "gcc 12", "cflags": "-O3", "freq_hz": 3e9,
           "cpu_model": "Core's idea", "clock": "CLOCK_MONOTONIC", "cpu_flags": ["aes"]}
    libs = {"openssl": {"lib": "openssl", "version": "3.0", "caps": ["aes_hw"],
                        "provider": "aesni", "type": "library"}}
    meta = metadata.collect(pre, libs, root=make_root(tmp_path))
    assert set(meta) <= set(metadata.KEYS)
    assert meta["cpu_model"] == "Test CPU @ 3.00GHz"
    assert meta["core_compiler"] == "gcc 12" and meta["freq_hz"] == 3e9
    assert meta["libraries"] == {"openssl": {"version": "3.0", "caps": ["aes_hw"],
                                             "provider": "aesni"}}
    assert meta["governor"] == "powersave" and meta["hypervisor"] == "QEMU"
    for key in metadata.KEYS.values():
        assert key.type and key.meaning
