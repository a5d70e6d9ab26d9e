# SPDX-License-Identifier: GPL-3.0-or-later
"""A private PostgreSQL cluster for the tests: Debian's initdb and pg_ctl, run as an
unprivileged user (``nobody`` when the tests run as root: initdb refuses root), listening
only on a Unix socket in a temporary directory, stopped and removed on every way out: by the
``with`` block, and by a watchdog should the tests' process be killed outright."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

SUPERUSER = "cipherbench"
#: waits for the tests' process to end, then stops the cluster and removes its directory
_WATCHDOG = ('parent=$1 top=$2; shift 2; while kill -0 "$parent" 2>/dev/null; do sleep 1; done; '
             '"$@" >/dev/null 2>&1; rm -rf "$top"')


def server_bin() -> Path | None:
    """The directory of initdb and pg_ctl: Debian's newest (not on PATH), else PATH's."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _as_owner() -> list[str]:
    """The prefix that runs a server program as the cluster's owner."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv"):
        return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    return ["runuser", "-u", "nobody", "--"]


@contextmanager
def cluster(bindir: Path) -> Iterator[str]:
    """A running cluster; yields the URL of its ``postgres`` database (trust, Unix socket)."""
    prefix = _as_owner()
    # as root, under /tmp: a $TMPDIR in root's home would be closed to nobody
    top = Path(tempfile.mkdtemp(prefix="cipherbench-pg-", dir="/tmp" if prefix else None))
    data, sock, log = top / "data", top / "run", top / "server.log"
    stop = [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
    started = False
    watchdog = subprocess.Popen(["bash", "-c", _WATCHDOG, "watchdog", str(os.getpid()),
                                 str(top), *stop], start_new_session=True,
                                stdin=subprocess.DEVNULL)
    try:
        sock.mkdir()
        if prefix:                       # the server's files belong to the user it runs as
            import pwd
            nobody = pwd.getpwnam("nobody")
            for p in (top, sock):
                os.chown(p, nobody.pw_uid, nobody.pw_gid)
        os.chmod(top, 0o700)
        subprocess.run([*prefix, str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER,
                        "--auth=trust", "--no-sync", "--no-instructions", "-E", "UTF8",
                        "--locale=C"], check=True, capture_output=True, timeout=120)
        options = (f"-c listen_addresses='' -c unix_socket_directories='{sock}' "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=30 -c shared_buffers=16MB")
        started = True
        subprocess.run([*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log),
                        "-o", options, "-w", "-t", "60", "start"],
                       check=True, capture_output=True, timeout=90)
        yield f"postgresql://{SUPERUSER}@/postgres?host={sock}"
    except subprocess.CalledProcessError as e:
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise RuntimeError(f"{e.cmd[len(prefix)]} failed: {e.stderr.decode(errors='replace')}"
                           f"{tail}") from None
    finally:
        if started:
            subprocess.run(stop, capture_output=True, timeout=60)
        shutil.rmtree(top, ignore_errors=True)
        watchdog.kill()
        watchdog.wait()
