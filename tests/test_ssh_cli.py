# SPDX-License-Identifier: GPL-3.0-or-later
"""`cipherbench ssh` end to end against the real OpenSSH server on 127.0.0.1, with small sizes:
every offered cipher measured with intact data, results stored and exportable, and the faults
(refused cipher, unreachable host, host key mismatch) each one line while the rest runs."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys

import pytest

from cipherbench.scenarios.ssh.server import SSHD, PrivateServer, free_port, offered, query

pytestmark = pytest.mark.skipif(
    not os.access(SSHD, os.X_OK) or not sys.platform.startswith("linux")
    or shutil.which("ssh") is None,
    reason=f"needs OpenSSH (client and {SSHD}) on Linux: apt-get install openssh-server")

MAC = "umac-64-etm@openssh.com"


def _heads(doc):
    return {r["algo"]: r for r in doc["results"] if r["metric"] == "bytes_per_s"}


def test_by_default_the_ciphers_and_mac_of_the_users_ssh(cli):
    """Without --ciphers and --macs: what the client offers (``ssh -G``), each non-AEAD
    cipher with the MAC it offers first, the one it negotiates."""
    res = cli("ssh", "--size", "4M", "--via", "pipe", "--rounds", "2", "--no-baseline",
              "--json")
    assert res.rc == 0, res.err
    client = offered()
    mac = client.macs[0]
    want = {c if c.endswith(("-gcm@openssh.com", "poly1305@openssh.com")) else f"{c}+{mac}"
            for c in client.ciphers}
    assert set(_heads(res.json())) == want


def test_every_offered_cipher_is_measured_with_intact_data(cli, env):
    res = cli("ssh", "--size", "8M", "--ciphers", "all", "--macs", MAC, "--via", "pipe",
              "--rounds", "2", "--json")
    assert res.rc == 0, res.err
    doc = res.json()
    assert doc["run"]["command"] == "ssh" and doc["run"]["status"] == "complete"
    heads = _heads(doc)
    refused = {w["subject"].split()[0] for w in doc["warnings"] if w["kind"] == "unsupported"}
    for cipher in query("cipher"):
        algo = cipher if cipher.endswith(("-gcm@openssh.com", "poly1305@openssh.com")) \
            else f"{cipher}+{MAC}"
        if cipher in refused:
            continue
        row = heads[algo]
        assert row["scenario"] == "ssh" and row["lib"] == "openssh"
        assert row["median"] > 0 and row["op"] == "pipe"
        # A sample sends all 8 MiB unless it is slow (a busy machine): then it stops after
        # runner.SAMPLE_MAX_S, the row says so, and its size is what was sent and counted.
        assert row["extra"]["requested_size"] == 8 << 20
        if row["extra"]["sample_cut"]:
            assert 0 < row["size"] < 8 << 20
        else:
            assert row["size"] == 8 << 20
        assert row["extra"]["verified"] is True  # the far side's SHA-256 matched
        assert row["n_samples"] == 2 and row["extra"]["rounds"] == 2
        assert row["extra"]["server_cpu_s"] > 0 and row["extra"]["client_cpu_s"] > 0
        assert row["ci_low"] <= row["median"] <= row["ci_high"]
    assert len(heads) - 1 + len(refused) == len(query("cipher"))
    base = heads["cleartext-tcp"]
    assert base["lib"] == "tcp" and base["extra"]["verified"] is True
    # the same run is in the store and exports like any other
    with sqlite3.connect(env["CIPHERBENCH_DB"]) as conn:
        n = conn.execute("SELECT COUNT(*) FROM results WHERE scenario='ssh' AND "
                         "metric='bytes_per_s'").fetchone()[0]
    assert n == len(heads)
    # every timed sample is stored as it comes: two rounds of every row
    rounds = [r for r in doc["results"] if r["metric"] == "round_s"]
    assert len(rounds) == 2 * len(heads)
    assert sorted({r["extra"]["round"] for r in rounds}) == [0, 1]
    for r in rounds:  # each sample: what it sent, all of it counted on the far side
        assert 0 < r["extra"]["sent"] <= 8 << 20 and r["extra"]["verified"] is True
        assert r["extra"]["cut"] == (r["extra"]["sent"] < 8 << 20)
    assert {r["algo"] for r in doc["ssh_rows"]} == set(heads)
    assert doc["bottleneck"]["kind"] == "unknown"     # two rounds are too few for a verdict
    csv = cli("export", "last", "--format", "csv")
    assert csv.rc == 0 and "aes128-ctr+" + MAC in csv.out


def test_table_ranks_against_default_and_baseline_with_paired_verdicts(cli):
    res = cli("ssh", "--size", "4M", "--ciphers", "aes128-ctr,chacha20-poly1305@openssh.com",
              "--macs", MAC, "--via", "pipe", "--rounds", "6", "--seed", "1")
    assert res.rc == 0, res.err
    assert "cleartext (python)" in res.out
    assert "chacha20-poly1305 *" in res.out  # OpenSSH's default cipher is marked
    assert "1.00x" in res.out
    assert "ssh via pipe" in " ".join(res.out.split())
    line = next(ln for ln in res.out.splitlines() if ln.lstrip().startswith(("1 ", "2 "))
                and "aes128-ctr" in ln)
    assert any(w in line for w in ("faster", "slower", "within"))   # a verdict, 6 rounds
    # the answer: a bottleneck sentence, or (a busy machine's rounds) "Cannot tell what limits"
    neck = [ln for ln in res.out.splitlines()
            if "bottleneck" in ln or ln.startswith("Cannot tell what limits")]
    assert len(neck) == 1 and not ("Crypto is" in neck[0] and "path is" in neck[0])
    again = cli("show", "last")                # the stored rounds redraw the same table
    lines = res.out.rstrip("\n").splitlines()
    k = lines.index(neck[0])
    table, verdict = "\n".join(lines[:k]), "\n".join(lines[k:])
    assert again.rc == 0 and table in again.out
    # the verdict (a paragraph, wrapped) ends both, after any stored warnings (under load)
    assert again.out.rstrip("\n").endswith(verdict)


@pytest.fixture(scope="module")
def picky_server(tmp_path_factory):
    """A private server that accepts only two ciphers, reached through --host/--ssh-config
    as a remote machine would be."""
    with PrivateServer(ciphers=["aes128-ctr", "chacha20-poly1305@openssh.com"],
                       tmp_parent=str(tmp_path_factory.mktemp("picky"))) as srv:
        yield srv


def test_refused_cipher_is_one_line_and_the_others_are_stored(cli, picky_server):
    srv = picky_server
    res = cli("ssh", "--host", srv.destination, "--ssh-config", str(srv.client_config),
              "--ciphers", "aes128-ctr,aes256-cbc,chacha20-poly1305@openssh.com",
              "--macs", MAC, "--size", "4M", "--via", "pipe", "--rounds", "2", "--json")
    assert res.rc == 0, res.err
    lines = [ln for ln in res.err.splitlines() if ln.strip()]
    refused = [ln for ln in lines if "aes256-cbc" in ln]
    assert len(refused) == 1 and "refuses cipher aes256-cbc" in refused[0]
    assert "Traceback" not in res.err
    heads = _heads(res.json())
    assert {"aes128-ctr+" + MAC, "chacha20-poly1305@openssh.com"} <= set(heads)
    assert not any(a.startswith("aes256-cbc") for a in heads)
    tool_present = shutil.which("socat") or shutil.which("nc")
    if tool_present:  # the remote baseline uses what the "remote" has
        assert heads["cleartext-tcp"]["extra"]["tool"] in ("socat", "nc")
    else:
        assert any("neither socat nor nc" in ln for ln in lines)


def _config_variant(srv, tmp_path, **changes) -> str:
    text = srv.client_config.read_text()
    for old, new in changes.items():
        text = text.replace(old, new)
    path = tmp_path / "ssh_config"
    path.write_text(text)
    return str(path)


def test_unreachable_host_is_one_line(cli, env, picky_server, tmp_path):
    cfg = _config_variant(picky_server, tmp_path,
                          **{f"Port {picky_server.port}": f"Port {free_port()}"})
    res = cli("ssh", "--host", picky_server.destination, "--ssh-config", cfg, "--size", "1M")
    assert res.rc == 1
    assert res.err.strip().count("\n") == 0 and "Traceback" not in res.err
    assert "unreachable: connection refused" in res.err
    with sqlite3.connect(env["CIPHERBENCH_DB"]) as conn:
        assert conn.execute("SELECT status FROM runs").fetchall() == [("failed",)]


def test_host_key_mismatch_is_one_line(cli, picky_server, tmp_path):
    other = tmp_path / "other_key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)],
                   check=True, stdin=subprocess.DEVNULL)
    kind, key = other.with_suffix(".pub").read_text().split()[:2]
    known = tmp_path / "known_hosts"
    known.write_text(f"{picky_server.destination} {kind} {key}\n")
    cfg = _config_variant(picky_server, tmp_path,
                          **{str(picky_server.dir / "known_hosts"): str(known)})
    res = cli("ssh", "--host", picky_server.destination, "--ssh-config", cfg, "--size", "1M")
    assert res.rc == 1
    assert res.err.strip().count("\n") == 0 and "Traceback" not in res.err
    assert "host key" in res.err


@pytest.mark.parametrize("args, words", [
    (["--ciphers", "aes128-ctx"], "did you mean aes128-ctr"),
    (["--macs", "hmac-sha3"], "unknown MAC"),
    (["--size", "0"], "out of range"),
    (["--size", "lots"], "not a size"),
    (["--ssh-config", "x"], "needs --host"),
    (["--via", "ftp"], "valid: pipe, sftp, scp, rsync"),
    (["--rounds", "1"], "--rounds"),
])
def test_bad_input_exits_2_with_one_line(cli, args, words):
    res = cli("ssh", *args)
    assert res.rc == 2
    assert words in res.err and res.err.count("\n") == 1
