# SPDX-License-Identifier: GPL-3.0-or-later
"""Shipping this machine's core to a host: one tar stream through ssh into the run's private
directory there, made here in memory (nothing is written on this machine), every file
readable by its owner only. The C core's library modules go with it into ``modules/`` beside
it, where the core looks first: the host then measures every library it has and the core's
``list`` names each one it lacks, with its loader's line.
"""
from __future__ import annotations

import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Mapping

from cipherbench.errors import EnvironmentProblem
from cipherbench.interrupts import STOP_SIGNALS, stopped_by
from cipherbench.cores import core_client
from cipherbench.cores.core_client import SOURCE_TREE


def local_vectors(env: Mapping[str, str]) -> Path | None:
    """The known-answer vectors this machine's core reads: $CIPHERBENCH_VECTORS, those
    installed with the package (as ``Core`` finds them), else the source tree's."""
    for cand in (env.get("CIPHERBENCH_VECTORS"),
                 str(Path(core_client.__file__).resolve().parents[1] / "vectors"),
                 str(SOURCE_TREE / "vectors")):
        if cand and Path(cand).is_dir():
            return Path(cand)
    return None


#: Where the shipped core finds its modules: beside it (``core/module.h``).
MODULES_DIR = "modules"


def local_modules(core: Path, env: Mapping[str, str]) -> dict[str, Path]:
    """The module files this machine's ``core`` reads (as its ``list`` names them, each by
    its name in the tar stream), whether they loaded here or not: a library missing here
    may be on the host. Nothing when the core does not run here: the host's loader then says
    why in its own words."""
    try:
        inv = core_client.Core(core, env).list()
    except EnvironmentProblem:   # not started, crashed, or not a core
        return {}
    return {f"{MODULES_DIR}/{Path(m.path).name}": Path(m.path) for m in inv.modules if m.path}


def send(argv: list[str], executables: Mapping[str, Path], vectors: Path | None,
         env: Mapping[str, str], timeout: float) -> tuple[int, str]:
    """Run ``argv`` (ssh to ``tar -xf -`` in the directory) with a tar stream of
    ``executables`` (name -> file here) and the ``vectors`` directory on its stdin; its exit
    status and stderr. A stop signal kills the transfer and goes on."""
    err = tempfile.TemporaryFile()
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=err, env=dict(env))
        try:
            assert proc.stdin is not None
            try:
                with tarfile.open(fileobj=proc.stdin, mode="w|") as tar:
                    for name, path in executables.items():
                        tar.add(str(path), arcname=name, filter=_private)
                    if vectors is not None:
                        tar.add(str(vectors), arcname="vectors", filter=_private)
            except BrokenPipeError:
                pass  # the far side stopped reading: its status says why
            finally:
                try:
                    proc.stdin.close()
                except BrokenPipeError:
                    pass
            rc = proc.wait(timeout=timeout)
            if rc < 0 and -rc in STOP_SIGNALS:
                # ssh got the stop too (Ctrl-C reaches the terminal's whole process group),
                # perhaps before this process did: the copy was interrupted, not failed
                raise stopped_by(-rc)
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        err.seek(0)
        return rc, err.read().decode(errors="replace")
    finally:
        err.close()


def _private(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """Owned by whoever unpacks it, readable by them only."""
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.mode = 0o700 if info.isdir() or info.mode & 0o100 else 0o600
    return info
