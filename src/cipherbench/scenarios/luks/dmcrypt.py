# SPDX-License-Identifier: GPL-3.0-or-later
"""A real dm-crypt mapping over a RAM-backed device: a file in a tmpfs (``/dev/shm``) behind a
loop device, a ``crypt`` target over it made with ``dmsetup`` (the kernel's own implementation,
as a LUKS volume gets it), written and read through with ``O_DIRECT`` so that every byte
goes through the cipher. Needs root, ``losetup``, ``dmsetup`` and a kernel with
device-mapper and dm-crypt; ``unavailable()`` says what is missing.

``Backing`` (the loop device) and ``mapping`` (one crypt target) are context managers: every
way out removes the mapping, detaches the loop device and deletes the file. ``table`` is the
pure part: the dm table line of a cryptsetup spec.
"""
from __future__ import annotations

import mmap
import os
import secrets
import shutil
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from cipherbench.errors import EnvironmentProblem

RAM_DIR = Path("/dev/shm")
_CHUNK = 1 << 20
_TIMEOUT = 30


def unavailable(run=subprocess.run) -> str | None:
    """Why a dm-crypt mapping cannot be measured here (None: it can)."""
    if os.geteuid() != 0:
        return "it needs root (device-mapper and loop devices)"
    for tool in ("dmsetup", "losetup"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: apt-get install dmsetup mount)"
    if not RAM_DIR.is_dir():
        return f"no RAM-backed directory {RAM_DIR}"
    try:
        p = run(["dmsetup", "targets"], capture_output=True, text=True, timeout=_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"dmsetup targets could not run: {e}"
    if p.returncode != 0:
        return "the kernel has no device-mapper (dmsetup targets: " \
               + ((p.stderr or p.stdout).strip().splitlines() or ["failed"])[0] + ")"
    if not any(line.split()[:1] == ["crypt"] for line in p.stdout.splitlines()):
        return "the kernel's device-mapper has no crypt target (modprobe dm_crypt)"
    return None


def cipher_arg(spec: str) -> str:
    """A cryptsetup spec as dm-crypt's table takes it: the old ``cipher-mode-iv`` form, or
    the crypto API form for Adiantum (``capi:adiantum(xchacha12,aes)-plain64``)."""
    head, _, iv = spec.rpartition("-")
    ciphers, _, mode = head.rpartition("-")
    if mode == "adiantum":
        return f"capi:adiantum({ciphers})-{iv}"
    return spec


def table(spec: str, key_hex: str, sectors: int, device: str, sector_size: int) -> str:
    """The dm table line of a crypt target over ``device`` (``sectors`` of 512 bytes)."""
    opts = f" 1 sector_size:{sector_size}" if sector_size != 512 else ""
    return f"0 {sectors} crypt {cipher_arg(spec)} {key_hex} 0 {device} 0{opts}"


def _run(argv: list[str]) -> str:
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise EnvironmentProblem(f"{argv[0]} could not run: {e}") from None
    if p.returncode != 0:
        why = ((p.stderr or p.stdout).strip().splitlines() or ["failed"])[-1]
        raise EnvironmentProblem(f"{' '.join(argv[:2])}: {why}")
    return p.stdout.strip()


@contextmanager
def backing(nbytes: int) -> Iterator[str]:
    """A loop device over a ``nbytes`` file in ``RAM_DIR``; its path."""
    free = shutil.disk_usage(RAM_DIR).free
    if free < 2 * nbytes:
        raise EnvironmentProblem(f"{RAM_DIR} has {free >> 20} MiB free; the measurement needs "
                                 f"{nbytes >> 20} MiB (use a smaller --size)")
    path = RAM_DIR / f"cipherbench-dmcrypt-{os.getpid()}"
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    dev = None
    try:
        os.ftruncate(fd, nbytes)
        os.close(fd)
        fd = -1
        dev = _run(["losetup", "--find", "--show", str(path)])
        yield dev
    finally:
        if fd >= 0:
            os.close(fd)
        if dev:
            subprocess.run(["losetup", "-d", dev], capture_output=True, timeout=_TIMEOUT)
        path.unlink(missing_ok=True)


@contextmanager
def mapping(spec: str, key_bits: int, device: str, nbytes: int,
            sector_size: int) -> Iterator[Path]:
    """A crypt target of ``spec`` with a random key over ``device``; its path."""
    name = f"cipherbench-{os.getpid()}-{secrets.token_hex(4)}"
    line = table(spec, secrets.token_hex(key_bits // 8), nbytes // 512, device, sector_size)
    _run(["dmsetup", "create", name, "--table", line])
    try:
        yield Path("/dev/mapper") / name
    finally:
        subprocess.run(["dmsetup", "remove", "--retry", name], capture_output=True,
                       timeout=_TIMEOUT)


@dataclass(frozen=True)
class Pass:
    """One write and one read of the whole mapping: seconds of each."""

    write_s: float
    read_s: float


def through(path: Path, nbytes: int) -> Pass:
    """Write ``nbytes`` of random bytes through the mapping and read them back, both with
    ``O_DIRECT`` (no page cache: every byte through the cipher), each timed."""
    buf = mmap.mmap(-1, _CHUNK)          # page-aligned, as O_DIRECT needs
    buf.write(os.urandom(_CHUNK))
    fd = os.open(path, os.O_RDWR | os.O_DIRECT)
    try:
        t0 = time.perf_counter()
        done = 0
        while done < nbytes:
            done += os.pwritev(fd, [buf], done)
        os.fsync(fd)
        t1 = time.perf_counter()
        done = 0
        while done < nbytes:
            got = os.preadv(fd, [buf], done)
            if got <= 0:
                break
            done += got
        t2 = time.perf_counter()
    finally:
        os.close(fd)
        buf.close()
    return Pass(t1 - t0, t2 - t1)
