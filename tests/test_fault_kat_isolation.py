# SPDX-License-Identifier: GPL-3.0-or-later
"""kat checks each library in its own process (core/tests/test_kat_isolation.c crashes a test
double to show it), and Crypto++'s XTS, which crashed on data units ending in a partial block
after two or more whole blocks, now agrees with every other library on them."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = Path(os.environ.get("CIPHERBENCH_CORE") or ROOT / "build" / "core" / "cipherbench-core")
pytestmark = pytest.mark.skipif(not CORE.exists() or "fake_core" in str(CORE),
                                reason="the real core is not built")


@pytest.mark.parametrize("bits", [128, 256])
def test_every_xts_library_steals_ciphertext_correctly(bits):
    f = ROOT / "vectors" / f"aes-{bits}-xts-stealing.json"
    lengths = {len(v["pt"]) // 2 for v in json.loads(f.read_text())["vectors"]}
    assert any(n > 32 and n % 16 for n in lengths)       # the case that crashed
    r = subprocess.run([str(CORE), "kat", "--vectors", str(f)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    kats = {x["lib"]: x for x in recs if x["type"] == "kat"}
    have = {x["lib"] for x in recs if x["type"] == "library"}
    assert len(kats) >= 2
    for lib, k in kats.items():
        assert k["failed"] == 0 and k["passed"] == len(lengths), (lib, k)
    if "cryptopp" in have:
        assert "cryptopp" in kats
    diff = [x for x in recs if x["type"] == "differential" and x["algo"] == f"aes-{bits}-xts"]
    assert diff and all(x["ok"] for x in diff)
