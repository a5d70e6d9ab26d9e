# SPDX-License-Identifier: GPL-3.0-or-later
"""``export --format openmetrics``: the latest figure per host, library, algorithm, operation
and size in the OpenMetrics text format (checked line by line against the format's grammar:
metadata lines, samples without timestamps, escaped label values, ``# EOF`` last), a newer run
replacing an older one's figures on its host only, and an atomic --output file."""
from __future__ import annotations

import json
import re

from cipherbench.export.openmetrics import _labels

RUN = ("run", "--lib", "openssl", "--algo", "aes-128-gcm", "--sizes", "1024,16384",
       "--budget", "0")
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\\\|\\"|\\n)*"'
SAMPLE = re.compile(rf"^({NAME})(\{{{LABEL}(?:,{LABEL})*\}})? (-?[0-9.e+-]+|NaN|[+-]Inf)$")
META = re.compile(rf"^# (TYPE|UNIT|HELP) ({NAME}) (.*)$")


def check_openmetrics(text: str) -> list[tuple[str, dict, float]]:
    """The samples, after checking every line and the families' metadata."""
    lines = text.split("\n")
    assert lines[-2:] == ["# EOF", ""], "the text must end with '# EOF' and a newline"
    families, samples = {}, []
    for line in lines[:-2]:
        m = META.match(line)
        if m:
            kind, name, value = m.groups()
            families.setdefault(name, {})[kind] = value
            if kind == "UNIT":
                assert name.endswith("_" + value), line
            continue
        m = SAMPLE.match(line)
        assert m, f"not an OpenMetrics sample line: {line!r}"
        name = m.group(1)
        assert families.get(name, {}).get("TYPE") == "gauge", f"{name} has no TYPE before it"
        labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"',
                                 m.group(2) or ""))
        samples.append((name, labels, float(m.group(3))))
    return samples


def test_latest_figure_per_host_and_point(cli, tmp_path):
    db = tmp_path / "a.sqlite"
    other = tmp_path / "b.sqlite"
    assert cli(*RUN, "--db", str(db)).rc == 0
    assert cli(*RUN, "--db", str(db)).rc == 0            # the newer run of this machine
    # a run of another machine, brought in with import
    assert cli(*RUN, "--db", str(other)).rc == 0
    doc = cli("export", "last", "--format", "json", "--db", str(other)).json()
    doc["run"]["metadata"]["host"] = 'web"1'            # a name that needs escaping
    for r in doc["results"]:
        r["median"] *= 2                                  # half as fast there
    (tmp_path / "b.json").write_text(json.dumps(doc))
    assert cli("import", str(tmp_path / "b.json"), "--db", str(db)).rc == 0

    res = cli("export", "--format", "openmetrics", "--db", str(db))
    assert res.rc == 0, res.err
    samples = check_openmetrics(res.out)
    tput = [(l, v) for n, l, v in samples if n == "cipherbench_throughput_bytes_per_second"]
    here = cli("export", "2", "--format", "json", "--db", str(db)).json()
    local = here["run"]["metadata"]["hostname"]
    assert {l["host"] for l, _ in tput} == {local, 'web\\"1'}
    keys = {(l["host"], l["algo"], l["op"], l["size"]) for l, _ in tput}
    assert len(keys) == len(tput) == 8                     # one figure per host and point
    assert {l["lib"] for l, _ in tput} == {"openssl"}      # the reference rows left out
    newest = {(r["op"], r["size"]): r["size"] / (r["median"] * 1e-9)
              for r in here["results"] if r["metric"] == "ns_per_op" and r["lib"] == "openssl"}
    for l, v in tput:
        if l["host"] == local:
            assert v == newest[(l["op"], int(l["size"]))]   # run 2's, not run 1's
    info = [l for n, l, _ in samples if n == "cipherbench_run_info"]
    assert sorted(l["run"] for l in info) == ["2", "3"]
    assert all(l["uid"] for l in info)
    # RUN makes no sense here
    res = cli("export", "1", "--format", "openmetrics", "--db", str(db))
    assert res.rc == 2 and "leave out RUN" in res.err


def test_output_file_is_replaced_whole(cli, tmp_path):
    db = tmp_path / "a.sqlite"
    assert cli(*RUN, "--db", str(db)).rc == 0
    target = tmp_path / "textfile" / "cipherbench.prom"
    target.parent.mkdir()
    target.write_text("old\n")
    assert cli("export", "--format", "openmetrics", "--db", str(db), "-o", str(target)).rc == 0
    check_openmetrics(target.read_text())
    assert sorted(p.name for p in target.parent.iterdir()) == ["cipherbench.prom"]


def test_label_values_are_escaped():
    assert _labels({"a": 'x"y\\z\nw'}) == '{a="x\\"y\\\\z\\nw"}'
