# SPDX-License-Identifier: GPL-3.0-or-later
"""What the fidelity scripts share: running cipherbench-core and a peer tool,
turning their output into throughput, interleaving the two, and the
Markdown table of ratios and run-to-run variation.

A point is keyed (algo, op, size), algo and op being the core's canonical
names. Throughput is in bytes per second throughout; tables print MB/s
(10^6 bytes per second). The core's throughput comes by two clocks: "wall"
(its number: wall-clock time, as openssl speed -elapsed and botan speed
time) and "cpu" (the process's CPU time, as gnutls-cli times), each
{"wall": bytes/s, "cpu": bytes/s}.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys


class RunError(Exception):
    """A tool did not run or printed nothing usable."""


class Job:
    """One unit of interleaving: a peer tool's run and the core's runs that
    measure the same points. run_ours returns {(algo, op, size): {"wall":
    bytes/s, "cpu": bytes/s}}, run_peer {(algo, op, size): bytes/s}; each
    must give every key in keys. A job measuring something other than bytes
    (handshakes, say) names its rate's unit and the divisor that prints it,
    and size_head=None leaves the size column out of its table."""

    def __init__(self, name, keys, run_ours, run_peer, unit="MB/s", scale=1e6, size_head="bytes"):
        self.name, self.keys, self.run_ours, self.run_peer = name, list(keys), run_ours, run_peer
        self.unit, self.scale, self.size_head = unit, scale, size_head


def cpu_model():
    """Returns the CPU model name from /proc/cpuinfo, or the platform's guess."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pin_prefix(cpu):
    """Command prefix that pins a child to one CPU, or [] when not asked."""
    return [] if cpu is None else ["taskset", "-c", str(cpu)]


def run(cmd):
    """Runs cmd and returns its stdout; raises RunError with its stderr on failure."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:
        raise RunError(f"cannot run {cmd[0]}: {e.strerror}") from None
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        raise RunError(f"{' '.join(cmd)} exited with {p.returncode}: {last}")
    return p.stdout


def core_command(core, lib, algos, op, sizes, samples, min_sample_ms, cpu, vectors=None):
    """The cipherbench-core bench command line for some algorithms of one op."""
    cmd = [core, "bench", "--lib", lib, "--algo", ",".join(algos), "--op", op,
           "--sizes", ",".join(str(s) for s in sizes), "--samples", str(samples),
           "--min-sample-ms", f"{min_sample_ms:g}"]
    if cpu is not None:
        cmd += ["--cpu", str(cpu)]
    if vectors is not None:
        cmd += ["--vectors", vectors]
    return cmd


def core_throughputs(stdout):
    """{(algo, op, size): {"wall": bytes/s, "cpu": bytes/s}} from the core's
    point records: size*iters / median(wall_ns), and the same by cpu_ns.
    An error record raises RunError."""
    out = {}
    for line in stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            raise RunError(f"cipherbench-core printed a line that is not JSON: {line[:60]}") from None
        if rec.get("type") == "error":
            raise RunError(f"cipherbench-core: {rec.get('lib')} {rec.get('algo')}: "
                           f"{rec.get('reason')}: {rec.get('message')}")
        if rec.get("type") == "point":
            work = rec["size"] * rec["iters"]
            out[(rec["algo"], rec["op"], rec["size"])] = {
                clock: work / (statistics.median(rec[f"{clock}_ns"]) * 1e-9)
                for clock in ("wall", "cpu")}
    return out


def run_core(args, lib, algos, op, sizes):
    """Runs the core once for algos x sizes of one op; returns its throughputs
    (as core_throughputs), raising RunError if a point is missing."""
    cmd = core_command(args.core, lib, algos, op, sizes, args.samples, args.min_sample_ms,
                       args.cpu, args.vectors)
    got = core_throughputs(run(cmd))
    for algo in algos:
        for size in sizes:
            if (algo, op, size) not in got:
                raise RunError(f"cipherbench-core printed no point for {lib} {algo} {op} at {size} bytes")
    return got


def run_core_points(args, lib, points, sizes):
    """The core's runs for the (algorithm, op) pairs in ``points`` (the values of a dict, as
    the peer scripts map their tool's rows), one run per op; returns their throughputs."""
    by_op = {}
    for algo, op in points:
        by_op.setdefault(op, []).append(algo)
    out = {}
    for op, algos in by_op.items():
        out.update(run_core(args, lib, algos, op, sizes))
    return out


def cv(values):
    """Coefficient of variation (sample stdev / mean) of a list, as a fraction."""
    return statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else 0.0


def interleave(jobs, reps, peer_name, log=sys.stderr):
    """Runs every job reps times, ours and the peer back to back, the order
    flipping every repetition (ours first in even ones) so a slow drift of the
    machine hits both alike. Returns ({key: (ours[], peer[])} in the jobs'
    key order, [1-minute load average after each job])."""
    results = {k: ([], []) for j in jobs for k in j.keys}
    loads = []
    for rep in range(reps):
        for job in jobs:
            got = [None, None]
            for which in ((0, 1) if rep % 2 == 0 else (1, 0)):
                got[which] = job.run_ours() if which == 0 else job.run_peer()
            loads.append(os.getloadavg()[0])
            for key in job.keys:
                for which in (0, 1):
                    if key not in got[which]:
                        who = "cipherbench-core" if which == 0 else peer_name
                        raise RunError(f"{who} gave no result for {' '.join(map(str, key))}")
                    results[key][which].append(got[which][key])
                ours, peer = results[key]
                u, s = job.unit, job.scale
                print(f"rep {rep + 1}/{reps} {key[0]:18} {key[1]:7} {key[2]:6}: "
                      f"ours {ours[-1]['wall'] / s:9.1f} {u} (CPU time {ours[-1]['cpu'] / s:9.1f}), "
                      f"{peer_name} {peer[-1] / s:9.1f} {u}", file=log, flush=True)
    return results, loads


def format_table(results, peer_name, show_op=False, clock="wall", unit="MB/s", scale=1e6,
                 size_head="bytes"):
    """Markdown lines: per point, the medians over repetitions, their ratio
    (ours / peer), the median of the per-repetition ratios, and both CVs;
    ours by the given clock ("wall" or "cpu"). Rates print divided by scale,
    headed by unit; size_head=None leaves the size column out."""
    op_head, op_rule = ("| op ", "| --- ") if show_op else ("", "")
    size_head_cell, size_rule = (f"| {size_head} ", "| ---: ") if size_head else ("", "")
    ours_head = f"ours {unit}" if clock == "wall" else f"ours {unit} (CPU time)"
    lines = [f"| algorithm {op_head}{size_head_cell}| {ours_head} | {peer_name} {unit} | ratio "
             f"| paired ratio | CV ours | CV {peer_name} |",
             f"| --- {op_rule}{size_rule}| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (algo, op, size), (ours_both, peer) in results.items():
        ours = [o[clock] for o in ours_both]
        mo, mp = statistics.median(ours), statistics.median(peer)
        # Each repetition's two runs are back to back: their ratio cancels slow drift.
        paired = statistics.median(o / p for o, p in zip(ours, peer))
        op_cell = f"| {op} " if show_op else ""
        size_cell = f"| {size} " if size_head else ""
        lines.append(f"| {algo} {op_cell}{size_cell}| {mo / scale:.1f} | {mp / scale:.1f} | {mo / mp:.3f} "
                     f"| {paired:.3f} | {100 * cv(ours):.2f}% | {100 * cv(peer):.2f}% |")
    return lines


def load_summary(before, during, after):
    """One phrase on the 1-minute load average before, during and after a run."""
    text = f"{os.cpu_count()} CPUs, 1-minute load average {before:.2f} before"
    if during:
        text += (f", {min(during):.2f}-{max(during):.2f} during (median "
                 f"{statistics.median(during):.2f}, sampled after each pair)")
    return text + f", {after:.2f} after"


def add_core_args(p, min_sample_ms):
    """Adds the options every fidelity script has: the core, repetitions, the
    core's sampling, pinning and vectors."""
    p.add_argument("--core", default=os.environ.get("CIPHERBENCH_CORE", "cipherbench-core"),
                   help="the cipherbench-core executable (default: $CIPHERBENCH_CORE or PATH)")
    p.add_argument("--reps", type=int, default=5, help="repetitions of each pair (default 5)")
    p.add_argument("--samples", type=int, default=21, help="core samples per point (default 21)")
    p.add_argument("--min-sample-ms", type=float, default=min_sample_ms,
                   help=f"core time per sample in ms (default {min_sample_ms:g})")
    p.add_argument("--cpu", type=int, default=None, help="pin both tools to this CPU")
    p.add_argument("--vectors", default=None,
                   help="vector file or directory for the core's check before timing")


def check_core_args(p, a, tools):
    """Usage errors (exit 2 through p.error) for the shared options; tools are
    the executables that must be found."""
    if a.reps < 2:
        p.error("--reps must be at least 2 (a CV needs two runs)")
    if a.samples < 1:
        p.error("--samples must be at least 1")
    if a.min_sample_ms <= 0:
        p.error("--min-sample-ms must be positive")
    for tool in (a.core, *tools):
        if shutil.which(tool) is None:
            p.error(f"{tool}: not found or not executable")
    if a.cpu is not None:
        if shutil.which("taskset") is None:
            p.error("--cpu needs taskset (util-linux) to pin the peer tool")
        if a.cpu < 0 or a.cpu not in os.sched_getaffinity(0):
            p.error(f"--cpu {a.cpu}: not a CPU this process may use "
                    f"({','.join(map(str, sorted(os.sched_getaffinity(0))))})")


def description(doc):
    """The first paragraph of a module docstring, for argparse."""
    return doc.split("\n\n", 1)[0]


def run_report(prog, args, jobs, peer_name, version_cmd, header, show_op=False, clocks=("wall",),
               per_job=False):
    """Runs the jobs interleaved and prints the header line and a table per
    clock of ours (see format_table); with per_job, a table per job and clock,
    each in its job's unit. Returns the exit status (1 when a tool failed,
    130 on Ctrl-C)."""
    load_before = os.getloadavg()[0]
    try:
        results, loads = interleave(jobs, args.reps, peer_name)
        version = run(version_cmd).strip().splitlines()[0]
    except RunError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    pinned = "" if args.cpu is None else f"; pinned to CPU {args.cpu}"
    print(f"CPU: {cpu_model()}; {version}; {args.reps} repetitions, interleaved; {header}; "
          f"core --samples {args.samples} --min-sample-ms {args.min_sample_ms:g}{pinned}; "
          + load_summary(load_before, loads, os.getloadavg()[0]))
    for job in jobs if per_job else [None]:
        part = results if job is None else {k: results[k] for k in job.keys}
        unit = {} if job is None else {"unit": job.unit, "scale": job.scale, "size_head": job.size_head}
        for clock in clocks:
            if len(clocks) > 1 or job is not None:
                print()
                title = ("ours by wall-clock time (the core's own number):" if clock == "wall" else
                         "ours by the process's CPU time (the clock the peer uses):")
                print(f"{job.name}: {title}" if job else title[0].upper() + title[1:])
            print()
            print("\n".join(format_table(part, peer_name, show_op, clock, **unit)))
    return 0


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit 2."""

    def error(self, message):
        """Prints 'prog: message' and exits with status 2."""
        print(f"{self.prog}: {message}", file=sys.stderr)
        sys.exit(2)


def new_parser(doc):
    """A one-line-error parser described by the module docstring's first paragraph."""
    return OneLineParser(description=description(doc))
