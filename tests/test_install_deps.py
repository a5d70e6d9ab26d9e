# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/install-deps.sh decides what to install, who installs it, and where from: run for
real on a copy of scripts/, with test doubles for the system's tools (id, dpkg-query,
apt-cache, apt-get, sudo) and for what comes after the Debian packages (.venv's pip,
build-extra-cores.sh), each recording how it was called."""
from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The real programs the script uses besides the ones faked here.
TOOLS = ("bash", "basename", "cat", "grep", "sed", "sort", "awk", "head", "dirname", "tee", "env", "mkdir",
         "tr", "printf")

FAKE = """#!/bin/bash
echo "$(basename "$0") $*" >> "$LOG"
"""


@dataclass
class Result:
    rc: int
    out: str
    err: str
    calls: list[str]

    def called(self, prog: str) -> list[str]:
        return [c for c in self.calls if c.split()[0] == prog]


def write(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


@pytest.fixture
def machine(tmp_path):
    """A checkout holding the real install-deps.sh and package lists, and a bin directory of
    fakes; returns run(installed, available, uid, sudo, codename, policy)."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    for f in (ROOT / "scripts").glob("*"):
        if f.name == "install-deps.sh" or f.suffix == ".txt":
            shutil.copy(f, repo / "scripts" / f.name)
    log = tmp_path / "calls"
    write(repo / "scripts" / "build-extra-cores.sh", FAKE)
    (repo / ".venv" / "bin").mkdir(parents=True)
    write(repo / ".venv" / "bin" / "python", FAKE)
    write(repo / ".venv" / "bin" / "pip", FAKE)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for t in TOOLS:
        real = shutil.which(t)
        assert real, t
        (bindir / t).symlink_to(real)

    def run(installed=(), available=(), uid=1000, sudo=False, codename="trixie",
            policy="", extra_env=None) -> Result:
        log.write_text("")
        write(bindir / "id", f"""#!/bin/bash
case "$1" in -u) echo {uid} ;; -un) echo alice ;; esac
""")
        write(bindir / "dpkg-query", f"""#!/bin/bash
for p in {' '.join(installed)}; do [ "$p" = "${{@: -1}}" ] && {{ printf 'install ok installed'; exit 0; }}; done
exit 1
""")
        write(bindir / "apt-cache", FAKE + f"""
if [ "$1" = show ]; then
    for p in {' '.join(available)}; do [ "$p" = "$2" ] && {{ echo "Package: $p"; echo "Version: 1"; exit 0; }}; done
    exit 100
fi
[ "$1" = policy ] && printf '%s\\n' "{policy}"
exit 0
""")
        write(bindir / "apt-get", FAKE)
        if sudo:
            write(bindir / "sudo", FAKE + 'exec "$@"\n')
        elif (bindir / "sudo").exists():
            (bindir / "sudo").unlink()
        os_release = tmp_path / "os-release"
        os_release.write_text(f"ID=debian\nVERSION_CODENAME={codename}\n")
        env = {"PATH": str(bindir), "LOG": str(log), "CIPHERBENCH_OS_RELEASE": str(os_release),
               **(extra_env or {})}
        p = subprocess.run([str(bindir / "bash"), str(repo / "scripts" / "install-deps.sh")],
                           capture_output=True, text=True, env=env, timeout=60)
        return Result(p.returncode, p.stdout, p.stderr, log.read_text().splitlines())
    return run


def lines(path: Path) -> list[str]:
    """The packages of a list file, one per line as written (alternatives included)."""
    return [ln.strip() for ln in path.read_text().splitlines()
            if ln.strip() and not ln.lstrip().startswith("#")]


def every_first(name: str) -> list[str]:
    return [ln.split("|")[0].strip() for ln in lines(ROOT / "scripts" / name)]


def test_a_user_without_sudo_gets_the_one_apt_line_and_nothing_runs(machine):
    needed = every_first("debian-packages.txt")
    res = machine(installed=needed[1:], available=needed)
    assert res.rc == 1
    assert "needs root" in res.err and "ask an administrator" in res.err
    line = next(ln.strip() for ln in res.err.splitlines() if "apt-get install" in ln)
    assert line.startswith("apt-get update && apt-get install --no-install-recommends ")
    assert needed[0] in line.split()
    assert not res.called("apt-get") and not res.called("pip")  # nothing tried as the user


def test_a_user_without_sudo_carries_on_when_only_the_go_and_rust_toolchains_are_missing(machine):
    needed = every_first("debian-packages.txt")
    res = machine(installed=needed, available=needed + ["golang-go", "cargo", "cmake"])
    assert res.rc == 0, res.err
    line = next(ln.strip() for ln in res.err.splitlines() if "apt-get install" in ln)
    assert line.split()[-3:] == ["golang-go", "cargo", "cmake"]
    assert "carrying on without them" in res.out
    assert not res.called("apt-get")
    assert res.called("pip") and res.called("build-extra-cores.sh")  # the venv, then the cores


def test_root_installs_what_is_missing_with_apt_get(machine):
    needed = every_first("debian-packages.txt")
    res = machine(installed=needed[2:], available=needed + ["golang-go", "cargo", "cmake"], uid=0)
    assert res.rc == 0, res.err
    install = [c for c in res.called("apt-get") if " install " in f" {c} "]
    assert len(install) == 1
    assert install[0].split()[-5:] == [*needed[:2], "golang-go", "cargo", "cmake"]
    assert not res.called("sudo")


def test_a_user_with_sudo_installs_through_it(machine):
    needed = every_first("debian-packages.txt")
    res = machine(installed=needed[1:], available=needed + ["golang-go", "cargo", "cmake"],
                  sudo=True)
    assert res.rc == 0, res.err
    assert any(c.startswith("sudo apt-get install") for c in res.called("sudo"))


def test_debian_12_takes_go_and_its_source_from_backports_and_rust_from_cargo_web(machine):
    # Backports' golang-go needs the golang-src of the same suite: apt takes from a suite
    # only what is named with it, so both are named.
    needed = every_first("debian-packages.txt")
    policy = " 100 http://deb.debian.org/debian bookworm-backports/main amd64 Packages"
    res = machine(installed=needed, available=needed + ["golang-go", "cargo", "cargo-web", "cmake"],
                  uid=0, codename="bookworm", policy=policy)
    assert res.rc == 0, res.err
    install = [c for c in res.called("apt-get") if " install " in f" {c} "]
    assert install[0].split()[-4:] == ["golang-go/bookworm-backports",
                                       "golang-src/bookworm-backports", "cargo-web", "cmake"]


def test_debian_12_without_root_names_backports_in_the_administrators_line(machine):
    needed = every_first("debian-packages.txt")
    res = machine(installed=needed, codename="bookworm",
                  policy=" 500 http://mirror.example/debian bookworm/main amd64 Packages")
    assert res.rc == 0, res.err
    line = next(ln.strip() for ln in res.err.splitlines() if "apt-get install" in ln)
    assert line.startswith("echo 'deb http://mirror.example/debian bookworm-backports main' > "
                           "/etc/apt/sources.list.d/bookworm-backports.list && apt-get update")
    assert {"golang-go/bookworm-backports", "golang-src/bookworm-backports"} <= set(line.split())
    assert "cargo" not in line.split()


def test_no_extra_cores_leaves_their_toolchains_alone(machine):
    needed = every_first("debian-packages.txt")
    res = machine(installed=needed, extra_env={"CIPHERBENCH_NO_EXTRA_CORES": "1"})
    assert res.rc == 0 and not res.called("apt-get") and "apt-get install" not in res.err
    assert res.called("pip") and not res.called("build-extra-cores.sh")


def test_the_toolchain_list_names_go_rust_and_cmake():
    assert lines(ROOT / "scripts" / "debian-core-packages.txt") == ["golang-go", "cargo | cargo-web",
                                                                   "cmake"]
