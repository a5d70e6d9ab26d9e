# SPDX-License-Identifier: GPL-3.0-or-later
"""One measured transfer: the same bytes from memory through ``ssh -c CIPHER -m MAC``.

What is measured, and how:

- **Wall time** of the data phase only. The remote command first prints ``CB-READY`` (so key
  exchange and authentication are over), the clock starts when the first byte is written to
  ssh's stdin and stops when the remote prints ``CB-END``, which it does after its ``cat`` has
  read the last byte. Connection setup is reported apart (``setup_s``).
- **Steady rate** (``steady``): a timed sample of at least ``steady.MIN_BYTES`` is read by the
  far side in parts, a warm-up quarter, the middle half in segments and the rest, with a mark
  after each but the last; the sample's figure is the middle half at its median segment's
  rate (``steady_bytes``, ``steady_s``), and its CPU times are each end's median segment's
  cost over those bytes. The whole data phase is kept beside it.
- **Client CPU**: the ssh process's CPU time (``/proc/PID/schedstat``, nanoseconds;
  ``/proc/PID/stat`` ticks as a fallback: ``client_cpu_method``) read at ``CB-READY`` and
  at ``CB-END`` (for a steady part: as the writing passes the marks' offsets); the difference
  is the cost of encrypting and sending the data. Its whole-life CPU from ``wait4`` resource
  usage is kept too (``client_cpu_total_s``).
- **Server CPU**: the remote command walks up from its shell to the ``sshd`` process that
  runs the session (the one that decrypts the stream and feeds the shell's stdin; with
  privilege separation that is the unprivileged ``sshd: user@notty`` child, not the monitor;
  OpenSSH 9.8 and later name it ``sshd-session``, hence the ``sshd*`` match)
  and prints that process's CPU time from ``/proc/PID/schedstat`` (nanoseconds; ``/proc/PID/
  stat`` ticks as a fallback) at ``CB-READY`` and at ``CB-END`` (for a steady part: at each
  mark). The difference is the server's cost of the data phase. The sink's own CPU (``cat``,
  from the shell's ``times``) is reported apart as ``sink_cpu_s``: it is the application, not
  SSH. Hosts without /proc report none.
- **Time bound** (``max_s``): writing stops at the first 1 MiB boundary after ``max_s``
  seconds unless three quarters of the data are already sent, so a slow cipher's sample sends
  a prefix of the data instead of all of it (and lasts at most about ``4/3 max_s``); what
  was sent is the sample's ``nbytes`` (``extra["capped"]`` says it was cut). Throughput is
  still bytes received over the wall time until the far side has read the last of them.
- **Integrity** (``verify=True``): the far side hashes what it received with SHA-256 instead
  of discarding it, and the digest must match the data sent. Timed runs count what arrives
  (``wc -c``, as cheap a sink as ``cat``) and the count must equal the bytes sent.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import re
import selectors
import shlex
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field

from cipherbench.processes.children import pin
from cipherbench.processes import procs
from cipherbench.scenarios.ssh import steady
from cipherbench.scenarios.ssh.errors import HostError, SshError, TransferFailed, classify
from cipherbench.scenarios.ssh.server import client_config

#: The ciphers whose MAC is part of the cipher (AEAD): ``-m`` is ignored for them.
AEAD_CIPHERS = ("chacha20-poly1305@openssh.com", "aes128-gcm@openssh.com",
                "aes256-gcm@openssh.com")

#: Options forced on every ssh run: no prompts, no compression (the data would shrink), no
#: reuse of a shared connection (it would keep that connection's cipher), no tty.
FORCED_OPTIONS = [
    "-T", "-o", "BatchMode=yes", "-o", "Compression=no", "-o", "ControlMaster=no",
    "-o", "ControlPath=none", "-o", "ForwardAgent=no", "-o", "ForwardX11=no",
    "-o", "ClearAllForwardings=yes", "-o", "ConnectTimeout=10",
    # refusals ("Unable to negotiate ... no matching cipher") are logged at INFO
    "-o", "LogLevel=INFO",
]

_CHUNK = 1 << 20
_F_SETPIPE_SZ = 1031


def is_aead(cipher: str) -> bool:
    """True if ``cipher`` authenticates by itself (its MAC is implicit)."""
    return cipher in AEAD_CIPHERS or cipher.endswith("-gcm@openssh.com") or "poly1305" in cipher


@dataclass(frozen=True)
class Target:
    """Where transfers go: ``ssh [options] destination``. ``label`` names it in messages."""

    destination: str
    options: tuple[str, ...] = ()
    label: str = ""
    private: bool = False
    cpu: int | None = None          # the CPU the ssh client is kept on (--cpu K)

    @property
    def name(self) -> str:
        """How messages name the host."""
        return self.label or self.destination


@dataclass
class TransferSample:
    """One completed transfer."""

    nbytes: int
    wall_s: float                   # data phase: first byte written to CB-END received
    setup_s: float                  # ssh start to CB-READY (key exchange, authentication)
    client_cpu_s: float | None      # ssh client CPU during the data phase
    client_cpu_total_s: float       # ssh client CPU over its whole life (wait4)
    server_cpu_s: float | None      # sshd session process CPU during the data phase
    server_cpu_method: str          # "schedstat", "stat-ticks" or "none"
    sink_cpu_s: float | None        # the remote cat/sha256sum
    digest: str | None = None       # SHA-256 seen by the far side (verify runs only)
    extra: dict = field(default_factory=dict)
    client_cpu_method: str = "rusage"   # "schedstat" (ns), "stat-ticks" or "rusage" (wait4)
    steady_bytes: int | None = None     # the middle part (``steady``), if measured
    steady_s: float | None = None

    @property
    def figure(self) -> tuple[int, float]:
        """(bytes, seconds) of the sample's figure: its steady part, else the whole phase."""
        if self.steady_bytes and self.steady_s:
            return self.steady_bytes, self.steady_s
        return self.nbytes, self.wall_s

    @property
    def throughput(self) -> float:
        """Bytes per second of the sample's figure (``figure``)."""
        n, t = self.figure
        return n / t if t > 0 else 0.0


def remote_script(verify: bool, parts: steady.Parts = steady.WHOLE_SAMPLE) -> str:
    """The POSIX sh program run on the far side (see the module docstring); ``parts``: where
    the far side marks a timed sample (``steady``)."""
    sink = ('if command -v sha256sum >/dev/null 2>&1; then h=sha256sum; else h="shasum -a 256";'
            ' fi; echo "CB-SHA $($h | cut -c1-64)"') if verify else \
        steady.sink_script(parts, "$(cb_cpu)")
    return "\n".join([
        "p=$PPID",
        'while [ "$p" -gt 1 ] 2>/dev/null && [ -r /proc/$p/stat ]; do',
        '  case $(cat /proc/$p/comm 2>/dev/null) in sshd*) break;; esac',
        '  p=$(sed "s/^.*) //" /proc/$p/stat | cut -d" " -f2)',
        "done",
        'case $(cat /proc/$p/comm 2>/dev/null) in sshd*) ;; *) p=0;; esac',
        "cb_cpu() {",
        '  if [ "$p" = 0 ]; then echo none',
        '  elif [ -r /proc/$p/schedstat ] && [ "$(cut -d" " -f1 /proc/$p/schedstat)" != 0 ]; then',
        '    echo "ns $(cut -d" " -f1 /proc/$p/schedstat)"',
        '  else echo "ticks $(sed "s/^.*) //" /proc/$p/stat | cut -d" " -f12,13)'
        ' $(getconf CLK_TCK)"; fi',
        "}",
        'echo "CB-READY $p $(cb_cpu)"',
        sink,
        'echo "CB-END $(cb_cpu)"',
        "times",
        "",
    ])


def remote_command(verify: bool, parts: steady.Parts = steady.WHOLE_SAMPLE) -> str:
    """The command line given to ssh: the script under ``sh`` whatever the login shell is."""
    return "exec /bin/sh -c " + shlex.quote(remote_script(verify, parts))


def _steady_part(parts: steady.Parts, marks: list[tuple[list[str], float]],
                 client: list[tuple[int | None, str]]) -> steady.Steady | None:
    """The sample's steady figure from its ``CB-MARK`` lines (count, far clock, the sshd's
    CPU) and this side's readings at the same offsets; None: timed whole."""
    if len(client) != len(marks):
        return None     # cannot happen when everything arrived: the writing passed them all
    return steady.steady(parts, [
        steady.mark_of(words, here, _cpu_from_fields(words[3:])[0],
                       None if c is None else c / 1e9)
        for (words, here), (c, _) in zip(marks, client)])


def _cpu_from_fields(fields: list[str]) -> tuple[float | None, str]:
    """Seconds and method from the ``cb_cpu`` output of the remote script."""
    try:
        if fields[0] == "ns":
            return int(fields[1]) / 1e9, "schedstat"
        if fields[0] == "ticks":
            return (int(fields[1]) + int(fields[2])) / int(fields[3]), "stat-ticks"
    except (IndexError, ValueError, ZeroDivisionError):
        pass
    return None, "none"


_TIMES_RE = re.compile(r"(\d+)m([\d.]+)s")


def _children_cpu(lines: list[str]) -> float | None:
    """Children's user+system seconds from the second line of the shell's ``times``."""
    found = [_TIMES_RE.findall(ln) for ln in lines]
    found = [f for f in found if len(f) >= 2]
    if len(found) < 2:
        return None
    return sum(int(m) * 60 + float(s) for m, s in found[1][:2])


class _Lines:
    """Line reader over a pipe with a deadline (ssh may hang on a dead network)."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buf = b""
        self.eof = False
        self.sel = selectors.DefaultSelector()
        self.sel.register(fd, selectors.EVENT_READ)

    def readline(self, deadline: float) -> str | None:
        """The next line, or None at end of file. Raises TimeoutError after ``deadline``."""
        while b"\n" not in self.buf and not self.eof:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            if self.sel.select(left):
                chunk = os.read(self.fd, 65536)
                if chunk:
                    self.buf += chunk
                else:
                    self.eof = True
        if b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            return line.decode(errors="replace")
        if self.buf:
            line, self.buf = self.buf, b""
            return line.decode(errors="replace")
        return None

    def close(self) -> None:
        self.sel.close()


def keep_sending(off: int, n: int, stop_at: float | None) -> bool:
    """The time bound: go on after ``off`` of ``n`` bytes unless ``stop_at`` (perf_counter)
    has passed and less than three quarters are sent (finishing then is cheaper than a cut)."""
    if off >= n:
        return False
    return stop_at is None or off == 0 or 4 * off >= 3 * n or time.perf_counter() < stop_at


def _writer(fd: int, data: memoryview, failure: list[BaseException], sent: list[int],
            stop_at: float | None = None, marks: tuple[int, ...] = (), pid: int = 0,
            cpu: list[tuple[int | None, str]] | None = None) -> None:
    """Write ``data`` to ``fd`` and close it (runs in a thread); the time bound may stop it
    early at a chunk boundary (``keep_sending``). ``sent[0]`` is how much went out. ``cpu``
    gets process ``pid``'s CPU time (``procs.cpu_time``) when the writing first passes each
    offset of ``marks``: ssh cannot run ahead of its input by more than the pipe holds, so
    the readings frame the bytes between the offsets whatever delays this thread."""
    off, n = 0, len(data)
    try:
        while keep_sending(off, n, stop_at):
            end = min(n, (off // _CHUNK + 1) * _CHUNK)
            while off < end:
                off += os.write(fd, data[off:end])
            while cpu is not None and len(cpu) < len(marks) and marks[len(cpu)] <= off:
                cpu.append(procs.cpu_time(pid))
    except OSError as err:  # the far side went away; reported from ssh's stderr
        failure.append(err)
    finally:
        sent[0] = off
        try:
            os.close(fd)
        except OSError:
            pass


def ssh_argv(target: Target, cipher: str, mac: str | None, command: str) -> list[str]:
    """The full ssh command line for one transfer."""
    argv = ["ssh", *target.options, *FORCED_OPTIONS, "-c", cipher]
    if mac and not is_aead(cipher):
        argv += ["-m", mac]
    return argv + [target.destination, command]


@dataclass
class _Reply:
    """What the far side's script printed after ``CB-READY``, in order of arrival."""

    digest: str | None = None   # CB-SHA: the SHA-256 of what arrived (verify)
    count: int | None = None    # CB-COUNT: the bytes that arrived (timed runs)
    end: list[str] | None = None  # CB-END's words: the server's CPU at the end
    # per CB-MARK: its words and arrival here
    marks: list[tuple[list[str], float]] = field(default_factory=list)

    def read(self, lines: _Lines, deadline: float) -> None:
        """Read until ``CB-END`` or the end of ssh's output."""
        while self.end is None:
            line = lines.readline(deadline)
            if line is None:
                return
            words = line.split()
            if line.startswith("CB-SHA"):
                self.digest = words[1] if len(words) > 1 else ""
            elif line.startswith("CB-MARK"):
                self.marks.append((words, time.perf_counter()))
            elif line.startswith("CB-COUNT"):
                self.count = steady.count_of(words)
            elif line.startswith("CB-END"):
                self.end = words


def _await_ready(lines: _Lines) -> list[str] | None:
    """``CB-READY``'s words (key exchange and login over), None when ssh ended first."""
    deadline = time.monotonic() + 60.0
    while (line := lines.readline(deadline)) is not None:
        if line.startswith("CB-READY"):
            return line.split()
    return None


def _spawn(target: Target, cipher: str, mac: str | None, verify: bool,
           parts: steady.Parts, err_file) -> subprocess.Popen:
    """ssh with the remote script, pinned as asked, its stdin pipe as large as a chunk."""
    proc = subprocess.Popen(ssh_argv(target, cipher, mac, remote_command(verify, parts)),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_file,
                            bufsize=0)
    pin(proc.pid, target.cpu)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        fcntl.fcntl(proc.stdin.fileno(), _F_SETPIPE_SZ, _CHUNK)
    except OSError:
        pass
    return proc


def transfer(target: Target, cipher: str, mac: str | None, data: bytes | memoryview, *,
             verify: bool = False, timeout_s: float | None = None,
             max_s: float | None = None) -> TransferSample:
    """Send ``data`` (or, with ``max_s``, as much of it as goes in about ``max_s`` seconds)
    through ssh with ``cipher`` (and ``mac`` for non-AEAD ciphers) and measure it. Raises an
    ``SshError`` (one line) when ssh fails or the data arrives changed or incomplete."""
    view = memoryview(data).cast("B")
    nbytes = len(view)
    if timeout_s is None:
        timeout_s = 60.0 + nbytes / 1e6  # generous: even 1 MB/s finishes
    parts = steady.WHOLE_SAMPLE if verify else steady.parts(nbytes)
    err_file = tempfile.TemporaryFile()
    t_spawn = time.monotonic()
    proc = _spawn(target, cipher, mac, verify, parts, err_file)
    assert proc.stdin is not None and proc.stdout is not None
    lines = _Lines(proc.stdout.fileno())
    writer: threading.Thread | None = None
    failure: list[BaseException] = []
    sent = [0]
    reply = _Reply()
    rest: list[str] = []
    # ssh's CPU time as the writing passed the marks' offsets (``_writer``)
    client_marks: list[tuple[int | None, str]] = []
    try:
        ready = _await_ready(lines)
        if ready is None:
            proc.stdin.close()
            raise _failure(proc, err_file, target, cipher, mac)
        t_ready = time.monotonic()
        c0, client_method = procs.cpu_time(proc.pid)
        stdin_fd = os.dup(proc.stdin.fileno())
        proc.stdin.close()
        t0 = time.perf_counter()
        writer = threading.Thread(target=_writer, daemon=True, args=(
            stdin_fd, view, failure, sent, t0 + max_s if max_s else None,
            parts.offsets, proc.pid, client_marks))
        writer.start()
        reply.read(lines, time.monotonic() + timeout_s)
        t1 = time.perf_counter()
        c1, end_method = procs.cpu_time(proc.pid)
        if reply.end is None:
            raise _failure(proc, err_file, target, cipher, mac)
        while (line := lines.readline(time.monotonic() + 30.0)) is not None:
            rest.append(line)
        writer.join(timeout=30.0)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise _failure(proc, err_file, target, cipher, mac)
    except TimeoutError:
        raise TransferFailed(f"ssh to {target.name} with {cipher}: no progress within the "
                             "time limit") from None
    finally:
        lines.close()
        if proc.returncode is None:
            proc.kill()
            proc.wait()
        if writer is not None:
            writer.join(timeout=5.0)
        err_file.close()

    capped = sent[0] < nbytes and not failure
    nbytes = sent[0]
    _check_arrival(target, cipher, mac, view[:nbytes], verify, parts, reply)
    s0, method = _cpu_from_fields(ready[2:])
    s1, _ = _cpu_from_fields(reply.end[1:])
    client_cpu = (c1 - c0) / 1e9 if c0 is not None and c1 is not None else None
    server_cpu = s1 - s0 if s0 is not None and s1 is not None else None
    part = None if verify else _steady_part(parts, reply.marks, client_marks)
    if part is not None:
        # the figure's CPU: each end's median segment (``steady``)
        client_cpu, server_cpu = part.client_cpu_s, part.server_cpu_s
        method = _cpu_from_fields(reply.marks[0][0][3:])[1]
        client_method = client_marks[0][1]
        end_method = client_marks[-1][1]
    return TransferSample(
        nbytes=nbytes,
        wall_s=t1 - t0,
        steady_bytes=part.nbytes if part else None,
        steady_s=part.seconds if part else None,
        setup_s=t_ready - t_spawn,
        client_cpu_s=client_cpu,
        client_cpu_total_s=usage.ru_utime + usage.ru_stime,
        server_cpu_s=server_cpu,
        server_cpu_method=method,
        client_cpu_method=client_method if client_method == end_method else "stat-ticks",
        sink_cpu_s=_children_cpu(rest),
        digest=reply.digest,
        extra={"server_pid": int(ready[1]) if ready[1].isdigit() else 0, "capped": capped},
    )


def _check_arrival(target: Target, cipher: str, mac: str | None, sent: memoryview,
                   verify: bool, parts: steady.Parts, reply: _Reply) -> None:
    """Raise ``TransferFailed`` unless the far side got every byte sent (timed runs: its
    counts) and, with ``verify``, the very bytes (their SHA-256)."""
    if verify:
        want = hashlib.sha256(sent).hexdigest()
        if reply.digest != want:
            raise TransferFailed(f"data changed in transit with {cipher}"
                                 f"{'/' + mac if mac else ''}: far side got sha256 "
                                 f"{reply.digest}")
        return
    counts = [steady.count_of(words) for words, _ in reply.marks]
    if not steady.arrived(len(sent), parts, counts, reply.count):
        got = steady.received(counts, reply.count)
        raise TransferFailed(f"ssh to {target.name} with {cipher}"
                             f"{'/' + mac if mac and not is_aead(cipher) else ''}: the far side "
                             f"received {got} of {len(sent)} bytes")


def _failure(proc: subprocess.Popen, err_file, target: Target, cipher: str,
             mac: str | None) -> SshError:
    """Reap ssh and turn its stderr into one typed error."""
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    err_file.seek(0)
    text = err_file.read().decode(errors="replace")
    return classify(text, host=target.name, cipher=cipher, mac=mac if not is_aead(cipher) else None)


def check_host(target: Target) -> None:
    """Connect once and run ``true``: raises ``HostError`` (one line) if the host is unusable."""
    argv = ["ssh", *target.options, *FORCED_OPTIONS, target.destination, "true"]
    try:
        out = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=60)
    except subprocess.TimeoutExpired:
        raise HostError(f"{target.name} is unreachable: no answer within 60 s") from None
    if out.returncode != 0:
        err = classify(out.stderr, host=target.name, cipher="(default)", mac=None)
        if isinstance(err, HostError):
            raise err
        raise HostError(str(err))


def client_defaults(target: Target) -> tuple[list[str], list[str]]:
    """The client's cipher and MAC preference lists for ``target`` (``ssh -G``): the first
    cipher is what a plain ``ssh`` to that host would use against a server accepting it."""
    config = client_config(target.options, target.destination)
    ciphers, macs = config.get("ciphers", ""), config.get("macs", "")
    return ciphers.split(",") if ciphers else [], macs.split(",") if macs else []
