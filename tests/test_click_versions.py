# SPDX-License-Identifier: GPL-3.0-or-later
"""The command line works with the click that Debian 12 ships (8.1.3), which lacks click 8.2's
``NoArgsIsHelpError``: a usage error is still one line and exit 2, not a traceback."""
from __future__ import annotations


import click

from conftest import in_process



def test_a_usage_error_is_one_line_with_click_8_1(monkeypatch):
    monkeypatch.delattr(click.exceptions, "NoArgsIsHelpError", raising=False)
    r = in_process(["run", "--no-such-option"], env={})
    assert r.rc == 2
    assert "--no-such-option" in r.err and r.err.count("\n") == 1
