"""The store: the commands that only show results work on a database they cannot write (a
read-only file system), and no command writes anything into a file that is not a cipherbench
database."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
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
