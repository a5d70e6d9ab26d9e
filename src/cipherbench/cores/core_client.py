# SPDX-License-Identifier: GPL-3.0-or-later
"""Talking to the C measurement core, ``cipherbench-core`` (protocol: docs/protocol.md).

The core answers in JSON lines; this module finds it, starts one process per library, checks
each line's format version and hands the records on as they arrive, typed
(``cipherbench.cores.records``: ``Point``, ``CoreError``, ...). It never times anything.

Public API:

- ``find_core(env) -> Path``: ``$CIPHERBENCH_CORE``, then ``PATH``, then beside the installed
  ``cipherbench`` script, then ``build/core/`` of a source tree; raises ``CoreNotFound`` (says
  how to build it).
- ``Core(path, env, launcher=None)``: ``.list(lib=None) -> Inventory``; ``.bench(lib, algos, op, sizes, ...)
  -> BenchStream`` (a context manager yielding typed records; closing it stops the process);
  ``.serve(lib, extra) -> ServedCore | None`` (None when this core has no ``serve``: its
  ``list`` preamble does not name it); ``.run_lines(args)``: the raw lines of a short command,
  as dicts (protocol tests, listings).
- ``ServedCore``: one ``cipherbench-core serve --lib L`` process answering requests in turn
  (``.request(algos, op, sizes, ...)`` yields the records of one answer, up to its ``end``).
- ``CoreSession(core)``: the measuring processes of one run, as a context manager:
  ``.bench(lib, algos, op, sizes, ...)`` asks the library's served core (started at its first
  request, kept until the session closes), or starts one ``bench`` process per batch for a
  core without ``serve`` (a Go or Rust core built before theirs). Closing it, on every exit
  path, stops them.
- Errors: ``CoreNotFound``, ``CoreUsage`` (the core said exit 2), ``CoreCrashed`` (killed by a
  signal or an unexpected exit status), ``ProtocolMismatch`` (a line it cannot read).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, Sequence

from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.cores.records import AlgorithmRow, Library, Module, Point, Preamble, Record, from_wire

if TYPE_CHECKING:
    from cipherbench.cores.combined import Cores   # which imports this module

#: The core protocol versions this front end reads (the ``v`` field of every record).
SUPPORTED_PROTOCOL = (1,)
CORE_NAME = "cipherbench-core"
#: The core's limit of ``--samples`` (CB_MAX_SAMPLES, core/args.h; a serve request's too):
#: options that pass it on stop there too.
MAX_SAMPLES = 1000
#: The core's limits of one batch (CB_MAX_ALGOS and the size of ``algo_buf``, core/args.h):
#: at most 128 algorithm names, their bytes with one separator each at most 4096.
MAX_ALGOS = 128
MAX_ALGO_BYTES = 4096
#: ... and at most 64 sizes (CB_MAX_SIZES).
MAX_SIZES = 64
#: Where a source checkout builds the core (``meson setup build && meson compile -C build``).
SOURCE_TREE = Path(__file__).resolve().parents[3]
#: Where ``pip install`` put the ``cipherbench`` script (and the core beside it).
INSTALL_SCRIPTS = Path(sysconfig.get_path("scripts"))
#: ... and the core's library modules (core/module.h): meson-python puts what meson installs
#: in lib/ into the package's private library directory, not where the core looks by itself.
INSTALL_MODULES = (Path(sysconfig.get_path("platlib")) / ".cipherbench.mesonpy.libs" / "cipherbench"
                   / "modules")
BUILD_HINT = ("build it with `meson setup build && meson compile -C build` in the source tree, "
              "or install cipherbench with `pip install .`, or point CIPHERBENCH_CORE at it")


class CoreNotFound(EnvironmentProblem):
    """No ``cipherbench-core`` executable could be found."""


class CoreUsage(UsageError):
    """The core refused its arguments (its exit status 2); the message is its stderr line."""


class CoreCrashed(EnvironmentProblem):
    """The core process died (a signal, or an exit status other than 0, 1, 2)."""

    def __init__(self, message: str, returncode: int | None = None, stderr: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


class ProtocolMismatch(EnvironmentProblem):
    """A line from the core is not JSON, or has a format version this front end cannot read."""


def find_core(env: Mapping[str, str] | None = None) -> Path:
    """Locate ``cipherbench-core``: ``$CIPHERBENCH_CORE``, then ``PATH``, then the source tree's
    ``build/core/``. Raises ``CoreNotFound`` saying how to build it."""
    env = os.environ if env is None else env
    explicit = env.get("CIPHERBENCH_CORE")
    if explicit:
        p = Path(explicit)
        if p.is_file() and os.access(p, os.X_OK):
            return p
        raise CoreNotFound(f"CIPHERBENCH_CORE={explicit} is not an executable file; {BUILD_HINT}")
    found = shutil.which(CORE_NAME, path=env.get("PATH", os.defpath))
    if found:
        return Path(found)
    # Installed with cipherbench (`pip install .`): beside the `cipherbench` script, which
    # need not be on PATH (`.venv/bin/cipherbench` without activating the environment).
    scripts = INSTALL_SCRIPTS
    for cand in (scripts / CORE_NAME, SOURCE_TREE / "build" / "core" / CORE_NAME):
        if cand.is_file() and os.access(cand, os.X_OK):
            return cand
    raise CoreNotFound(f"{CORE_NAME} not found (looked at $CIPHERBENCH_CORE, PATH, {scripts} "
                       f"and build/core/); {BUILD_HINT}")


def algo_batches(algos: Sequence[str]) -> list[list[str]]:
    """``algos`` in order, cut into the fewest consecutive lists one ``bench`` or ``serve``
    request accepts (``MAX_ALGOS`` names, ``MAX_ALGO_BYTES`` bytes)."""
    batches: list[list[str]] = []
    used = 0
    for name in algos:
        size = len(name.encode()) + 1
        if not batches or len(batches[-1]) == MAX_ALGOS or used + size > MAX_ALGO_BYTES:
            batches.append([])
            used = 0
        batches[-1].append(name)
        used += size
    return batches


def request_batches(algos: Sequence[str],
                    sizes: Sequence[int]) -> list[tuple[list[str], list[int]]]:
    """(algorithms, sizes) of each request one batch over ``algos`` x ``sizes`` takes, in
    order, each within the core's limits."""
    size_lists = [list(sizes[i:i + MAX_SIZES]) for i in range(0, len(sizes), MAX_SIZES)]
    return [(a, s) for a in algo_batches(algos) for s in size_lists]


def parse_line(line: str) -> dict:
    """One JSON line from the core as a dict, its version checked."""
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as e:
        raise ProtocolMismatch(f"the core wrote a line that is not JSON ({e.msg}): {line[:120]!r}")
    if not isinstance(rec, dict) or "type" not in rec:
        raise ProtocolMismatch(f"the core wrote a record without a type: {line[:120]!r}")
    if rec.get("v") not in SUPPORTED_PROTOCOL:
        raise ProtocolMismatch(
            f"the core speaks protocol version {rec.get('v')!r}, this cipherbench reads "
            f"{', '.join(map(str, SUPPORTED_PROTOCOL))}: rebuild the core and the front end "
            "from the same source")
    return rec


@dataclass
class Inventory:
    """What a core build can measure (from ``cipherbench-core list``)."""

    preamble: dict = field(default_factory=dict)               # the raw preamble line
    libraries: dict[str, dict] = field(default_factory=dict)   # lib -> raw library line
    algorithms: list[AlgorithmRow] = field(default_factory=list)
    modules: list[Module] = field(default_factory=list)        # the C core's, loaded or not

    def unavailable(self) -> dict[str, str]:
        """Library -> the loader's reason, for each module of the build that did not load."""
        return {m.lib: m.error for m in self.modules if not m.loaded}

    def unknown_library(self, name: str) -> str | None:
        """Why ``name`` cannot be measured when its module did not load, else None."""
        why = self.unavailable().get(name)
        return None if why is None else (f"library {name!r} is not available here: its "
                                         f"module did not load: {why}")

    def libs(self) -> list[str]:
        """Library names in the core's order."""
        return list(self.libraries)

    def rows(self, lib: str) -> list[AlgorithmRow]:
        """Algorithm rows of one library."""
        return [a for a in self.algorithms if a.lib == lib]

    def supports(self, lib: str, algo: str, op: str | None = None) -> bool:
        """True if ``lib`` has ``algo`` (and ``op``, when given)."""
        for a in self.algorithms:
            if a.lib == lib and a.algo == algo:
                return op is None or op in a.ops
        return False

    def algo_names(self) -> list[str]:
        """Every algorithm some library has, in first-seen order."""
        seen: dict[str, None] = {}
        for a in self.algorithms:
            seen.setdefault(a.algo, None)
        return list(seen)


def exit_error(argv: Sequence[str], rc: int, stderr: str,
               name: str | None = None) -> Exception | None:
    """What a core process's exit status means: None for 0 and 1 (1: some algorithm failed
    its vectors, said in ``error`` records), ``CoreUsage`` for 2 (its stderr line),
    ``CoreCrashed`` for a signal or any other status. ``name`` is the core's, when ``argv``
    starts with a launcher (ssh)."""
    if rc in (0, 1):
        return None
    err = stderr.strip()
    last = err.splitlines()[-1] if err else ""
    exe = name or Path(argv[0]).name   # cipherbench-core, or a core of another language
    if rc == 2:
        return CoreUsage(last or f"{exe} refused: {' '.join(argv[1:])}")
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        what = f"killed by {name}"
    else:
        what = f"exited with status {rc}"
    return CoreCrashed(f"{exe} {what}" + (f": {last}" if last else ""), rc, err)


def _start(argv: list[str], env: Mapping[str, str], *, stdin: int):
    """A core process reading ``stdin`` (a pipe, or nothing), its lines on a text pipe, its
    stderr in a temporary file (read when it fails); ``CoreNotFound`` when it cannot start."""
    err = tempfile.TemporaryFile(mode="w+b")
    try:
        proc = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.PIPE, stderr=err,
                                env=dict(env), text=True, bufsize=1)
    except OSError as e:
        err.close()
        raise CoreNotFound(f"cannot start {argv[0]}: {e.strerror}; {BUILD_HINT}") from None
    return proc, err


class BenchStream:
    """A running ``cipherbench-core bench``; iterate for typed records (``lines()`` for the raw
    dicts), use as a context manager.

    Iteration ends after the process exits with 0 or 1 (1: some algorithm failed its vectors;
    those are ``error`` records). Exit 2 raises ``CoreUsage``; a crash raises ``CoreCrashed``
    after every complete line before it was yielded. Leaving the ``with`` block early (Ctrl-C,
    an exception) stops the process.
    """

    def __init__(self, argv: list[str], env: Mapping[str, str], name: str | None = None):
        self.argv = argv
        #: How messages name the core (default: ``argv[0]``'s file name; a launcher's argv
        #: starts with the launcher, e.g. ssh)
        self.name = name or Path(argv[0]).name
        self.proc, self._stderr = _start(argv, env, stdin=subprocess.DEVNULL)
        self.returncode: int | None = None

    def __enter__(self) -> "BenchStream":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def stderr_text(self) -> str:
        """What the core wrote on stderr so far."""
        self._stderr.flush()
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")

    def __iter__(self) -> Iterator[Record]:
        for obj in self.lines():
            yield from_wire(obj)

    def lines(self) -> Iterator[dict]:
        """The records as the checked JSON objects of the wire."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if not line.endswith("\n"):
                break  # a half-written last line: the process died mid-write
            line = line.strip()
            if line:
                yield parse_line(line)
        self.returncode = self.proc.wait()
        problem = exit_error(self.argv, self.returncode, self.stderr_text(), self.name)
        if problem is not None:
            raise problem

    def close(self) -> None:
        """Stop the process if it still runs, and release its pipes."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self._stderr.close()

class ServedCore:
    """A running ``cipherbench-core serve --lib L``: one process that keeps the library set
    up (vectors loaded, known answers checked once per algorithm, each point calibrated once)
    and answers one request after the other (docs/protocol.md, "serve").

    ``request`` yields the records of one answer, the process's ``preamble`` and ``library``
    first in the first answer, so a caller reads the same stream as from ``bench``. A request
    the core refuses (``bad_request``) raises ``CoreUsage`` once its answer is read, as
    ``bench`` exits 2; a process that dies raises ``CoreCrashed`` (or ``CoreUsage`` when it
    refused its own arguments). An answer left unread cannot be resumed: ``close`` then."""

    #: How long a clean close waits for the process to end after its input ends.
    CLOSE_WAIT_S = 2.0

    def __init__(self, argv: list[str], env: Mapping[str, str]):
        self.argv = argv
        self.proc, self._stderr = _start(argv, env, stdin=subprocess.PIPE)
        self._greeted = False    # preamble and library read
        self.busy = False        # in the middle of an answer

    def _line(self) -> dict | None:
        """The next checked line, or None at the end of the output."""
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line.endswith("\n"):
                return None   # the end, or half a line: the process died mid-write
            if line.strip():
                return parse_line(line.strip())

    def _died(self) -> Exception:
        """Why the process ended before its answer did."""
        rc = self.proc.wait()
        self._stderr.flush()
        self._stderr.seek(0)
        err = self._stderr.read().decode("utf-8", "replace")
        return exit_error(self.argv, rc, err) or CoreCrashed(
            f"{Path(self.argv[0]).name} ended in the middle of an answer (exit status {rc})",
            rc, err)

    def request(self, algos: Sequence[str], op: str, sizes: Sequence[int], *,
                samples: int | None = None,
                min_sample_ms: float | None = None) -> Iterator[dict]:
        """Ask for one measurement and yield its answer's lines up to and including its
        ``end``."""
        req: dict = {"algo": list(algos), "op": op, "sizes": [int(x) for x in sizes]}
        if samples is not None:
            req["samples"] = int(samples)
        if min_sample_ms is not None:
            req["min_sample_ms"] = float(min_sample_ms)
        assert self.proc.stdin is not None
        self.busy = True
        try:
            self.proc.stdin.write(json.dumps(req, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died() from None
        refused = None
        while not self._greeted:
            obj = self._line()
            if obj is None:
                raise self._died()
            self._greeted = obj.get("type") == "library"
            yield obj
        while True:
            obj = self._line()
            if obj is None:
                raise self._died()
            if obj.get("type") == "error" and obj.get("reason") == "bad_request":
                refused = obj.get("message") or "bad request"
            elif obj.get("type") == "end":
                self.busy = False
                if refused:
                    raise CoreUsage(f"{Path(self.argv[0]).name} serve refused a request: "
                                    f"{refused}")
                yield obj
                return
            else:
                yield obj

    def close(self) -> None:
        """End the process: its input is closed (it exits at once between answers); one in the
        middle of an answer, or slow to end, is terminated."""
        if self.proc.poll() is None:
            try:
                if self.busy:
                    raise subprocess.TimeoutExpired(self.argv, 0)
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=self.CLOSE_WAIT_S)
            except (subprocess.TimeoutExpired, BrokenPipeError, OSError):
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f:
                try:
                    f.close()
                except OSError:
                    pass
        self._stderr.close()


class _Answer:
    """One answer of a served core, as a context manager yielding typed records (what
    ``BenchStream`` is for a ``bench`` process). Left before its end (an error, Ctrl-C), the
    served core is stopped: its output would be out of step with the next request."""

    def __init__(self, session: "CoreSession", key: tuple, lines: Iterator[dict]):
        self._session, self._key, self._lines = session, key, lines
        self._done = False

    def __enter__(self) -> "_Answer":
        return self

    def __exit__(self, *exc) -> None:
        if not self._done:
            self._session.drop(self._key)

    def __iter__(self) -> Iterator[Record]:
        try:
            for obj in self._lines:
                yield from_wire(obj)
        except (CoreCrashed, CoreUsage, ProtocolMismatch):
            self._session.drop(self._key)
            raise
        self._done = True


class CoreSession:
    """The measuring processes of one run. ``bench`` sends each batch to the library's served
    core (one process per library and set of extra arguments, started at its first batch), or,
    when the core that measures the library has no ``serve``, starts a ``bench`` process for
    the batch. Use as a context manager: closing stops every served core, on every exit path
    (a stop signal arrives as ``KeyboardInterrupt`` and passes through ``__exit__``)."""

    def __init__(self, core: Core | Cores) -> None:
        self.core = core
        self._served: dict[tuple, ServedCore] = {}
        self.processes = 0        # core processes started (served and bench)

    def __enter__(self) -> "CoreSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def bench(self, lib: str, algos: Sequence[str], op: str, sizes: Sequence[int], *,
              samples: int | None = None, min_sample_ms: float | None = None,
              extra: Sequence[str] = ()):
        """One batch: a context manager yielding the records ``bench`` writes for it."""
        key = (lib, tuple(extra))
        served = self._served.get(key)
        if served is None:
            served = self.core.serve(lib, extra)
            if served is None:
                self.processes += 1
                return self.core.bench(lib, algos, op, sizes, samples=samples,
                                       min_sample_ms=min_sample_ms, extra=extra)
            self._served[key] = served
            self.processes += 1
        return _Answer(self, key, served.request(algos, op, sizes, samples=samples,
                                                 min_sample_ms=min_sample_ms))

    def drop(self, key: tuple) -> None:
        """Stop one served core (it crashed, or its answer was left unread); the library's
        next batch starts a new one."""
        served = self._served.pop(key, None)
        if served is not None:
            served.close()

    def close(self) -> None:
        """Stop every served core."""
        while self._served:
            self.drop(next(iter(self._served)))


#: Turns a core's command line into the one started, e.g. through ssh on another host
#: (``cipherbench.remote``); the core's own arguments are left as they are.
Launcher = Callable[[list[str]], list[str]]


class Core:
    """One ``cipherbench-core`` executable and the environment its processes get; with a
    ``launcher``, ``path`` is where the core is for the launcher (another host's path)."""

    def __init__(self, path: Path | str, env: Mapping[str, str] | None = None,
                 launcher: Launcher | None = None):
        self.path = Path(path)
        self.env = dict(os.environ if env is None else env)
        self.launcher = launcher
        #: Arguments every list/bench gets, e.g. ``["--no-hw"]`` (see ``hw_args``).
        self.common_args: list[str] = []
        #: The commands the core's ``list`` preamble names (None: not listed yet; empty: a
        #: core that does not say, which has no ``serve``).
        self.commands: tuple[str, ...] | None = None
        # An installed package carries its vectors beside it; the core finds them this way.
        vec = Path(__file__).resolve().parents[1] / "vectors"
        if "CIPHERBENCH_VECTORS" not in self.env and vec.is_dir():
            self.env["CIPHERBENCH_VECTORS"] = str(vec)
        if (launcher is None and "CIPHERBENCH_MODULES" not in self.env
                and self.path.parent == INSTALL_SCRIPTS and INSTALL_MODULES.is_dir()):
            self.env["CIPHERBENCH_MODULES"] = str(INSTALL_MODULES)

    def program_of(self, lib: str) -> str:  # noqa: ARG002 - one core measures every library
        """The name of the core program that measures ``lib``."""
        return self.path.name

    @classmethod
    def find(cls, env: Mapping[str, str] | None = None) -> "Core":
        """``Core(find_core(env), env)``."""
        return cls(find_core(env), env)

    def start(self, argv: list[str]) -> BenchStream:
        """The core's process for ``argv`` (``argv[0]`` is ``path``), through the launcher."""
        if self.launcher is None:
            return BenchStream(argv, self.env)
        return BenchStream(self.launcher(argv), self.env, name=self.path.name)

    def run_lines(self, args: Sequence[str]) -> list[dict]:
        """Run the core to completion and return its records (for short commands)."""
        with self.start([str(self.path), *args]) as s:
            return list(s.lines())

    def list(self, lib: str | None = None) -> Inventory:
        """``cipherbench-core list``: libraries, versions, capabilities and algorithms."""
        inv = Inventory()
        with self.start([str(self.path), "list", *(["--lib", lib] if lib else []),
                         *self.common_args]) as stream:
            for rec in stream:
                if isinstance(rec, Preamble):
                    inv.preamble = rec.raw
                    self.commands = tuple(rec.raw.get("commands") or ())
                elif isinstance(rec, Library):
                    inv.libraries[rec.lib] = rec.raw
                elif isinstance(rec, Module):
                    inv.modules.append(rec)
                elif isinstance(rec, AlgorithmRow):
                    inv.algorithms.append(rec)
                    inv.libraries.setdefault(rec.lib, {"lib": rec.lib, "version": "",
                                                       "caps": []})
        return inv

    def bench(self, lib: str, algos: Sequence[str], op: str, sizes: Sequence[int], *,
              samples: int | None = None, min_sample_ms: float | None = None,
              extra: Sequence[str] = ()) -> BenchStream:
        """Start ``cipherbench-core bench`` for one library; returns a ``BenchStream``."""
        argv = [str(self.path), "bench", "--lib", lib, "--algo", ",".join(algos), "--op", op,
                "--sizes", ",".join(str(s) for s in sizes)]
        if samples is not None:
            argv += ["--samples", str(samples)]
        if min_sample_ms is not None:
            argv += ["--min-sample-ms", f"{min_sample_ms:g}"]
        argv += self.common_args + list(extra)
        return self.start(argv)

    def serves(self) -> bool:
        """True when this core has ``serve`` (asks its ``list`` once if not done yet)."""
        if self.commands is None:
            self.list()
        return "serve" in (self.commands or ())

    def serves_lib(self, lib: str) -> bool:  # noqa: ARG002 - one core measures every library
        """Whether ``serve`` keeps one process for ``lib``'s batches (else a process a batch)."""
        return self.launcher is None and self.serves()

    def serve(self, lib: str, extra: Sequence[str] = ()) -> ServedCore | None:
        """Start ``cipherbench-core serve`` for one library (``extra``: e.g. ``--cpu K``); None
        when this core has no ``serve``, or runs through a launcher (``run --host`` starts a
        ``bench`` over ssh per batch, which its remote wrapper can account for)."""
        if self.launcher is not None or not self.serves():
            return None
        return ServedCore([str(self.path), "serve", "--lib", lib, *self.common_args,
                           *extra], self.env)


def _point(p: Point | dict) -> Point:
    if isinstance(p, Point):
        return p
    rec = from_wire({"type": "point", "lib": "", "algo": "", **p})
    if not isinstance(rec, Point):   # the dict named another type of record
        raise ValueError(f"not a measured point: a {rec.type!r} record")
    return rec


def per_op_ns(point: Point | dict) -> list[float]:
    """Samples of a point as nanoseconds per operation (wall clock)."""
    return _point(point).per_op_ns()


def cpu_ratio(point: Point | dict) -> float | None:
    """Total CPU time over total wall time of a point (well below 1: steal or a busy machine)."""
    return _point(point).cpu_ratio()
