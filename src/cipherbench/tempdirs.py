# SPDX-License-Identifier: GPL-3.0-or-later
"""Private temporary directories: the one place the scenarios make them.

A missing, read-only or full TMPDIR ends the command with one line naming the directory and
the remedy, instead of a traceback from ``tempfile``.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Mapping

from cipherbench.errors import EnvironmentProblem


class TempDirError(EnvironmentProblem):
    """No private directory can be made where TMPDIR points (exit 1)."""


def temp_parent(env: Mapping[str, str] | None = None) -> str:
    """The directory private directories go in: ``$TMPDIR`` of ``env`` (default: this
    process's environment), else the system's temporary directory."""
    base = os.environ if env is None else env
    chosen = base.get("TMPDIR")
    if chosen:
        return chosen
    try:
        return tempfile.gettempdir()
    except OSError as e:  # none of the usual places is writable
        raise TempDirError(f"no usable temporary directory ({e}): set TMPDIR to a writable "
                           "directory") from None


def private_dir(prefix: str, env: Mapping[str, str] | None = None,
                parent: str | None = None) -> Path:
    """A new directory of mode 0700 under ``parent`` (default: :func:`temp_parent`); the caller
    removes it."""
    where = parent or temp_parent(env)
    try:
        path = Path(tempfile.mkdtemp(prefix=prefix, dir=where))
    except OSError as e:
        reason = e.strerror or str(e)
        raise TempDirError(f"cannot make a temporary directory in {where} ({reason}): set "
                           "TMPDIR to a writable directory") from None
    path.chmod(0o700)  # mkdtemp already does; kept explicit because keys go in here
    return path


@contextmanager
def temporary_dir(prefix: str, env: Mapping[str, str] | None = None) -> Iterator[Path]:
    """:func:`private_dir` as a context manager: removed on leaving, whatever happens."""
    path = private_dir(prefix, env)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
