# SPDX-License-Identifier: GPL-3.0-or-later
"""The cross-built cores (scripts/build-cross.sh arm64, scripts/build-cross.sh armhf) under
qemu-user: each lists its libraries with the CPU features the kernel's HWCAP words give, and
passes its known answers for OpenSSL, Nettle and libgcrypt and every row's differential across
the libraries. Each architecture is skipped, with
the reason, where its qemu or its build is missing."""
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
X86_FLAGS = {"pclmulqdq", "avx2", "sha_ni", "aes-ni", "sse4_2"}


@dataclass(frozen=True)
class CrossTarget:
    arch: str               # Debian's name, as scripts/build-cross.sh takes it
    qemu: str               # the qemu-user program that runs it
    features: frozenset     # flags qemu's emulated CPU must show (from HWCAP, HWCAP2)

    @property
    def core(self) -> Path:
        env = os.environ.get(f"CIPHERBENCH_{self.arch.upper()}_CORE")
        return Path(env) if env else ROOT / f"build-{self.arch}" / "core" / "cipherbench-core"

    def skip_reason(self) -> str | None:
        if shutil.which(self.qemu) is None:
            return f"{self.qemu} is not installed (Debian: qemu-user-static)"
        if not self.core.exists():
            return f"no {self.arch} core at {self.core}: run scripts/build-cross.sh {self.arch}"
        return None


# qemu's default CPUs have the Armv8 crypto extensions; on 32-bit ARM the kernel reports them
# in AT_HWCAP2 and NEON in AT_HWCAP.
TARGETS = [
    CrossTarget("arm64", "qemu-aarch64-static", frozenset({"aes", "pmull", "sha2", "asimd"})),
    CrossTarget("armhf", "qemu-arm-static", frozenset({"aes", "pmull", "sha1", "sha2", "neon"})),
]


def _param(target: CrossTarget):
    reason = target.skip_reason()
    marks = [pytest.mark.skip(reason=reason)] if reason else []
    return pytest.param(target, id=target.arch, marks=marks)


PARAMS = [_param(t) for t in TARGETS]


def run_core(target: CrossTarget, *args: str) -> tuple[int, list[dict]]:
    proc = subprocess.run([str(shutil.which(target.qemu)), str(target.core), *args],
                          capture_output=True, text=True, timeout=1800)
    return proc.returncode, [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("target", PARAMS)
def test_list_reports_arm_features_from_hwcap(target):
    code, lines = run_core(target, "list")
    assert code == 0
    pre = lines[0]
    assert pre["type"] == "preamble"
    # No x86 flag may leak in from the build machine's /proc/cpuinfo.
    assert target.features <= set(pre["cpu_flags"])
    assert not X86_FLAGS & set(pre["cpu_flags"])
    assert pre["freq_hz"] > 0
    libs = {l["lib"] for l in lines if l["type"] == "library"}
    assert {"openssl", "nettle", "libgcrypt"} <= libs


@pytest.mark.parametrize("lib", ["openssl", "nettle", "libgcrypt"])
@pytest.mark.parametrize("target", PARAMS)
def test_kat_passes_under_qemu(target, lib):
    code, lines = run_core(target, "kat", "--lib", lib, "--no-differential")
    results = [l for l in lines if l["type"] not in ("preamble", "library", "algorithm", "module")]
    assert code == 0, [l for l in results if l.get("ok") is False or l.get("status") == "fail"][:3]
    assert results


@pytest.mark.parametrize("target", PARAMS)
def test_differential_passes_under_qemu(target):
    """Every row's differential once, across every library that has it (`kat` of them all)."""
    code, lines = run_core(target, "kat")
    diffs = [l for l in lines if l["type"] == "differential"]
    assert code == 0, [l for l in diffs if not l["ok"]][:3]
    assert diffs and all(l["ok"] for l in diffs)
