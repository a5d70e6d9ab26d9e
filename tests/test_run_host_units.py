# SPDX-License-Identifier: GPL-3.0-or-later
"""`run --host` without a host: the ssh command lines, the shell programs run there (run here
with the real sh), the probe's reading, the error mapping and the options refused."""
from __future__ import annotations

import os
import platform
import shlex
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
import pytest

from cipherbench.machine import metadata
from cipherbench.cores.core_client import Core, CoreCrashed
from cipherbench.remote import errors as E
from cipherbench.remote import probe
from cipherbench.remote.cores import RemoteCores
from cipherbench.remote.host import CLEANUP, WRAPPER, RemoteHost, _snapshot, remote_sh
from cipherbench.scenarios.ssh.transfer import FORCED_OPTIONS
from test_export import SCHEMA


def host(**kw) -> RemoteHost:
    return RemoteHost("me@nas", env={"PATH": os.environ.get("PATH", "")}, **kw)


def sh(command: str, **kw) -> subprocess.CompletedProcess:
    """What the host's login shell does with the command ssh hands it."""
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=30,
                          **kw)


# -- command lines --------------------------------------------------------------------------
def test_ssh_argv_has_the_users_config_and_the_forced_options():
    h = host(ssh_config="/cfg")
    argv = h.ssh_argv("true")
    assert argv[:3] == ["ssh", "-F", "/cfg"]
    assert argv[3:3 + len(FORCED_OPTIONS)] == FORCED_OPTIONS   # BatchMode, no shared link
    assert argv[-2:] == ["me@nas", "true"]
    assert host().ssh_argv("x")[1] == FORCED_OPTIONS[0]


def test_launcher_quotes_the_core_argv_once_for_the_remote_shell():
    h = host()
    h.facts.directory = "/tmp/cipherbench-run-x"
    argv = ["/tmp/cipherbench-run-x/cipherbench-core", "bench", "--algo", "aes-*-gcm,a b"]
    out = h.launcher("/tmp/cipherbench-run-x/vectors")(argv)
    assert out[:-1] == h.ssh_argv("")[:-1]
    assert shlex.split(out[-1]) == ["sh", "-c", WRAPPER, "cipherbench", "/tmp/cipherbench-run-x",
                                    "/tmp/cipherbench-run-x/vectors", *argv]


def test_core_with_a_launcher_starts_the_launched_argv_and_names_the_core(tmp_path):
    seen: list[list[str]] = []

    def launch(argv: list[str]) -> list[str]:
        seen.append(argv)
        return ["sh", "-c", 'echo "$0: error while loading shared libraries: libx.so" >&2; '
                'exit 127', argv[0]]

    core = Core("/far/away/cipherbench-core", {"PATH": os.environ["PATH"]}, launcher=launch)
    with pytest.raises(CoreCrashed) as e:
        core.list()
    assert seen == [["/far/away/cipherbench-core", "list"]]
    assert str(e.value).startswith("cipherbench-core exited with status 127")
    assert e.value.returncode == 127


@pytest.mark.parametrize("bad", ["-oProxyCommand=x", "a b", ""])
def test_bad_destinations_are_refused(bad):
    from cipherbench.errors import UsageError
    with pytest.raises(UsageError):
        RemoteHost(bad, env={})


# -- the programs run on the host (with this machine's sh) --------------------------------------
def test_wrapper_passes_the_exit_status_and_removes_its_pid_file(tmp_path):
    out = sh(remote_sh(WRAPPER, [str(tmp_path), "", "sh", "-c",
                                 'echo "$CB_RUN $CIPHERBENCH_VECTORS"; exit 3']))
    assert out.returncode == 3
    assert out.stdout.split() == [str(tmp_path)]    # no vectors given: none set
    assert list(tmp_path.iterdir()) == []
    out = sh(remote_sh(WRAPPER, [str(tmp_path), "/v", "sh", "-c", 'echo "$CIPHERBENCH_VECTORS"']))
    assert (out.returncode, out.stdout.strip()) == (0, "/v")


def test_wrapper_reports_a_signal_as_128_plus_its_number(tmp_path):
    out = sh(remote_sh(WRAPPER, [str(tmp_path), "", "sh", "-c", "kill -SEGV $$"]))
    assert out.returncode == 128 + signal.SIGSEGV


def test_cleanup_stops_the_runs_process_only_and_removes_the_directory(tmp_path):
    token = "unit" + str(os.getpid())
    d = tmp_path / f"{probe.DIR_PREFIX}{token}"
    d.mkdir(mode=0o700)
    ours = subprocess.Popen(["sleep", "60"], env={**os.environ, "CB_RUN": str(d)})
    other = subprocess.Popen(["sleep", "60"])   # a reused pid must not be hit
    try:
        (d / f"pid.{ours.pid}").write_text(f"{ours.pid}\n")
        (d / f"pid.{other.pid}").write_text(f"{other.pid}\n")
        (d / "pid.junk").write_text("1; rm -rf /\n")
        out = sh(remote_sh(CLEANUP.format(dir=probe.dir_expr(token))),
                 env={**os.environ, "TMPDIR": str(tmp_path)})
        assert out.returncode == 0, out.stderr
        assert ours.wait(timeout=10) == -signal.SIGTERM
        assert other.poll() is None
        assert not d.exists()
        # nothing there (already removed, or never made): fine
        assert sh(remote_sh(CLEANUP.format(dir=probe.dir_expr(token))),
                  env={**os.environ, "TMPDIR": str(tmp_path)}).returncode == 0
    finally:
        for p in (ours, other):
            if p.poll() is None:
                p.kill()
                p.wait()


def test_cleanup_waits_for_a_stopped_shell_to_finish_before_removing(tmp_path):
    """A shell of the run acts on SIGTERM only once its current call ends, and writes into
    the directory then (a gpg call finishing in its home): the directory is removed after
    it, not before (it was left behind when removed first)."""
    token = "late" + str(os.getpid())
    d = tmp_path / f"{probe.DIR_PREFIX}{token}"
    d.mkdir(mode=0o700)
    shell = subprocess.Popen(["sh", "-c", 'trap \'mkdir -p "$CB_RUN/gnupg.late/out"; '
                              'exit 143\' TERM; sleep 1.5; true'],
                             env={**os.environ, "CB_RUN": str(d)})
    try:
        (d / f"pid.{shell.pid}").write_text(f"{shell.pid}\n")
        time.sleep(0.2)                       # the shell is in its call
        out = sh(remote_sh(CLEANUP.format(dir=probe.dir_expr(token))),
                 env={**os.environ, "TMPDIR": str(tmp_path)})
        assert out.returncode == 0, out.stderr
        assert shell.poll() == 143            # ended (a zombie) before the removal
        assert not d.exists()
    finally:
        if shell.poll() is None:
            shell.kill()
            shell.wait()


def test_probe_on_this_machine_makes_a_private_dir_and_reads_the_machine(tmp_path):
    out = sh(remote_sh(probe.script("abc")), env={**os.environ, "TMPDIR": str(tmp_path)})
    f = probe.parse(out.stdout)
    assert f.complete, out.stdout + out.stderr
    d = Path(f.directory)
    assert d == tmp_path / f"{probe.DIR_PREFIX}abc" and d.is_dir()
    assert d.stat().st_mode & 0o777 == 0o700
    assert (f.system, f.arch) == (platform.system(), platform.machine())
    assert f.kernel == platform.release() and f.cpus >= 1 and f.tar
    keys = metadata.host_machine(f.files, hostname=f.hostname, arch=f.arch, kernel=f.kernel,
                                 system=f.system, cores=f.cpus)
    here = metadata.machine()
    for k in ("cpu_model", "cpu_flags", "hypervisor", "os", "governor", "kernel", "cpu_arch"):
        assert keys[k] == here[k], k
    assert set(keys) <= set(metadata.KEYS)
    # a second probe with the same token does not reuse the directory
    again = probe.parse(sh(remote_sh(probe.script("abc")),
                           env={**os.environ, "TMPDIR": str(tmp_path)}).stdout)
    assert again.directory == "" and again.dir_error


def test_probe_parse_of_another_host():
    text = "\n".join(["@cb dir /tmp/cipherbench-run-1", "@cb uname Linux aarch64",
                      "@cb kernel 6.1.0-rpi", "@cb hostname nas", "@cb cpus 4",
                      "@cb exe cipherbench-core /usr/local/bin/cipherbench-core",
                      "@cb exe cipherbench-core-go relative/path", "@cb running 3",
                      "@cb file /proc/cpuinfo", "processor\t: 0", "Features\t: fp asimd aes pmull",
                      "", "@cb end", "@cb file /proc/loadavg", "0.50 0.40 0.30 2/100 42", "",
                      "@cb end", "@cb done"])
    f = probe.parse(text)
    assert (f.system, f.arch, f.hostname, f.cpus, f.procs_running) == \
        ("Linux", "aarch64", "nas", 4, 3)
    assert f.installed == {"cipherbench-core": "/usr/local/bin/cipherbench-core"}
    assert not f.tar and f.complete
    keys = metadata.host_machine(f.files, hostname=f.hostname, arch=f.arch, kernel=f.kernel,
                                 system=f.system, cores=f.cpus)
    assert keys["cpu_flags"] == ["aes", "pmull", "asimd"]
    assert keys["loadavg"] == 0.5 and keys["os"] == "Linux" and keys["hostname"] == "nas"
    snap = _snapshot(f.files["proc/loadavg"] + "procs_running 3\n", f.cpus)
    assert snap.others == 2 and snap.cpus == 4


# -- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("stderr, words, before_login", [
    ("ssh: connect to host nas port 22: Connection refused", "unreachable", True),
    ("me@nas: Permission denied (publickey).", "refused authentication", True),
    ("ssh: Could not resolve hostname nas: Name or service not known", "resolve", True),
    ("Host key verification failed.", "host key", True),
])
def test_ssh_failures_before_login(stderr, words, before_login):
    err = E.from_ssh(stderr, "nas")
    assert words in str(err) and err.before_login is before_login
    assert "\n" not in str(err)


def test_a_connection_lost_mid_run_is_host_lost():
    err = E.from_ssh("client_loop: send disconnect: Broken pipe", "nas", lost=True)
    assert isinstance(err, E.HostLost) and "lost the connection to nas" in str(err)
    assert "Broken pipe" in str(err)


@pytest.mark.parametrize("line, why", [
    ("/tmp/d/cipherbench-core: error while loading shared libraries: libbotan-2.so.19: cannot "
     "open shared object file: No such file or directory", "a library it needs is missing"),
    ("/tmp/d/cipherbench-core: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found "
     "(required by /tmp/d/cipherbench-core)", "a library it needs is missing or older"),
    ("Error loading shared library libcjson.so.1: No such file or directory (needed by "
     "/tmp/d/cipherbench-core)", "a library it needs is missing"),
    ("sh: 1: /tmp/d/cipherbench-core: Exec format error", "another architecture"),
    ("cipherbench: 4: /tmp/d/cipherbench-core: not found", "program loader is missing"),
])
def test_the_loaders_own_line_is_reported(line, why):
    err = E.cannot_start(f"some noise\n{line}\n", "nas", "this machine's core, shipped,", True)
    text = str(err)
    assert why in text and line in text and "--host-core" in text and "\n" not in text


def test_an_installed_core_that_is_not_there():
    err = E.cannot_start("sh: 1: /opt/cb/cipherbench-core: not found", "nas",
                         "the cipherbench-core installed at /opt/cb/cipherbench-core", False)
    assert "no such program there" in str(err)


def test_a_host_of_another_architecture_is_refused_before_anything_is_sent(monkeypatch):
    h = host()
    h.facts = probe.HostFacts(system="Linux", arch="riscv64", directory="/tmp/x", tar=True,
                              complete=True)
    sent = []
    monkeypatch.setattr(RemoteHost, "_send", lambda self, files: sent.append(files))
    with pytest.raises(E.RemoteError) as e:
        h.cores()
    assert "riscv64" in str(e.value) and platform.machine() in str(e.value)
    assert sent == []


def test_a_host_without_tar_cannot_receive_the_core(monkeypatch):
    h = host()
    h.facts = probe.HostFacts(system=platform.system(), arch=platform.machine(),
                              directory="/tmp/x", complete=True)
    with pytest.raises(E.RemoteError, match="has no tar"):
        h.cores()


def test_core_failures_seen_from_here():
    cores = RemoteCores(host(), Core("/x/cipherbench-core", {}), [], None)
    lost = cores.failure(CoreCrashed("ssh exited with status 255", 255,
                                     "Connection to nas closed by remote host."))
    assert isinstance(lost, E.HostLost) and cores.host.lost
    seg = cores.failure(CoreCrashed("x", 128 + signal.SIGSEGV, ""))
    assert isinstance(seg, CoreCrashed) and "killed by SIGSEGV" in str(seg)
    plain = CoreCrashed("cipherbench-core exited with status 3", 3, "")
    assert cores.failure(plain) is plain


# -- the command line -------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (["--host", "nas", "--threads", "2"], "--threads is not supported with --host"),
    (["--host", "nas", "--cpu", "0"], "--cpu is not supported with --host"),
    (["--host", "nas", "--wait-quiet", "5"], "--wait-quiet is not supported with --host"),
    (["--ssh-config", "/etc/hostname"], "--ssh-config needs --host"),
    (["--host-core", "/x"], "--host-core needs --host"),
    (["--host", "nas", "--ssh-config", "/no/such/file"], "no such file"),
    (["--host", "-oProxyCommand=touch /tmp/x"], "is not a host name"),
])
def test_options_refused_with_one_line(cli, args, words):
    res = cli("run", *args)
    assert res.rc == 2, res.err
    assert words in res.err and len(res.err.strip().splitlines()) == 1
    assert "Traceback" not in res.err


def test_unreachable_host_one_line_failed_run_and_nothing_made(cli, tmp_path):
    """A port nobody listens on: ssh is refused before login; the run is stored as failed with
    the reason, and no cleanup connection is tried."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = tmp_path / "ssh_config"
    cfg.write_text(f"Host closed\n  HostName 127.0.0.1\n  Port {port}\n")
    t0 = time.monotonic()
    res = cli("run", "--host", "closed", "--ssh-config", str(cfg), "--algo", "aes-128-gcm")
    assert res.rc == 1
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and "closed is unreachable: connection refused" in lines[0], res.err
    assert "marked failed" in lines[0]
    assert time.monotonic() - t0 < 30
    doc = cli("export", "last", "--format", "json").json()
    jsonschema.validate(doc, SCHEMA)
    assert doc["run"]["status"] == "failed"
    assert doc["run"]["metadata"]["host"] == "closed"
    assert [w["kind"] for w in doc["warnings"]] == ["host_failed"]
    assert "connection refused" in doc["warnings"][0]["text"]
    hist = cli("history")
    assert "run @closed" in hist.out and "failed" in hist.out


def test_a_stop_during_the_cleanup_lets_it_finish_then_goes_on(monkeypatch):
    h = host()
    h._touched = True
    calls = []

    def ssh(self, command, timeout):
        calls.append(command)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return subprocess.CompletedProcess([], 0, "", "")

    monkeypatch.setattr(RemoteHost, "_ssh", ssh)
    with pytest.raises(KeyboardInterrupt):
        h.close()
    assert len(calls) == 2 and "rm -rf" in calls[1] and not h.cleanup_problem
    h.close()   # once only
    assert len(calls) == 2


def test_nothing_to_clean_when_ssh_never_logged_in(monkeypatch):
    h = host()
    calls = []

    def ssh(self, command, timeout):
        calls.append(command)
        return subprocess.CompletedProcess([], 255, "", "ssh: connect to host nas port 22: "
                                           "Connection refused\n")

    monkeypatch.setattr(RemoteHost, "_ssh", ssh)
    with pytest.raises(E.RemoteError, match="unreachable"):
        with h:
            pass
    assert len(calls) == 1   # the probe; no cleanup connection
