#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The cipherbench(1) man page, made from the command's own --help text: the top-level help,
then every command's (and every subcommand's, for a group such as ``core``), so the page
says what the program says and nothing else. click has no man page generator, and help2man
reads only one --help.

    scripts/man-page.py [--date YYYY-MM-DD] [COMMAND...] > cipherbench.1
    scripts/man-page.py --core PATH > cipherbench-core.1    (its --help and tls --help)

COMMAND is how to start cipherbench (default: this interpreter with ``-m cipherbench``, with
src/ of this checkout first on the path). The date defaults to $SOURCE_DATE_EPOCH's, for a
reproducible page, else today's.
"""
from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: click wraps help to this width; the man page re-flows the paragraphs itself.
WIDTH = "80"


@dataclass
class Entry:
    """One line of a help's "Options:" or "Commands:" list: the term and what it does."""

    term: str
    text: str


@dataclass
class Help:
    """One --help text, split into click's parts."""

    usage: str
    paragraphs: list[str] = field(default_factory=list)
    sections: dict[str, list[Entry]] = field(default_factory=dict)


def run_help(cmd: list[str], words: list[str]) -> str:
    env = dict(os.environ, COLUMNS=WIDTH, NO_COLOR="1", TERM="dumb")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "src"), env.get("PYTHONPATH")) if p)
    out = subprocess.run([*cmd, *words, "--help"], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"man-page.py: `{' '.join([*cmd, *words, '--help'])}` failed: "
                 f"{(out.stderr.strip().splitlines() or ['no message'])[-1]}")
    return out.stdout


def parse(text: str) -> Help:
    """click's help: "Usage: ..." (maybe over lines), paragraphs, then titled lists."""
    lines = text.rstrip("\n").splitlines()
    usage = []
    i = 0
    while i < len(lines) and lines[i].strip():
        usage.append(lines[i].strip())
        i += 1
    h = Help(usage=re.sub(r"^Usage:\s*", "", " ".join(usage)))
    section: list[Entry] | None = None
    para: list[str] = []
    for line in lines[i:]:
        title = re.fullmatch(r"([A-Z][A-Za-z ]*):", line)
        if title:
            section = h.sections.setdefault(title.group(1), [])
            continue
        if section is None:  # the description, in paragraphs
            if line.strip():
                para.append(line.strip())
            elif para:
                h.paragraphs.append(" ".join(para))
                para = []
            continue
        if not line.strip():
            continue
        entry = re.fullmatch(r"  (\S.*?)(?:\s{2,}(\S.*))?", line)
        if entry and (not section or not line.startswith(" " * 4)):
            section.append(Entry(entry.group(1), entry.group(2) or ""))
        elif section:
            # click breaks a long word after its hyphen ("tls-" / "client"): join it back
            prev, more = section[-1].text, line.strip()
            glue = "" if re.search(r"[a-z]-$", prev) and more[:1].isalpha() else " "
            section[-1].text = (prev + glue + more).strip()
    if para:
        h.paragraphs.append(" ".join(para))
    return h


def esc(s: str) -> str:
    """Text for troff: backslashes and hyphens escaped, no line read as a request."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + s if s[:1] in (".", "'") else s


def body(h: Help) -> list[str]:
    out = []
    for p in h.paragraphs:
        out += [".PP", esc(p)]
    for title, entries in h.sections.items():
        if title == "Commands":
            continue
        out += [".PP", f"\\fB{esc(title)}:\\fR"]
        for e in entries:
            out += [".TP", f"\\fB{esc(e.term)}\\fR", esc(e.text)]
    return out


def page(cmd: list[str], date: str) -> str:
    top = parse(run_help(cmd, []))
    version = subprocess.run([*cmd, "--version"], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=str(ROOT / "src"))).stdout.split()
    out = [f'.TH CIPHERBENCH 1 "{date}" "cipherbench {version[-1] if version else ""}" "User Commands"',
           ".SH NAME",
           "cipherbench \\- which cipher, in which crypto library, is fastest on this machine, "
           "and is it secure",
           ".SH SYNOPSIS", f"\\fBcipherbench\\fR {esc(top.usage.split(' ', 1)[1])}",
           ".SH DESCRIPTION", *body(top), ".SH COMMANDS"]
    todo = [[e.term] for e in top.sections.get("Commands", [])]
    while todo:
        words = todo.pop(0)
        h = parse(run_help(cmd, words))
        out += [".SS " + esc(" ".join(words)), f"\\fBcipherbench {esc(' '.join(words))}\\fR "
                + esc(h.usage.split(" ", 1 + len(words))[-1]), *body(h)]
        todo[:0] = [[*words, e.term] for e in h.sections.get("Commands", [])]
    out += [".SH FILES", "The results database and the library variants file are in the "
            "user's data and configuration directories (\\fBcipherbench history\\fR and "
            "\\fBcipherbench core\\fR say where).",
            ".SH SEE ALSO", "\\fBopenssl\\fR(1), \\fBssh\\fR(1), \\fBgpg\\fR(1)"]
    return "\n".join(out) + "\n"


def core_page(core: str, date: str) -> str:
    """cipherbench-core(1): its usage texts as they are (they are laid out as a synopsis)."""
    def usage(*words: str) -> list[str]:
        out = subprocess.run([core, *words, "--help"], capture_output=True, text=True)
        text = (out.stdout or out.stderr).rstrip("\n")
        if not text.startswith("usage:"):
            sys.exit(f"man-page.py: `{core} {' '.join(words)} --help` printed no usage")
        return [".nf", *(esc(ln) for ln in text.splitlines()), ".fi"]
    return "\n".join([
        f'.TH CIPHERBENCH-CORE 1 "{date}" "cipherbench" "User Commands"',
        ".SH NAME", "cipherbench-core \\- measure crypto library primitives, as JSON lines",
        ".SH SYNOPSIS", *usage(),
        ".SH DESCRIPTION",
        "The measurement core of \\fBcipherbench\\fR(1): for each crypto library it links it "
        "checks known-answer vectors, then times many short samples of each algorithm and "
        "writes the raw figures, one JSON object a line, on standard output. "
        "\\fBcipherbench\\fR starts it; the lines are described in the project's "
        "docs/protocol.md.",
        ".SS tls", *usage("tls"),
        ".SH ENVIRONMENT", ".TP", "\\fBCIPHERBENCH_VECTORS\\fR",
        "the known-answer vectors directory (\\fB\\-\\-vectors\\fR comes first)",
        ".SH SEE ALSO", "\\fBcipherbench\\fR(1)"]) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--date", help="the page's date (YYYY-MM-DD)")
    ap.add_argument("--core", metavar="PATH", help="the page of this cipherbench-core instead")
    ap.add_argument("command", nargs="*", help="how to start cipherbench")
    a = ap.parse_args()
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    date = a.date or (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc)
                      if epoch else datetime.datetime.now(datetime.timezone.utc)).strftime("%Y-%m-%d")
    if a.core:
        sys.stdout.write(core_page(a.core, date))
    else:
        sys.stdout.write(page(a.command or [sys.executable, "-m", "cipherbench"], date))


if __name__ == "__main__":
    main()
