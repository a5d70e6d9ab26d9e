# SPDX-License-Identifier: GPL-3.0-or-later
"""Many hosts in one command (``run --host h1,h2 --host 'web*' --inventory FILE:GROUP``).

Each host is measured by its own ``cipherbench run --host HOST --json`` process (each host's
CPU is what is measured; this machine only waits for lines), at most ``parallel`` at once. A
child process per host keeps every host's run what it is alone: its own stored run, its own
signals, progress, cleanup on the host, and a failure that ends that host only. The children
write into the same store (SQLite takes concurrent writers; each run is its own rows).

A host that runs longer than ``timeout_s`` is stopped the way Ctrl-C stops a run (SIGTERM:
its run is marked interrupted and keeps what finished, its directory on the host removed),
then killed if that cleanup does not end within ``KILL_GRACE_S``. Stopping this command stops
every child the same way. Nothing here prints: ``on_line`` receives each child's stderr lines.
"""
from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import cipherbench

#: Seconds a stopped child gets for its cleanup (two ssh attempts of 30 s on the host, at most)
#: before it is killed.
KILL_GRACE_S = 75.0
_TICK_S = 0.2
#: How a run's one-line error names the run it stored ("run 7 is marked failed", "interrupted:
#: run 7 keeps ...").
_RUN_IN_LINE = re.compile(r"\brun (\d+) (?:is marked|keeps)")


@dataclass
class HostOutcome:
    """What became of one host."""

    destination: str
    status: str = "waiting"            # waiting, running, complete, failed, timed out
    rc: int | None = None
    documents: list[dict] = field(default_factory=list)   # the runs' export documents
    reason: str = ""                   # the child's last error line
    last_line: str = ""
    timeout_note: str = ""             # why it was stopped
    elapsed_s: float = 0.0

    @property
    def run_ids(self) -> list[int]:
        """Its stored runs: those it printed, else the one its error line names."""
        ids = [d["run"]["id"] for d in self.documents]
        m = None if ids else _RUN_IN_LINE.search(self.reason)
        return ids or ([int(m.group(1))] if m else [])

    @property
    def answered(self) -> bool:
        return self.status == "complete"


def strip_options(args: Sequence[str], drop: set[str], takes_value: set[str]) -> list[str]:
    """``args`` without the options in ``drop`` (and their values); ``takes_value`` names every
    option that is followed by a value, so values are never read as options."""
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        name, eq, _ = a.partition("=")
        has_value = name in takes_value and not eq
        if name in drop:
            i += 2 if has_value else 1
            continue
        out.append(a)
        if has_value and i + 1 < len(args):
            out.append(args[i + 1])
            i += 1
        i += 1
    return out


def child_env(env: Mapping[str, str]) -> dict[str, str]:
    """The environment of a child: this one, with this cipherbench first on the path."""
    out = dict(env)
    here = str(Path(cipherbench.__file__).resolve().parent.parent)
    out["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
    return out


def parse_documents(text: str) -> list[dict]:
    """The JSON documents a child printed, one after another (two with ``--hw-both``)."""
    docs, decoder, i = [], json.JSONDecoder(), 0
    text = text.strip()
    while i < len(text):
        try:
            doc, end = decoder.raw_decode(text, i)
        except ValueError:
            break
        if isinstance(doc, dict) and isinstance(doc.get("run"), dict):
            docs.append(doc)
        i = end
        while i < len(text) and text[i].isspace():
            i += 1
    return docs


class _Child:
    def __init__(self, index: int, argv: list[str], env: dict[str, str],
                 lines: "queue.Queue[tuple[int, str | None]]"):
        self.index = index
        self.t0 = time.monotonic()
        self.stopped_at: float | None = None
        self.proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     errors="replace", start_new_session=True)
        self.out: list[str] = []
        stdout = self.proc.stdout
        assert stdout is not None   # asked for as a pipe above
        self.readers = [
            threading.Thread(target=self._read_err, args=(lines,), daemon=True),
            threading.Thread(target=lambda: self.out.append(stdout.read()), daemon=True)]
        for t in self.readers:
            t.start()

    def _read_err(self, lines) -> None:
        stderr = self.proc.stderr
        assert stderr is not None   # asked for as a pipe in __init__
        for line in iter(stderr.readline, ""):
            lines.put((self.index, line.rstrip("\n")))
        lines.put((self.index, None))

    def stop(self) -> None:
        """SIGTERM once: the run is interrupted the orderly way (its cleanup on the host)."""
        if self.stopped_at is None and self.proc.poll() is None:
            self.stopped_at = time.monotonic()
            try:
                os.kill(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def kill_if_stuck(self) -> None:
        if (self.stopped_at is not None and self.proc.poll() is None
                and time.monotonic() - self.stopped_at > KILL_GRACE_S):
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def finish(self) -> tuple[int, str]:
        rc = self.proc.wait()
        # what it left in its process group (a proxy of an ssh it killed): gone with it
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        for t in self.readers:
            t.join(timeout=5)
        return rc, "".join(self.out)


def run_fleet(hosts: Sequence[str], base_argv: Sequence[str], env: Mapping[str, str], *,
              parallel: int, timeout_s: float | None,
              on_line: Callable[[HostOutcome, str], None]) -> list[HostOutcome]:
    """Measure every host with ``base_argv + ["--host", HOST]`` (at most ``parallel`` at once);
    the outcome of each, in the order of ``hosts``."""
    outcomes = [HostOutcome(h) for h in hosts]
    lines: "queue.Queue[tuple[int, str | None]]" = queue.Queue()
    running: dict[int, _Child] = {}
    eof: set[int] = set()
    pending = list(range(len(hosts)))
    envc = child_env(env)
    try:
        while pending or running:
            while pending and len(running) < parallel:
                i = pending.pop(0)
                argv = [sys.executable, "-m", "cipherbench", *base_argv, "--host", hosts[i]]
                running[i] = _Child(i, argv, envc, lines)
                outcomes[i].status = "running"
                on_line(outcomes[i], "started")
            try:
                i, line = lines.get(timeout=_TICK_S)
                while True:
                    if line is None:
                        eof.add(i)
                    elif line.strip():
                        o = outcomes[i]
                        o.last_line = line.strip()
                        if "error:" in line:
                            o.reason = line.split("error:", 1)[1].strip()
                        on_line(o, o.last_line)
                    i, line = lines.get_nowait()
            except queue.Empty:
                pass
            now = time.monotonic()
            for i, child in list(running.items()):
                o = outcomes[i]
                if timeout_s is not None and now - child.t0 > timeout_s \
                        and child.stopped_at is None:
                    o.status = "timed out"
                    o.timeout_note = f"no end within --host-timeout {timeout_s:g} s"
                    child.stop()
                    on_line(o, f"{o.timeout_note}: stopping it")
                child.kill_if_stuck()
                if child.proc.poll() is not None and i in eof:
                    _collect(o, child)
                    del running[i]
                    on_line(o, _final_line(o))
    finally:   # stopped (Ctrl-C, SIGTERM) or failed: every child ends the orderly way
        for child in running.values():
            child.stop()
        deadline = time.monotonic() + KILL_GRACE_S   # one grace for all, not one each
        for i, child in running.items():
            while child.proc.poll() is None and time.monotonic() < deadline:
                time.sleep(_TICK_S)
            child.stopped_at = time.monotonic() - KILL_GRACE_S - 1
            child.kill_if_stuck()
            _collect(outcomes[i], child)
            if outcomes[i].status == "running":
                outcomes[i].status = "stopped"
    return outcomes


def _collect(o: HostOutcome, child: _Child) -> None:
    o.rc, out = child.finish()
    o.elapsed_s = time.monotonic() - child.t0
    o.documents = parse_documents(out)
    if o.status == "running":
        o.status = "complete" if o.rc == 0 else "failed"
    if o.status == "failed" and not o.reason:
        o.reason = o.last_line or f"exit status {o.rc}"
    if o.timeout_note:
        o.reason = "; ".join(x for x in (o.timeout_note, o.reason) if x)


def _final_line(o: HostOutcome) -> str:
    runs = ", ".join(str(r) for r in o.run_ids)
    if o.status == "complete":
        return f"done in {o.elapsed_s:.0f} s: run {runs}"
    return f"{o.status} after {o.elapsed_s:.0f} s: {o.reason or o.last_line or 'no message'}"
