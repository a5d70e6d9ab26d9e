#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of cipherbench-core's Crypto++ backend against Crypto++'s own `cryptest b1`/`b2`.

`cryptest` is Crypto++'s test and benchmark program (Debian: `libcrypto++-utils`, which
`scripts/install-deps.sh --bench` installs); it links the shared libcrypto++, the library the
core's backend uses, and the script prints `ldd`'s line for it beside the table. `cryptest b1`
times the hashes, `b2` the symmetric ciphers and MACs, each algorithm for 2/3 of the time given
(`--time`), and prints an HTML table of MiB/s (whole numbers). It takes no filter, so one job is
one `cryptest b1` or `b2` run against the core's runs of the points below, the order flipping
every repetition.

What cryptest times (bench1.cpp, Crypto++ 8.7):
- One 2048-byte buffer (rounded up to the cipher's optimal block size: 2048 for every row
  here), processed again and again with the process's CPU time (`clock()`) read between
  doublings of the count: so the core runs at 2048 bytes and is compared by its CPU time too.
- Ciphers (ECB, CBC, CTR, CFB, OFB, XTS, ChaChaTLS): ProcessString in place, the chain or
  keystream continuing from buffer to buffer, as the core's cipher op does.
- AEADs (AES/GCM, ChaCha20/Poly1305): the same: one endless message, keyed and given its IV
  once, no associated data, never finished, so no tag. The core's AEAD message sets a nonce,
  authenticates 13 bytes of AAD, encrypts and writes the tag: more work per 2048 bytes.
- Hashes and MACs: Update only, on one endless message never finalised. The core's message is
  a whole digest or MAC (init, update, final) per 2048 bytes: for SHA-256 one padding block more
  per 32, for HMAC the outer hash too.
- MiB/s is 2^20 bytes per second; the tables print decimal MB/s for both.

Usage: cryptopp_cryptest.py --core BUILD/core/cipherbench-core [--cryptest cryptest]
       [--time 0.2] [--data-dir /usr/share/crypto++] [--reps 3] [--cpu K] [--vectors DIR]
"""
import html
import os
import re
import shutil
import sys

import common
from common import RunError

SIZE = 2048  # cryptest's buffer
MIB = 1048576.0
# cryptest subcommand -> {row name: (canonical algorithm, op)}
JOBS = {
    "b1": {"SHA-1": ("sha1", "hash"),
           "SHA-256": ("sha256", "hash"),
           "SHA-512": ("sha512", "hash"),
           "SHA3-256": ("sha3-256", "hash"),
           "BLAKE2b": ("blake2b-512", "hash"),
           "BLAKE2s": ("blake2s-256", "hash"),
           "MD5": ("md5", "hash")},
    "b2": {"AES/GCM": ("aes-128-gcm", "encrypt"),
           "ChaCha20/Poly1305 (256-bit key)": ("chacha20-poly1305", "encrypt"),
           "ChaChaTLS (256-bit key)": ("chacha20", "encrypt"),
           "AES/CTR (128-bit key)": ("aes-128-ctr", "encrypt"),
           "AES/CTR (256-bit key)": ("aes-256-ctr", "encrypt"),
           "AES/CBC (128-bit key)": ("aes-128-cbc", "encrypt"),
           "AES/CBC (256-bit key)": ("aes-256-cbc", "encrypt"),
           "AES/ECB (128-bit key)": ("aes-128-ecb", "encrypt"),
           "AES/XTS (256-bit key)": ("aes-128-xts", "encrypt"),
           "AES/CFB (128-bit key)": ("aes-128-cfb", "encrypt"),
           "AES/OFB (128-bit key)": ("aes-128-ofb", "encrypt"),
           "HMAC(SHA-256) (128-bit key)": ("hmac-sha256", "mac"),
           "CMAC(AES) (128-bit key)": ("cmac-aes-128", "mac")},
}
# A row: <TR><TD>name<TD>implementation<TD>MiB/s<TD>... (b1 rows have fewer cells)
ROW = re.compile(r"<TR><TD>([^<]+)<TD>[^<]*<TD>([0-9]+(?:\.[0-9]+)?)")
VERSION_SCRIPT = ("import json, subprocess, sys\n"
                  "for line in subprocess.run(sys.argv[1:], capture_output=True, text=True).stdout.splitlines():\n"
                  "    r = json.loads(line)\n"
                  "    if r.get('type') == 'library': print(r['version'])\n")


def cryptest_throughputs(stdout, points):
    """{(algo, op, SIZE): bytes/s} for the rows of points found in cryptest's HTML table."""
    out = {}
    for m in ROW.finditer(stdout):
        name = html.unescape(m.group(1)).strip()
        if name in points:
            algo, op = points[name]
            out[(algo, op, SIZE)] = float(m.group(2)) * MIB
    return out


def run_cryptest(args, sub, points):
    """Runs `cryptest SUB TIME` in its data directory; raises RunError when a row is missing."""
    cmd = common.pin_prefix(args.cpu) + [args.cryptest, sub, f"{args.time:g}"]
    cwd = os.getcwd()
    try:
        os.chdir(args.data_dir)  # cryptest reads TestData/ relative to the working directory
        got = cryptest_throughputs(common.run(cmd), points)
    finally:
        os.chdir(cwd)
    missing = [n for n in points if (*points[n], SIZE) not in got]
    if missing:
        raise RunError(f"cryptest {sub} printed no row for {', '.join(missing)}")
    return got


def run_ours(args, points):
    """The core's runs for the points of one job: one per op."""
    return common.run_core_points(args, "cryptopp", points.values(), [SIZE])


def jobs(args):
    """One job per cryptest subcommand."""
    return [common.Job(f"cryptest {sub}", [(a, o, SIZE) for a, o in points.values()],
                       lambda p=points: run_ours(args, p),
                       lambda s=sub, p=points: run_cryptest(args, s, p))
            for sub, points in JOBS.items()]


def linked_cryptopp(binary):
    """ldd's line for libcrypto++ in the binary, or a note that ldd could not say."""
    if shutil.which("ldd") is None:
        return "libcrypto++: ldd not found"
    try:
        text = common.run(["ldd", shutil.which(binary) or binary])
    except RunError as e:
        return f"libcrypto++: {e}"
    lines = [l.strip() for l in text.splitlines() if "libcrypto++" in l]
    return lines[0] if lines else "libcrypto++: linked statically"


def parse_args(argv):
    """Command-line options."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.set_defaults(reps=3)
    p.add_argument("--cryptest", default="cryptest", help="Crypto++'s cryptest program")
    p.add_argument("--time", type=float, default=0.2,
                   help="cryptest's seconds per algorithm (it measures for 2/3 of it)")
    p.add_argument("--data-dir", default="/usr/share/crypto++",
                   help="cryptest's data directory (holds TestData/)")
    a = p.parse_args(argv)
    common.check_core_args(p, a, [a.cryptest])
    if a.time <= 0:
        p.error("--time must be positive")
    if not os.path.isdir(a.data_dir):
        p.error(f"--data-dir {a.data_dir}: not a directory")
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown tables; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    # cryptest prints no version: the version is the one the library gives the core.
    version = [sys.executable, "-c", VERSION_SCRIPT, args.core, "list", "--lib", "cryptopp"]
    return common.run_report("cryptopp_cryptest", args, jobs(args), "cryptest", version,
                             f"cryptest b1/b2 ({SIZE}-byte buffers, {args.time:g} s per "
                             f"algorithm; {linked_cryptopp(args.cryptest)})",
                             show_op=True, clocks=("wall", "cpu"))


if __name__ == "__main__":
    sys.exit(main())
