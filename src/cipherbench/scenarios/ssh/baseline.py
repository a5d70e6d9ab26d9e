# SPDX-License-Identifier: GPL-3.0-or-later
"""The cleartext baseline: the same bytes over a plain TCP connection on the same path.

- Private server (loopback): a receiver process (Python, started for each sample) listens on
  127.0.0.1 and reads to end of file into one buffer; this process connects and ``sendall``s
  the data. Wall time runs from the first byte sent to the receiver's report that it has read
  the last one. CPU: the sending thread's CPU time here, the receiver's process CPU there.
- Remote host (``--host``): a listener is started on the remote through ssh with ``socat``
  (preferred) or ``nc``, its output counted with ``wc -c``; this process connects straight to
  the host's address (``ssh -G`` hostname) on that port. If the remote has neither tool, or the
  port cannot be reached (a firewall), there is no baseline and ``BaselineUnavailable`` says
  why.

Both take ``max_s`` like an ssh transfer (the same time bound, ``transfer.keep_sending``);
the sample's ``nbytes`` is what was sent (and counted by the receiver). Both give the steady
rate as an ssh transfer does (``steady``): the receiver marks the end of a warm-up quarter and
of the middle half, and the figure is the middle half over the time between the marks; the CPU
times cover that part (the sender's between the chunks where it passed each mark's bytes).
"""
from __future__ import annotations

import hashlib
import random
import shlex
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from cipherbench.scenarios.ssh import steady
from cipherbench.scenarios.ssh.errors import last_line
from cipherbench.scenarios.ssh.transfer import (FORCED_OPTIONS, Target, TransferSample, _Lines,
                                                keep_sending)


class BaselineUnavailable(Exception):
    """No cleartext baseline can be measured on this path; ``str(err)`` says why."""


# The receiver: prints its port, accepts one connection, reads everything, prints the byte
# count, its own CPU time for the data phase, (with "verify") the SHA-256 of what it got, and
# the steady part's marks (``steady``): at each offset given, ``bytes:monotonic:cpu`` (the same
# monotonic clock as this process's ``time.monotonic``). Reads stop at each offset, so each
# mark's count is exact.
_RECEIVER = r"""
import hashlib, socket, sys, time
verify = sys.argv[1] == "verify"
offsets = [int(x) for x in sys.argv[2].split(",") if x]
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
print(srv.getsockname()[1], flush=True)
conn, _ = srv.accept()
conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
buf = bytearray(1 << 20); view = memoryview(buf); n = 0
h = hashlib.sha256() if verify else None
c0 = time.process_time()
marks = []
while True:
    want = len(buf)
    if len(marks) < len(offsets):
        want = min(want, offsets[len(marks)] - n)
    k = conn.recv_into(buf, want)
    if not k:
        break
    n += k
    if h:
        h.update(view[:k])
    if len(marks) < len(offsets) and n >= offsets[len(marks)]:
        marks.append(f"{n}:{time.monotonic()!r}:{time.process_time()!r}")
c1 = time.process_time()
print(n, c1 - c0, h.hexdigest() if h else "-", ",".join(marks) or "-", flush=True)
"""


_CHUNK = 1 << 20


class _Reset(Exception):
    """The receiver reset the connection after ``sent`` bytes."""

    def __init__(self, sent: int, err: OSError):
        super().__init__(err.strerror or str(err))
        self.sent = sent


def _send(sock: socket.socket, view: memoryview, stop_at: float | None,
          mark: list[float] | None = None,
          parts: steady.Parts = steady.WHOLE_SAMPLE) -> int:
    """``sendall`` in 1 MiB pieces under the time bound (``keep_sending``); bytes sent.
    ``mark`` gets this thread's CPU time when each of ``parts``' marks has gone out."""
    off = 0
    ends = parts.offsets
    try:
        while keep_sending(off, len(view), stop_at):
            while mark is not None and len(mark) < len(ends) and ends[len(mark)] <= off:
                mark.append(time.thread_time())
            sock.sendall(view[off:off + _CHUNK])
            off = min(len(view), off + _CHUNK)
    except (ConnectionResetError, BrokenPipeError) as err:
        raise _Reset(off, err) from None
    return off


def _sample(sent: int, whole_s: float, cpu: tuple[float, float, list[float]],
            part: steady.Steady | None, server_cpu_s: float | None, method: str,
            **kw) -> TransferSample:
    """A baseline sample: its CPU times over the steady part when there is one."""
    c0, c1, _ = cpu
    client = c1 - c0 if part is None else part.client_cpu_s
    return TransferSample(nbytes=sent, wall_s=whole_s, setup_s=0.0, client_cpu_s=client,
                          client_cpu_total_s=c1 - c0, server_cpu_s=server_cpu_s,
                          server_cpu_method=method, sink_cpu_s=None,
                          steady_bytes=part.nbytes if part else None,
                          steady_s=part.seconds if part else None, **kw)


def loopback(data: bytes | memoryview, *, verify: bool = False,
             max_s: float | None = None) -> TransferSample:
    """One cleartext TCP transfer of ``data`` over 127.0.0.1 to a separate receiver process."""
    view = memoryview(data).cast("B")
    parts = steady.WHOLE_SAMPLE if verify else steady.parts(len(view))
    mark: list[float] = []
    proc = subprocess.Popen([sys.executable, "-c", _RECEIVER, "verify" if verify else "-",
                             ",".join(map(str, parts.offsets))],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            sent = _send(sock, view, t0 + max_s if max_s else None, mark, parts)
            sock.shutdown(socket.SHUT_WR)
            c1 = time.thread_time()
            report = proc.stdout.readline().split()
            t1 = time.perf_counter()
        proc.wait(timeout=30)
    except (OSError, ValueError, subprocess.TimeoutExpired, _Reset) as err:
        raise BaselineUnavailable(f"loopback TCP baseline failed: {err}") from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if len(report) != 4 or int(report[0]) != sent:
        raise BaselineUnavailable(f"loopback TCP baseline: receiver reported {report}")
    if verify and report[2] != hashlib.sha256(view[:sent]).hexdigest():
        raise BaselineUnavailable("loopback TCP baseline: data changed in transit")
    part = steady.steady(parts, _loopback_marks(report[3], mark))
    return _sample(sent, t1 - t0, (c0, c1, mark), part,
                   part.server_cpu_s if part else float(report[1]), "process",
                   digest=report[2] if verify else None,
                   extra={"tool": "python", "capped": sent < len(view)})


def _listener_script(port: int, parts: steady.Parts = steady.WHOLE_SAMPLE) -> str:
    """Remote sh: start socat or nc on ``port`` of the address the ssh connection arrived on
    (never every interface of the host), count what arrives (in ``steady``'s ``parts``), say
    which tool and address."""
    return "\n".join([
        "if command -v socat >/dev/null 2>&1; then t=socat",
        "elif command -v nc >/dev/null 2>&1; then t=nc",
        'else echo "CB-NOTOOL"; exit 0; fi',
        "set -- $SSH_CONNECTION; a=${3:-}",
        'case $a in "") echo "CB-NOADDR"; exit 0;; *:*) l=TCP6-LISTEN; b="[$a]";;'
        " *) l=TCP4-LISTEN; b=$a;; esac",
        'echo "CB-TOOL $t $a"',
        "case $t in",
        f'  socat) socat -u "$l:{port},reuseaddr,bind=$b" STDOUT ;;',
        f'  nc) nc -l -s "$a" -p {port} </dev/null 2>/dev/null || nc -l "$a" {port} </dev/null ;;',
        "esac | {",
        steady.sink_script(parts),
        "}",
        "",
    ])


def remote_address(target: Target) -> str:
    """The address ssh connects to for ``target`` (``ssh -G``'s hostname)."""
    out = subprocess.run(["ssh", *target.options, "-G", target.destination],
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    for line in out.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key == "hostname":
            return value.strip()
    raise BaselineUnavailable(f"cannot tell the address of {target.name} (ssh -G)")


def remote(target: Target, data: bytes | memoryview, *, port: int | None = None,
           max_s: float | None = None) -> TransferSample:
    """One cleartext TCP transfer of ``data`` to a listener started on the remote host.

    A listener that resets the connection before taking a single chunk is given one more
    chance with a new one (on another port); any other failure is ``BaselineUnavailable``."""
    view = memoryview(data).cast("B")
    address = remote_address(target)
    for attempt in (1, 2):
        try:
            return _remote_once(target, view, address, port or random.randint(20000, 59999),
                                max_s)
        except _Reset as err:
            if err.sent or attempt == 2 or port:
                raise BaselineUnavailable(f"baseline on {target.name}: the listener reset the "
                                          f"connection after {err.sent} bytes ({err})") from None
    raise AssertionError("unreachable")


def _remote_once(target: Target, view: memoryview, address: str, port: int,
                 max_s: float | None) -> TransferSample:
    """``remote`` with one listener on ``port``."""
    parts = steady.parts(len(view))
    mark: list[float] = []
    cmd = "exec /bin/sh -c " + shlex.quote(_listener_script(port, parts))
    proc = subprocess.Popen(["ssh", *target.options, *FORCED_OPTIONS, target.destination, cmd],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None
    lines = _Lines(proc.stdout.fileno())
    tool = ""
    try:
        line = lines.readline(time.monotonic() + 60)
        if line is None or not line.startswith("CB-"):
            proc.wait(timeout=30)
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise BaselineUnavailable(f"could not start a listener on {target.name}: "
                                      f"{last_line(err) or 'no output'}")
        if line.startswith("CB-NOTOOL"):
            raise BaselineUnavailable(f"no baseline: {target.name} has neither socat nor nc")
        if line.startswith("CB-NOADDR"):
            raise BaselineUnavailable(f"no baseline: {target.name} does not say which of its "
                                      "addresses the ssh connection arrived on "
                                      "(SSH_CONNECTION)")
        words = line.split()
        tool = words[1]
        address = words[2] if len(words) > 2 else address   # where the listener is bound
        sock = None
        deadline = time.monotonic() + 10
        while sock is None:
            try:
                sock = socket.create_connection((address, port), timeout=5)
            except OSError as err:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise BaselineUnavailable(
                        f"no baseline: cannot connect to {tool} on {address}:{port} "
                        f"({err.strerror or err}; a firewall?)") from None
                time.sleep(0.05)
        with sock:
            sock.settimeout(None)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            # the marks arrive while the data goes out: read them in a thread
            got = _Marks()
            reader = threading.Thread(target=_read_marks, daemon=True,
                                      args=(lines, got, 60 + len(view) / 1e6))
            reader.start()
            sent = _send(sock, view, t0 + max_s if max_s else None, mark, parts)
            sock.shutdown(socket.SHUT_WR)
            c1 = time.thread_time()
            reader.join(timeout=90 + len(view) / 1e6)
        t1, count = got.count if got.count is not None else (time.perf_counter(), None)
        counts = [steady.count_of(words) for words, _ in got.marks]
        if not steady.arrived(sent, parts, counts, count):
            total = steady.received(counts, count)
            raise BaselineUnavailable(f"baseline via {tool} on {target.name}: {total} of "
                                      f"{sent} bytes arrived")
    except TimeoutError:
        raise BaselineUnavailable(f"baseline via {tool or 'listener'} on {target.name}: "
                                  "no answer in time") from None
    except OSError as err:
        raise BaselineUnavailable(f"baseline via {tool or 'listener'} on {target.name}: "
                                  f"{err.strerror or err}") from None
    finally:
        lines.close()
        if proc.poll() is None:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    part = None if len(mark) != len(got.marks) else steady.steady(parts, [
        steady.mark_of(words, here, None, cpu) for (words, here), cpu in zip(got.marks, mark)])
    return _sample(sent, t1 - t0, (c0, c1, mark), part, None, "none",
                   extra={"tool": tool, "capped": sent < len(view)})


@dataclass
class _Marks:
    """What the remote listener said: each ``CB-MARK``'s words and arrival (perf_counter),
    and ``CB-COUNT``'s arrival and count."""

    marks: list[tuple[list[str], float]] = field(default_factory=list)
    count: tuple[float, int | None] | None = None


def _read_marks(lines: _Lines, got: _Marks, limit_s: float) -> None:
    """Note each ``CB-MARK`` and the ``CB-COUNT`` as they arrive; stop at ``CB-COUNT``, at
    the end of output, or after ``limit_s``."""
    deadline = time.monotonic() + limit_s
    try:
        while (line := lines.readline(deadline)) is not None:
            words = line.split()
            if words and words[0] == "CB-MARK":
                got.marks.append((words, time.perf_counter()))
            elif words and words[0] == "CB-COUNT":
                got.count = (time.perf_counter(), steady.count_of(words))
                return
    except TimeoutError:
        return


def _loopback_marks(field_: str, sender: list[float]) -> list[steady.Mark]:
    """The loopback receiver's ``bytes:monotonic:cpu`` marks as ``steady.Mark``s: each part's
    count, the receiver's clock (this machine's monotonic clock, as arrival), its CPU and
    the sender's at the same offset."""
    if field_ == "-" or not sender:
        return []
    out, prev = [], 0
    for text, cpu in zip(field_.split(","), sender):
        n, mono, own = text.split(":")
        out.append(steady.Mark(int(n) - prev, None, float(mono), float(own), cpu))
        prev = int(n)
    return out
