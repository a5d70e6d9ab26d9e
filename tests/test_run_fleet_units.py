# SPDX-License-Identifier: GPL-3.0-or-later
"""Many hosts in one command, without a network: which hosts ``--host`` (repeated,
comma-separated, ssh config patterns) and ``--inventory`` (Ansible INI and YAML) name, the
arguments each host's run gets, and a fleet of hosts that refuse the connection (each reported,
each a failed run, the exit status 1). The fleet of real hosts is test_run_fleet_netns.py."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import jsonschema
import pytest

from cipherbench.errors import UsageError
from cipherbench.remote import inventory, targets
from cipherbench.remote.fleet import parse_documents, strip_options
from conftest import TESTS

FLEET_SCHEMA = json.loads((TESTS.parent / "src" / "cipherbench" / "export" /
                           "fleet.schema.json").read_text())

INI = textwrap.dedent("""\
    # a small fleet
    bastion.example.com

    [web]
    web[01:03].example.com ansible_user=deploy
    db1 ansible_host=10.0.0.5 ansible_port=2222

    [db]
    db1

    [dc1:children]
    web
    db

    [dc1:vars]
    ntp=10.0.0.1
    """)

YAML = textwrap.dedent("""\
    ---
    all:
      hosts:
        bastion.example.com:
      children:
        web:
          hosts:
            web[a:c]:
              ansible_user: "deploy"   # quoted, with a comment
        db:
          hosts:
            db1:
              ansible_host: 10.0.0.5
              ansible_port: 2222
        dc1:
          children:
            web:
            db:
    """)


def test_ini_inventory_groups_children_ranges_and_variables(tmp_path):
    f = tmp_path / "hosts.ini"
    f.write_text(INI)
    assert inventory.hosts_of(f"{f}:web") == [
        "deploy@web01.example.com", "deploy@web02.example.com", "deploy@web03.example.com",
        "ssh://10.0.0.5:2222"]
    assert inventory.hosts_of(f"{f}:dc1") == inventory.hosts_of(f"{f}:web")  # db1 once
    assert inventory.hosts_of(str(f))[0] == "bastion.example.com"
    assert len(inventory.hosts_of(str(f))) == 5
    with pytest.raises(UsageError, match=r"no group 'nope' \(groups: db, dc1, web\)"):
        inventory.hosts_of(f"{f}:nope")


def test_yaml_inventory_without_pyyaml(tmp_path):
    f = tmp_path / "hosts.yml"
    f.write_text(YAML)
    assert inventory.hosts_of(f"{f}:web") == ["deploy@weba", "deploy@webb", "deploy@webc"]
    assert inventory.hosts_of(f"{f}:dc1") == ["deploy@weba", "deploy@webb", "deploy@webc",
                                              "ssh://10.0.0.5:2222"]
    assert inventory.hosts_of(str(f))[0] == "bastion.example.com"
    f.write_text("all:\n  hosts:\n    - h1\n")
    with pytest.raises(UsageError, match="line 3: only nested mappings"):
        inventory.hosts_of(str(f))


def test_hosts_repeated_comma_separated_and_patterns(tmp_path):
    cfg = tmp_path / "ssh_config"
    inc = tmp_path / "more.conf"
    inc.write_text("Host web3 !web4\n  HostName 10.0.0.3\n")
    cfg.write_text(f"Host web1 web2\n  Port 22\nHost db1\nHost web*\n  User x\n"
                   f"Include {inc}\n")
    env = {"HOME": str(tmp_path)}
    assert targets.expand(["h1", "h2,h3", "h1"], None, str(cfg), env) == ["h1", "h2", "h3"]
    assert targets.expand(["root@web*"], None, str(cfg), env) == [
        "root@web1", "root@web2", "root@web3"]
    with pytest.raises(UsageError, match=r"'mail\*' matches no Host entry"):
        targets.expand(["mail*"], None, str(cfg), env)
    with pytest.raises(UsageError, match="an empty name between commas"):
        targets.expand(["h1,,h2"], None, str(cfg), env)
    with pytest.raises(UsageError, match="is not a host name"):
        targets.expand(["-oProxyCommand=x"], None, str(cfg), env)


def test_each_host_gets_the_same_arguments_but_the_fleet_options():
    args = ["--algo", "--host", "--host", "h1,h2", "--lib=openssl", "--json", "--parallel",
            "3", "--host-timeout=9", "--no-progress", "--sizes", "1k"]
    takes = {"--algo", "--host", "--lib", "--parallel", "--host-timeout", "--sizes"}
    drop = {"--host", "--parallel", "--host-timeout", "--json", "--no-progress"}
    assert strip_options(args, drop, takes) == ["--algo", "--host", "--lib=openssl",
                                                "--sizes", "1k"]


def test_documents_of_a_child_one_after_another():
    docs = parse_documents('{"run": {"id": 3}}\n{"run": {"id": 4}}\n')
    assert [d["run"]["id"] for d in docs] == [3, 4]


@pytest.fixture
def dead_fleet(tmp_path):
    """An ssh config whose hosts refuse the connection (nobody listens on ports 1-3)."""
    cfg = tmp_path / "ssh_config"
    cfg.write_text("".join(f"Host dead{i}\n  HostName 127.0.0.1\n  Port {i}\n"
                           for i in (1, 2, 3)) + "Host *\n  BatchMode yes\n")
    return str(cfg)


def test_repeated_host_measures_every_host_not_the_last(cli, dead_fleet):
    res = cli("run", "--host", "dead1", "--host", "dead2,dead3", "--ssh-config", dead_fleet,
              "--algo", "sha256", "--parallel", "2")
    assert res.rc == 1
    assert "Traceback" not in res.err
    for name in ("dead1", "dead2", "dead3"):
        assert f"{name}: failed after" in res.err and f"{name} is unreachable" in res.err
    assert "3 hosts: 0 complete; 3 did not finish" in res.out
    runs = cli("history", "--json").json()["runs"]
    assert sorted(r["status"] for r in runs) == ["failed"] * 3   # one failed run per host


def test_fleet_json_document(cli, dead_fleet):
    res = cli("run", "--host", "dead*", "--ssh-config", dead_fleet, "--algo", "sha256",
              "--json", "--no-progress")
    assert res.rc == 1
    doc = res.json()
    jsonschema.validate(doc, FLEET_SCHEMA)
    assert [h["host"] for h in doc["hosts"]] == ["dead1", "dead2", "dead3"]
    assert all(h["status"] == "failed" and "unreachable" in h["reason"] for h in doc["hosts"])
    # each names the failed run it stored
    assert sorted(i for h in doc["hosts"] for i in h["run_ids"]) == [1, 2, 3]


def test_fleet_options_need_hosts(cli):
    res = cli("run", "--parallel", "2", "--algo", "sha256")
    assert res.rc == 2 and "--parallel needs --host or --inventory" in res.err
    res = cli("run", "--inventory", "/nonexistent.ini", "--algo", "sha256")
    assert res.rc == 2 and "no such file" in res.err


@pytest.fixture
def silent_fleet(tmp_path):
    """Hosts that never answer: ssh waits on a proxy that says nothing (``sleep 47``)."""
    cfg = tmp_path / "ssh_config"
    cfg.write_text("".join(f"Host mute{i}\n  ProxyCommand sleep 47\n" for i in (1, 2))
                   + "Host *\n  BatchMode yes\n")
    return str(cfg)


def _sleepers(settle_s: float = 0.0) -> list[int]:
    """The proxies still running; with ``settle_s``, after waiting that long for them to end
    (a process killed a moment ago is not gone at once)."""
    deadline = time.monotonic() + settle_s
    while (found := _sleeping()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def _sleeping() -> list[int]:
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/cmdline", "rb") as f:
                    if f.read() == b"sleep\x0047\x00":
                        out.append(int(p))
            except OSError:
                pass
    return out


def test_hosts_that_never_answer_are_timed_out(cli, silent_fleet):
    t0 = time.monotonic()
    res = cli("run", "--host", "mute1,mute2", "--ssh-config", silent_fleet, "--algo", "sha256",
              "--host-timeout", "3", "--json")
    assert res.rc == 1, res.err
    doc = res.json()
    assert [h["status"] for h in doc["hosts"]] == ["timed out", "timed out"]
    assert all(h["reason"].startswith("no end within --host-timeout 3 s") for h in doc["hosts"])
    assert time.monotonic() - t0 < 47          # not waiting for the hosts
    assert _sleepers(settle_s=5) == []


def test_stopping_the_command_stops_every_host(env, silent_fleet):
    env = {**env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "run", "--host", "mute*",
                             "--ssh-config", silent_fleet, "--algo", "sha256"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_sleepers()) < 2:
            time.sleep(0.1)
        assert len(_sleepers()) == 2, "the hosts' ssh did not start"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=40)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert _sleepers(settle_s=5) == []
