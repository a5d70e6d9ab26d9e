# SPDX-License-Identifier: GPL-3.0-or-later
"""`ssh --host` with several hosts, and the fleet's answer from what it stored: two "hosts" in
the network namespace of the ssh tests (``test_run_fleet_netns.fleet``: each its own sshd and
host name), measured by one `ssh` command one host at a time (this machine's CPU runs every
client), each run stored against its host; then `advise --host` for both and `compare --host`
put the hosts side by side. Needs root, iproute2 and unshare (skipped with the reason
otherwise). `tls` and `gpg` take the host options of `run` (test_gpg_tls_host_netns.py), and
refuse with a host what is about this machine."""
from __future__ import annotations

import pytest

from test_run_fleet_netns import NAMES, fleet, real_env  # noqa: F401 - fixtures
from test_ssh_netns import remote  # noqa: F401 - the namespace fixture

CIPHER = "aes128-gcm@openssh.com"


@pytest.mark.real
def test_ssh_measures_each_host_in_turn_and_the_fleet_is_answered(cli, fleet,  # noqa: F811
                                                                  real_env):  # noqa: F811
    servers, cfg = fleet
    hosts = ",".join(NAMES[:2])
    res = cli("ssh", "--host", hosts, "--ssh-config", cfg, "--ciphers",
              f"{CIPHER},chacha20-poly1305@openssh.com", "--size", "1M", "--rounds", "3",
              "--no-baseline", "--json", env_override=real_env)
    assert res.rc == 0, res.err
    assert "Traceback" not in res.err
    doc = res.json()
    assert [h["host"] for h in doc["hosts"]] == list(NAMES[:2])
    assert all(h["status"] == "complete" and len(h["run_ids"]) == 1 for h in doc["hosts"])
    for h in doc["hosts"]:
        run = h["runs"][0]["run"]
        assert run["command"] == "ssh" and run["args"]["host"] == h["host"]

    out = cli("advise", "--for", "ssh", "--host", hosts, "--ssh-config", cfg, "--json",
              env_override=real_env)
    assert out.rc == 0, out.err
    t = out.json()["targets"][0]
    rows = {m["name"]: m for m in t["machines"]}
    for h in doc["hosts"]:
        # each host's answer comes from the ssh run against it, no other
        assert rows[h["host"]]["evidence_runs"] == h["run_ids"]
        assert rows[h["host"]]["state"] in ("use", "keep the default")
    assert t["summary"]["sentence"].startswith("2 hosts, ssh: ")


def test_tls_and_gpg_take_the_host_options_of_run(cli, tmp_path):
    """Their --host options are run's; what is about this machine is refused with a host,
    each in one line."""
    for args, hint in ((("gpg", "--host", "h1", "--cpu", "0"), "--cpu is not supported with "
                        "--host"),
                       (("tls", "--host", "h1", "--wait-quiet"), "--wait-quiet is not "
                        "supported with --host"),
                       (("gpg", "--host", "h1", "--disk", str(tmp_path)), "with --host give "
                        "the rate of the host's disk"),
                       (("gpg", "--ssh-config", "x"), "--ssh-config needs --host"),
                       (("tls", "--parallel", "2"), "--parallel needs --host or --inventory"),
                       (("tls", "--host", "h1,h2", "--list-suites"), "give one --host")):
        out = cli(*args)
        assert out.rc == 2, out.err
        assert len(out.err.strip().splitlines()) == 1 and hint in out.err, out.err
