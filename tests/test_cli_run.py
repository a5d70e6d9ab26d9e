# SPDX-License-Identifier: GPL-3.0-or-later
"""``cipherbench run`` in-process against the fake core: table, store, JSON, adaptive
repetition, interruptions, and every bad input."""
import json
from pathlib import Path

import jsonschema
import pytest

from cipherbench.store import Store
from conftest import write_recordings

SCHEMA = json.loads((Path(__import__("cipherbench").__file__).parent / "export" /
                     "schema.json").read_text())
SMALL = ["--lib", "openssl,libgcrypt,nettle", "--algo", "aes-128-gcm,chacha20-poly1305,sha256",
         "--sizes", "16,1024,16384", "--budget", "0"]


def stored(env):
    s = Store.open(env["CIPHERBENCH_DB"], create=False)
    run = s.get_run("last")
    return s, run, s.results(run.id)


def test_run_table_and_store(cli, env):
    r = cli("run", *SMALL)
    assert r.rc == 0, r.err
    lines = r.out.splitlines()
    header = next(l for l in lines if "algorithm" in l)
    assert header.index("openssl") < header.index("libgcrypt") < header.index("nettle")
    body = lines[lines.index(header) + 2:]
    rows = [l for l in body if l[:1].strip()]          # (cells are two lines: rate, c/B)
    names = [l.split()[0] for l in rows]
    assert names[:2] == ["memcpy", "null"]                 # reference rows on top
    assert "aes-128-gcm" in names and "chacha20-poly1305" in names
    gcm = next(l for l in rows if l.startswith("aes-128-gcm "))
    assert " rec. " in gcm and gcm.count("*") == 1 and "GB/s" in gcm
    assert "rec. recommended" in r.out                     # the legend of the short grade
    assert lines[lines.index(gcm) + 1].count("c/B") == 3
    assert "stored as run 1" in r.out
    # the answer is last: per kind the fastest sound choice, then the advise command
    tail = r.out.rstrip().splitlines()[-8:]
    assert tail[0].startswith("The answer at 16 KiB") or any(
        t.startswith("The answer at 16 KiB") for t in tail)
    assert any("AEAD" in t and "fastest sound choice:" in t for t in tail)
    assert any("cipherbench advise --for TARGET" in t for t in tail[-3:])

    s, run, results = stored(env)
    assert run.status == "complete"
    assert run.metadata["cpu_flags"] and run.metadata["libraries"]["openssl"]["version"]
    points = [x for x in results if x.metric == "ns_per_op"]
    fits = [x for x in results if x.metric == "slope_ns_per_byte"]
    assert points and fits
    for p in points:
        assert p.median > 0 and p.ci_low <= p.median <= p.ci_high and p.n_samples >= 6
    # the fastest mark is on the library with the highest stored throughput
    at16k = {x.lib: x.median for x in points if x.algo == "aes-128-gcm" and x.op == "encrypt"
                and x.size == 16384}
    fastest = min(at16k, key=at16k.get)
    col = header.split("┃").index(next(c for c in header.split("┃") if fastest in c))
    assert "*" in gcm.split("│")[col]


def test_json_output_validates(cli):
    r = cli("run", *SMALL, "--json")
    assert r.rc == 0, r.err
    doc = r.json()
    jsonschema.validate(doc, SCHEMA)
    assert doc["run"]["status"] == "complete"
    assert {x["lib"] for x in doc["results"]} >= {"ref", "openssl", "nettle"}


def test_kat_failure_is_a_warning_not_a_number(cli, tmp_path, env):
    rec = write_recordings(tmp_path / "rec", "lib1", {
        ("aes-128-gcm", "encrypt", s): [100.0 + s] * 6 for s in (1024, 16384)},
        {"aes-128-gcm": ("aead", ["encrypt"]), "3des-cbc": ("cipher", ["encrypt"])},
        errors=[{"algo": "3des-cbc", "op": "encrypt", "reason": "kat_failed",
                 "message": "3des-cbc: vector 2: ciphertext differs"}])
    r = cli("run", "--lib", "lib1", "--algo", "3des-cbc,aes-128-gcm", "--op", "encrypt",
            "--sizes", "1024,16384", "--budget", "0",
            env_override=dict(env, FAKE_CORE_RECORDINGS=str(rec)))
    assert r.rc == 0, r.err
    assert "ciphertext differs: not timed" in r.err
    _, run, results = stored(env)
    assert not [x for x in results if x.algo == "3des-cbc"]
    assert [x for x in results if x.algo == "aes-128-gcm"]


def test_quick_preset_runs(cli, tmp_path, env):
    rec = write_recordings(tmp_path / "rec", "lib1", {
        (a, op, s): [1000.0 + s / 10] * 6
        for a, op in (("aes-128-gcm", "encrypt"), ("sha256", "hash"))
        for s in (1024, 16384)}, {"aes-128-gcm": ("aead", ["encrypt", "decrypt"]),
                                   "sha256": ("hash", ["hash"])})
    r = cli("run", "--quick", env_override=dict(env, FAKE_CORE_RECORDINGS=str(rec)))
    assert r.rc == 0, r.err
    _, run, results = stored(env)
    assert run.args["preset"] == "quick"
    assert {x.op for x in results} == {"encrypt", "hash", "ref"}   # no decrypt in --quick


def test_adaptive_repetition_stops_at_precision(cli, tmp_path, env):
    log = tmp_path / "calls.log"
    tight = [1000.0, 1001.0, 999.0, 1000.5, 1000.2, 999.8]           # +-0.1%
    # a slope of 60 values: every batch replays its start, so the fastest of each group of
    # samples (the robust figure, made to set one-sided noise aside) keeps varying by tens of
    # percent however many samples come (two alternating values would no longer do: the
    # fastest of each group is then always the lower one, which is precise)
    bimodal = [1000.0 + 50 * i for i in range(60)]
    rec = write_recordings(tmp_path / "rec", "lib1", {
        ("aes-128-gcm", "encrypt", 1024): tight,
        ("aes-128-gcm", "encrypt", 16384): bimodal}, {"aes-128-gcm": ("aead", ["encrypt"])})
    e = dict(env, FAKE_CORE_RECORDINGS=str(rec), FAKE_CORE_LOG=str(log), FAKE_CORE_SERVE="")
    # one library after another: the extra samples of one point (rounds repeat points instead)
    r = cli("run", "--lib", "lib1", "--algo", "aes-128-gcm", "--sizes", "1024,16384",
            "--samples", "6", "--budget", "0.3", "--no-ref", "--rounds", "off", env_override=e)
    assert r.rc == 0, r.err
    calls = [l.split() for l in log.read_text().splitlines() if l.startswith("bench")]
    first, extra = calls[0], calls[1:]
    assert "--no-kat" not in first
    assert extra, "the imprecise point must get more samples"
    for c in extra:   # extra samples only for the imprecise point, its vectors checked again
        assert c[c.index("--sizes") + 1] == "16384" and "--no-kat" not in c
    _, _, results = stored(env)
    pts = {x.size: x for x in results if x.metric == "ns_per_op"}
    assert pts[1024].n_samples == 6 and pts[1024].extra["stopped_by"] == "precision"
    assert "figure known to +-" in r.err or "figure known to +-" in r.out
    # the fake core replays fast: a quick machine reaches the core's sample cap within the
    # budget; either limit, never the precision, ends the imprecise point
    assert pts[16384].n_samples > 6 and \
        pts[16384].extra["stopped_by"] in ("budget", "max_samples"), pts[16384].extra
    assert "not the asked" in r.err


def test_crashing_core_keeps_finished_points(cli, env):
    e = dict(env, FAKE_CORE_CRASH="libgcrypt:2", FAKE_CORE_SERVE="1")
    r = cli("run", *SMALL, env_override=e)
    assert r.rc == 1
    assert "SIGSEGV" in r.err and "interrupted" in r.err
    _, run, results = stored(env)
    assert run.status == "interrupted"
    libs = {x.lib for x in results}
    assert {"ref", "openssl", "nettle"} <= libs                # the others still ran
    # the points libgcrypt finished before its core died are kept (in rounds, its other
    # algorithms go on in a new core process)
    assert len([x for x in results if x.lib == "libgcrypt" and x.metric == "ns_per_op"]) >= 2
    assert "Traceback" not in r.err


def test_ctrl_c_marks_the_run_interrupted(cli, env):
    e = dict(env, FAKE_CORE_SIGINT="openssl:1", FAKE_CORE_SERVE="1")
    r = cli("run", *SMALL, env_override=e, own_signals=True)   # the command's own Ctrl-C
    assert r.rc == 130
    assert "interrupted" in r.err and "cipherbench show 1" in r.err
    _, run, results = stored(env)
    assert run.status == "interrupted"
    # what the rounds measured before the signal is kept, nothing after it
    assert results and any(x.lib == "openssl" for x in results)
    assert len({(x.lib, x.algo, x.op, x.size) for x in results if x.metric == "ns_per_op"}) < 3 * 3 * 3 + 3


@pytest.mark.parametrize("args,message", [
    (["--algo", "aes-128-gmc"], "unknown algorithm 'aes-128-gmc' (did you mean aes-128-gcm"),
    (["--algo", "nosuch-*"], "no algorithm matches 'nosuch-*'"),
    (["--lib", "opensll"], "unknown library 'opensll' (did you mean openssl"),
    (["--op", "encrpyt"], "unknown operation 'encrpyt' (did you mean encrypt"),
    (["--sizes", "12x"], "--sizes: not a size: '12x'"),
    (["--sizes", "0"], "out of range"),
    (["--precision", "abc"], "--precision: 'abc' is not a number"),
    (["--precision", "80%"], "between 0 and 0.5"),
    (["--quick", "--full"], "exclude each other"),
    (["--budget", "-1"], "'--budget': '-1' is out of range (0 or more seconds"),
    (["--frobnicate"], "No such option '--frobnicate'"),
])
def test_bad_input_exits_2_with_one_line(cli, args, message):
    r = cli("run", *args)
    assert r.rc == 2
    assert message in r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


def test_algorithm_no_library_has(cli):
    r = cli("run", "--lib", "nettle", "--algo", "sm4-cbc", "--budget", "0")
    assert r.rc == 2 and "none of the chosen libraries implements sm4-cbc" in r.err


def test_unwritable_db(cli, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    r = cli("run", "--db", str(blocker / "x.sqlite"), *SMALL)
    assert r.rc == 1
    assert "results database" in r.err and "--db" in r.err
    assert len(r.err.strip().splitlines()) == 1


def test_missing_core(cli, env, tmp_path, monkeypatch):
    import cipherbench.cores.core_client as cc
    monkeypatch.setattr(cc, "SOURCE_TREE", tmp_path)
    monkeypatch.setattr(cc, "INSTALL_SCRIPTS", tmp_path)
    e = {k: v for k, v in env.items() if k != "CIPHERBENCH_CORE"}
    e["PATH"] = str(tmp_path)
    r = cli("run", *SMALL, env_override=e)
    assert r.rc == 1
    assert "cipherbench-core not found" in r.err and "meson compile -C build" in r.err


def test_narrow_console_turns_libraries_into_rows_instead_of_cutting_cells():
    """With many libraries and few columns, the libraries become the rows; every cell whole."""
    import io
    from rich.console import Console
    from cipherbench.display.console import display_results
    from cipherbench.display.format import Cell, ResultTable, Row

    libs = [f"library{i}" for i in range(8)]
    row = Row(algo="aes-128-gcm", op="encrypt", kind="aead", grade="recommended",
              cells={lib: Cell(bytes_per_s=1.5e9 + i, ns_per_op=10.0, ci_rel=0.01,
                               cycles_per_byte=0.7)
                     for i, lib in enumerate(libs)})
    out = io.StringIO()
    display_results(Console(file=out, width=80, force_terminal=False),
                    ResultTable(size=16384, columns=libs, rows=[row]))
    text = out.getvalue()
    assert "(1/" not in text and "…" not in text
    lines = text.splitlines()
    assert all(any(line.startswith(lib + " ") for line in lines) for lib in libs)
    assert max(len(line) for line in text.splitlines()) <= 80
