"""Talking to the C measurement core, ``cipherbench-core`` (protocol: docs/protocol.md).

The core answers in JSON lines; this module finds it, starts one process per library, checks
each line's format version and hands the records on as they arrive, typed
(``cipherbench.records``: ``Point``, ``CoreError``, ...). It never times anything.

Public API:

- ``find_core(env) -> Path``: ``$CIPHERBENCH_CORE``, then ``PATH``, then beside the installed
  ``cipherbench`` script, then ``build/core/`` of a source tree; raises ``CoreNotFound`` (says
  how to build it).
- ``Core(path, env, launcher=None)``: ``.list(lib=None) -> Inventory``; ``.bench(lib, algos, op, sizes, ...)
  -> BenchStream`` (a context manager yielding typed records; closing it stops the process);
  ``.run_lines(args)``: the raw lines of a short command, as dicts (protocol tests, listings).
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
from typing import Callable, Iterator, Mapping, Sequence

from cipherbench.errors import EnvironmentProblem, UsageError
from cipherbench.records import AlgorithmRow, Library, Point, Preamble, Record, from_wire

#: The core protocol versions this front end reads (the ``v`` field of every record).
SUPPORTED_PROTOCOL = (1,)
CORE_NAME = "cipherbench-core"
#: The core's limit of ``--samples`` (core/args.c): options that pass it on stop there too.
MAX_SAMPLES = 1000
#: Where a source checkout builds the core (``meson setup build && meson compile -C build``).
SOURCE_TREE = Path(__file__).resolve().parents[2]
#: Where ``pip install`` put the ``cipherbench`` script (and the core beside it).
INSTALL_SCRIPTS = Path(sysconfig.get_path("scripts"))
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
        self._stderr = tempfile.TemporaryFile(mode="w+b")
        try:
            self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self._stderr,
                                         stdin=subprocess.DEVNULL, env=dict(env), text=True,
                                         bufsize=1)
        except OSError as e:
            self._stderr.close()
            raise CoreNotFound(f"cannot start {argv[0]}: {e.strerror}; {BUILD_HINT}")
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
        rc = self.returncode
        if rc in (0, 1):
            return
        err = self.stderr_text().strip()
        last = err.splitlines()[-1] if err else ""
        exe = self.name   # cipherbench-core, or a core of another language
        if rc == 2:
            raise CoreUsage(last or f"{exe} refused: {' '.join(self.argv[1:])}")
        if rc < 0:
            try:
                name = signal.Signals(-rc).name
            except ValueError:
                name = f"signal {-rc}"
            what = f"killed by {name}"
        else:
            what = f"exited with status {rc}"
        raise CoreCrashed(f"{exe} {what}" + (f": {last}" if last else ""), rc, err)

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
        # An installed package carries its vectors beside it; the core finds them this way.
        vec = Path(__file__).resolve().parent / "vectors"
        if "CIPHERBENCH_VECTORS" not in self.env and vec.is_dir():
            self.env["CIPHERBENCH_VECTORS"] = str(vec)

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
                elif isinstance(rec, Library):
                    inv.libraries[rec.lib] = rec.raw
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


def _point(p: Point | dict) -> Point:
    return p if isinstance(p, Point) else from_wire({"type": "point", "lib": "", "algo": "", **p})


def per_op_ns(point: Point | dict) -> list[float]:
    """Samples of a point as nanoseconds per operation (wall clock)."""
    return _point(point).per_op_ns()


def cpu_ratio(point: Point | dict) -> float | None:
    """Total CPU time over total wall time of a point (well below 1: steal or a busy machine)."""
    return _point(point).cpu_ratio()


#: CPU features the core can ask libraries to leave unused.
HW_FEATURES = ("aes", "pclmul", "avx2", "vaes", "sha")


def hw_args(features: Sequence[str]) -> list[str]:
    """Core arguments that turn ``features`` off in every library (``[]`` for none)."""
    if not features:
        return []
    if set(features) >= set(HW_FEATURES):
        return ["--no-hw"]
    return ["--disable-cpu-feature", ",".join(f for f in HW_FEATURES if f in features)]
