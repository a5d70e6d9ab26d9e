# SPDX-License-Identifier: GPL-3.0-or-later
"""A missing or unwritable TMPDIR: one clear line naming it, never a traceback (gpg, tls, ssh
and the shared helper they use)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from cipherbench.scenarios.gpg.home import private_gnupg_home
from cipherbench.scenarios.ssh.server import PrivateServer
from cipherbench.scenarios.tls import loopback as lb
from cipherbench.tempdirs import TempDirError, private_dir

REAL_CORE = Path(os.environ.get("CIPHERBENCH_CORE")
                 or Path(__file__).resolve().parents[1] / "build" / "core" / "cipherbench-core")


def _unwritable(tmp_path: Path) -> str:
    """A directory this process cannot create anything in (short: gpg checks the length)."""
    if os.geteuid() == 0:
        return "/sys"   # root passes permission bits; sysfs refuses new directories anyway
    d = Path(tempfile.mkdtemp(prefix="cbt-ro-", dir="/tmp"))
    d.chmod(0o555)
    return str(d)


def _bad_dirs(tmp_path: Path) -> list[str]:
    """Missing, unwritable, not a directory."""
    return ["/nonexistent-cbt-tmp", _unwritable(tmp_path), "/etc/hostname"]


def _one_line(text: str) -> bool:
    return len(text.strip().splitlines()) == 1


def test_private_dir_is_0700_and_under_tmpdir(tmp_path):
    d = private_dir("cbt-", {"TMPDIR": str(tmp_path)})
    assert d.parent == tmp_path and (d.stat().st_mode & 0o777) == 0o700


def test_private_dir_reports_an_unusable_tmpdir_in_one_line(tmp_path):
    for bad in _bad_dirs(tmp_path):
        with pytest.raises(TempDirError) as e:
            private_dir("cbt-", {"TMPDIR": bad})
        assert bad in str(e.value) and "TMPDIR" in str(e.value) and _one_line(str(e.value))
        assert e.value.exit_code == 1


def test_gpg_home_reports_an_unusable_tmpdir(tmp_path):
    for bad in _bad_dirs(tmp_path):
        with pytest.raises(TempDirError):
            with private_gnupg_home({**os.environ, "TMPDIR": bad}):
                pass


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_tls_loopback_reports_an_unusable_tmpdir(tmp_path):
    for bad in _bad_dirs(tmp_path):
        with pytest.raises(lb.LoopbackError) as e:
            with lb.Loopback(shutil.which("openssl"), 4096, {**os.environ, "TMPDIR": bad}):
                pass
        assert bad in str(e.value) and _one_line(str(e.value))


def test_ssh_server_reports_an_unusable_tmpdir(tmp_path):
    if not os.access("/usr/sbin/sshd", os.X_OK):
        pytest.skip("sshd is not installed")
    srv = PrivateServer(tmp_parent=str(tmp_path / "missing"))
    with pytest.raises(TempDirError):
        srv.start()
    assert srv.proc is None


@pytest.mark.skipif(shutil.which("gpg") is None, reason="gpg is not installed")
def test_gpg_cli_with_a_missing_tmpdir_is_one_line(cli, env, tmp_path):
    e = dict(env, TMPDIR=str(tmp_path / "missing"))
    if REAL_CORE.exists():
        e["CIPHERBENCH_CORE"] = str(REAL_CORE)
    out = cli("gpg", "--algo", "AES", "--size", "64K", "--budget", "0", env_override=e)
    assert out.rc == 1 and "Traceback" not in out.err
    assert _one_line(out.err) and "TMPDIR" in out.err


def test_temporary_dir_is_removed_and_reports_an_unusable_tmpdir(tmp_path):
    from cipherbench.tempdirs import temporary_dir
    with pytest.raises(RuntimeError):
        with temporary_dir("cbt-", {"TMPDIR": str(tmp_path)}) as d:
            (d / "f").write_text("x")
            raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []
    for bad in _bad_dirs(tmp_path):
        with pytest.raises(TempDirError):
            with temporary_dir("cbt-", {"TMPDIR": bad}):
                pass


def test_advise_validation_reports_an_unusable_tmpdir(tmp_path):
    from cipherbench.advise.validate import Validator
    if shutil.which("gpg") is None:
        pytest.skip("gpg is not installed")
    v = Validator({**os.environ, "TMPDIR": "/nonexistent-cbt-tmp"})
    with pytest.raises(TempDirError):
        v._gpg([])
