"""A private GnuPG home for one run: a fresh GNUPGHOME with a generated passphrase, removed
afterwards with its gpg-agent stopped. The user's own ~/.gnupg is never read or written."""
from __future__ import annotations

import os
import secrets
import shutil
import subprocess
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Mapping

from cipherbench.tempdirs import private_dir, temp_parent


_MAX_PARENT = 60


class GpgHomeError(Exception):
    """The private home cannot be made here; the message says what to do."""


@dataclass(frozen=True)
class GpgHome:
    """Where a run's gpg keeps its state, and the environment that points gpg there."""

    path: Path
    passphrase_file: Path
    env: dict[str, str]

    def gpg_args(self) -> list[str]:
        """Options every gpg call of the run uses: batch mode, the private home, loopback
        pinentry reading the generated passphrase from a 0600 file (never on a command line)."""
        return ["--homedir", str(self.path), "--batch", "--yes", "--quiet",
                "--pinentry-mode", "loopback", "--passphrase-file", str(self.passphrase_file),
                "--no-symkey-cache"]


def stop_agent(home: Path, env: Mapping[str, str]) -> None:
    """Stop every GnuPG daemon started for ``home`` (gpg-agent, dirmngr)."""
    gpgconf = shutil.which("gpgconf", path=env.get("PATH"))
    if gpgconf is None:
        return
    subprocess.run([gpgconf, "--homedir", str(home), "--kill", "all"], env=dict(env),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False)


@contextmanager
def private_gnupg_home(env: Mapping[str, str] | None = None,
                       parent: str | None = None) -> Iterator[GpgHome]:
    """A temporary GNUPGHOME (mode 0700) with a random passphrase; on exit, also on Ctrl-C or
    an error, its agent is stopped and the directory removed."""
    base = dict(os.environ if env is None else env)
    parent = parent or temp_parent(base)
    if len(parent) > _MAX_PARENT:
        # gpg-agent's socket lives in the home; a Unix socket path has ~107 bytes at most.
        raise GpgHomeError(f"the temporary directory {parent} is too deep for gpg-agent's "
                           "socket: set TMPDIR to a shorter directory, e.g. /tmp")
    path = private_dir("cipherbench-gnupg-", parent=parent)
    try:
        path.chmod(0o700)
        pw = path / "passphrase"
        fd = os.open(pw, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(24) + "\n")
        run_env = {**base, "GNUPGHOME": str(path)}
        run_env.pop("GPG_AGENT_INFO", None)
        yield GpgHome(path=path, passphrase_file=pw, env=run_env)
    finally:
        try:
            stop_agent(path, {**base, "GNUPGHOME": str(path)})
        finally:
            shutil.rmtree(path, ignore_errors=True)
