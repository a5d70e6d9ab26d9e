# SPDX-License-Identifier: GPL-3.0-or-later
"""One stored run while it is measured: the bookkeeping every scenario shares, written once.

``Recording`` opens the run in the store, keeps the machine's warnings, stores each result the
moment a scenario hands it over, shows progress (a bar on a terminal, a line per finished step
elsewhere, the estimated duration first) and closes the run with its final status:

- the ``with`` block ends normally: ``status`` (``complete`` unless the scenario set
  ``interrupted`` after a crashed core, or ``failed`` when nothing usable came out);
- Ctrl-C, SIGTERM or SIGHUP (``interrupts.Stop``): ``interrupted``, every process the command
  started and still alive is stopped, and ``RunInterrupted`` says in one line how many results
  the run keeps (exit 130, the same line for every signal); a ``KeyboardInterrupt`` of the
  program running the command in-process (``interrupts.ours``: pytest's Ctrl-C) is marked
  ``interrupted`` the same way and goes on as raised;
- the store cannot be written (a full disk): ``failed`` with the reason kept as a warning (a
  little space reserved beside the database at the start is given back for this), what was
  stored is shown (``show``), and the error goes on;
- any other error: the ``status`` the scenario set, else ``interrupted`` when results were
  stored and ``failed`` when not; the error goes on.

Scenarios receive the recording and call ``add``, ``warn``, ``error`` and ``progress``; they
never open or close runs themselves.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, Iterable

from rich.console import Console

from cipherbench.analysis.estimate import Estimate
from cipherbench import interrupts
from cipherbench.machine import load
from cipherbench.errors import UserError
from cipherbench.scenarios.progress import Progress
from cipherbench.processes import procs
from cipherbench.store import Result, Store, StoreError
from cipherbench.units import format_duration
from cipherbench.run_warnings import BenchWarning, Kind

#: Exit status of a command stopped by a signal (as for Ctrl-C, whatever the signal).
EXIT_INTERRUPTED = 130


#: A CPU share at start at or above which the estimate is the quiet machine's.
SHARE_SCALED = 0.9


class RunInterrupted(UserError):
    """A stop signal ended the run; the message says what the stored run keeps."""

    exit_code = EXIT_INTERRUPTED


class Recording:
    """``with Recording(store, "run", args, meta, console=...) as rec:`` -> ``rec.run_id``."""

    def __init__(self, store: Store, command: str, args: dict, metadata: dict, *,
                 console: Console, progress: str = "lines", unit: str = "steps",
                 total: int | None = None, estimate_s: float | Estimate | None = None,
                 show: Callable[[int], None] | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 look: Callable[[], load.LoadSnapshot] = load.snapshot,
                 share: Callable[[], float] = load.start_share,
                 progress_console: Console | None = None):
        self.store = store
        self.command = command
        self.args = args
        self.metadata = metadata
        self.console = console
        # progress may go elsewhere than the run's own lines (advise keeps those out)
        self.progress = Progress(progress_console or console, progress, unit=unit, clock=clock)
        self.total = total
        # the quiet machine's seconds, and how they change with the CPU share
        self.estimate: Estimate | None = (estimate_s if isinstance(estimate_s, Estimate) else
                                          None if estimate_s is None else Estimate(estimate_s))
        self.estimate_s = self.estimate.quiet_s if self.estimate else None
        self.show = show
        self.status = "complete"
        self.warnings: list[BenchWarning] = []
        self.n_results = 0
        self.run_id = 0
        self._before: set[int] = set()
        self._reserve: _Reserve | None = None
        self._clock = clock
        self._look = look
        self._share = share
        self._load_start: load.LoadSnapshot | None = None
        self._t0 = 0.0
        self._cpu0 = 0.0
        self.load_line: str | None = None

    # -- what scenarios call ---------------------------------------------------------------
    def add(self, result: Result) -> None:
        """Store one result now (committed at once)."""
        self.store.add_result(self.run_id, result)
        self.n_results += 1

    def warn(self, warnings: Iterable[BenchWarning]) -> None:
        """Keep warnings with the run (and for the display at the end)."""
        for w in warnings:
            self.warnings.append(w)
            self.store.add_warning(self.run_id, w.kind, w.subject, w.text)

    def error(self, message: str) -> None:
        """``cipherbench: error: ...`` on one line, above the progress bar."""
        self.progress.say(f"cipherbench: error: {message}")

    @property
    def load_start(self) -> "load.LoadSnapshot | None":
        """What else was runnable when the run started."""
        return self._load_start

    def note(self, message: str) -> None:
        """``cipherbench: warning: ...``: something skipped while the run goes on."""
        self.progress.say(f"cipherbench: warning: {message}")

    def update_metadata(self, updates: dict) -> None:
        self.store.update_metadata(self.run_id, updates)

    # -- the run's life --------------------------------------------------------------------
    def __enter__(self) -> "Recording":
        self._before = set(procs.descendants(os.getpid()))
        self._load_start = self._look()
        self._t0, self._cpu0 = self._clock(), _cpu_s()
        self.run_id = self.store.begin_run(self.command, self.args, self.metadata)
        try:  # from here on the run exists: a stop must still close it
            # a database server keeps its own disk: a reserve only beside a file
            self._reserve = (_Reserve.beside(self.store.path) if self.store.path is not None
                             else None)
            if self._reserve is not None and not self._reserve.fill():
                self._reserve = None
            expected = None
            if self.estimate_s is not None:
                expected, text = self._estimate()
                self.progress.announce(text)
            self.progress.start(self.total, expected, self.estimate)
        except BaseException as e:
            if not self.__exit__(type(e), e, e.__traceback__):
                raise
        return self

    def _estimate(self) -> tuple[float, str]:
        """The run's expected duration: the scenario's estimate at the share of a CPU the run
        gets now (measured, stored as ``cpu_share_start``; ``Estimate.at``), and the line
        that says so."""
        assert self.estimate is not None and self.estimate_s is not None
        share = self._share()
        self.store.update_metadata(self.run_id, {"cpu_share_start": round(share, 4),
                                                 "estimate_s": round(self.estimate_s, 1)})
        what = f" for {self.total} {self.progress.unit}" if self.total else ""
        head = f"cipherbench: {self.command}: about "
        if share >= SHARE_SCALED:
            return self.estimate_s, f"{head}{format_duration(self.estimate_s)}{what} (estimate)"
        expected = self.estimate.at(share)
        self.store.update_metadata(self.run_id, {"estimate_at_share_s": round(expected, 1)})
        return expected, (f"{head}{format_duration(expected)}{what} (estimate: "
                          f"{format_duration(self.estimate_s)} on a quiet machine, and this run "
                          f"gets {share:.0%} of a CPU now)")

    def __exit__(self, exc_type, exc, tb) -> bool:
        self.progress.stop()
        try:
            return self._close(exc)
        finally:
            if self._reserve is not None:
                self._reserve.release()

    def _record_load(self) -> None:
        """Load at the end, and the share of a CPU the run got (its CPU time, the programs it
        ran included, over its wall time): one line shown, both stored with the run."""
        end = self._look()
        wall = self._clock() - self._t0
        share = load.cpu_share(_cpu_s() - self._cpu0, wall) if wall > 0 else None
        start = self._load_start or end
        worst = max((start, end), key=lambda s: s.others)
        self.load_line = load.summary_line(worst, share)
        self.progress.say(f"cipherbench: {self.load_line}")
        self.store.update_metadata(self.run_id, {
            "load_start": _load_dict(start), "load_end": _load_dict(end),
            "cpu_share": round(share, 4) if share is not None else None})

    def _close(self, exc: BaseException | None) -> bool:
        if exc is None:
            try:
                self._record_load()
                self.store.finish_run(self.run_id, self.status)
            except StoreError as e:   # even the last write can meet a full disk
                self._store_failed(e)
                raise
            return False
        if isinstance(exc, KeyboardInterrupt):
            stop_children(self._before)
            self._finish("interrupted")
            if not interrupts.ours(exc):
                return False   # the calling program's Ctrl-C (pytest's): kept, passed on
            raise RunInterrupted(f"interrupted: run {self.run_id} keeps its {self._kept()} "
                                 f"finished results (`cipherbench show {self.run_id}`)") from None
        if isinstance(exc, StoreError):
            self._store_failed(exc)
            return False
        if self.status == "complete":  # the scenario did not say: judge by what was kept
            self.status = "interrupted" if self.n_results else "failed"
        self._finish(self.status)
        return False

    def _kept(self) -> int:
        """Results the store holds for the run: counted there, because a stop can land between
        a result's write and ``add``'s count (or before its commit, which ``_finish`` makes)."""
        try:
            return len(self.store.results(self.run_id))
        except StoreError:
            return self.n_results

    def _finish(self, status: str) -> None:
        try:
            self.store.finish_run(self.run_id, status)
        except StoreError:
            pass  # the database itself fails: nothing more can be written

    def _store_failed(self, exc: StoreError) -> None:
        """A write failed (typically a full disk): give back the reserved space, mark the run
        failed with the reason, show what it stored."""
        if self._reserve is not None:
            self._reserve.release()
        try:
            self.store.add_warning(self.run_id, Kind.STORE_FAILED, "database",
                                   f"{exc}; {Kind.STORE_FAILED.remedy}")
            self.store.finish_run(self.run_id, "failed")
        except StoreError:
            pass  # not even the reserve was enough: the run stays "running"
        if self.show is not None:
            try:
                self.show(self.run_id)
            except Exception:  # noqa: BLE001 - the original error is the one to report
                pass


def _cpu_s() -> float:
    """CPU seconds of this process and of the children it has waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _load_dict(s: load.LoadSnapshot) -> dict:
    return {"others": s.others, "cpus": s.cpus,
            "loadavg": s.loadavg[0] if s.loadavg else None, "autogroup": s.autogroup,
            "competitors": sorted({c.comm for c in s.competitors})[:8]}


def stop_children(keep: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Stop every process this command started that still runs (its descendants but those in
    ``keep``, which were there before the run): the core, servers, clients. Context managers
    already stop theirs; this catches what they missed."""
    kids = [p for p in procs.descendants(os.getpid()) if p not in keep]
    if kids:
        procs.terminate(list(reversed(kids)))


class _Reserve:
    """A little disk space held beside the database while a run is written, given back when a
    write fails for lack of space, so that the run can still be marked failed with its reason.
    Removed on every way out of the run."""

    SIZE = 256 << 10

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def beside(cls, db: Path) -> "_Reserve":
        return cls(db.with_name(f"{db.name}.reserve-{os.getpid()}"))

    def fill(self) -> bool:
        """Write the reserve; False (and nothing left) when there is no room even for it, or
        the place is read-only. The caller holds the object first, so that an interruption
        while writing still removes the file."""
        try:
            with open(self.path, "wb") as f:
                f.write(b"\0" * self.SIZE)
                f.flush()
                os.fsync(f.fileno())
        except OSError:
            self.release()
            return False
        return True

    def release(self) -> None:
        try:
            self.path.unlink()
        except OSError:
            pass
