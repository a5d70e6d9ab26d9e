# SPDX-License-Identifier: GPL-3.0-or-later
"""A core built without any crypto library: `run` says so in one line, with the packages to
install, instead of measuring only the reference rows."""
from __future__ import annotations

import json


def test_a_core_without_libraries_names_the_packages(cli, env, tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    lines = [{"v": 1, "type": "preamble", "core_version": "0.1.0", "command": "list",
              "freq_hz": 3e9, "cpu_flags": []},
             {"v": 1, "type": "library", "lib": "ref", "version": "cipherbench-core",
              "caps": [], "provider": None}]
    lines += [{"v": 1, "type": "algorithm", "lib": "ref", "algo": a, "kind": "ref",
               "ops": ["ref"]} for a in ("memcpy", "null")]
    (rec / "list.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = cli("run", env_override=dict(env, FAKE_CORE_RECORDINGS=str(rec)))
    assert r.rc == 1
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert "without any crypto library" in r.err
    assert "libssl-dev" in r.err and "openssl-devel" in r.err
