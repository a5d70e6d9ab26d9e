# SPDX-License-Identifier: GPL-3.0-or-later
"""Markdown export: the machine, the headline table and the warnings, ready to paste."""
from __future__ import annotations

from cipherbench.display.format import (SUSPECT_LEGEND, format_results, format_run_header,
                                        format_size, format_table_rows)
from cipherbench.export.base import RunBundle


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A GitHub-flavoured Markdown table."""
    out = ["| " + " | ".join(_escape(h) for h in header) + " |",
           "| " + " | ".join("---" for _ in header) + " |"]
    out += ["| " + " | ".join(_escape(c) for c in r) + " |" for r in rows]
    return out


class MarkdownExporter:
    """``--format markdown``."""

    name = "markdown"
    extension = "md"

    def render(self, bundle: RunBundle, headline: int = 16384) -> str:
        """Title, machine facts, result table (if any), warnings."""
        run = bundle.run
        lines = [f"# cipherbench run {run.id}", ""]
        lines += [f"- **{k}**: {_escape(v)}" for k, v in format_run_header(run)]
        table = format_results(bundle.results, headline)
        if table is not None:
            lines += ["", f"## Throughput at {format_size(table.size)}", "",
                      "Cycles/byte from the slope over sizes >= 1 KiB; * marks the fastest "
                      "library.", ""]
            header, rows = format_table_rows(table)
            lines += md_table(header, rows)
            if table.has_suspect:
                lines += ["", _escape(SUSPECT_LEGEND)]
        if bundle.warnings:
            lines += ["", "## Warnings", ""]
            lines += [f"- {_escape(w.subject)}: {_escape(w.text)}" for w in bundle.warnings]
        return "\n".join(lines) + "\n"
