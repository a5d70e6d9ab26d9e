# SPDX-License-Identifier: GPL-3.0-or-later
"""scripts/man-page.py: cipherbench(1) says what the command's --help texts say, every command
and subcommand a section with its options, and troff reads it without a warning."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cipherbench.cli import build_cli

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "man-page.py"


def commands(group: click.Group, prefix=()) -> list[tuple[str, ...]]:
    out = []
    for name, cmd in sorted(group.commands.items()):  # as click's help lists them
        if cmd.hidden:
            continue
        out.append((*prefix, name))
        if isinstance(cmd, click.Group):
            out += commands(cmd, (*prefix, name))
    return out


@pytest.fixture(scope="module")
def page() -> str:
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    p = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_every_command_has_its_section_with_its_options(page):
    sections = [ln[4:].replace("\\-", "-") for ln in page.splitlines() if ln.startswith(".SS ")]
    assert sections == [" ".join(c) for c in commands(build_cli())]
    run = page.split(".SS run\n", 1)[1].split("\n.SS ", 1)[0]
    for opt in ("--quick", "--lib", "--algo"):
        assert opt.replace("-", "\\-") in run


def test_the_page_is_dated_by_source_date_epoch_and_names_the_version(page):
    from cipherbench import __version__
    assert page.startswith(f'.TH CIPHERBENCH 1 "2023-11-14" "cipherbench {__version__}"')


@pytest.mark.skipif(shutil.which("groff") is None, reason="needs groff (apt-get install groff)")
def test_troff_reads_it_without_a_warning(page, tmp_path):
    f = tmp_path / "cipherbench.1"
    f.write_text(page)
    p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(f)], capture_output=True,
                       text=True)
    assert p.returncode == 0 and p.stderr == ""


def test_a_failing_help_is_one_line_and_no_page(tmp_path):
    p = subprocess.run([sys.executable, str(SCRIPT), "--", "false"], capture_output=True,
                       text=True)
    assert p.returncode != 0 and p.stdout == ""
    assert p.stderr.startswith("man-page.py: `false --help` failed") and p.stderr.count("\n") == 1
