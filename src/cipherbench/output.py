# SPDX-License-Identifier: GPL-3.0-or-later
"""Writing what a command produces, checked: a full disk or a file system error is one line
and a non-zero exit, never a traceback, and a file is replaced whole or not at all.

``write_file`` writes to a temporary file beside the target and renames it over the target
once everything is on disk, so a failure leaves the old file (or none), never a partial one.
``CheckedStream`` wraps a command's stdout so that a write that fails (``show > /dev/full``)
raises ``OutputError`` with the reason.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cipherbench.errors import EnvironmentProblem


class OutputError(EnvironmentProblem):
    """The output could not be written (exit 1)."""


def write_file(path: Path | str, data: str | bytes) -> None:
    """``data`` as the whole of ``path`` (text as UTF-8), or ``OutputError`` with the file
    left as it was."""
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part",
                                   dir=path.parent if str(path.parent) else ".")
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            view = memoryview(raw)
            while view:
                view = view[f.write(view[:1 << 20]):]
            f.flush()
            os.fsync(f.fileno())
        mode = _mode_of(path)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
        raise


def _mode_of(path: Path) -> int:
    """The mode the file keeps (an existing file's), else what a new file gets (umask)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


class CheckedStream:
    """A text stream whose failed writes raise ``OutputError`` (a closed reader stays a
    ``BrokenPipeError``: the command ends quietly, as with ``| head``)."""

    def __init__(self, stream, name: str = "the output"):
        self._stream = stream
        self._name = name

    def _checked(self, call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(f"cannot write {self._name}: {e.strerror or e}") from None

    def write(self, text: str) -> int:
        return self._checked(self._stream.write, text)

    def flush(self) -> None:
        self._checked(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)
