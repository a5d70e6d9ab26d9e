# SPDX-License-Identifier: GPL-3.0-or-later
"""The stored run of a host measured through ssh: its load is the host's, and a host that
cannot be used still leaves a failed run saying why.

``HostRecording`` is the ``Recording`` of every scenario with one difference: the load at the
start (what the probe saw) and at the end (one more look through ssh) are the host's, and no
share of a CPU is stored, since this machine only waits for the host's lines (the core's own
per-sample CPU time still tells how much of a CPU each sample got there).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Sequence

from cipherbench import __version__
from cipherbench.machine import load, metadata
from cipherbench.remote.cores import RemoteCores
from cipherbench.remote.errors import RemoteError
from cipherbench.remote.host import RemoteHost
from cipherbench.scenarios.recording import Recording, _load_dict
from cipherbench.store import Store
from cipherbench.run_warnings import BenchWarning, Kind


@contextmanager
def measuring_on(rec: Recording, host: str) -> Iterator[None]:
    """``rec`` around a measurement on ``host``: when the host is lost, its reason is the
    run's warning, and the one line raised says the run's state and what it keeps."""
    try:
        with rec:
            try:
                yield
            except RemoteError as e:   # the host was lost: the reason stays with it
                rec.warn([BenchWarning(Kind.HOST_FAILED, host, str(e))])
                raise
    except RemoteError as e:
        raise RemoteError(f"{e}; run {rec.run_id} is marked {rec.status} and keeps "
                          f"its {rec.n_results} finished results") from None


class HostRecording(Recording):
    """``Recording`` whose load is read on ``host``."""

    def __init__(self, *args, host: RemoteHost, **kwargs):
        looks = [host.first_snapshot, host.load_snapshot]

        def look() -> load.LoadSnapshot:   # the probe's the first time, then a new look
            return looks.pop(0)() if len(looks) > 1 else looks[0]()

        super().__init__(*args, look=look, **kwargs)
        self.host = host

    def _record_load(self) -> None:
        end = self._look()
        start = self._load_start or end
        worst = max((start, end), key=lambda s: s.others)
        self.load_line = f"{self.host.destination}: {load.summary_line(worst)}"
        self.progress.say(f"cipherbench: {self.load_line}")
        self.store.update_metadata(self.run_id, {
            "load_start": _load_dict(start), "load_end": _load_dict(end), "cpu_share": None})


def store_failure(store: Store, command: str, args: dict, meta: dict, reason: str) -> int:
    """A run that could not start on its host: stored as failed, the reason as its warning."""
    run_id = store.begin_run(command, args, meta)
    store.add_warning(run_id, Kind.HOST_FAILED, str(meta.get("host", "")), reason)
    store.finish_run(run_id, "failed")
    return run_id


def failed_on_host(session: RemoteHost, store: Store, command: str, args: dict,
                   err: RemoteError) -> RemoteError:
    """A host that cannot be used: its directory there removed, a failed run stored with the
    reason (and the host's machine facts when the probe got them); the one-line error that
    ends the command, naming that run."""
    session.close()
    meta = (metadata.collect(None, None, machine_keys=session.machine_keys())
            if session.facts.complete else {"cipherbench_version": __version__})
    meta["host"] = session.destination
    run_id = store_failure(store, command, args, meta, str(err))
    return RemoteError(f"{err} (run {run_id} is marked failed)")


def open_host(stack: ExitStack, session: RemoteHost, store: Store, command: str, args: dict,
              needs: Sequence[str] = ()) -> RemoteCores:
    """Probe the host and pick its core (``needs``: commands it must have); a host that
    cannot be used leaves a failed run with the reason (and nothing on the host) and ends the
    command with one line (``failed_on_host``)."""
    try:
        stack.enter_context(session)
        return session.cores(needs)
    except RemoteError as e:
        raise failed_on_host(session, store, command, args, e) from None
