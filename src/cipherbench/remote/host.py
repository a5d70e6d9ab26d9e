# SPDX-License-Identifier: GPL-3.0-or-later
"""A host measured through ssh (``run --host``): the probe, the core run there, the cleanup.

``RemoteHost`` is a context manager. Entering it probes the host (``probe``), which also makes
the run's private directory there (mode 0700). ``cores()`` then picks the core: the one given
with ``--host-core``, else ``cipherbench-core`` on the host's PATH, else this machine's own
core with its library modules (and any Go or Rust core found beside it) shipped into the
private directory when the host has the same system and architecture (another
architecture: the C core and modules of build-ARCH/, see ``crossbuild``); the known-answer
vectors are always shipped with it when the host has ``tar``, so the core checks its answers
there against this machine's files before anything is timed. Every core process then runs through a launcher: ``ssh HOST
sh -c WRAPPER ARGV``, whose wrapper notes the core's pid in the private directory and passes
its exit status back; its JSON lines come back over the ssh channel.

Shipping is ``ship``; the cores on the host, their failures mapped, are ``cores``.

Leaving the block, whatever the reason (an error, Ctrl-C, SIGTERM, SIGHUP: ``interrupts``),
runs one more ssh command that stops any core still running from the run's directory and
removes the directory. Nothing is written on this machine.
"""
from __future__ import annotations

import platform
import secrets
import shlex
import subprocess
import time
from pathlib import Path
from typing import Callable, Mapping, Sequence

from cipherbench.machine import load, metadata
from cipherbench.cores.core_client import (SOURCE_TREE, Core, Inventory, Launcher, ProtocolMismatch,
                                           find_core)
from cipherbench.cores.combined import EXTRA_CORES, find_extra
from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.remote import crossbuild, probe, ship
from cipherbench.remote.cores import RemoteCores
from cipherbench.remote.errors import SSH_FAILED, HostLost, RemoteError, from_ssh
from cipherbench.scenarios.ssh.transfer import FORCED_OPTIONS

#: Seconds allowed to the probe, to shipping the core, to the cleanup and to a look at the load.
PROBE_TIMEOUT_S = 60.0
SHIP_TIMEOUT_S = 600.0
#: A host that stops answering (frozen, its network gone) ends every ssh of the run after
#: about 15 s of silence, a core's channel included, instead of a wait for ever.
KEEPALIVE = ["-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"]
CLEANUP_TIMEOUT_S = 30.0
LOOK_TIMEOUT_S = 20.0

#: Runs one core process on the host: $1 is the run's directory, $2 the vectors directory
#: ('' for the core's own), the rest the core's argv. The pid file lets the cleanup stop a core
#: whose ssh connection is gone; CB_RUN marks the process as this run's (pids are reused).
WRAPPER = "\n".join([
    'd=$1; v=$2; shift 2',
    'CB_RUN=$d; export CB_RUN',
    'if [ -n "$v" ]; then CIPHERBENCH_VECTORS=$v; export CIPHERBENCH_VECTORS; fi',
    '"$@" </dev/null &',
    'p=$!',
    'echo "$p" > "$d/pid.$p"',
    'wait "$p"; rc=$?',
    'rm -f "$d/pid.$p"',
    'exit "$rc"',
])

#: Stops what still runs from the run's directory, then removes it. A stopped shell of the
#: run (``remote.shell``, gpg --host) acts on SIGTERM only once its current call ends, and then
#: removes what it made: it is waited for (10 s at most), so that nothing is written into the
#: directory while it is removed. A zombie counts as ended.
CLEANUP = "\n".join([
    'd={dir}',
    '[ -d "$d" ] || exit 0',
    'left=',
    'for f in "$d"/pid.*; do',
    '  [ -f "$f" ] || continue',
    '  p=$(cat "$f")',
    '  case $p in ""|*[!0-9]*) continue;; esac',
    '  if [ -r "/proc/$p/environ" ]; then',
    '    tr "\\000" "\\n" < "/proc/$p/environ" | grep -qx "CB_RUN=$d" || continue',
    '  fi',
    '  kill "$p" 2>/dev/null && left="$left $p"',
    'done',
    'running() {{',
    '  kill -0 "$1" 2>/dev/null || return 1',
    '  [ -r "/proc/$1/stat" ] || return 0',
    '  s=$(cat "/proc/$1/stat" 2>/dev/null); s=${{s##*) }}; [ "${{s%% *}}" != Z ]',
    '}}',
    'i=0',
    'while [ "$i" -lt 50 ]; do',
    '  n=0',
    '  for p in $left; do running "$p" && n=1; done',
    '  [ "$n" = 0 ] && break',
    '  sleep 0.2 2>/dev/null || sleep 1',
    '  i=$((i + 1))',
    'done',
    # a private GnuPG home of the run (gpg --host): its agent goes with it
    'for g in "$d"/gnupg.*; do',
    '  [ -d "$g" ] && gpgconf --homedir "$g" --kill all >/dev/null 2>&1',
    'done',
    'rm -rf "$d" 2>/dev/null || {{ sleep 1; rm -rf "$d"; }}',
])


def remote_sh(script: str, args: Sequence[str] = ()) -> str:
    """The command line ssh hands the host's login shell: ``sh -c SCRIPT sh ARGS...``, each
    piece quoted once."""
    return " ".join(["sh", "-c", shlex.quote(script), "cipherbench",
                     *(shlex.quote(a) for a in args)])


def check_destination(destination: str) -> None:
    """A ``[USER@]HOST`` ssh cannot take for an option (UsageError otherwise)."""
    if not destination or destination.startswith("-") or any(c.isspace() for c in destination):
        raise UsageError(f"--host {destination!r} is not a host name: [USER@]HOST")


class RemoteHost:
    """``with RemoteHost("me@nas", env=env) as host: cores = host.cores()``."""

    def __init__(self, destination: str, *, env: Mapping[str, str],
                 ssh_config: str | None = None, host_core: str | None = None,
                 warn: Callable[[str], None] | None = None):
        check_destination(destination)
        self.destination = destination
        self.options: tuple[str, ...] = ("-F", ssh_config) if ssh_config else ()
        self.env = dict(env)
        self.host_core = host_core
        self.warn = warn or (lambda message: None)
        self.token = secrets.token_hex(8)
        self.facts = probe.HostFacts()
        self.core_source = ""           # "installed at PATH" or "shipped"
        self.lost = False               # the connection failed during the run
        self._touched = False           # the probe may have made the directory
        self.cleanup_problem = ""       # why the directory could not be removed
        self.connect_s = 0.0            # how long the probe took: about one connection
        self._probe_load_used = False
        self._sent_vectors = False
        self.inventory = Inventory()     # the chosen core's ``list`` there

    # -- ssh ---------------------------------------------------------------------------------
    def ssh_argv(self, command: str) -> list[str]:
        """``ssh`` with the user's options and the forced ones (no prompt, no shared
        connection, no compression, a connect timeout), running ``command`` there."""
        return ["ssh", *self.options, *FORCED_OPTIONS, *KEEPALIVE, self.destination, command]

    def _ssh(self, command: str, timeout: float) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(self.ssh_argv(command), stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, errors="replace",
                                  timeout=timeout, env=self.env)
        except subprocess.TimeoutExpired:
            raise RemoteError(f"{self.destination} did not answer within {timeout:.0f} s") \
                from None
        except FileNotFoundError:
            raise EnvironmentProblem("ssh not found: install openssh-client") from None

    def launcher(self, vectors: str | None) -> Launcher:
        """Runs a core's argv on the host through the wrapper (see ``WRAPPER``)."""
        def launch(argv: list[str]) -> list[str]:
            return self.ssh_argv(remote_sh(WRAPPER, [self.facts.directory, vectors or "",
                                                     *argv]))
        return launch

    # -- the run's life ----------------------------------------------------------------------
    def __enter__(self) -> "RemoteHost":
        try:
            self.open()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def open(self) -> probe.HostFacts:
        """Probe the host and make the run's directory; RemoteError (one line) when the host
        cannot be reached or used."""
        self._touched = True
        t0 = time.monotonic()
        out = self._ssh(remote_sh(probe.script(self.token)), PROBE_TIMEOUT_S)
        self.connect_s = time.monotonic() - t0
        if out.returncode == SSH_FAILED:
            err = from_ssh(out.stderr, self.destination)
            self._touched = not err.before_login
            raise err
        self.facts = probe.parse(out.stdout)
        if not self.facts.complete:
            raise RemoteError(f"the probe of {self.destination} did not finish (status "
                              f"{out.returncode}): {out.stderr.strip()[-200:] or 'no message'}")
        if not self.facts.directory:
            raise RemoteError(f"cannot make a private directory on {self.destination} "
                              f"({self.facts.dir_error}): set TMPDIR there to a writable "
                              "directory")
        return self.facts

    def close(self) -> None:
        """Stop any core still running from the run's directory and remove it (one ssh
        command); what went wrong is kept in ``cleanup_problem`` and said through ``warn``."""
        if not self._touched:
            return
        self._touched = False
        script = CLEANUP.format(dir=probe.dir_expr(self.token))
        stopped = None
        for _ in range(2):
            try:
                out = self._ssh(remote_sh(script), CLEANUP_TIMEOUT_S)
                ok, why = out.returncode == 0, out.stderr.strip().splitlines()[-1:]
            except (RemoteError, EnvironmentProblem) as e:
                ok, why = False, [str(e)]
            except KeyboardInterrupt as e:   # a stop during the cleanup: finish it first
                stopped, ok, why = e, False, ["stopped"]   # (later stops are ignored)
                continue
            break
        if not ok:
            self.cleanup_problem = (f"could not remove {probe.DIR_PREFIX}{self.token} from "
                                    f"the temporary directory of {self.destination}: "
                                    f"{why[0] if why else 'no message'}")
            self.warn(self.cleanup_problem)
        if stopped is not None:
            raise stopped

    # -- the core ----------------------------------------------------------------------------
    def cores(self, needs: Sequence[str] = ()) -> RemoteCores:
        """The core to run on the host, checked with its ``list`` (see the module
        docstring); ``needs``: commands it must have (``time`` for ``gpg --host``), else
        this machine's is shipped in place of one installed there."""
        f = self.facts
        path = self.host_core or f.installed.get("cipherbench-core")
        if path:
            vectors = self._ship_vectors() if f.tar else None
            extras = {name: p for name, p in f.installed.items() if name != "cipherbench-core"}
            try:
                cores = self._checked(path, extras, vectors, f"installed at {path}")
            except ProtocolMismatch as e:
                if self.host_core:
                    raise
                self.warn(f"the cipherbench-core on the PATH of {self.destination} ({path}) "
                          f"cannot be read: {e}; this machine's core is shipped instead")
            else:
                lacks = [n for n in needs if n not in (cores.main.commands or ())]
                if not lacks:
                    return cores
                if self.host_core:
                    raise RemoteError(f"the cipherbench-core {path} on {self.destination} has "
                                      f"no `{lacks[0]}` command (an older version): install "
                                      "this version there, or leave out --host-core to ship "
                                      "this machine's")
                self.warn(f"the cipherbench-core on the PATH of {self.destination} ({path}) "
                          f"has no `{lacks[0]}` command (an older version); this machine's "
                          "core is shipped instead")
        return self._ship()

    def _checked(self, path: str, extras: dict[str, str], vectors: str | None,
                 source: str) -> RemoteCores:
        launch = self.launcher(vectors)
        main = Core(path, self.env, launcher=launch)
        more = [(name, Core(p, self.env, launcher=launch)) for name, p in extras.items()]
        cores = RemoteCores(self, main, more, self.warn)
        self.inventory = cores.check(source)
        self.core_source = source
        return cores

    def _ship(self) -> RemoteCores:
        """This machine's cores into the run's directory, when they can run there; to a host
        of another architecture, the cross build of this checkout for it (``crossbuild``)."""
        f, here = self.facts, (platform.system(), platform.machine())
        if f.system != here[0]:
            raise RemoteError(
                f"{self.destination} is {f.system} {f.arch}, this machine {here[0]} {here[1]}: "
                "this machine's cipherbench-core cannot run there; install cipherbench on "
                f"{self.destination} (its cipherbench-core on PATH is used), or give its path "
                "with --host-core")
        cross = crossbuild.choose(self.destination, f.arch, here[1], SOURCE_TREE,
                                  ship.MODULES_DIR)
        if not f.tar:
            raise RemoteError(f"{self.destination} has no tar to receive this machine's core: "
                              f"install tar there, or install cipherbench on {self.destination}")
        if not self._sent_vectors and ship.local_vectors(self.env) is None:
            raise RemoteError("this machine's known-answer vectors were not found, and the "
                              "core shipped would have nothing to check its answers against: "
                              "set CIPHERBENCH_VECTORS to the vectors directory")
        if cross is not None:
            # The C core alone: the Go and Rust cores here are built for this machine.
            files = {"cipherbench-core": cross.core, **cross.modules}
        else:
            core = find_core(self.env)
            files = {"cipherbench-core": core, **ship.local_modules(core, self.env)}
            for spec in EXTRA_CORES:
                try:
                    p = find_extra(spec, self.env)
                except EnvironmentProblem:
                    p = None
                if p is not None:
                    files[spec.executable] = p
        self._send(files)
        d = f.directory
        extras = {name: f"{d}/{name}" for name in files
                  if name != "cipherbench-core" and not name.startswith(ship.MODULES_DIR + "/")}
        source = "shipped" if cross is None else f"shipped ({cross.arch} cross build)"
        return self._checked(f"{d}/cipherbench-core", extras, f"{d}/vectors", source)

    def _ship_vectors(self) -> str | None:
        """This machine's vectors into the run's directory (the path there), or None when
        there are none here to send."""
        self._send({})
        return f"{self.facts.directory}/vectors" if self._sent_vectors else None

    def _send(self, executables: dict[str, Path]) -> None:
        """``executables`` (by name) and, the first time, the vectors, into the run's
        directory (``ship.send``)."""
        vectors = None if self._sent_vectors else ship.local_vectors(self.env)
        if not executables and vectors is None:
            return
        command = remote_sh('cd "$1" && tar -xf -', [self.facts.directory])
        try:
            rc, text = ship.send(self.ssh_argv(command), executables, vectors, self.env,
                                 SHIP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise HostLost(f"the copy of the core to {self.destination} did not finish within "
                           f"{SHIP_TIMEOUT_S:.0f} s") from None
        if rc == SSH_FAILED:
            raise from_ssh(text, self.destination, lost=True)
        if rc != 0:
            last = text.strip().splitlines()[-1:] or [f"status {rc}"]
            raise RemoteError(f"cannot copy the core to {self.destination}: {last[0]}")
        if vectors is not None:
            self._sent_vectors = True

    # -- what the run stores -----------------------------------------------------------------
    def machine_keys(self) -> dict:
        """The host's machine metadata (``metadata.host_machine``)."""
        f = self.facts
        return metadata.host_machine(f.files, hostname=f.hostname, arch=f.arch,
                                     kernel=f.kernel, system=f.system, cores=f.cpus)

    def run_metadata(self, meta: Mapping, inventory: Inventory) -> dict:
        """A plan's metadata with the machine keys of the host (the core's keys from its own
        preamble) and which host and core."""
        out = dict(meta)
        out.update(metadata.collect(inventory.preamble, None, machine_keys=self.machine_keys()))
        out["host"] = self.destination
        out["host_core"] = self.core_source
        return out

    def load_snapshot(self) -> load.LoadSnapshot:
        """The host's load now: its load average and running tasks (one ssh command; none
        known when the host does not answer)."""
        f = self.facts
        text = ""
        if not self.lost:
            try:
                out = self._ssh(remote_sh('cat /proc/loadavg; grep "^procs_running" '
                                          '/proc/stat'), LOOK_TIMEOUT_S)
                text = out.stdout if out.returncode == 0 else ""
            except (RemoteError, EnvironmentProblem):
                text = ""
        return _snapshot(text, f.cpus)

    def first_snapshot(self) -> load.LoadSnapshot:
        """The load the probe saw (no extra connection) the first time, a new look after."""
        if self._probe_load_used:
            return self.load_snapshot()
        self._probe_load_used = True
        f = self.facts
        text = f.files.get("proc/loadavg", "")
        if f.procs_running is not None:
            text += f"\nprocs_running {f.procs_running}\n"
        return _snapshot(text, f.cpus)


def _snapshot(text: str, cpus: int) -> load.LoadSnapshot:
    """A ``LoadSnapshot`` from ``/proc/loadavg`` and the ``procs_running`` line of
    ``/proc/stat``; the one running task of our own is the reader."""
    loadavg, running, procs_running = None, None, None
    for line in text.splitlines():
        parts = line.split()
        if line.startswith("procs_running") and len(parts) > 1 and parts[1].isdigit():
            procs_running = int(parts[1])
        elif len(parts) >= 4 and "/" in parts[3]:
            try:
                loadavg = (float(parts[0]), float(parts[1]), float(parts[2]))
                running = int(parts[3].split("/")[0])
            except ValueError:
                pass
    return load.LoadSnapshot(max(cpus, 1), loadavg, running, procs_running)


__all__ = ["HostLost", "RemoteError", "RemoteHost", "check_destination", "remote_sh"]
