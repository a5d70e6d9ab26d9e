# SPDX-License-Identifier: GPL-3.0-or-later
"""A full disk on output: `show` and `export` onto /dev/full, and `export -o FILE` past a file
size limit (RLIMIT_FSIZE, the disk full for this process alone) end in one line and a
non-zero exit; the export is written whole or not at all (the old file kept, no partial
file, no temporary file left)."""
from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

import pytest

SMALL = ["--lib", "openssl,libgcrypt", "--algo", "aes-128-gcm,sha256", "--sizes", "16,1024",
         "--budget", "0"]


def _cipherbench(args: list[str], env: dict, stdout=subprocess.PIPE, fsize: int | None = None):
    def limit() -> None:
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a write past it fails: EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([sys.executable, "-m", "cipherbench", *args], env=env, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=limit)


@pytest.fixture
def stored(cli, env) -> dict:
    assert cli("run", *SMALL).rc == 0
    return dict(os.environ, **env)


@pytest.mark.parametrize("args", [["show"], ["export"], ["export", "-f", "csv"], ["history"]])
def test_output_onto_a_full_disk_is_one_line(stored, args):
    with open("/dev/full", "w") as full:
        out = _cipherbench(args, stored, stdout=full)
    assert out.returncode == 1, out.stderr
    assert out.stderr.strip().splitlines() == [
        "cipherbench: error: cannot write the output: No space left on device"]


def test_export_to_a_full_disk_leaves_no_partial_file(stored, tmp_path):
    target = tmp_path / "out" / "run.json"
    target.parent.mkdir()
    out = _cipherbench(["export", "-o", str(target)], stored, fsize=100)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert f"cannot write {target}: File too large" in out.stderr
    assert list(target.parent.iterdir()) == []


def test_a_failed_export_keeps_the_old_file(stored, tmp_path):
    target = tmp_path / "run.json"
    target.write_text("the export of last week\n")
    target.chmod(0o640)
    out = _cipherbench(["export", "-o", str(target)], stored, fsize=100)
    assert out.returncode == 1
    assert target.read_text() == "the export of last week\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    out = _cipherbench(["export", "-o", str(target)], stored)
    assert out.returncode == 0, out.stderr
    assert target.read_text().startswith("{") and (target.stat().st_mode & 0o777) == 0o640
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
