# SPDX-License-Identifier: GPL-3.0-or-later
"""The arm64 cross-built core (scripts/build-cross.sh arm64) under qemu-user: it lists its
libraries with the CPU features the kernel's HWCAP words give, and passes its known answers
for OpenSSL, Nettle and libgcrypt. Skipped, with the reason, where qemu or the build is missing."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = Path(os.environ.get("CIPHERBENCH_ARM64_CORE", ROOT / "build-arm64" / "core" / "cipherbench-core"))
QEMU = shutil.which("qemu-aarch64-static")

pytestmark = [
    pytest.mark.skipif(QEMU is None, reason="qemu-aarch64-static is not installed (Debian: qemu-user-static)"),
    pytest.mark.skipif(not CORE.exists(), reason=f"no arm64 core at {CORE}: run scripts/build-cross.sh arm64"),
]


def run_core(*args: str) -> tuple[int, list[dict]]:
    proc = subprocess.run([QEMU, str(CORE), *args], capture_output=True, text=True, timeout=900)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def test_list_reports_arm_features_from_hwcap():
    code, lines = run_core("list")
    assert code == 0
    pre = lines[0]
    assert pre["type"] == "preamble"
    # qemu's emulated CPU has the Armv8 crypto extensions; no x86 flag may leak in from the
    # build machine's /proc/cpuinfo.
    assert {"aes", "pmull", "sha2", "asimd"} <= set(pre["cpu_flags"])
    assert not {"pclmulqdq", "avx2", "sha_ni"} & set(pre["cpu_flags"])
    libs = {l["lib"] for l in lines if l["type"] == "library"}
    assert {"openssl", "nettle", "libgcrypt"} <= libs


@pytest.mark.parametrize("lib", ["openssl", "nettle", "libgcrypt"])
def test_kat_passes_under_qemu(lib):
    code, lines = run_core("kat", "--lib", lib)
    results = [l for l in lines if l["type"] not in ("preamble", "library", "algorithm")]
    assert code == 0, [l for l in results if l.get("ok") is False or l.get("status") == "fail"][:3]
    assert results
