# SPDX-License-Identifier: GPL-3.0-or-later
"""The store: the commands that only show results work on a database they cannot write (a
read-only file system), and no command writes anything into a file that is not a cipherbench
database."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cipherbench.store import Store, StoreError
from cipherbench.store.identity import APPLICATION_ID

SMALL = ["--lib", "openssl,libgcrypt", "--algo", "aes-128-gcm,sha256", "--sizes", "16,1024",
         "--budget", "0"]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign(path: Path, app_id: int = 0) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('mine')")
    conn.execute("PRAGMA user_version = 7")
    if app_id:
        conn.execute(f"PRAGMA application_id = {app_id}")
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("app_id", [0, 0x12345678])
@pytest.mark.parametrize("args", [["history"], ["show", "last"], ["export", "last"],
                                  ["run", *SMALL]], ids=["history", "show", "export", "run"])
def test_another_programs_database_is_refused_and_left_untouched(cli, env, tmp_path, args,
                                                                 app_id):
    db = _foreign(tmp_path / "other.sqlite", app_id)
    before = _digest(db)
    out = cli(*args, "--db", str(db))
    assert out.rc == 1 and len(out.err.strip().splitlines()) == 1
    assert "another program's SQLite database" in out.err and "--db" in out.err
    assert _digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]   # no -wal, -shm
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 7
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["notes"]


def test_a_file_that_is_not_sqlite_is_refused_unchanged(cli, tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("my notes\n" * 200)
    out = cli("history", "--db", str(f))
    assert out.rc == 1 and "not a SQLite file" in out.err
    assert f.read_text() == "my notes\n" * 200


def test_new_databases_carry_the_application_id_and_old_ones_get_it(tmp_path):
    with Store.open(tmp_path / "new.sqlite") as s:
        assert s.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    old = tmp_path / "old.sqlite"          # as written before the id existed
    with Store.open(old) as s:
        s.begin_run("run")
        s.conn.execute("PRAGMA application_id = 0")
    with Store.open(old, readonly=True) as s:     # recognised by its tables, not changed
        assert s.conn.execute("PRAGMA application_id").fetchone()[0] == 0
        assert len(s.runs()) == 1
    with Store.open(old) as s:
        assert s.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


_OPENER = """
import sys, time
from cipherbench.store import Store
where, go = sys.argv[1], float(sys.argv[2])
while time.time() < go:
    pass
with Store.open(where):
    pass
"""


def test_processes_opening_a_new_database_at_once_all_take_it(tmp_path):
    """Six processes open one new file at the same moment: one creates the schema, and none
    of the others takes the half-seen result (tables without their version) for another
    program's database. Its three identity reads are one snapshot; before, about one open
    in fifteen was refused."""
    env = {"PYTHONPATH": ":".join([str(Path(__file__).resolve().parent.parent / "src"),
                                   *sys.path]), "PATH": "/usr/bin:/bin"}
    refused = []
    for i in range(8):
        where, go = tmp_path / f"{i}.sqlite", time.time() + 0.4
        openers = [subprocess.Popen([sys.executable, "-c", _OPENER, str(where), str(go)],
                                    env=env, stderr=subprocess.PIPE, text=True)
                   for _ in range(6)]
        refused += [err.strip().splitlines()[-1] for err in
                    (p.communicate(timeout=60)[1] for p in openers) if err.strip()]
        with Store.open(where, readonly=True) as s:
            assert s.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert refused == []


def test_readonly_open_never_writes(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store.open(db) as s:
        s.begin_run("run")
    with Store.open(db, readonly=True) as s:
        with pytest.raises(StoreError, match="cannot write"):
            s.begin_run("run")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match="empty"):
        Store.open(empty, readonly=True)
    assert empty.read_bytes() == b""


def _read_only_runner(directory: Path):
    """``run(args) -> CompletedProcess``: cipherbench in a subprocess that sees ``directory``
    read-only (a read-only bind mount for root, whom file modes do not stop; else modes)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "NO_COLOR": "1",
           "COLUMNS": "200"}
    cmd = [sys.executable, "-m", "cipherbench"]
    if os.geteuid() == 0:
        probe = subprocess.run(["unshare", "-m", "sh", "-c",
                                'mount --bind -o ro "$0" "$0" && ! touch "$0/probe"',
                                str(directory)], capture_output=True)
        if probe.returncode != 0:
            pytest.skip("cannot make a read-only mount here")
        cmd = ["unshare", "-m", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"',
               str(directory), *cmd]
    else:
        for p in directory.iterdir():
            p.chmod(0o444)
        directory.chmod(0o555)
    return lambda args: subprocess.run([*cmd, *args], capture_output=True, text=True,
                                       env=env, timeout=120)


def test_show_commands_work_on_a_read_only_file_system(cli, env, tmp_path):
    store_dir = tmp_path / "ro"
    store_dir.mkdir()
    db = store_dir / "results.sqlite"
    for _ in range(2):
        assert cli("run", *SMALL, "--db", str(db)).rc == 0
    before = _digest(db)
    run = _read_only_runner(store_dir)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for args in (["history"], ["show", "last"], ["export", "1", "-f", "csv"],
                 ["compare", "1", "2"], ["report", "-o", str(out_dir / "r.html")]):
        r = run([*args, "--db", str(db)])
        assert r.returncode == 0, (args, r.stderr)
        assert "Traceback" not in r.stderr
    assert (out_dir / "r.html").exists()
    # a measuring command says in one line that it cannot write there
    r = run(["run", *SMALL, "--db", str(db)])
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    store_dir.chmod(0o755)
    assert _digest(db) == before


def _special_files(tmp_path: Path) -> list[tuple[str, Path]]:
    """(its kind, a file that is not regular); the FIFO is tried as a process (below): where
    it is not refused, opening it never returns."""
    return [("a character device", Path("/dev/null")), ("a directory", tmp_path)]


@pytest.mark.parametrize("args", [["history"], ["run", *SMALL]], ids=["history", "run"])
def test_a_db_that_is_not_a_regular_file_is_refused_at_once(cli, tmp_path, args):
    """A FIFO would block SQLite's open, with the stop signals unanswered (60 s seen), and a
    device would be written: each is refused in one line before it is opened."""
    for kind, path in _special_files(tmp_path):
        t0 = time.monotonic()
        out = cli(*args, "--db", str(path))
        assert time.monotonic() - t0 < 20
        assert out.rc == 1 and len(out.err.strip().splitlines()) == 1, out.err
        assert f"it is {kind}, not a regular file" in out.err and "--db" in out.err


@pytest.mark.parametrize("command", [["history"], ["run", *SMALL]], ids=["history", "run"])
def test_a_fifo_db_is_refused_before_it_is_opened(tmp_path, command):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = subprocess.run([sys.executable, "-m", "cipherbench", *command, "--db", str(fifo)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "it is a FIFO, not a regular file" in out.stderr


def test_a_new_database_and_its_directory_are_private(cli, env, tmp_path):
    db = tmp_path / "new" / "deeper" / "results.sqlite"
    old = os.umask(0o022)
    try:
        assert cli("run", *SMALL, "--db", str(db)).rc == 0
    finally:
        os.umask(old)
    for path in [db, *db.parent.glob("results.sqlite-*")]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    for d in (db.parent, db.parent.parent):
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d


def test_the_default_database_is_private(cli, env, tmp_path):
    env = {k: v for k, v in env.items() if k != "CIPHERBENCH_DB"}
    out = cli("run", *SMALL, env_override=env)
    assert out.rc == 0, out.err
    db = Path(env["XDG_DATA_HOME"]) / "cipherbench" / "results.sqlite"
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700


def test_a_database_others_can_read_gets_a_warning(cli, env, tmp_path):
    db = Path(env["CIPHERBENCH_DB"])
    assert cli("run", *SMALL).rc == 0
    out = cli("history")
    assert out.rc == 0 and "warning" not in out.err
    db.chmod(0o644)
    for args in (["history"], ["run", *SMALL]):
        out = cli(*args)
        assert out.rc == 0, out.err
        warned = [ln for ln in out.err.splitlines() if "can be read by other users" in ln]
        assert len(warned) == 1 and "mode 0644" in warned[0] and "chmod 600" in warned[0]
    assert stat.S_IMODE(db.stat().st_mode) == 0o644   # told, not changed behind the user's back
