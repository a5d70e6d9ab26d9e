# SPDX-License-Identifier: GPL-3.0-or-later
"""Finding the core, reading its lines, and what happens when it misbehaves."""
import os
import stat

import pytest

from cipherbench.cores import core_client as cc
from conftest import FAKE_CORE


def script(tmp_path, body, name="cipherbench-core"):
    p = tmp_path / name
    p.write_text("#!/bin/sh\n" + body + "\n")
    p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return p


def test_find_core_order(tmp_path):
    (tmp_path / "bin").mkdir()
    on_path = script(tmp_path / "bin", "")
    assert cc.find_core({"CIPHERBENCH_CORE": str(FAKE_CORE), "PATH": str(on_path.parent)}) \
        == FAKE_CORE
    assert cc.find_core({"PATH": str(on_path.parent)}) == on_path


def test_missing_core_says_how_to_build(tmp_path, monkeypatch):
    monkeypatch.setattr(cc, "SOURCE_TREE", tmp_path)
    monkeypatch.setattr(cc, "INSTALL_SCRIPTS", tmp_path)
    with pytest.raises(cc.CoreNotFound, match="meson setup build && meson compile -C build"):
        cc.find_core({"PATH": str(tmp_path)})
    with pytest.raises(cc.CoreNotFound, match="not an executable"):
        cc.find_core({"CIPHERBENCH_CORE": str(tmp_path / "nope")})


def test_list_reads_the_recording():
    inv = cc.Core(FAKE_CORE, dict(os.environ)).list()
    assert "openssl" in inv.libs() and "ref" in inv.libs()
    assert inv.supports("openssl", "aes-128-gcm", "encrypt")
    assert not inv.supports("openssl", "aes-128-gcm", "hash")
    assert inv.preamble["type"] == "preamble"


def test_protocol_version_is_checked(tmp_path):
    core = cc.Core(script(tmp_path, 'echo \'{"v":99,"type":"preamble"}\''))
    with pytest.raises(cc.ProtocolMismatch, match="version 99"):
        core.list()
    core = cc.Core(script(tmp_path, "echo not json", "c2"))
    with pytest.raises(cc.ProtocolMismatch, match="not JSON"):
        core.list()


def test_crash_keeps_complete_lines(tmp_path):
    core = cc.Core(script(tmp_path, 'echo \'{"v":1,"type":"preamble"}\'; '
                          'printf \'{"v":1,"type":"po\'; kill -SEGV $$'))
    seen = []
    with pytest.raises(cc.CoreCrashed, match="SIGSEGV") as e:
        with core.bench("x", ["a"], "encrypt", [16]) as s:
            for rec in s:
                seen.append(rec.type)
    assert seen == ["preamble"]
    assert e.value.returncode < 0


def test_usage_error_passes_the_core_message(tmp_path):
    core = cc.Core(script(tmp_path, "echo 'cipherbench-core: unknown algorithm' >&2; exit 2"))
    with pytest.raises(cc.CoreUsage, match="unknown algorithm"):
        core.list()


def test_per_op_and_cpu_ratio():
    p = {"iters": 4, "wall_ns": [400, 800], "cpu_ns": [200, 400]}
    assert cc.per_op_ns(p) == [100, 200]
    assert cc.cpu_ratio(p) == 0.5
