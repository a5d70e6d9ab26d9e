# SPDX-License-Identifier: GPL-3.0-or-later
"""`cipherbench run --host` against a "remote" machine: the network namespace the ssh tests
build (``test_ssh_netns.NetnsRemote``: a veth link, its own address), with a second private
sshd inside it that also has its own host name (a UTS namespace), so what the run stores can
only have come from the host. The real core is shipped there (the host's PATH has none).

Checked: the results are stored here with the host's machine metadata and shown as the
host's; the run's directory on the host is gone afterwards; an installed core (``--host-core``)
is used in place; a host that refuses the login or lacks a library fails in one line with a
failed run and nothing left; SIGTERM in the middle of a run leaves nothing on either side.
Needs root, iproute2 and unshare (skipped with the reason otherwise, as the ssh tests).
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import jsonschema
import pytest

from cipherbench.remote.probe import DIR_PREFIX
from cipherbench.scenarios.ssh.server import PrivateServer
from conftest import real_core
from test_export import SCHEMA
from test_ssh_netns import REMOTE_ADDR, remote  # noqa: F401 - the namespace fixture

REMOTE_NAME = "cbtest-remote"
TMP = os.environ.get("TMPDIR") or "/tmp"   # the host's temporary directory: the same files


def run_dirs() -> set[str]:
    """The run directories on the host (it shares this machine's file system)."""
    return set(glob.glob(os.path.join(TMP, DIR_PREFIX + "*"))) | \
        set(glob.glob(os.path.join("/tmp", DIR_PREFIX + "*")))


def run_processes(dirs: set[str] | None = None) -> list[int]:
    """Processes started by a run on the host (they carry CB_RUN=<its directory>)."""
    found = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            env = (p / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        for item in env:
            if item.startswith(b"CB_RUN=") and (dirs is None or
                                                item[7:].decode(errors="replace") in dirs):
                found.append(int(p.name))
    return found


def stop(proc: subprocess.Popen) -> None:
    """A run still going when a test fails: stopped the way that cleans up, else killed."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def host(remote, tmp_path):  # noqa: F811 - the fixture imported above
    """A second sshd in the namespace with its own host name; (destination, ssh_config)."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux) for the host's own host name")
    wrap = ("unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec "$@"', REMOTE_NAME,
            "ip", "netns", "exec", remote.ns)
    srv = PrivateServer(listen=REMOTE_ADDR, wrap=wrap, tmp_parent=str(tmp_path))
    try:
        srv.start()
    except Exception as e:  # noqa: BLE001 - where UTS namespaces are refused: skip
        pytest.skip(f"cannot start sshd in a UTS namespace here: {e}")
    user = pwd.getpwuid(os.getuid()).pw_name
    try:
        yield f"{user}@{REMOTE_ADDR}", str(srv.client_config)
    finally:
        srv.stop()


@pytest.fixture
def real_env(env):
    return {**env, "CIPHERBENCH_CORE": str(real_core())}


def test_run_on_the_host_is_stored_with_its_metadata(cli, host, real_env):
    dest, cfg = host
    before = run_dirs()
    res = cli("run", "--host", dest, "--ssh-config", cfg, "--lib", "openssl", "--algo",
              "aes-128-gcm", "--sizes", "1024,16k", "--budget", "0", env_override=real_env)
    assert res.rc == 0, res.err
    assert "Traceback" not in res.err
    assert f"measured on {dest} ({REMOTE_NAME}" in res.out and "core shipped" in res.out
    doc = cli("export", "last", "--format", "json", env_override=real_env).json()
    m = doc["run"]["metadata"]
    assert m["host"] == dest and doc["run"]["args"]["host"] == dest
    assert m["hostname"] == REMOTE_NAME != os.uname().nodename   # taken on the host
    assert m["host_core"] == "shipped"
    assert m["cpu_model"] and m["kernel"] == os.uname().release and m["cores"] >= 1
    assert m["cpu_share"] is None and m["load_start"]["cpus"] == m["cores"]
    assert "openssl" in m["libraries"]
    pts = [r for r in doc["results"] if r["metric"] == "ns_per_op" and r["lib"] == "openssl"]
    assert {(r["algo"], r["op"], r["size"]) for r in pts} == {
        ("aes-128-gcm", op, s) for op in ("encrypt", "decrypt") for s in (1024, 16384)}
    assert all(r["median"] > 0 for r in pts)
    # history and show say which host
    assert f"run @{dest}" in cli("history", env_override=real_env).out
    shown = cli("show", "last", env_override=real_env).out
    assert f"host: {dest} ({REMOTE_NAME}; core shipped)" in " ".join(shown.split())
    # the run's directory on the host is gone, and nothing of it runs
    assert run_dirs() == before
    assert run_processes() == []


def test_an_installed_core_is_used_in_place(cli, host, real_env):
    dest, cfg = host
    core = str(real_core())
    res = cli("run", "--host", dest, "--ssh-config", cfg, "--host-core", core, "--lib",
              "openssl", "--algo", "sha256", "--sizes", "1024", "--budget", "0", "--json",
              env_override=real_env)
    assert res.rc == 0, res.err
    doc = res.json()   # run --json: the export document, the host in its metadata
    jsonschema.validate(doc, SCHEMA)
    m = doc["run"]["metadata"]
    assert m["host"] == dest
    assert m["host_core"] == f"installed at {core}" and m["hostname"] == REMOTE_NAME
    assert {r["algo"] for r in doc["results"] if r["lib"] == "openssl"} == {"sha256"}


def test_login_refused_one_line_failed_run_nothing_left(cli, host, real_env):
    _, cfg = host
    before = run_dirs()
    res = cli("run", "--host", f"nobody@{REMOTE_ADDR}", "--ssh-config", cfg, "--algo",
              "aes-128-gcm", env_override=real_env)
    assert res.rc == 1
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and "refused authentication" in lines[0], res.err
    doc = cli("export", "last", "--format", "json", env_override=real_env).json()
    assert doc["run"]["status"] == "failed" and doc["warnings"][0]["kind"] == "host_failed"
    assert run_dirs() == before


def test_missing_library_reports_the_loaders_line(cli, host, real_env, tmp_path):
    """A core linked against a library the host lacks (built here, the library removed)."""
    if shutil.which("cc") is None:
        pytest.skip("needs a C compiler to build a program with a missing library")
    dest, cfg = host
    (tmp_path / "m.c").write_text("int cbt_missing(void) { return 1; }\n")
    (tmp_path / "x.c").write_text("int cbt_missing(void);\nint main(void) "
                                  "{ return cbt_missing(); }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libcbtmissing.so"),
                    str(tmp_path / "m.c")], check=True)
    exe = tmp_path / "bin" / "cipherbench-core"
    exe.parent.mkdir()
    subprocess.run(["cc", "-o", str(exe), str(tmp_path / "x.c"), f"-L{tmp_path}",
                    "-lcbtmissing"], check=True)
    (tmp_path / "libcbtmissing.so").unlink()
    before = run_dirs()
    res = cli("run", "--host", dest, "--ssh-config", cfg, "--algo", "aes-128-gcm",
              env_override={**real_env, "CIPHERBENCH_CORE": str(exe)})
    assert res.rc == 1
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, res.err
    assert "a library it needs is missing" in lines[0]
    assert "error while loading shared libraries: libcbtmissing.so" in lines[0]
    assert run_dirs() == before


def test_a_host_without_one_library_gets_every_other_column(cli, host, real_env, tmp_path):
    """The core shipped with a module whose library is not there (built here against one,
    then removed): the host measures every other library, and the run says which one it
    lacks with the loader's line (the host has no $CIPHERBENCH_MODULES: only modules shipped
    beside the core can give it the others)."""
    from test_core_modules import LOADER_LINE, broken_modules
    dest, cfg = host
    core, modules, victim, others = broken_modules(tmp_path)
    before = run_dirs()
    res = cli("run", "--host", dest, "--ssh-config", cfg, "--algo", "sha256", "--sizes", "1024",
              "--budget", "0", "--json",
              env_override={**real_env, "CIPHERBENCH_CORE": str(core),
                            "CIPHERBENCH_MODULES": str(modules)})
    assert res.rc == 0, res.err
    doc = res.json()
    assert doc["run"]["metadata"]["host_core"] == "shipped"
    measured = {r["lib"] for r in doc["results"]}
    assert set(others) <= measured and victim not in measured
    missing = [w for w in doc["warnings"] if w["kind"] == "library_missing"]
    assert [w["subject"] for w in missing] == [victim]
    assert LOADER_LINE in missing[0]["text"]
    assert run_dirs() == before


def test_sigterm_mid_run_leaves_nothing_on_either_side(host, real_env, tmp_path):
    dest, cfg = host
    before = run_dirs()
    local_tmp = tmp_path / "local-tmp"
    local_tmp.mkdir()
    env = {**real_env, "TMPDIR": str(local_tmp),
           "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "run", "--host", dest,
                             "--ssh-config", cfg, "--lib", "openssl,libgcrypt", "--algo",
                             "aes-*", "--sizes", "1024,16k,64k", "--budget", "1"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")),
                              daemon=True)
    reader.start()
    try:
        # the run has started (its estimate is printed when it opens) and a core runs there
        deadline = time.monotonic() + 120
        running: list[str] = []
        while time.monotonic() < deadline and proc.poll() is None:
            started = any(ln.startswith("cipherbench: run: about") for ln in list(lines))
            running = [d for d in run_dirs() - before if glob.glob(os.path.join(d, "pid.*"))]
            if started and running:
                break
            time.sleep(0.05)
        assert started and running, "".join(lines)
        time.sleep(0.5)   # well inside the run
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=90)
        reader.join(timeout=10)
    finally:
        stop(proc)
    err = "".join(lines)
    assert proc.returncode == 130, err
    assert "interrupted: run" in err and "Traceback" not in err
    assert run_dirs() == before                   # the host's side
    assert run_processes(set(running)) == []
    assert list(local_tmp.iterdir()) == []        # this side
    show = subprocess.run([sys.executable, "-m", "cipherbench", "export", "last", "--format",
                           "json"], env=env, capture_output=True, text=True, timeout=60)
    import json
    doc = json.loads(show.stdout)
    assert doc["run"]["status"] == "interrupted"
    assert doc["run"]["metadata"]["hostname"] == REMOTE_NAME


def test_connection_lost_mid_run_one_line_reason_kept_nothing_left(host, real_env, tmp_path):
    """The host's ssh session dies while the core runs there: the run ends with one line, is
    marked with the reason, and the core left running there is stopped by the cleanup."""
    dest, cfg = host
    before = run_dirs()
    env = {**real_env, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    proc = subprocess.Popen([sys.executable, "-m", "cipherbench", "run", "--host", dest,
                             "--ssh-config", cfg, "--lib", "openssl,libgcrypt", "--algo",
                             "aes-*", "--sizes", "1024,16k,64k", "--budget", "1",
                             "--no-progress", "--rounds", "off"],   # ref first, stored
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 120
        running: list[str] = []
        cores: list[int] = []
        while time.monotonic() < deadline and proc.poll() is None and not cores:
            running = [d for d in run_dirs() - before if glob.glob(os.path.join(d, "pid.*"))]
            # a library's bench process: the reference rows before it are stored by then
            cores = [p for p in run_processes(set(running)) if b"\0bench\0--lib\0openssl\0"
                     in _cmdline(p)] if running else []
            time.sleep(0.05)
        assert cores, "no core measured on the host"
        # the sshd processes serving the session; the listener (the farthest) stays, so the
        # cleanup can still connect
        sessions = set()
        for c in cores:
            sessions.update(_sshd_ancestors(c)[:-1])
        assert sessions
        for p in sessions:
            os.kill(p, signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        stop(proc)
    print(err)   # seen with `pytest -s`
    assert proc.returncode == 1, err
    lines = [ln for ln in err.splitlines() if ln.startswith("cipherbench: error:")]
    assert len(lines) == 1 and "connection" in lines[0] and dest.split("@")[1] in lines[0], err
    assert "Traceback" not in err
    assert run_dirs() == before
    assert run_processes(set(running)) == []
    show = subprocess.run([sys.executable, "-m", "cipherbench", "export", "last", "--format",
                           "json"], env=env, capture_output=True, text=True, timeout=60)
    import json
    doc = json.loads(show.stdout)
    assert doc["run"]["status"] == "interrupted" and doc["results"]   # what finished is kept
    assert "host_failed" in [w["kind"] for w in doc["warnings"]]
    assert f"run {doc['run']['id']} is marked interrupted" in lines[0]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:   # gone meanwhile
        return b""


def _sshd_ancestors(pid: int) -> list[int]:
    """The sshd processes above ``pid``, nearest first."""
    out = []
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            if Path(f"/proc/{pid}/comm").read_text().startswith("sshd"):
                out.append(pid)
        except (OSError, ValueError, IndexError):
            break
    return out
