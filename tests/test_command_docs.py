# SPDX-License-Identifier: GPL-3.0-or-later
"""docs/commands/: one page per command whose first part is its ``--help`` (so the pages
cannot drift from the options), and click's shell completion, which docs/completion.md
documents."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gen-command-docs.py"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_command_docs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_command_has_a_page_that_matches_its_help():
    gen = _generator()
    group = gen.build_cli()
    for name in group.commands:
        path = gen.DOCS / f"{name}.md"
        assert path.exists(), f"no page for `cipherbench {name}`: run {SCRIPT.name}"
        text = path.read_text()
        assert text.startswith(gen.generated(group, name)), \
            f"{path.name} drifted from `cipherbench {name} --help`: run {SCRIPT.name}"
        manual = text[len(gen.generated(group, name)):]
        assert "to be written" not in manual and len(manual.split()) > 30, \
            f"{path.name}: its hand-written manual is missing"


def test_the_check_fails_on_a_page_that_drifted(tmp_path, monkeypatch):
    gen = _generator()
    group = gen.build_cli()
    page = gen.page(group, "show", None)
    assert gen.page(group, "show", page) == page              # stable, manual kept
    drifted = page.replace("--headline-size", "--headline")
    assert gen.page(group, "show", drifted) != drifted
    monkeypatch.setattr(gen, "DOCS", tmp_path)
    (tmp_path / "show.md").write_text(drifted)
    monkeypatch.setattr(gen, "ROOT", tmp_path.parent)
    assert gen.main(["--check"]) == 1


def _complete(words: str, cword: int) -> str:
    env = dict(os.environ, COMP_WORDS=words, COMP_CWORD=str(cword),
               _CIPHERBENCH_COMPLETE="bash_complete",
               PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "cipherbench"], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_shell_completion_completes_commands_options_and_choices():
    assert "plain,run" in _complete("cipherbench ru", 1).splitlines()
    assert "plain,--lib" in _complete("cipherbench run --l", 2).splitlines()
    assert "plain,ssh" in _complete("cipherbench advise --for s", 3).splitlines()
    for shell in ("bash", "zsh", "fish"):
        env = dict(os.environ, _CIPHERBENCH_COMPLETE=f"{shell}_source",
                   PYTHONPATH=str(ROOT / "src"))
        src = subprocess.run([sys.executable, "-m", "cipherbench"], env=env,
                             capture_output=True, text=True, timeout=60)
        assert src.returncode == 0 and "_CIPHERBENCH_COMPLETE" in src.stdout, shell
    doc = (ROOT / "docs" / "completion.md").read_text()
    for line in ("_CIPHERBENCH_COMPLETE=bash_source", "_CIPHERBENCH_COMPLETE=zsh_source",
                 "_CIPHERBENCH_COMPLETE=fish_source"):
        assert line in doc
