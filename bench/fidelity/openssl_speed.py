#!/usr/bin/env python3
"""Fidelity of cipherbench-core's OpenSSL backend against `openssl speed`.

In one interleaved run, for each algorithm and buffer size, runs
`cipherbench-core bench --lib openssl` and `openssl speed -evp ALGO -elapsed
-bytes N -seconds S` one after the other (the order flips every repetition, so
a slow drift of the machine hits both alike), REPS times. Prints a Markdown
table of throughput ratios (ours / openssl speed: the ratio of the medians
over repetitions, and the median of each repetition's back-to-back ratio)
and each tool's run-to-run coefficient of variation.

The two tools do not time quite the same operation, and the table shows it.
The core's AEAD operation is one TLS-like message on a keyed context: new
nonce, 13 bytes of AAD, encrypt, tag. AEADs are given `-aead` (13 bytes of
AAD), but OpenSSL 3.0's speed then re-keys the context for every GCM message
(EVP_CipherInit_ex with key and IV), and for ChaCha20-Poly1305 it streams
EVP_EncryptUpdate over one endless message with no nonce, AAD or tag (counted
with an LD_PRELOAD shim: 1 init per message vs 59 inits in all). So small
GCM messages favour the core and small ChaCha20-Poly1305 messages favour
openssl speed; at 16 KiB the per-message work is a few per cent at most.
For sha256 both do init+update+final (openssl speed through EVP_Digest, which
also allocates and frees a context per message).

Usage: openssl_speed.py --core BUILD/core/cipherbench-core [--reps 5]
       [--seconds 1] [--cpu K] [--vectors DIR] [--openssl openssl]
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys

ALGOS = [  # (canonical name, op, openssl speed name, openssl speed extra flags)
    ("aes-128-gcm", "encrypt", "aes-128-gcm", ["-aead"]),
    ("aes-256-gcm", "encrypt", "aes-256-gcm", ["-aead"]),
    ("chacha20-poly1305", "encrypt", "chacha20-poly1305", ["-aead"]),
    ("sha256", "hash", "sha256", []),
]
SIZES = [1024, 16384]


class RunError(Exception):
    """A tool did not run or printed nothing usable."""


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


def ours_command(core, algo, op, size, samples, min_sample_ms, cpu, vectors=None):
    """The cipherbench-core command line for one point."""
    cmd = [core, "bench", "--lib", "openssl", "--algo", algo, "--op", op,
           "--sizes", str(size), "--samples", str(samples),
           "--min-sample-ms", str(min_sample_ms)]
    if cpu is not None:
        cmd += ["--cpu", str(cpu)]
    if vectors is not None:
        cmd += ["--vectors", vectors]
    return cmd


def speed_command(openssl, name, extra, size, seconds, cpu):
    """The openssl speed command line for one point."""
    return pin_prefix(cpu) + [openssl, "speed", "-evp", name, *extra, "-elapsed",
                              "-bytes", str(size), "-seconds", str(seconds), "-mr"]


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


def ours_throughput(stdout, algo, size):
    """Bytes per second from the core's point record: size*iters / median wall_ns."""
    for line in stdout.splitlines():
        rec = json.loads(line)
        if rec.get("type") == "error":
            raise RunError(f"cipherbench-core: {algo}: {rec.get('reason')}: {rec.get('message')}")
        if rec.get("type") == "point" and rec.get("algo") == algo and rec.get("size") == size:
            return size * rec["iters"] / (statistics.median(rec["wall_ns"]) * 1e-9)
    raise RunError(f"cipherbench-core printed no point for {algo} at {size} bytes")


def speed_throughput(stdout):
    """Bytes per second from openssl speed -mr output (its +F: line)."""
    for line in stdout.splitlines():
        m = re.match(r"\+F:\d+:[^:]+:([0-9.]+)", line)
        if m:
            return float(m.group(1))
    raise RunError("openssl speed printed no +F: result line")


def cv(values):
    """Coefficient of variation (sample stdev / mean) of a list, as a fraction."""
    return statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else 0.0


def measure(args):
    """Runs the interleaved comparison; returns {(algo, size): (ours[], speed[])}."""
    results = {(a[0], s): ([], []) for a in ALGOS for s in SIZES}
    for rep in range(args.reps):
        for algo, op, name, extra in ALGOS:
            for size in SIZES:
                ours_cmd = ours_command(args.core, algo, op, size, args.samples,
                                        args.min_sample_ms, args.cpu, args.vectors)
                speed_cmd = speed_command(args.openssl, name, extra, size, args.seconds, args.cpu)
                first_ours = rep % 2 == 0
                for which in ((0, 1) if first_ours else (1, 0)):
                    if which == 0:
                        value = ours_throughput(run(ours_cmd), algo, size)
                    else:
                        value = speed_throughput(run(speed_cmd))
                    results[(algo, size)][which].append(value)
                ours, speed = results[(algo, size)]
                print(f"rep {rep + 1}/{args.reps} {algo:18} {size:6}: "
                      f"ours {ours[-1] / 1e6:9.1f} MB/s, openssl speed {speed[-1] / 1e6:9.1f} MB/s",
                      file=sys.stderr, flush=True)
    return results


def format_table(results):
    """Markdown lines: per algorithm and size, medians, ratio and both CVs."""
    lines = ["| algorithm | bytes | ours MB/s | openssl speed MB/s | ratio | paired ratio "
             "| CV ours | CV openssl speed |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for (algo, size), (ours, speed) in results.items():
        mo, ms = statistics.median(ours), statistics.median(speed)
        # Each repetition's two runs are back to back: their ratio cancels slow drift.
        paired = statistics.median(o / t for o, t in zip(ours, speed))
        lines.append(f"| {algo} | {size} | {mo / 1e6:.1f} | {ms / 1e6:.1f} | {mo / ms:.3f} "
                     f"| {paired:.3f} | {100 * cv(ours):.2f}% | {100 * cv(speed):.2f}% |")
    return lines


def parse_args(argv):
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--core", default=os.environ.get("CIPHERBENCH_CORE", "cipherbench-core"),
                   help="the cipherbench-core executable (default: $CIPHERBENCH_CORE or PATH)")
    p.add_argument("--openssl", default="openssl", help="the openssl command")
    p.add_argument("--reps", type=int, default=5, help="repetitions of each pair (default 5)")
    p.add_argument("--seconds", type=int, default=1, help="openssl speed -seconds (default 1)")
    p.add_argument("--samples", type=int, default=21, help="core samples per point (default 21)")
    p.add_argument("--min-sample-ms", type=float, default=40.0,
                   help="core time per sample in ms (default 40: about as long as openssl speed)")
    p.add_argument("--cpu", type=int, default=None, help="pin both tools to this CPU")
    p.add_argument("--vectors", default=None,
                   help="vector file or directory for the core's check before timing")
    a = p.parse_args(argv)
    if a.reps < 2:
        p.error("--reps must be at least 2 (a CV needs two runs)")
    for tool in (a.core, a.openssl):
        if shutil.which(tool) is None:
            p.error(f"{tool}: not found or not executable")
    if a.cpu is not None and shutil.which("taskset") is None:
        p.error("--cpu needs taskset (util-linux) to pin openssl speed")
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown table; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    load_before = os.getloadavg()[0]
    try:
        results = measure(args)
        version = run([args.openssl, "version"]).strip()
    except RunError as e:
        print(f"openssl_speed: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("openssl_speed: interrupted", file=sys.stderr)
        return 130
    print(f"CPU: {cpu_model()}; {version}; {args.reps} repetitions, interleaved; "
          f"openssl speed -seconds {args.seconds}; core --samples {args.samples} "
          f"--min-sample-ms {args.min_sample_ms:g}" + ("" if args.cpu is None else f"; pinned to CPU {args.cpu}")
          + f"; {os.cpu_count()} CPUs, 1-minute load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print()
    print("\n".join(format_table(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
