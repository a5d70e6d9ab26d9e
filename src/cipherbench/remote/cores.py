# SPDX-License-Identifier: GPL-3.0-or-later
"""The cores on a host, as ``cores.Cores``: every process through the host's launcher, ssh's own
failures turned into ``HostLost`` (every further process would fail the same way, so the run
stops), a core killed there named with its signal, and a core that cannot start there reported
with the loader's own line.
"""
from __future__ import annotations

import signal
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

from cipherbench.cores.core_client import (BenchStream, Core, CoreCrashed, Inventory,
                                           ProtocolMismatch)
from cipherbench.cores.combined import Cores
from cipherbench.cores.records import Record
from cipherbench.remote.errors import SSH_FAILED, RemoteError, cannot_start, from_ssh

if TYPE_CHECKING:
    from cipherbench.remote.host import RemoteHost


class RemoteCores(Cores):
    """``Cores`` whose processes run on the host: ssh's own failures become ``HostLost`` (the
    sweep stops; every further process would fail the same way), a core killed there is named
    with its signal."""

    def __init__(self, host: RemoteHost, main: Core, extras: Sequence[tuple[str, Core]],
                 warn: Callable[[str], None] | None):
        super().__init__(main, extras, warn)
        self.host = host

    def check(self, source: str) -> Inventory:
        """The core's ``list`` on the host; a core that cannot start there is a RemoteError
        with the loader's own line."""
        try:
            inv = self.list()
        except ProtocolMismatch as e:
            if "not JSON" not in str(e):
                raise
            host = self.host.destination
            raise RemoteError(f"{host} writes text of its own before the core's lines ({e}): "
                              "the shell start-up files there must print nothing for commands "
                              f"run through ssh (`ssh {host} true` prints nothing)") from None
        except CoreCrashed as e:
            shipped = source.startswith("shipped")
            what = ("this machine's cipherbench-core, shipped," if source == "shipped"
                    else f"the cipherbench-core {source}," if shipped
                    else f"the cipherbench-core {source}")
            raise cannot_start(e.stderr, self.host.destination, what, shipped) from None
        if not inv.preamble:   # it ran, and said nothing a core says (/bin/false, a script)
            host = self.host.destination
            raise RemoteError(f"the program {source} on {host} is not a cipherbench core: its "
                              "`list` wrote no preamble; give the path of cipherbench-core "
                              f"there with --host-core, or leave it out to use the one on "
                              f"{host}'s PATH or ship this machine's")
        return inv

    def list(self, lib: str | None = None) -> Inventory:
        try:
            return super().list(lib)
        except CoreCrashed as e:
            raise self.failure(e) from None

    # RemoteStream wraps a BenchStream with its interface, as combined's RelabeledStream does
    def bench(self, lib: str, algos: Sequence[str], op: str, sizes: Sequence[int], *,  # type: ignore[override]
              samples: int | None = None, min_sample_ms: float | None = None,
              extra: Sequence[str] = ()) -> "RemoteStream":
        return RemoteStream(super().bench(lib, algos, op, sizes, samples=samples,
                                          min_sample_ms=min_sample_ms, extra=extra), self)

    def tls(self, lib: str, args: Sequence[str]) -> "RemoteStream":  # type: ignore[override]
        return RemoteStream(super().tls(lib, args), self)

    def failure(self, e: CoreCrashed) -> Exception:
        """A failed core process, as seen from here: ssh failing (255) is the host lost."""
        host = self.host.destination
        if e.returncode == SSH_FAILED:
            self.host.lost = True
            return from_ssh(e.stderr, host, lost=True)
        rc = e.returncode or 0
        if rc > 128:   # the wrapper's shell reports a signal as 128 + its number
            try:
                name = signal.Signals(rc - 128).name
            except ValueError:
                name = f"signal {rc - 128}"
            return CoreCrashed(f"cipherbench-core on {host} killed by {name}", rc, e.stderr)
        return e


class RemoteStream:
    """A ``BenchStream`` on the host, its failures mapped by ``RemoteCores.failure``."""

    def __init__(self, stream: BenchStream, cores: RemoteCores):
        self.stream = stream
        self.cores = cores

    def __enter__(self) -> "RemoteStream":
        return self

    def __exit__(self, *exc) -> None:
        self.stream.close()

    def __iter__(self) -> Iterator[Record]:
        try:
            yield from self.stream
        except CoreCrashed as e:
            raise self.cores.failure(e) from None

    def lines(self) -> Iterator[dict]:
        try:
            yield from self.stream.lines()
        except CoreCrashed as e:
            raise self.cores.failure(e) from None

    @property
    def returncode(self) -> int | None:
        return self.stream.returncode

    def stderr_text(self) -> str:
        return self.stream.stderr_text()

    def close(self) -> None:
        self.stream.close()
