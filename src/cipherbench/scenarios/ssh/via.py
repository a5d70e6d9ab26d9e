# SPDX-License-Identifier: GPL-3.0-or-later
"""The programs that move the bytes over ssh: ``pipe`` (ssh itself, its stdin to a remote
``wc -c``: ``transfer.py``), ``scp``, ``sftp`` and ``rsync``, each the real program with the
cipher chosen as its users choose it (``scp -c CIPHER``, ``sftp -c CIPHER``,
``rsync -e 'ssh -c CIPHER'``, the MAC with ``-o MACs=``), against the same host and the same
ssh_config (``-F``) as the pipe.

What is timed. A file program's whole run includes connecting and authenticating (a third
of a second here, more on a real link), which says nothing about the cipher. ssh's
``LocalCommand`` (allowed with ``PermitLocalCommand=yes``) runs right after authentication,
before the session's channel is opened: it writes the time into a file of the local
private directory, and the sample's wall time runs from that moment to the program's exit.
scp and sftp put ``-oPermitLocalCommand=no`` before the user's options (ssh keeps the first
value), so every tool starts ssh through a small script of the private directory (scp's and
sftp's ``-S``, rsync's ``-e``) that puts these two options first and runs the real ``ssh``
with everything else the tool passes.
The client's CPU is the program's and its ssh's together, over their whole life (the key
exchange costs a few milliseconds); the server's is not read.

Integrity. The file lands in a private directory on the far side (``FarSide``): made for the
run in the private server's own directory, or with ``mktemp -d`` on a real host, and removed
at the end. The first transfer of each cipher (``verify``) is hashed there (SHA-256) and must
match; every timed one must arrive whole (its size), and each file is removed before the next
transfer, so rsync never finds an old copy to patch.
"""
from __future__ import annotations

import hashlib
import os
import resource
import shlex
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from cipherbench.processes.children import pin
from cipherbench.errors import UsageError
from cipherbench.scenarios.ssh.errors import HostError, TransferFailed, classify, last_line
from cipherbench.scenarios.ssh.transfer import FORCED_OPTIONS, Target, TransferSample, is_aead

#: Every tool, cheapest first: the default order of ``--via``.
VIAS = ("pipe", "sftp", "scp", "rsync")
#: The program each one needs on this machine.
PROGRAMS = {"pipe": "ssh", "sftp": "sftp", "scp": "scp", "rsync": "rsync"}
#: What the table's title says moved the bytes.
DESCRIBE = {"pipe": "ssh, stdin to a remote wc -c", "sftp": "sftp -c CIPHER, put",
            "scp": "scp -c CIPHER", "rsync": "rsync -e 'ssh -c CIPHER'"}


def installed(which=shutil.which) -> list[str]:
    """The tools whose program is on PATH, cheapest first."""
    return [v for v in VIAS if which(PROGRAMS[v])]


def choose(asked: list[str] | None, which=shutil.which) -> list[str]:
    """``--via`` (a list of names, or None: every installed tool) -> the tools to measure,
    cheapest first. Unknown or missing tools are a usage error naming what there is."""
    have = installed(which)
    if not asked:
        if not have:
            raise UsageError("no ssh client found: install openssh-client")
        return have
    out = []
    for name in asked:
        if name not in VIAS:
            raise UsageError(f"--via {name!r}: valid: {', '.join(VIAS)}")
        if name not in have:
            raise UsageError(f"--via {name}: `{PROGRAMS[name]}` is not installed "
                             f"(apt-get install {PROGRAMS[name]}); installed: "
                             f"{', '.join(have) or 'none'}")
        if name not in out:
            out.append(name)
    return sorted(out, key=VIAS.index)


class FarSide:
    """A private directory on the far side that the file tools write into."""

    def __init__(self, target: Target, local: Path | None = None):
        self.target = target
        self.local = local           # the private server's machine is this one
        self.path = ""

    def __enter__(self) -> "FarSide":
        if self.local is not None:
            self.local.mkdir(mode=0o700, exist_ok=True)
            self.path = str(self.local)
        else:
            out = self._ssh('umask 077; mktemp -d "${TMPDIR:-/tmp}/cipherbench-ssh-XXXXXXXX"')
            self.path = out.strip().splitlines()[-1] if out.strip() else ""
            if not self.path.startswith("/"):
                raise HostError(f"cannot make a temporary directory on {self.target.name}")
        return self

    def __exit__(self, *exc) -> None:
        if not self.path:
            return
        if self.local is not None:
            shutil.rmtree(self.local, ignore_errors=True)
        else:
            try:
                self._ssh(f"rm -rf {shlex.quote(self.path)}")
            except (HostError, TransferFailed, OSError, subprocess.TimeoutExpired):
                pass     # the host went away; nothing more can be done from here
        self.path = ""

    def _ssh(self, command: str) -> str:
        argv = ["ssh", *self.target.options, *FORCED_OPTIONS, self.target.destination,
                "exec /bin/sh -c " + shlex.quote(command)]
        out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=120)
        if out.returncode != 0:
            raise classify(out.stderr, host=self.target.name, cipher="(default)", mac=None)
        return out.stdout

    def file(self, name: str) -> str:
        return f"{self.path}/{name}"

    def check_and_remove(self, name: str, nbytes: int, digest: str | None) -> None:
        """Raise ``TransferFailed`` unless the file arrived whole (and with ``digest``, its
        SHA-256); remove it either way."""
        if self.local is not None:
            p = self.local / name
            try:
                size = p.stat().st_size
                got = _sha256(p) if digest else None
            except OSError:
                size, got = -1, None
            finally:
                p.unlink(missing_ok=True)
        else:
            f = shlex.quote(self.file(name))
            hash_cmd = ('if command -v sha256sum >/dev/null 2>&1; then sha256sum <' + f +
                        '; else shasum -a 256 <' + f + '; fi') if digest else "echo -"
            words = self._ssh(f"wc -c <{f} 2>/dev/null || echo -1; {hash_cmd}; "
                              f"rm -f {f}").split()
            size = int(words[0]) if words and words[0].lstrip("-").isdigit() else -1
            got = words[1] if len(words) > 1 else None
        if size != nbytes:
            raise TransferFailed(f"the far side received {max(size, 0)} of {nbytes} bytes")
        if digest and got != digest:
            raise TransferFailed(f"data changed in transit: far side got sha256 {got}")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def write_ssh_wrapper(path: Path, stamp: Path, ssh: str = "ssh") -> Path:
    """The script the tools start instead of ssh: the time stamp's two options first, then the
    real ssh with the tool's arguments (``%%``: ssh expands ``%`` tokens in LocalCommand)."""
    mark = f"LocalCommand=date +%%s.%%N >{shlex.quote(str(stamp))}"
    path.write_text("#!/bin/sh\nexec " + shlex.join(
        [ssh, "-o", "PermitLocalCommand=yes", "-o", mark]) + ' "$@"\n')
    path.chmod(0o700)
    return path


def ssh_options(target: Target, cipher: str, mac: str | None) -> list[str]:
    """ssh options for a file tool: the target's (``-F``), the forced ones and the MAC."""
    forced = [x for x in FORCED_OPTIONS if x != "-T"]
    out = [*target.options, *forced]
    if mac and not is_aead(cipher):
        out += ["-o", f"MACs={mac}"]
    return out


def argv_for(via: str, target: Target, cipher: str, mac: str | None, src: Path,
             dest: str, wrapper: Path, batch: Path) -> list[str]:
    """The command line of one file transfer of ``src`` to ``dest`` on the far side."""
    opts = ssh_options(target, cipher, mac)
    remote = f"{target.destination}:{dest}"
    if via == "scp":
        # no -q for scp and sftp: it would silence ssh's reason for a refusal (stdout is no
        # terminal, so there is no progress meter anyway)
        return ["scp", "-S", str(wrapper), *opts, "-c", cipher, str(src), remote]
    if via == "sftp":
        batch.write_text(f"put {_sftp_quote(str(src))} {_sftp_quote(dest)}\n")
        return ["sftp", "-S", str(wrapper), "-b", str(batch), *opts, "-c", cipher,
                target.destination]
    if via == "rsync":
        shell = shlex.join([str(wrapper), *opts, "-c", cipher])
        return ["rsync", "-q", "--whole-file", "-e", shell, str(src), remote]
    raise ValueError(f"not a file tool: {via}")


def _sftp_quote(path: str) -> str:
    return '"' + path.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class FileTool:
    """One tool's transfers of two local files (the short one for the check, the data) into
    ``far``; ``work`` is a private local directory for the time stamp and sftp's batch."""

    via: str
    target: Target
    far: FarSide
    work: Path
    probe: Path
    data: Path
    probe_digest: str

    def sample(self, cipher: str, mac: str | None, verify: bool) -> TransferSample:
        src = self.probe if verify else self.data
        nbytes = src.stat().st_size
        stamp, batch = self.work / "stamp", self.work / "batch"
        stamp.unlink(missing_ok=True)
        wrapper = self.work / "ssh"
        if not wrapper.exists():
            write_ssh_wrapper(wrapper, stamp)
        name = f"{self.via}-{os.getpid()}.bin"
        argv = argv_for(self.via, self.target, cipher, mac, src, self.far.file(name), wrapper,
                        batch)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t_spawn = time.time()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        pin(proc.pid, self.target.cpu)
        try:
            _, err = proc.communicate(timeout=60 + nbytes / 1e6)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise TransferFailed(f"{self.via} to {self.target.name} with {cipher}: no end "
                                 "within the time limit") from None
        except BaseException:       # a stop signal: the tool goes before its files do
            proc.kill()
            proc.wait()
            raise
        t_end = time.time()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        text = err.decode(errors="replace")
        if proc.returncode != 0:
            e = classify(text, host=self.target.name, cipher=cipher,
                         mac=mac if not is_aead(cipher) else None)
            if type(e) is TransferFailed:    # say which program failed
                e = TransferFailed(f"{self.via} to {self.target.name} with {cipher}: "
                                   f"{last_line(text) or f'exit {proc.returncode}'}")
            raise e
        try:
            t0 = float(stamp.read_text().strip())
        except (OSError, ValueError):
            raise TransferFailed(f"{self.via}: ssh's LocalCommand left no time stamp") from None
        try:
            self.far.check_and_remove(name, nbytes, self.probe_digest if verify else None)
        except TransferFailed as e:
            raise TransferFailed(f"{self.via} with {cipher}: {e}") from None
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return TransferSample(nbytes=nbytes, wall_s=max(t_end - t0, 1e-6),
                              setup_s=max(t0 - t_spawn, 0.0), client_cpu_s=cpu,
                              client_cpu_total_s=cpu, server_cpu_s=None,
                              server_cpu_method="none", sink_cpu_s=None,
                              digest=self.probe_digest if verify else None,
                              extra={"via": self.via, "capped": False})
