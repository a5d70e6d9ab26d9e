#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Fidelity of `cipherbench-core tls --lib gnutls` against `gnutls-cli --benchmark-tls-ciphers` and `--benchmark-tls-kx`.

gnutls-cli cannot be told what to measure: --benchmark-tls-ciphers times a
fixed list of suites at 1400 and 16384 bytes per write, 5 s each (about 90 s
in all), and --benchmark-tls-kx a fixed list of group and certificate pairs,
5 s each (about 45 s). One repetition is one run of each and the core's runs
of the points both cover (transfers in one run, handshakes in two), the order
flipping every repetition. Prints Markdown tables of ratios (ours /
gnutls-cli: ratio of the medians over repetitions, and the median of each
repetition's back-to-back ratio) and each tool's run-to-run coefficient of
variation, ours by wall-clock and by CPU time.

What gnutls-cli times (src/benchmark-tls.c, GnuTLS 3.7), and how the core differs:
- Both: a client and a server of GnuTLS in one process and one thread; the
  rate is per second of the process's CPU time (CLOCK_PROCESS_CPUTIME_ID
  around a 5 s alarm), printed with two decimals.
- Transport: gnutls-cli's push and pull functions copy records through two
  static 64 KiB buffers, no system call. The core's ends talk through an
  AF_UNIX socket pair: one sendmsg and two recvfrom (header, body) per record.
- Transfer: the client writes a 64 KiB random buffer's first N bytes, the
  server takes the record with gnutls_record_recv_packet (no copy of the
  plaintext). The core's server writes, its client reads into its own buffer
  with gnutls_record_recv, and the first 8 bytes carry a counter.
- gnutls-cli's AES-128-CBC and CAMELLIA-128-CBC lines are TLS 1.0 (implicit
  IV) with static RSA; the core's are TLS 1.2 (an explicit IV per record).
  Its TLS 1.2 AES-128-GCM line is static RSA, the core's ECDHE-RSA: the same
  record layer.
- Handshakes: TLS 1.3, AES-128-GCM, fixed keys and certificates; new sessions
  and an in-memory transport per handshake; the client checks the server's
  signature but not its certificate (no trust list). The core's client
  verifies the self-signed certificate and its host name, and every handshake
  has a new socket pair.

Usage: gnutls_tls.py --core BUILD/core/cipherbench-core [--reps 5] [--cpu K]
       [--gnutls-cli gnutls-cli]
"""
import json
import re
import statistics
import subprocess
import sys

import common
from common import RunError

SIZES = (1400, 16384)  # gnutls-cli's payloads, the core's default write sizes
# gnutls-cli's (cipher, protocol) line -> the core's suite (IANA name). Left
# out: its TLS 1.2 AES-128-CCM (no such suite in the core) and GOST.
SUITES = {
    ("AES-128-GCM", "TLS1.2"): "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
    ("AES-128-GCM", "TLS1.3"): "TLS_AES_128_GCM_SHA256",
    ("AES-128-CCM", "TLS1.3"): "TLS_AES_128_CCM_SHA256",
    ("CHACHA20-POLY1305", "TLS1.2"): "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ("CHACHA20-POLY1305", "TLS1.3"): "TLS_CHACHA20_POLY1305_SHA256",
    ("AES-128-CBC", "TLS1.0"): "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
    ("CAMELLIA-128-CBC", "TLS1.0"): "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA",
}
# gnutls-cli's handshake description (group, signature) -> the core's
# (group, certificate). Left out: FFDHE3072 (the core has ffdhe2048), the
# RSA-PSS certificate, TLS 1.2 static RSA and GOST.
HANDSHAKES = {
    ("ECDHE-SECP256R1", "RSA-PSS-RSAE-SHA256"): ("p256", "rsa3072"),
    ("ECDHE-X25519", "RSA-PSS-RSAE-SHA256"): ("x25519", "rsa3072"),
    ("ECDHE-SECP256R1", "ECDSA-SECP256R1-SHA256"): ("p256", "ecdsa-p256"),
    ("ECDHE-X25519", "ECDSA-SECP256R1-SHA256"): ("x25519", "ecdsa-p256"),
    ("ECDHE-X25519", "EdDSA-Ed25519"): ("x25519", "ed25519"),
}
# Core runs that give every pair above: groups x certificates, each axis
# with the other's first (docs/protocol.md, "tls").
HS_RUNS = (("x25519,p256", "ecdsa-p256,rsa3072,ed25519"), ("p256", "rsa3072"))
UNITS = {"bytes": 1.0, "KB": 1e3, "MB": 1e6, "GB": 1e9}  # benchmark.c: decimal
PAYLOAD = re.compile(r"\(payload: ([0-9]+) bytes\)")
XFER = re.compile(r"^\s*(\S+) - (TLS[0-9.]+)\s+([0-9]+(?:\.[0-9]+)?) (bytes|KB|MB|GB)/sec\s*$")
DESC = re.compile(r"^\((TLS[0-9.]+)\)-\(([^)]*)\)-\(([^)]*)\)")
RATE = re.compile(r"^ - ([0-9]+(?:\.[0-9]+)?) transactions/sec\s*$")


def hs_key(group, cert):
    """The table key of a handshake pair."""
    return (f"{group} / {cert}", "handshake", 0)


def transfer_keys():
    """Every transfer point both tools measure."""
    return [(suite, "transfer", size) for size in SIZES for suite in SUITES.values()]


def parse_ciphers(stdout):
    """{(suite, "transfer", size): bytes/s} for the lines of SUITES in
    gnutls-cli --benchmark-tls-ciphers output; other lines are ignored."""
    out, size = {}, None
    for line in stdout.splitlines():
        m = PAYLOAD.search(line)
        if m:
            size = int(m.group(1))
            continue
        m = XFER.match(line)
        if m and size is not None and (m.group(1), m.group(2)) in SUITES:
            out[(SUITES[(m.group(1), m.group(2))], "transfer", size)] = \
                float(m.group(3)) * UNITS[m.group(4)]
    return out


def parse_kx(stdout):
    """{hs_key: handshakes/s} for the TLS 1.3 pairs of HANDSHAKES in
    gnutls-cli --benchmark-tls-kx output; other blocks are ignored."""
    out, pair = {}, None
    for line in stdout.splitlines():
        m = DESC.match(line)
        if m:
            pair = HANDSHAKES.get((m.group(2), m.group(3))) if m.group(1) == "TLS1.3" else None
            continue
        m = RATE.match(line)
        if m and pair:
            out[hs_key(*pair)] = float(m.group(1))
            pair = None
    return out


def run_cli(gnutls_cli, option, parse, keys, cpu):
    """Runs gnutls-cli with one benchmark option; returns parse(stdout), or
    raises RunError when a key is missing."""
    cmd = common.pin_prefix(cpu) + [gnutls_cli, option]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:
        raise RunError(f"cannot run {cmd[0]}: {e.strerror}") from None
    got = parse(p.stdout)
    missing = [" ".join(map(str, k)) for k in keys if k not in got]
    if p.returncode != 0 or missing:
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        raise RunError(f"{' '.join(cmd)} exited with {p.returncode} without "
                       f"{', '.join(missing) or 'error'}: {last}")
    return got


def tls_command(args, *extra):
    """The cipherbench-core tls command line with the shared sampling options."""
    cmd = [args.core, "tls", "--lib", "gnutls", *extra, "--samples", str(args.samples),
           "--min-sample-ms", f"{args.min_sample_ms:g}"]
    return cmd + (["--cpu", str(args.cpu)] if args.cpu is not None else [])


def run_ours_transfer(args):
    """The core's transfer points of SUITES at SIZES, one core run."""
    cmd = tls_command(args, "--suites", ",".join(SUITES.values()),
                      "--sizes", ",".join(map(str, SIZES)))
    got = common.core_throughputs(common.run(cmd))
    for key in transfer_keys():
        if key not in got:
            raise RunError(f"cipherbench-core printed no transfer point for {key[0]} at {key[2]} bytes")
    return got


def handshake_rates(stdout):
    """{hs_key: {"wall": handshakes/s, "cpu": handshakes/s}} from the core's
    full-handshake records (resumptions are left out: gnutls-cli has none)."""
    out = {}
    for line in stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            raise RunError(f"cipherbench-core printed a line that is not JSON: {line[:60]}") from None
        if rec.get("type") == "error":
            raise RunError(f"cipherbench-core: {rec.get('op')} {rec.get('group')} {rec.get('cert')}: "
                           f"{rec.get('reason')}: {rec.get('message')}")
        if rec.get("type") == "handshake" and rec.get("op") == "handshake":
            out[hs_key(rec["group"], rec["cert"])] = {
                clock: rec["iters"] / (statistics.median(rec[f"{clock}_ns"]) * 1e-9)
                for clock in ("wall", "cpu")}
    return out


def run_ours_handshakes(args):
    """The core's full handshakes for every pair of HANDSHAKES (HS_RUNS)."""
    out = {}
    for groups, certs in HS_RUNS:
        cmd = tls_command(args, "--handshakes", "--no-transfer", "--groups", groups, "--certs", certs)
        out.update(handshake_rates(common.run(cmd)))
    for group, cert in HANDSHAKES.values():
        if hs_key(group, cert) not in out:
            raise RunError(f"cipherbench-core printed no handshake for {group} / {cert}")
    return out


def parse_args(argv):
    """Command-line options (the shared ones; --vectors is not used by tls)."""
    p = common.new_parser(__doc__)
    common.add_core_args(p, min_sample_ms=40.0)
    p.add_argument("--gnutls-cli", default="gnutls-cli", help="the gnutls-cli command")
    a = p.parse_args(argv)
    if a.vectors is not None:
        p.error("--vectors: the tls command checks its data itself and takes no vectors")
    common.check_core_args(p, a, [a.gnutls_cli])
    return a


def main(argv=None):
    """Runs the comparison and prints the Markdown tables; returns the exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    hs_keys = [hs_key(*pair) for pair in HANDSHAKES.values()]
    jobs = [
        common.Job("record layer (gnutls-cli --benchmark-tls-ciphers)", transfer_keys(),
                   lambda: run_ours_transfer(args),
                   lambda: run_cli(args.gnutls_cli, "--benchmark-tls-ciphers", parse_ciphers,
                                   transfer_keys(), args.cpu)),
        common.Job("full TLS 1.3 handshakes (gnutls-cli --benchmark-tls-kx)", hs_keys,
                   lambda: run_ours_handshakes(args),
                   lambda: run_cli(args.gnutls_cli, "--benchmark-tls-kx", parse_kx, hs_keys, args.cpu),
                   unit="handshakes/s", scale=1.0, size_head=None),
    ]
    return common.run_report("gnutls_tls", args, jobs, "gnutls-cli", [args.gnutls_cli, "--version"],
                             "gnutls-cli --benchmark-tls-ciphers and --benchmark-tls-kx (5 s per point, "
                             "timed by process CPU time)", show_op=False, clocks=("wall", "cpu"),
                             per_job=True)


if __name__ == "__main__":
    sys.exit(main())
