# SPDX-License-Identifier: GPL-3.0-or-later
"""`run --host` to a host of another architecture: the cross build of this checkout for it
(build-ARCH/ from scripts/build-cross.sh) is shipped, or one line says how to make one. The
host is a probe record; nothing is sent anywhere."""
from __future__ import annotations

import os
import platform
from pathlib import Path

import pytest

from cipherbench.remote import crossbuild, probe
from cipherbench.remote import host as host_module
from cipherbench.remote.errors import RemoteError
from cipherbench.remote.host import RemoteHost


def fake_build(checkout: Path, arch: str, modules=("openssl.so", "nettle.so")) -> Path:
    core = checkout / f"build-{arch}" / "core" / "cipherbench-core"
    (core.parent / "modules").mkdir(parents=True)
    core.write_bytes(b"\x7fELF core")
    for m in modules:
        (core.parent / "modules" / m).write_bytes(b"\x7fELF module")
    return core


@pytest.mark.parametrize("machine, arch", [
    ("aarch64", "arm64"), ("armv7l", "armhf"), ("armv6l", "armhf"), ("armhf", "armhf"),
    ("x86_64", "amd64"), ("riscv64", None), ("mips", None),
])
def test_uname_machine_to_debian_architecture(machine, arch):
    assert crossbuild.debian_arch(machine) == arch


def test_same_architecture_ships_this_machines_own_core(tmp_path):
    fake_build(tmp_path, "arm64")
    assert crossbuild.choose("nas", "x86_64", "x86_64", tmp_path) is None
    assert crossbuild.choose("pi", "aarch64", "arm64", tmp_path) is None


@pytest.mark.parametrize("machine, arch", [("aarch64", "arm64"), ("armv7l", "armhf")])
def test_another_architecture_gets_its_cross_build_and_modules(tmp_path, machine, arch):
    core = fake_build(tmp_path, arch)
    fake_build(tmp_path, "arm64" if arch == "armhf" else "armhf", modules=("wrong.so",))
    got = crossbuild.choose("pi", machine, "x86_64", tmp_path)
    assert got is not None
    assert (got.arch, got.core) == (arch, core)
    assert got.modules == {"modules/nettle.so": core.parent / "modules" / "nettle.so",
                           "modules/openssl.so": core.parent / "modules" / "openssl.so"}


def test_no_matching_build_says_how_to_make_one(tmp_path):
    fake_build(tmp_path, "armhf")
    with pytest.raises(RemoteError) as e:
        crossbuild.choose("pi", "aarch64", "x86_64", tmp_path)
    assert str(e.value) == ("host pi is aarch64; build a core for it with "
                            "scripts/build-cross.sh arm64 (or install cipherbench-core there)")


def test_an_architecture_build_cross_does_not_know(tmp_path):
    with pytest.raises(RemoteError) as e:
        crossbuild.choose("box", "mips", "x86_64", tmp_path)
    assert "mips" in str(e.value) and "install cipherbench-core there" in str(e.value)
    assert "\n" not in str(e.value)


def facts(arch: str, **kw) -> probe.HostFacts:
    return probe.HostFacts(system=platform.system(), arch=arch, directory="/tmp/cb-x",
                           tar=True, complete=True, **kw)


def remote(monkeypatch, checkout: Path, arch: str) -> tuple[RemoteHost, list, list]:
    """A RemoteHost whose probe said ``arch``, this checkout being ``checkout``; what it
    would send and the core it would check, recorded."""
    h = RemoteHost("me@pi", env={"PATH": os.environ.get("PATH", "")})
    h.facts = facts(arch)
    sent: list = []
    checked: list = []
    monkeypatch.setattr(host_module, "SOURCE_TREE", checkout)
    monkeypatch.setattr(RemoteHost, "_send", lambda self, files: sent.append(dict(files)))
    monkeypatch.setattr(RemoteHost, "_checked",
                        lambda self, path, extras, vectors, source:
                        checked.append((path, extras, vectors, source)) or "cores")
    return h, sent, checked


def test_run_host_ships_the_cross_build_to_an_aarch64_host(monkeypatch, tmp_path):
    if crossbuild.debian_arch(platform.machine()) == "arm64":
        pytest.skip("this machine is arm64 itself")
    core = fake_build(tmp_path, "arm64")
    h, sent, checked = remote(monkeypatch, tmp_path, "aarch64")
    assert h.cores() == "cores"
    # the C core and its modules only: no Go or Rust core built for this machine
    assert sent == [{"cipherbench-core": core,
                     "modules/nettle.so": core.parent / "modules" / "nettle.so",
                     "modules/openssl.so": core.parent / "modules" / "openssl.so"}]
    assert checked == [("/tmp/cb-x/cipherbench-core", {}, "/tmp/cb-x/vectors",
                        "shipped (arm64 cross build)")]


def test_run_host_without_a_matching_build_sends_nothing(monkeypatch, tmp_path):
    if crossbuild.debian_arch(platform.machine()) == "armhf":
        pytest.skip("this machine is armhf itself")
    h, sent, checked = remote(monkeypatch, tmp_path, "armv7l")
    with pytest.raises(RemoteError, match=r"host me@pi is armv7l; build a core for it with "
                                          r"scripts/build-cross.sh armhf"):
        h.cores()
    assert sent == [] and checked == []
