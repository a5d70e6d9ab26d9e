# SPDX-License-Identifier: GPL-3.0-or-later
"""Machines side by side: `compare` with more than two runs or `--host` names draws one row
per machine (its fastest allowed choice and the verdict against its own default, from its own
evidence), the fleet's sentence and the config lines per group; `report` the same with a
chart of the machines side by side; `advise --inventory` and repeated `--host` answer per host
and end with the fleet's summary."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import cipherbench
from advise_fixtures import AES_CPU, NO_AES_CPU, add_primitive
from cipherbench.store import Store

SCHEMA = Path(cipherbench.__file__).parent / "export" / "machines.schema.json"


def fleet_store(path: str) -> dict[str, int]:
    """This machine (AES), h1 and h2 (AES) and nas (no AES), each measured with `run --host`."""
    with Store.open(path) as s:
        return {
            "here": add_primitive(s, AES_CPU, ["aes", "pclmulqdq"]),
            "h1": add_primitive(s, AES_CPU, ["aes"], meta={"host": "me@h1", "hostname": "h1",
                                                           "machine_id": "m1"}),
            "nas": add_primitive(s, NO_AES_CPU, ["ssse3"], meta={"host": "nas",
                                                                 "hostname": "nas",
                                                                 "cpu_model": "Old CPU"}),
            "h2": add_primitive(s, AES_CPU, ["aes"], meta={"host": "h2", "hostname": "h2",
                                                           "machine_id": "m2"}, scale=1.02),
        }


@pytest.mark.real
def test_compare_of_three_machines_answers_each_from_its_own_runs(cli, env):
    ids = fleet_store(env["CIPHERBENCH_DB"])
    out = cli("compare", *(str(ids[k]) for k in ("here", "h1", "nas")), "--json")
    assert out.rc == 0, out.err
    doc = out.json()
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    t = doc["targets"][0]
    rows = {m["name"]: m for m in t["machines"]}
    assert set(rows) == {"recorded", "h1", "nas"}
    assert rows["nas"]["evidence_runs"] == [ids["nas"]]
    assert rows["h1"]["evidence_runs"] == [ids["h1"]]
    assert rows["recorded"]["evidence_runs"] == [ids["here"]]
    # the NAS (no AES) keeps ssh's default, chacha20-poly1305; the AES machines are told
    # aes128-gcm is measurably faster than their default
    assert rows["nas"]["state"] == "keep the default"
    assert rows["nas"]["choice"] == "chacha20-poly1305@openssh.com"
    assert rows["h1"]["choice"] == "aes128-gcm@openssh.com"
    assert rows["h1"]["against_default"] == "faster than the default"
    assert "aes128-gcm@openssh.com" in t["columns"]
    assert t["summary"]["sentence"].startswith("3 hosts, ssh: keep the default "
                                               "(chacha20-poly1305@openssh.com) on 1; "
                                               "aes128-gcm@openssh.com measurably faster on 2")
    # this machine's lines name no host (`Host *`), h1's name it: two groups, one answer
    groups = [g for g in t["summary"]["groups"] if g["choice"] == "aes128-gcm@openssh.com"]
    assert sorted(g["machines"] for g in groups) == [["h1"], ["recorded"]]
    assert "Host h1" in next(g for g in groups if g["machines"] == ["h1"])["config"]


@pytest.mark.real
def test_compare_hosts_names_the_unmeasured_one_and_prints_a_table(cli, env):
    fleet_store(env["CIPHERBENCH_DB"])
    out = cli("compare", "--host", "h1,nas", "--host", "ghost", "--host", "h2",
              env_override={**env, "COLUMNS": "100"})
    assert out.rc == 0, out.err
    lines = out.out.splitlines()
    assert all(len(x) <= 100 for x in lines), out.out
    table = "\n".join(lines)
    assert "machine" in table and "against its default" in table
    assert "4 hosts, ssh:" in out.out
    assert "not measured on 1: ghost" in out.out
    assert "not measured: ghost: run `cipherbench advise --for ssh --host ghost`" in out.out
    # one config block for the two AES hosts, naming both in one ssh Host line
    assert "config for h1, h2 (aes128-gcm@openssh.com):" in out.out
    assert "Host h1 h2" in out.out


def test_compare_of_three_runs_of_one_machine_is_refused_in_one_line(cli, env):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        ids = [add_primitive(s, AES_CPU, ["aes"]) for _ in range(3)]
    out = cli("compare", *map(str, ids))
    assert out.rc == 2 and "all come from one machine" in out.err
    assert len(out.err.strip().splitlines()) == 1


@pytest.mark.real
def test_two_runs_of_two_machines_end_with_each_machines_answer(cli, env):
    ids = fleet_store(env["CIPHERBENCH_DB"])
    out = cli("compare", str(ids["here"]), str(ids["nas"]))
    assert out.rc == 0, out.err
    assert "speed of run" in out.out           # the ratios as before
    assert "2 hosts, ssh:" in out.out and "against its default" in out.out


@pytest.mark.real
def test_report_draws_the_machines_side_by_side_with_a_chart(cli, env, tmp_path):
    ids = fleet_store(env["CIPHERBENCH_DB"])
    page, pngs = tmp_path / "r.html", tmp_path / "png"
    out = cli("report", str(ids["here"]), str(ids["h1"]), "--host", "nas,ghost", "-o",
              str(page), "--png", str(pngs))
    assert out.rc == 0, out.err
    html = page.read_text()
    assert '<section id="machines">' in html
    assert "4 hosts, ssh: keep the default (chacha20-poly1305@openssh.com) on 1" in html
    assert "not measured: ghost" in html
    # the title names the machines, each run's section its machine
    assert "<title>cipherbench report: 4 machines (recorded, h1, nas, ghost)" in html
    assert f"Primitives (run {ids['nas']}, nas)" in html
    assert (pngs / "machines-ssh.png").stat().st_size > 0


@pytest.mark.real
def test_the_machine_chart_keeps_each_machine_its_own_series(env):
    from cipherbench.advise import fleet
    from cipherbench.advise.engine import Options
    from cipherbench.advise.targets import TARGETS
    from cipherbench.advise.validate import Validator
    from cipherbench.report import machines as M
    ids = fleet_store(env["CIPHERBENCH_DB"])
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        runs = [s.get_run(str(ids[k])) for k in ("here", "nas")]
        answers = fleet.answer_machines(s, fleet.machines_of_runs(runs), TARGETS["ssh"],
                                        Options(), env, Validator(env))
    data = M.bars(answers, ["#000", "#111"])
    assert data.series == ["recorded", "nas"]
    # the NAS's chacha20 rate is its own (420 MB/s), this machine's its own (1.7 GB/s)
    label = "chacha20-poly1305@openssh.com"
    assert data.values[("nas", label)] == pytest.approx(420e6, rel=1e-6)
    assert data.values[("recorded", label)] == pytest.approx(1700e6, rel=1e-6)


@pytest.mark.real
def test_the_aes_hw_chart_never_puts_a_remote_run_in_the_local_series(cli, env, tmp_path):
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        here = add_primitive(s, AES_CPU, ["aes"])
        # the same CPU model, measured through ssh with the AES instructions off
        there = add_primitive(s, NO_AES_CPU, ["aes"], meta={"host": "h1", "hostname": "h1",
                                                            "hw_disabled": ["aes"]})
    out = cli("report", "--chart", "aes-hw", str(here), str(there), "-o",
              str(tmp_path / "a.png"))
    assert out.rc == 2 and "name runs of one machine" in out.err
    page = tmp_path / "r.html"
    assert cli("report", str(here), str(there), "-o", str(page)).rc == 0
    assert "overview-aes-hw" not in page.read_text()


@pytest.mark.real
def test_advise_inventory_group_answers_per_host_and_sums_up_the_fleet(cli, env, tmp_path):
    fleet_store(env["CIPHERBENCH_DB"])
    inv = tmp_path / "hosts.ini"
    inv.write_text("[web]\nme@h1\nh2\n\n[storage]\nnas\nghost\n")
    out = cli("advise", "--for", "ssh", "--inventory", f"{inv}:web", "--json")
    assert out.rc == 0, out.err
    doc = out.json()
    jsonschema.validate(doc, json.loads(SCHEMA.read_text()))
    t = doc["targets"][0]
    assert [m["name"] for m in t["machines"]] == ["h1", "h2"]
    assert t["summary"]["sentence"] == ("2 hosts, ssh: aes128-gcm@openssh.com measurably "
                                        "faster on 2: h1, h2.")
    (group,) = t["summary"]["groups"]
    assert "Host h1 h2" in group["config"]
    assert all(m["advice"]["target"] == "ssh" for m in t["machines"])
    assert len(doc["stored_runs"]) == 2

    # the whole inventory: the host without a run is named, not measured; exit 3
    out = cli("advise", "--for", "ssh", "--inventory", str(inv))
    assert out.rc == 3, out.err
    assert ("4 hosts, ssh: keep the default (chacha20-poly1305@openssh.com) on 1; "
            "aes128-gcm@openssh.com measurably faster on 2: h1, h2; not measured on 1: "
            "ghost.") in " ".join(out.out.split())
    assert "config for h1, h2 (aes128-gcm@openssh.com):" in out.out
    assert "config for nas (chacha20-poly1305@openssh.com):" in out.out


@pytest.mark.real
def test_advise_repeated_host_reads_each_hosts_primitives_for_tls_too(cli, env):
    fleet_store(env["CIPHERBENCH_DB"])
    out = cli("advise", "--for", "tls-server", "--host", "h1", "--host", "nas", "--json")
    assert out.rc == 0, out.err
    rows = {m["name"]: m for m in out.json()["targets"][0]["machines"]}
    assert rows["h1"]["choice"] == "TLS_AES_128_GCM_SHA256"
    assert rows["nas"]["choice"] == "TLS_CHACHA20_POLY1305_SHA256"


def test_advise_inventory_errors_are_one_line(cli, env, tmp_path):
    out = cli("advise", "--for", "ssh", "--inventory", str(tmp_path / "none.ini"))
    assert out.rc == 2 and len(out.err.strip().splitlines()) == 1, out.err
    inv = tmp_path / "hosts.ini"
    inv.write_text("[web]\nh1\n")
    out = cli("advise", "--for", "luks", "--inventory", str(inv), "--kernel")
    assert out.rc == 2 and "--kernel" in out.err


def test_the_fleet_sentence_counts_every_host_once_and_names_the_exceptions():
    from cipherbench.advise import verdicts as A
    from cipherbench.advise import wording as W
    keep = A.AnswerVerdict("ssh", A.KEEP_DEFAULT, choice="chacha20-poly1305@openssh.com")
    fast = A.AnswerVerdict("ssh", A.USE, against_default=A.FASTER,
                           choice="aes128-gcm@openssh.com")
    none = A.AnswerVerdict("ssh", A.NOT_MEASURED)
    many = tuple(f"h{i}" for i in range(1, 11))
    text = W.fleet_sentence("ssh", 37, [(keep, tuple(f"k{i}" for i in range(25))),
                                        (fast, many), (none, ("h40", "h41"))])
    assert text == ("37 hosts, ssh: keep the default (chacha20-poly1305@openssh.com) on 25; "
                    "aes128-gcm@openssh.com measurably faster on 10: h1, h2, h3, h4, h5, h6, "
                    "h7, h8 and 2 more; not measured on 2: h40, h41.")


@pytest.mark.real
def test_compare_host_patterns_match_the_stored_hosts_and_inventories_name_hosts(cli, env,
                                                                                 tmp_path):
    fleet_store(env["CIPHERBENCH_DB"])
    doc = cli("compare", "--host", "h*", "--json").json()
    assert [m["name"] for m in doc["targets"][0]["machines"]] == ["h1", "h2"]
    inv = tmp_path / "hosts.yml"
    inv.write_text("all:\n  children:\n    storage:\n      hosts:\n        nas:\n"
                   "        ghost:\n")
    out = cli("compare", "--inventory", f"{inv}:storage", "--json")
    assert out.rc == 0, out.err
    assert [m["name"] for m in out.json()["targets"][0]["machines"]] == ["nas", "ghost"]
    out = cli("compare", "--host", "db*")
    assert out.rc == 2 and "matches no host of a stored run" in out.err
    assert len(out.err.strip().splitlines()) == 1


@pytest.mark.real
def test_compare_json_of_two_machines_carries_their_answers(cli, env):
    ids = fleet_store(env["CIPHERBENCH_DB"])
    doc = cli("compare", str(ids["here"]), str(ids["nas"]), "--json").json()
    assert doc["format_version"] == 5
    assert [m["name"] for m in doc["machines"]["machines"]] == ["recorded", "nas"]
    one = cli("compare", str(ids["h1"]), str(ids["h1"]), "--json").json()
    assert one["machines"] is None
