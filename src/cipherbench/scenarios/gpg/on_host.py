# SPDX-License-Identifier: GPL-3.0-or-later
"""gpg (and age) measured on a host through ssh (``cipherbench gpg --host``), with the host's
own programs: every call of the rounds made there, timed there.

One shell on the host (``remote.shell.HostShell``) runs the whole measurement. It makes a
private GnuPG home with ``mktemp -d`` (mode 0700) inside the run's private directory, a
random passphrase in a 0600 file, and generates the data there (``/dev/urandom``); each
candidate's check (encrypt, decrypt, compare) and every timed call run there, files in and
out. A timed call is the shipped core's ``time`` command (``cipherbench-core time``): the
program's wall-clock and its own CPU time from the host's kernel (wait4), as this machine's
calls get them (``process.run_timed``). The home, with its gpg-agent stopped, is removed when
the shell ends for any reason (its traps, ``HostShell``), and again with the run's directory
by the run's cleanup (``remote.host.CLEANUP``) should the shell have been killed.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from cipherbench.remote.errors import RemoteError
from cipherbench.remote.host import RemoteHost
from cipherbench.remote.shell import HostShell
from cipherbench.scenarios.gpg import programs
from cipherbench.scenarios.gpg.candidates import (Candidate, CandidateFailed, GpgTool,
                                                  _first_line)
from cipherbench.scenarios.gpg.home import GpgHome
from cipherbench.scenarios.gpg.interleaved import Slot, cipher_of_packets
from cipherbench.scenarios.gpg.process import Timed

#: The home's directory name in the run's directory (``CLEANUP`` stops its agent).
HOME_PATTERN = "gnupg.XXXXXX"
#: gpg-agent's socket lives in the home: a Unix socket path has ~107 bytes at most.
_MAX_HOME = 80

#: Makes the home and its passphrase (the shell's prologue); prints the home's path.
PROLOGUE = "\n".join([
    f'g=$(mktemp -d "$CB_RUN/{HOME_PATTERN}") && chmod 700 "$g" &&',
    "GNUPGHOME=$g && export GNUPGHOME && unset GPG_AGENT_INFO &&",
    '(umask 077 && head -c 32 /dev/urandom | od -An -tx1 | tr -d " \\n" > "$g/passphrase") &&',
    'echo "home $g"',
])
#: The shell's way out: the home's agent stopped, the home removed.
ON_EXIT = ('if [ -n "${g:-}" ]; then gpgconf --homedir "$g" --kill all >/dev/null 2>&1; '
           'rm -rf "$g"; fi')

#: What the host has: gpg, its version and options, age, and the space under the home.
FACTS = "\n".join([
    'p=$(command -v gpg 2>/dev/null) && echo "gpg $p"',
    'if [ -n "$p" ]; then "$p" --version 2>&1 | sed "s/^/ver /";',
    '  "$p" --dump-options 2>/dev/null | grep -qx -- ' + programs.ALLOW_OLD_CIPHERS
    + ' && echo allow-old; fi',
    'a=$(command -v age 2>/dev/null) && command -v age-keygen >/dev/null 2>&1 &&',
    '  echo "age $a" && echo "agever $("$a" --version 2>&1 | head -n 1)"',
    'echo "free $(df -Pk "$g" | awk "NR==2 {print \\$4}")"',
    'true',
])


@dataclass
class HostFacts:
    """What ``FACTS`` found on the host."""

    gpg: str = ""
    version_text: str = ""
    allow_old: bool = False
    age: str = ""
    age_version: str = ""
    free_bytes: int | None = None
    ciphers: list[str] = field(default_factory=list)

    @property
    def gpg_version(self) -> str:
        return self.version_text.splitlines()[0] if self.version_text else "gpg"


def parse_facts(text: str) -> HostFacts:
    f = HostFacts()
    ver: list[str] = []
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "gpg" and value.startswith("/"):
            f.gpg = value.strip()
        elif key == "ver":
            ver.append(value)
        elif key == "allow-old":
            f.allow_old = True
        elif key == "age" and value.startswith("/"):
            f.age = value.strip()
        elif key == "agever":
            f.age_version = value.strip()
        elif key == "free" and value.strip().isdigit():
            f.free_bytes = int(value.strip()) * 1024
    f.version_text = "\n".join(ver)
    f.ciphers = programs.parse_gpg_ciphers(f.version_text + "\n")
    return f


class HostAge:
    """age's argument vectors with an X25519 identity generated in the home on the host."""

    def __init__(self, age: str, identity: str, recipient: str):
        self.age, self.identity, self.recipient = age, identity, recipient

    def encrypt(self, algo: str) -> list[str]:  # noqa: ARG002
        return [self.age, "--encrypt", "--recipient", self.recipient]

    def decrypt(self, algo: str) -> list[str]:  # noqa: ARG002
        return [self.age, "--decrypt", "--identity", self.identity]


class HostGpg:
    """``with HostGpg(session) as place``: gpg's home on the host, its facts, the data there
    and every call (``interleaved.Calls``), timed by ``core`` there (its path, set before
    the first call)."""

    def __init__(self, session: RemoteHost, core: str = ""):
        self.session = session
        self.core = core
        self.shell = HostShell(session, ON_EXIT, PROLOGUE)
        self.home = ""
        self.facts = HostFacts()
        self.tools: dict[str, GpgTool | HostAge] = {}
        self.data = ""
        self.size = 0
        self._ct: dict[Candidate, str] = {}

    @property
    def host(self) -> str:
        return self.session.destination

    def __enter__(self) -> "HostGpg":
        try:
            self.open()
        except BaseException:
            self.shell.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.shell.close()

    def open(self) -> HostFacts:
        """The shell and the home; the host's gpg, read there (RemoteError: no gpg)."""
        first = self.shell.start()
        self.home = next((ln[5:] for ln in first.lines if ln.startswith("home /")), "")
        if not self.home:
            raise RemoteError(f"cannot make a private GnuPG home on {self.host}: "
                              f"{_first_line(first.text, 'no message')}")
        if len(self.home) > _MAX_HOME:
            raise RemoteError(f"the temporary directory of {self.host} is too deep for "
                              f"gpg-agent's socket ({self.home}): set TMPDIR there to a "
                              "shorter directory, e.g. /tmp")
        self.facts = parse_facts(self.shell.run(FACTS, timeout=60).text)
        if not self.facts.gpg:
            raise RemoteError(f"{self.host} has no gpg: install it there (Debian: apt-get "
                              "install gnupg), or leave that host out")
        home = GpgHome(Path(self.home), Path(self.home) / "passphrase", {})
        self.tools["gpg"] = GpgTool(self.facts.gpg, home, allow_old=self.facts.allow_old)
        return self.facts

    # -- what the rounds need ----------------------------------------------------------------
    def default_cipher(self) -> str:
        """gpg's own cipher for ``--symmetric`` on the host (``interleaved.default_cipher``)."""
        gpg = self.tools["gpg"]
        assert isinstance(gpg, GpgTool)
        args = _q([gpg.gpg, *gpg.home.gpg_args()])
        out = self.shell.run(f"printf x | {args} --symmetric --output - 2>/dev/null | "
                             f"{args} --list-packets", timeout=120)
        return cipher_of_packets(out.text)

    def prepare(self, size: int, copies: int) -> None:
        """``size`` random bytes in the home, where ``copies`` more of that size (each
        candidate's ciphertext, a decrypted copy) must fit too."""
        need = size * (copies + 1) + (1 << 20)
        free = self.facts.free_bytes
        if free is not None and free < need:
            raise RemoteError(f"{self.host} has {free >> 20} MiB free in its temporary "
                              f"directory, the run needs {need >> 20} MiB there (the data "
                              "and each cipher's ciphertext): give a smaller --size, or set "
                              "TMPDIR there to a larger directory")
        self.data = f"{self.home}/data"
        out = self.shell.run(f"head -c {int(size)} /dev/urandom > {_q([self.data])} && "
                             f"wc -c < {_q([self.data])}", timeout=600)
        if out.rc != 0 or out.text.strip() != str(size):
            raise RemoteError(f"cannot write {size} bytes of data on {self.host}: "
                              f"{_first_line(out.text, 'no message')}")
        self.size = size

    def start_age(self) -> None:
        """An X25519 identity for age in the home (CandidateFailed when age-keygen fails)."""
        identity = f"{self.home}/age-identity.txt"
        keygen = str(Path(self.facts.age).with_name("age-keygen"))
        out = self.shell.run(f"{_q([keygen, '-o', identity])} >/dev/null && "
                             f"sed -n 's/^# public key: //p' {_q([identity])}")
        recipient = out.text.strip().splitlines()[-1:] if out.rc == 0 else []
        if not recipient:
            raise CandidateFailed("age-keygen failed: " + _first_line(out.text, "no message"))
        self.tools["age"] = HostAge(self.facts.age, identity, recipient[0].strip())

    # -- interleaved.Calls -------------------------------------------------------------------
    def calls(self) -> "HostGpg":
        return self

    def check(self, cand: Candidate) -> None:
        """Encrypt the data, decrypt it, compare: CandidateFailed with the program's line."""
        tool = self.tools[cand.tool]
        ct = f"{self.home}/ct.{len(self._ct)}"
        back = f"{self.home}/back"
        self._step(tool.encrypt(cand.algo), self.data, ct, "encryption")
        size = self.shell.run(f"wc -c < {_q([ct])}").text.strip()
        if not size.isdigit() or int(size) < self.size:
            raise CandidateFailed("encryption wrote less than its input")
        self._step(tool.decrypt(cand.algo), ct, back, "decryption")
        same = self.shell.run(f"cmp -s {_q([self.data, back])}")
        self.shell.run(f"rm -f {_q([back])}")
        if same.rc != 0:
            raise CandidateFailed("decryption did not give back the original bytes")
        self._ct[cand] = ct

    def call(self, slot: Slot) -> Timed:
        """One timed call on the host (the core's ``time``)."""
        tool = self.tools[slot.cand.tool]
        if slot.op == "encrypt":
            argv, stdin = tool.encrypt(slot.cand.algo), (self.data if slot.size else "/dev/null")
        else:
            argv, stdin = tool.decrypt(slot.cand.algo), self._ct[slot.cand]
        return self._timed(argv, stdin, "/dev/null")

    # -- plumbing ----------------------------------------------------------------------------
    def _step(self, argv: Sequence[str], stdin: str, stdout: str, what: str) -> None:
        t = self._timed(argv, stdin, stdout)
        if t.returncode != 0:
            raise CandidateFailed(f"{what} failed (exit {t.returncode}): "
                                  + _first_line(t.stderr, "no message"))

    def _timed(self, argv: Sequence[str], stdin: str, stdout: str) -> Timed:
        err = f"{self.home}/err"
        out = self.shell.run(_q([self.core, "time", "--stdin", stdin, "--stdout", stdout,
                                 "--stderr", err, "--", *argv]))
        rec = _timed_record(out.text)
        if rec is None:
            raise RemoteError(f"the cipherbench-core on {self.host} did not time "
                              f"{Path(argv[0]).name}: "
                              f"{_first_line(out.text, f'status {out.rc}')}")
        if rec.get("exec_error"):
            raise OSError(f"{rec['exec_error']} on {self.host}")
        rc = rec["exit"] if rec.get("exit") is not None else 128 + int(rec.get("signal") or 0)
        stderr = self.shell.run(f"tail -n 5 {_q([err])}").text if rc != 0 else ""
        return Timed(wall_s=rec["wall_ns"] / 1e9, user_s=rec["user_ns"] / 1e9,
                     sys_s=rec["sys_ns"] / 1e9, returncode=rc, stderr=stderr)


def _timed_record(text: str) -> dict | None:
    """The ``timed`` record in the core's output, None when there is none."""
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and rec.get("type") == "timed":
                return rec
    return None


def _q(words: Sequence[str]) -> str:
    return " ".join(shlex.quote(str(w)) for w in words)
