# SPDX-License-Identifier: GPL-3.0-or-later
"""A second Nettle for the variant tests: another release's source package from Debian, built
once into a prefix under the user's cache and kept there (a one-time cost of about a minute).

The version is the first of ``RELEASES`` whose major.minor differs from the system's Nettle
(Debian 12 has 3.8, Debian 13 has 3.10). The source comes from Debian's archive through
apt-get with a private source list and private index directories (nothing of the machine's
apt configuration changes; apt checks the files against the signed index); the tarball is kept
in the cache too. ``nettle_prefix(system_version)`` returns the prefix or calls
``pytest.skip`` with the reason (no compiler, m4 or make; no network; a failed build).
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

#: (Debian release, major.minor of the Nettle of its source package).
RELEASES = (("trixie", "3.10"), ("bookworm", "3.8"))
KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
MIRROR = "http://deb.debian.org/debian"


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cipherbench" / "test-libs"


def pick(system_version: str) -> tuple[str, str]:
    """The release and major.minor to build: another than the system's."""
    for release, version in RELEASES:
        if version != system_version:
            return release, version
    raise AssertionError("RELEASES holds two versions")


def _run(argv: list[str], cwd: Path, log: Path) -> None:
    with log.open("a") as out:
        out.write("$ " + " ".join(argv) + "\n")
        out.flush()
        rc = subprocess.run(argv, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, timeout=900).returncode
    if rc != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-1:]
        raise RuntimeError(f"{argv[0]} failed: {' '.join(tail)} (log: {log})")


def _download(release: str, version: str, dest: Path, log: Path) -> Path:
    """The upstream tarball of Debian ``release``'s nettle source package (``version``:
    its major.minor), kept in ``dest``."""
    kept = sorted(dest.glob(f"nettle_{version}.*.orig.tar.gz"))
    if kept:
        return kept[-1]
    if shutil.which("apt-get") is None or not KEYRING.is_file():
        pytest.skip("a second Nettle needs apt-get and Debian's archive keyring to download "
                    "its source")
    with tempfile.TemporaryDirectory(prefix="cb-apt-") as tmp:
        t = Path(tmp)
        for d in ("etc", "lists/partial", "cache/archives/partial", "src"):
            (t / d).mkdir(parents=True)
        (t / "etc" / "src.sources").write_text(
            f"Types: deb-src\nURIs: {MIRROR}\nSuites: {release}\nComponents: main\n"
            f"Signed-By: {KEYRING}\n")
        opts = ["-o", "Dir::Etc::SourceList=/dev/null", "-o", f"Dir::Etc::SourceParts={t}/etc",
                "-o", f"Dir::State::Lists={t}/lists", "-o", f"Dir::Cache={t}/cache",
                "-o", "Debug::NoLocking=1", "-o", "APT::Sandbox::User=root", "-qq"]
        try:
            _run(["apt-get", *opts, "update"], t, log)
            _run(["apt-get", *opts, "source", "--download-only", "nettle"], t / "src", log)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            pytest.skip(f"cannot download Nettle's source from Debian {release} (no "
                        f"network?): {e}")
        got = sorted((t / "src").glob(f"nettle_{version}.*.orig.tar.gz"))
        if not got:
            pytest.skip(f"Debian {release}'s nettle source package is no longer Nettle "
                        f"{version}: update RELEASES in tests/variant_lib.py")
        dest.mkdir(parents=True, exist_ok=True)
        part = dest / (got[-1].name + ".part")
        shutil.copy(got[-1], part)
        part.replace(dest / got[-1].name)
    return dest / got[-1].name


def _built(root: Path, version: str) -> Path | None:
    done = sorted(root.glob(f"nettle-{version}.*/.built"))
    return done[-1].parent if done else None


def nettle_prefix(system_version: str) -> Path:
    """The prefix of a Nettle of another major.minor than ``system_version``, built when it
    is not in the cache yet (the calling test is skipped, with the reason, when it cannot
    be)."""
    release, version = pick(system_version)
    root = cache_root()
    found = _built(root, version)
    if found is not None:
        return found
    missing = [t for t in ("cc", "make", "m4", "tar") if shutil.which(t) is None]
    if missing:
        pytest.skip(f"building a second Nettle needs {', '.join(missing)} (Debian: apt install "
                    "build-essential m4)")
    root.mkdir(parents=True, exist_ok=True)
    with (root / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # one build at a time; the others find it done
        found = _built(root, version)
        if found is not None:
            return found
        log = root / f"nettle-{version}.log"
        log.write_text("")
        tarball = _download(release, version, root / "src", log)
        full = tarball.name[len("nettle_"):-len(".orig.tar.gz")]
        prefix = root / f"nettle-{full}"
        with tempfile.TemporaryDirectory(prefix="cb-nettle-", dir=root) as tmp:
            work = Path(tmp)
            try:
                _run(["tar", "xzf", str(tarball)], work, log)
                src = work / f"nettle-{full}"
                if prefix.exists():
                    shutil.rmtree(prefix)
                _run(["./configure", f"--prefix={prefix}", f"--libdir={prefix}/lib",
                      "--enable-fat", "--disable-documentation", "--disable-openssl"], src, log)
                _run(["make", f"-j{os.cpu_count() or 1}"], src, log)
                _run(["make", "install"], src, log)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                shutil.rmtree(prefix, ignore_errors=True)
                pytest.skip(f"building Nettle {full} failed: {e}")
        (prefix / ".built").write_text(f"nettle {full} from Debian {release}\n")
    return prefix
