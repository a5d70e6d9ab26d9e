# SPDX-License-Identifier: GPL-3.0-or-later
"""The command line works with the click that Debian 12 ships (8.1.3), which lacks click 8.2's
``NoArgsIsHelpError``: a usage error is still one line and exit 2, not a traceback."""
from __future__ import annotations

import io

import click

from cipherbench.cli import main


def test_a_usage_error_is_one_line_with_click_8_1(monkeypatch):
    monkeypatch.delattr(click.exceptions, "NoArgsIsHelpError", raising=False)
    err = io.StringIO()
    rc = main(["run", "--no-such-option"], env={}, stdout=io.StringIO(), stderr=err)
    assert rc == 2
    assert "--no-such-option" in err.getvalue() and err.getvalue().count("\n") == 1
