# SPDX-License-Identifier: GPL-3.0-or-later
"""Progress of a measuring command, on stderr: a live bar on a terminal, one line per finished
step elsewhere (a log, ``| tee``, CI), so a long run never looks dead.

``Progress(console, mode)``: ``mode`` is ``"bar"``, ``"lines"`` or ``"off"`` (``mode_for``
picks from the terminal and ``--progress/--no-progress``). ``announce(text)`` before the first
step (the estimate), ``start(total, expected_s)``, ``working(label)``
while a step runs, ``done(label, n)`` when ``n`` steps finished, ``say(text)`` for a line
that must not be torn by the bar (errors), ``stop()``.
"""
from __future__ import annotations

import time
from typing import Callable

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                           ProgressColumn, Task, TaskID, TextColumn, TimeElapsedColumn)
from rich.text import Text

from cipherbench.analysis.estimate import Estimate
from cipherbench.units import format_duration

MODES = ("bar", "lines", "off")
#: What the bar's counts, times and "ETA" take beside the unit (``120/120 transfers 0:01:02
#: ETA 0:03:10``) with the spaces between the columns.
FIXED_COLUMNS = 34


def bar_width(width: int) -> int:
    """The bar itself: 40 cells on a wide terminal, 10 on an 80-column one."""
    return 40 if width >= 140 else 20 if width >= 110 else 10


def mode_for(console: Console, wanted: bool | None) -> str:
    """``--progress`` -> a bar (lines when stderr is not a terminal), ``--no-progress`` -> off,
    neither -> a bar on a terminal, else lines."""
    if wanted is False:
        return "off"
    return "bar" if console.is_terminal else "lines"


def left_s(elapsed_s: float, done: int, total: int | None,
           expected_s: float | None = None, paced: bool = False,
           estimate: Estimate | None = None) -> float | None:
    """Seconds left: the estimate made before the start (``expected_s``, scaled to the CPU
    share the run gets), corrected from the pace so far in proportion to the steps done, so
    the first steps do not swing it and the last ones are the pace alone. The pace is the
    ``estimate``'s at the share the steps done got (``Estimate.left_s``, the steps taken as
    equal parts of its quiet work: a budget of wall time then cuts rounds rather than
    stretches them), else the steps' own. ``paced``: the scenario keeps ``expected_s`` from
    its real progress itself (``Progress.expect``), which is then the whole run's time as it
    stands. None when it cannot be told (no estimate and nothing done, or no total)."""
    if not total or done >= total:
        return None
    if paced and expected_s is not None:
        return expected_s - elapsed_s
    pace = None
    if done > 0:
        pace = elapsed_s / done * total
        if estimate is not None and estimate.work_s(1.0) > 0:
            pace = elapsed_s + estimate.left_s(estimate.work_s(1.0) * done / total, elapsed_s)
    if expected_s is None:
        return None if pace is None else pace - elapsed_s
    w = done / total
    whole = expected_s if pace is None else w * pace + (1 - w) * expected_s
    return whole - elapsed_s


def eta_text(elapsed_s: float, done: int, total: int | None,
             expected_s: float | None = None, paced: bool = False,
             estimate: Estimate | None = None) -> str:
    """``about 1 min 20 s left``, ``past the estimate`` once the time is over it, or empty
    when it cannot be told."""
    left = left_s(elapsed_s, done, total, expected_s, paced, estimate)
    if left is None:
        return ""
    return f"about {format_duration(left)} left" if left > 0 else "past the estimate"


class _LeftColumn(ProgressColumn):
    """The bar's time left, from the estimate and the pace, worked out at every refresh (it
    moves while a long step runs)."""

    def __init__(self, progress: "Progress"):
        super().__init__()
        self._progress = progress

    def render(self, task: Task) -> Text:
        # the bar's cell is short ("ETA 1 min 20 s"), so it never wraps at 80 columns; the
        # log lines keep the sentence
        left = self._progress.left_seconds()
        if left is None:
            return Text("")
        return Text(f"ETA {format_duration(left)}" if left > 0 else "ETA past", no_wrap=True)


class Progress:
    """Counts finished steps of one run and shows them in the chosen mode."""

    def __init__(self, console: Console, mode: str = "bar", unit: str = "steps",
                 clock: Callable[[], float] = time.monotonic):
        if mode not in MODES:
            raise ValueError(f"unknown progress mode {mode!r}")
        self.console = console
        self.mode = mode
        self.unit = unit
        self.clock = clock
        self.total: int | None = None
        self.expected_s: float | None = None   # the whole run, as estimated at its start
        self.paced = False                     # expected_s kept from real progress since
        self.estimate: Estimate | None = None  # what expected_s came from, for the pace
        self.count = 0
        self._t0 = clock()
        self._bar: RichProgress | None = None
        self._task = TaskID(0)
        self._pending: str | None = None

    def announce(self, text: str) -> None:
        """A line printed before the first step starts (the estimate): a command that fails
        at its first check prints only its error."""
        if self.mode != "off":
            self._pending = text

    def _flush(self) -> None:
        if self._pending is not None:
            text, self._pending = self._pending, None
            self.say(text)

    def start(self, total: int | None = None, expected_s: float | None = None,
              estimate: Estimate | None = None) -> "Progress":
        self.total = total
        self.expected_s = expected_s
        self.estimate = estimate
        self._t0 = self.clock()
        if self.mode == "bar":
            # on a narrow terminal the bar gives way to the step's name and the counts
            self._bar = RichProgress(TextColumn("[bold]{task.description}"),
                                     BarColumn(bar_width=bar_width(self.console.width)),
                                     MofNCompleteColumn(), TextColumn(self.unit),
                                     TimeElapsedColumn(), _LeftColumn(self),
                                     console=self.console, transient=True)
            self._task = self._bar.add_task("measuring", total=total)
            self._bar.start()
        return self

    def elapsed_s(self) -> float:
        """Seconds since ``start``."""
        return self.clock() - self._t0

    def expect(self, whole_s: float) -> None:
        """The whole run's expected seconds as its real progress tells them now (the time
        left is then this less the time passed, not the start's estimate blended in)."""
        self.expected_s, self.paced = whole_s, True

    def left_seconds(self) -> float | None:
        """Seconds left now (``left_s``), None before anything can be said."""
        return left_s(self.elapsed_s(), self.count, self.total, self.expected_s, self.paced,
                      self.estimate)

    def left_text(self) -> str:
        """The time left now (``eta_text``), from the estimate and the steps done."""
        return eta_text(self.elapsed_s(), self.count, self.total, self.expected_s, self.paced,
                    self.estimate)

    def set_total(self, total: int) -> None:
        self.total = total
        if self._bar is not None:
            self._bar.update(self._task, total=total)

    def working(self, label: str) -> None:
        """The step now under way (shown on the bar only)."""
        self._flush()
        if self._bar is not None:
            self._bar.update(self._task, description=self._label(label))

    def _label(self, label: str) -> str:
        """The step's name cut to what leaves the counts and times whole on the line."""
        room = max(12, self.console.width - bar_width(self.console.width) - FIXED_COLUMNS
                   - len(self.unit))
        return label if len(label) <= room else label[:room - 1] + "~"

    def done(self, label: str, n: int = 1) -> None:
        """``n`` steps finished, the last being ``label``."""
        self._flush()
        self.count += n
        if self._bar is not None:
            self._bar.update(self._task, completed=self.count, description=self._label(label))
        elif self.mode == "lines":
            elapsed = self.clock() - self._t0
            of = f"/{self.total}" if self.total else ""
            left = eta_text(elapsed, self.count, self.total, self.expected_s, self.paced,
                            self.estimate)
            self.console.print(f"[{self.count}{of} {self.unit}, {format_duration(elapsed)}"
                               f"{', ' + left if left else ''}] {label}",
                               markup=False, highlight=False, soft_wrap=True)

    def failed(self, line: str) -> None:
        """A step that finished without a result: counted, and ``line`` (its error) is its
        line instead of the usual one."""
        self._flush()
        self.count += 1
        if self._bar is not None:
            self._bar.update(self._task, completed=self.count)
        self.say(line)

    def say(self, text: str) -> None:
        """One line above the bar (or plain when there is none)."""
        self.console.print(text, markup=False, highlight=False, soft_wrap=True)

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
