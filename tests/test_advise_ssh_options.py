# SPDX-License-Identifier: GPL-3.0-or-later
"""advise takes every option its ssh measurement needs: --ssh-config (as `cipherbench ssh
--ssh-config`) and --via (the tool that moves the bytes), and prints the line for the tool
measured."""
from __future__ import annotations

import shutil

import pytest

from advise_fixtures import fill
from cipherbench.advise.measure import Measurer, plan_takes_via


def one_line_error(out, *words):
    assert out.rc == 2, out.out
    assert len(out.err.strip().splitlines()) == 1 and "Traceback" not in out.err
    for w in words:
        assert w in out.err, out.err


@pytest.mark.parametrize("args,words", [
    (["--via", "ftp"], ["--via ftp", "pipe, sftp, scp, rsync"]),
    (["--via", ""], ["empty list"]),
    (["--ssh-config", "x"], ["needs --host"]),
    (["--host", "nas", "--ssh-config", "/nonexistent/cfg"], ["no such file"]),
])
def test_bad_ssh_options_are_one_line(cli, args, words):
    one_line_error(cli("advise", "--no-measure", "--for", "ssh", *args), *words)


def test_via_scp_parses_and_is_refused_cleanly_where_unsupported(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    out = cli("advise", "--no-measure", "--json", "--for", "ssh", "--via", "scp,rsync")
    if plan_takes_via():
        assert out.rc == 0, out.err
        assert out.json()["via"] == ["scp", "rsync"]
    else:
        one_line_error(out, "--via scp,rsync", "ssh's own pipe only", "--via pipe")


def test_via_prints_the_line_of_the_tool_measured(cli, env):
    fill(env["CIPHERBENCH_DB"], "aes")
    out = cli("advise", "--no-measure", "--json", "--for", "ssh", "--via", "pipe")
    assert out.rc == 0, out.err
    doc = out.json()
    assert doc["via"] == ["pipe"]
    texts = [c["text"] for c in doc["targets"][0]["config"]]
    assert any(t.strip().startswith("Ciphers aes128-gcm@openssh.com") for t in texts)
    one_off = [t for t in texts if t.startswith(("ssh -c", "scp", "sftp", "rsync", "export"))]
    assert one_off == ["ssh -c aes128-gcm@openssh.com user@host 'cat > FILE' < FILE"]
    # without --via (a run through ssh's own pipe stored): every tool's line
    doc = cli("advise", "--no-measure", "--json", "--for", "ssh").json()
    texts = [c["text"] for c in doc["targets"][0]["config"]]
    assert sum(t.startswith(("scp -c", "sftp -c", "rsync -a -e")) for t in texts) == 3


def test_via_picks_the_rows_of_that_tool(cli, env):
    # a run that measured through scp and through ssh's pipe: --via scp rates by the scp rows
    from advise_fixtures import MB
    from cipherbench.store import Result, Store
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        run = s.begin_run("ssh", {"host": "127.0.0.1 (private sshd)"},
                          {"hostname": "recorded", "cpu_model": "Recorded CPU"})
        for via, rate in (("pipe", 900), ("scp", 300)):
            # the ssh scenario stores the tool that moved the bytes as the row's op
            s.add_result(run, Result("ssh", "openssh", "aes128-gcm@openssh.com", via,
                                     1 << 25, "bytes_per_s", "B/s", rate * MB, rate * MB * 0.98,
                                     rate * MB * 1.02, 6, 0.01))
        s.finish_run(run, "complete")
    from cipherbench.advise.evidence import Evidence
    with Store.open(env["CIPHERBENCH_DB"]) as s:
        ev = Evidence.load(s, via=["scp"])
        assert ev.ssh_via == "scp" and ev.ssh["aes128-gcm@openssh.com"].median == 300 * MB
        ev = Evidence.load(s)
        assert ev.ssh_via == "pipe" and ev.ssh["aes128-gcm@openssh.com"].median == 900 * MB
        # nothing through sftp: the other real paths stay, as lower layers, none through sftp
        assert [x.via for x in Evidence.load(s, via=["sftp"]).ssh_layers] == ["pipe", "scp"]


def test_the_measurement_gets_ssh_config_and_via(env, tmp_path):
    m = Measurer(env, str(tmp_path / "r.sqlite"), lambda _msg: None)
    cfg = tmp_path / "cfg"
    cfg.write_text("Host nas\n")
    planned = m.plan_ssh("nas", ["aes128-gcm@openssh.com"], ssh_config=str(cfg), via=["pipe"])
    assert planned.args[-4:] == ["--ssh-config", str(cfg), "--via", "pipe"]
    plan = planned.plan()
    assert plan.host == "nas" and plan.ssh_config == str(cfg)
    if plan_takes_via():
        assert plan.via == ["pipe"]


@pytest.mark.skipif(shutil.which("ssh") is None or shutil.which("sshd") is None and
                    not __import__("os").path.exists("/usr/sbin/sshd"),
                    reason="needs OpenSSH client and server")
def test_advise_measures_a_host_through_its_ssh_config(cli, env, tmp_path):
    # a private server reached only through its ssh_config, as a NAS would be
    from cipherbench.scenarios.ssh.server import PrivateServer
    with PrivateServer(ciphers=["aes128-gcm@openssh.com", "chacha20-poly1305@openssh.com"],
                       tmp_parent=str(tmp_path)) as srv:
        cfg, dest = str(srv.client_config), srv.destination
        out = cli("advise", "--json", "--for", "ssh", "--host", dest, "--ssh-config", cfg,
                  "--via", "pipe")
    assert out.rc == 0, out.err
    doc = out.json()
    ssh_runs = [m for m in doc["measured"] if m["args"][0] == "ssh"]
    assert len(ssh_runs) == 1 and ssh_runs[0]["exit"] == 0, doc["measured"]
    assert "--ssh-config" in ssh_runs[0]["args"]
    t = doc["targets"][0]
    assert t["recommendation"]["rate"]["source"] == "ssh"
    assert ssh_runs[0]["run"] in t["evidence_runs"]
    assert t["recommendation"]["choice"] in ("aes128-gcm@openssh.com",
                                             "chacha20-poly1305@openssh.com")
    texts = [c["text"] for c in t["config"]]
    assert f"# {cfg} (client) for {dest.split('@')[-1]}" in texts
    assert any(x.startswith("ssh -c ") for x in texts)
