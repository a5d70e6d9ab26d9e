#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Put the example outputs of ``scripts/readme-examples.sh`` into the README.

Each ``<!-- example NAME -->`` ... ``<!-- /example -->`` block becomes the output kept in
``docs/examples/NAME.txt`` (without progress lines, and without the long parts ``CUTS`` names:
the whole output is one link away), followed by the machine, the load and the time the command
took, as measured.

    scripts/readme_examples.py README.md docs/examples
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

#: Long parts left out of the README (the whole output is one link away): per example, the
#: line a cut starts at and the line the output resumes at (prefixes).
CUTS = {"run-quick": [("", "The answer at ")],
        "advise-ssh": [("candidates, fastest first", "config (")]}
#: Progress lines (stderr is not a terminal when the outputs are kept).
PROGRESS = re.compile(r"^\[\d+/\d+ \w+, ")
BLOCK = re.compile(r"(<!-- example (?P<name>[\w-]+) -->\n).*?(<!-- /example -->)", re.S)


def seconds(text: str) -> str:
    s = float(text)
    return f"{s:.1f} s" if s < 60 else f"{int(s // 60)} min {round(s % 60):02d} s"


def shortened(name: str, lines: list[str]) -> list[str]:
    """The output as the README shows it: without progress lines and the long parts (each
    cut says where the whole is); as it is when a cut's lines are not found."""
    progress = [ln for ln in lines if PROGRESS.match(ln)]
    if progress:
        at = lines.index(progress[0])
        lines = lines[:at] + [f"[... {len(progress)} progress lines ...]"] + \
            [ln for ln in lines[at:] if not PROGRESS.match(ln)]
    for start, resume in CUTS.get(name, []):
        try:
            a = next(i for i, ln in enumerate(lines) if i and ln.startswith(start))
            b = next(i for i, ln in enumerate(lines) if i > a and ln.startswith(resume))
        except StopIteration:
            continue
        lines = lines[:a] + [f"[... {b - a} lines, in docs/examples/{name}.txt ...]"] + lines[b:]
    return lines


def block(name: str, examples: Path) -> str:
    out = shortened(name, (examples / f"{name}.txt").read_text().rstrip("\n").splitlines())
    command, took, load0, load1, machine, day, rc = \
        (examples / f"{name}.meta").read_text().splitlines()[:7]
    status = "" if rc == "0" else f", exit status {rc}"
    return ("```\n" + "\n".join(out) + "\n```\n"
            f"<sub>`{command}` took {seconds(took)}{status} on {machine}, load average "
            f"{load0} before and {load1} after ({day}; `scripts/readme-examples.sh` reruns "
            "it).</sub>\n")


def main(readme: str, examples: str) -> int:
    path, ex = Path(readme), Path(examples)
    text = path.read_text()

    def fill(m: re.Match) -> str:
        name = m.group("name")
        if not (ex / f"{name}.txt").exists():
            return m.group(0)
        return m.group(1) + block(name, ex) + m.group(3)

    path.write_text(BLOCK.sub(fill, text))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
