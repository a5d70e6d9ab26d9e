# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench-core time``: one program run once, its wall-clock time and its own CPU time
(wait4) in one ``timed`` record (what ``gpg --host`` times every call with, on the host); its
files in and out, a failing or killed program, one that cannot start, bad arguments."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from conftest import real_core

pytestmark = pytest.mark.real

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "core" / "protocol"
                     / "schema.json").read_text())


def _time(*args: str) -> tuple[int, list[dict], str]:
    out = subprocess.run([str(real_core()), "time", *args], capture_output=True, text=True,
                         timeout=60)
    recs = [json.loads(line) for line in out.stdout.splitlines()]
    for r in recs:
        jsonschema.Draft202012Validator(SCHEMA).validate(r)
    return out.returncode, recs, out.stderr


def test_times_a_program_with_its_files(tmp_path):
    src, dst, err = tmp_path / "in", tmp_path / "out", tmp_path / "err"
    src.write_bytes(b"x" * 100000)
    # the shell's own CPU work: a loop, so its CPU time cannot be zero
    rc, (rec,), _ = _time("--stdin", str(src), "--stdout", str(dst), "--stderr", str(err),
                          "--", "sh", "-c", 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; '
                                            'cat; echo oops >&2; exit 3')
    assert rc == 0
    assert rec["type"] == "timed" and rec["exit"] == 3 and rec["signal"] is None
    assert dst.read_bytes() == b"x" * 100000 and err.read_text() == "oops\n"
    assert rec["user_ns"] + rec["sys_ns"] > 0 and rec["wall_ns"] > 0
    assert rec["wall_ns"] >= 0.5 * (rec["user_ns"] + rec["sys_ns"])   # one thread
    assert "exec_error" not in rec


def test_a_killed_program_and_one_that_cannot_start(tmp_path):
    rc, (rec,), _ = _time("--", "sh", "-c", "kill -9 $$")
    assert rc == 0 and rec["exit"] is None and rec["signal"] == 9
    rc, (rec,), _ = _time("--", str(tmp_path / "no-such-program"))
    assert rc == 0 and rec["exit"] == 127
    assert rec["exec_error"].endswith("No such file or directory")
    rc, (rec,), _ = _time("--stdin", str(tmp_path / "missing"), "--", "true")
    assert rec["exit"] == 127
    assert rec["exec_error"] == f"{tmp_path / 'missing'}: No such file or directory"


@pytest.mark.parametrize("args, says", [
    ((), "time needs -- PROGRAM"),
    (("--bogus", "--", "true"), "unknown option '--bogus'; valid: --stdin, --stdout"),
    (("--cpu", "100000", "--", "true"), "--cpu"),
])
def test_bad_arguments_are_one_line(args, says):
    rc, recs, err = _time(*args)
    assert rc == 2 and recs == []
    assert len(err.strip().splitlines()) == 1 and says in err, err


def test_the_preamble_names_the_command():
    out = subprocess.run([str(real_core()), "list", "--lib", "ref"], capture_output=True,
                         text=True, timeout=60)
    pre = json.loads(out.stdout.splitlines()[0])
    assert "time" in pre["commands"]
