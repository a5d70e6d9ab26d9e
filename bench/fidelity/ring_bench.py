#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core-rust (library ring) against ring's own AEAD benchmarks.

In one interleaved run, for each AEAD, operation and message size, runs
`cipherbench-core-rust bench --lib ring` and ring's criterion benchmark of the same call
(`bench/aead.rs` in ring's source, `seal_in_place_separate_tag` and `open_in_place`)
one after the other, the order flipping every repetition, REPS times. Prints Markdown
tables of throughput ratios (ours / ring's bench; ours by wall-clock and by CPU time)
and each tool's run-to-run coefficient of variation.

ring's benchmarks are not in the published crate: its `bench/` is taken with `git
archive` from a clone of ring's repository (--source) at the release core-rust/Cargo.lock
pins (--rev; the script checks the version in that tree's Cargo.toml) into a temporary
directory, and compiled there by cargo with the criterion release it names, against the
published ring crate of that version (the code the core links; a git tree of ring would
need its assembly generated first). The directory is removed at the end; nothing of it is
copied into this repository.

Both time one AEAD call per iteration on a key set once, 13 bytes of additional data
(a TLS record's) and a fresh nonce per seal. What differs: the core copies the message
from its input buffer to its output buffer before ring's in-place call (and copies the
tag out of it), ring's bench works in place; ring's open bench restores the ciphertext
outside the timed part (criterion's iter_batched) and uses ring's tag-appended
open_in_place, the core open_in_place_separate_tag.

Usage: ring_bench.py --core build-extra/cipherbench-core-rust --source RING_GIT_DIR
       [--rev 0.17.14] [--reps 5] [--measurement-time 2] [--cpu K] [--cargo cargo]
"""
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

import common
from common import RunError

HERE = os.path.dirname(os.path.abspath(__file__))
LOCK = os.path.join(HERE, "..", "..", "core-rust", "Cargo.lock")

POINTS = [  # (canonical name, op, ring's bench name)
    ("aes-128-gcm", "encrypt", "aes128_gcm::seal_in_place_separate_tag"),
    ("aes-128-gcm", "decrypt", "aes128_gcm::open_in_place"),
    ("aes-256-gcm", "encrypt", "aes256_gcm::seal_in_place_separate_tag"),
    ("aes-256-gcm", "decrypt", "aes256_gcm::open_in_place"),
    ("chacha20-poly1305", "encrypt", "chacha20_poly1305::seal_in_place_separate_tag"),
    ("chacha20-poly1305", "decrypt", "chacha20_poly1305::open_in_place"),
]
SIZES = [1350, 16384]   # both among ring's RECORD_LENGTHS
UNITS = {"ps": 1e-12, "ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def pinned_version(lock_path=LOCK):
    """The version of ring that core-rust/Cargo.lock pins."""
    with open(lock_path, encoding="utf-8") as f:
        m = re.search(r'name = "ring"\nversion = "([^"]+)"', f.read())
    if not m:
        raise RunError(f"{lock_path} pins no ring")
    return m.group(1)


def extract_source(source, rev, directory):
    """ring's tree at rev (git archive), unpacked into directory; checks its version."""
    p = subprocess.run(["git", "-C", source, "archive", "--format=tar", rev], capture_output=True,
                       check=False)
    if p.returncode != 0:
        last = (p.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        raise RunError(f"git archive {rev} in {source} failed: {last}")
    with tarfile.open(fileobj=io.BytesIO(p.stdout)) as t:
        t.extractall(directory, filter="data")
    with open(os.path.join(directory, "Cargo.toml"), encoding="utf-8") as f:
        m = re.search(r'^version = "([^"]+)"', f.read(), re.M)
    return m.group(1) if m else "unknown"


def build_bench(cargo, directory, version):
    """Compiles ring's aead benchmark (cargo bench --no-run) against the published ring
    crate of that version, the one the core links (a git tree of ring lacks the generated
    assembly its published crate carries); returns the executable."""
    bench = os.path.join(directory, "bench")
    manifest = os.path.join(bench, "Cargo.toml")
    with open(manifest, encoding="utf-8") as f:
        text = f.read()
    text, n = re.subn(r'^ring = \{ path = "\.\./" \}$', f'ring = "={version}"', text, flags=re.M)
    if n != 1:
        raise RunError("ring's bench/Cargo.toml does not depend on ring by path as expected")
    with open(manifest, "w", encoding="utf-8") as f:
        f.write(text + "\n[workspace]\n")
    p = subprocess.run([cargo, "bench", "--bench", "aead", "--no-run", "--message-format=json"],
                       capture_output=True, text=True, cwd=bench,
                       env=dict(os.environ, CARGO_TARGET_DIR=os.path.join(directory, "target")),
                       check=False)
    if p.returncode != 0:
        errors = [l for l in p.stderr.splitlines() if l.startswith("error")] or \
            (p.stderr.strip().splitlines() or ["no message"])
        raise RunError(f"cargo bench --no-run of ring's aead benchmark failed: {errors[0]}")
    for line in p.stdout.splitlines():
        m = re.search(r'"executable":"([^"]+)"', line)
        if m and '"name":"aead"' in line:
            return m.group(1)
    raise RunError("cargo built no aead benchmark executable")


def bench_command(exe, name, size, measurement_time, cpu):
    """ring's aead benchmark, one function and record length."""
    return common.pin_prefix(cpu) + [
        exe, "--bench", f"^aead/{re.escape(name)}/{size}$", "--noplot",
        "--warm-up-time", "1", "--measurement-time", f"{measurement_time:g}"]


def bench_throughput(stdout, name, size):
    """Bytes per second of criterion's estimate (the middle of `time: [lo est hi]`)."""
    text = stdout.replace("\n", " ")
    m = re.search(rf"aead/{re.escape(name)}/{size}\s+time:\s+\[\S+ \S+ ([0-9.]+) (\S+) ", text)
    if not m or m.group(2) not in UNITS:
        raise RunError(f"ring's benchmark printed no time for {name}/{size}")
    return size / (float(m.group(1)) * UNITS[m.group(2)])


def jobs(args, exe, workdir):
    """One job per point: one core run against one benchmark run."""
    out = []
    for algo, op, name in POINTS:
        for size in SIZES:
            key = (algo, op, size)
            cmd = bench_command(exe, name, size, args.measurement_time, args.cpu)

            def peer(k=key, c=cmd, n=name, s=size):
                p = subprocess.run(c, capture_output=True, text=True, cwd=workdir, check=False)
                if p.returncode != 0:
                    raise RunError(f"ring's benchmark exited with {p.returncode}")
                return {k: bench_throughput(p.stdout, n, s)}

            out.append(common.Job(f"{algo} {op} {size}", [key],
                                  lambda a=algo, o=op, s=size: common.run_core(args, "ring", [a], o, [s]),
                                  peer))
    return out


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--source", required=True,
                   help="a git clone of ring's repository (its benchmarks are built from it)")
    p.add_argument("--rev", default=None,
                   help="the commit or tag of the pinned version (default: the tag named as "
                        "the version core-rust/Cargo.lock pins)")
    p.add_argument("--cargo", default="cargo", help="the cargo command")
    p.add_argument("--measurement-time", type=float, default=2.0,
                   help="criterion's --measurement-time in seconds (default 2)")
    a = p.parse_args(argv)
    if a.measurement_time <= 0:
        p.error("--measurement-time must be positive")
    if not os.path.isdir(a.source):
        p.error(f"--source {a.source}: not a directory")
    common.check_core_args(p, a, [a.cargo, "git"])
    return a


def main(argv=None):
    """Builds ring's benchmark, runs the comparison and prints the tables; returns the exit
    status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    tmp = tempfile.mkdtemp(prefix="cipherbench-ring-bench-")
    try:
        try:
            want = pinned_version()
            version = extract_source(args.source, args.rev or want, tmp)
            if version != want:
                raise RunError(f"{args.rev or want} of {args.source} is ring {version}, not the "
                               f"{want} that core-rust/Cargo.lock pins (give --rev)")
            print(f"ring_bench: building ring {version}'s aead benchmark ...", file=sys.stderr)
            exe = build_bench(args.cargo, tmp, version)
        except RunError as e:
            print(f"ring_bench: {e}", file=sys.stderr)
            return 1
        return common.run_report("ring_bench", args, jobs(args, exe, tmp), "ring bench",
                                 [args.cargo, "--version"],
                                 f"ring {version} bench/aead.rs (criterion, "
                                 f"--measurement-time {args.measurement_time:g})",
                                 show_op=True, clocks=("wall", "cpu"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
